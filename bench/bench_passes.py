#!/usr/bin/env python3
"""Benchmark of the training passes (issue 29): convtune's tuned input
gradient (dgrad) and weight gradient (wgrad) against PyTorch's own backward.

For each pass problem (conv1dc/conv2dc with :dgrad or :wgrad): tune it with
convtune, export the winner, load the exported .cu with CuPy's RawModule (or,
for a winner of several launches, build it with nvcc and call its C launcher
through ctypes) and time it in this process on the same random inputs as
torch.ops.aten.convolution_backward (output_mask [True, False, False] for
dgrad, [False, True, bias] for wgrad), both sides replayed from CUDA graphs
(benchlib.graph_ms). fp32 problems are timed twice on the PyTorch side: TF32
off (the accuracy convtune verifies) and on (PyTorch's default). Every output
is checked against the same PyTorch call in float64 (relative L2 error).
Also shown: convtune's naive template (the pass's baseline, as convtune
timed it while tuning), PyTorch's forward pass of the layer, and for causal
layers the time of a device-to-device copy moving the bytes the pass must
read and write. Writes a Markdown table and a JSON file of the raw numbers,
both again after every problem, so a run cut short keeps what it measured.

usage: bench_passes.py --convtune BIN --db DB --out FILE.md [--json FILE.json] [--workdir DIR]
                       [--budget N] [--time S] [--max-wall S] [--dense] [PROBLEM[@BUDGET] ...]
       bench_passes.py --list [--convtune BIN] [--dense] [PROBLEM ...]   the plan, no GPU
       bench_passes.py --selfcheck [--convtune BIN]                       the layout mapping, no GPU

A PROBLEM without a pass token stands for both passes of that layer. The
plan and the self-check need neither a GPU nor PyTorch; with PyTorch (CPU is
enough) the self-check also runs the PyTorch side of tiny layers against a
brute-force sum of the passes' definitions (tuner/families/tc/conv_pass.h).
"""
import argparse
import ast
import datetime
import json
import math
import os
import re
import sqlite3
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PASSES = ("dgrad", "wgrad")
DTYPE_WORDS = ("f32", "bf16", "f16")
ELEM_SIZE = {"f32": 4, "bf16": 2, "f16": 2}
# Issue 29's workload limit: at most 600 candidates or 3 minutes a problem.
MAX_BUDGET, MAX_TIME = 600, 180

# Issue 29's target layers; each stands for its two passes.
DEFAULT_LAYERS = [
    "conv2dc:64:256:16:16:256:31:31:same:groups=256",            # RepLKNet
    "conv2dc:64:256:16:16:256:17:17:same:groups=256",
    "conv2dc:8:96:56:56:96:7:7:same:groups=96",                  # ConvNeXt, NCHW fp32
    "conv2dc:32:96:56:56:96:7:7:same:groups=96:nhwc:bf16",
    "conv1dc:8:2048:4096:2048:4:causal:groups=2048:bf16",        # Mamba, NCL
    "conv1dc:8:2048:4096:2048:4:causal:groups=2048:nlc:bf16",
    "conv2dc:32:128:56:56:128:3:3:same:groups=32",               # ResNeXt
    "conv2dc:10000:1:28:28:12:7:7:valid",                        # seed 003
    "conv2dc:10000:12:22:22:12:3:3:valid",
    "conv1dc:1:1024:4:1024:5:pad=2:bias",                        # seed 002
]


def _families_list(name):
    """A problem list of bench_families.py, read without importing it (which
    needs PyTorch and CuPy), so that the plan runs anywhere; that file keeps
    the one copy."""
    tree = ast.parse(open(os.path.join(HERE, "bench_families.py")).read())
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise KeyError(name)


def dense_layers():
    """The dense layers issue 29 reports without a target: the eight fp32
    layers of bench_families.py and its four bf16 conv2dc layers."""
    return _families_list("LAYER_PROBLEMS") + [p for p in _families_list("HALF_PROBLEMS")
                                               if p.startswith("conv2dc:") and p.endswith(":bf16")]


def pass_of(spec):
    """The pass token of a problem string, or None."""
    words = [t for t in spec.split(":") if t in ("fwd",) + PASSES]
    return words[-1] if words else None


def with_pass(layer, pas):
    """layer's problem string with the pass token: after every other field,
    before the element type (the grammar's order)."""
    f = layer.split(":")
    at = len(f) - 1 if f[-1] in DTYPE_WORDS else len(f)
    return ":".join(f[:at] + [pas] + f[at:])


def expand(items):
    """(spec, budget or None) for each pass of each item, PROBLEM[@BUDGET]."""
    out = []
    for item in items:
        spec, _, own = item.partition("@")
        p = pass_of(spec)
        if p == "fwd":
            raise ValueError(f"{spec}: a forward problem (bench_families.py times those)")
        for s in [spec] if p else [with_pass(spec, q) for q in PASSES]:
            out.append((s, int(own) if own else None))
    return out


def _size(s):
    """A size field, which convtune also takes as 1e6."""
    return int(float(s)) if "e" in s.lower() else int(s)


def _pads(mode, k, dil, pad):
    """Zeros (before, after) the input along one dimension, as convtune
    reads its modes: same as PyTorch's padding='same' (the odd one after),
    causal all before."""
    span = dil * (k - 1)
    if mode == "same":
        return (span // 2, span - span // 2)
    if mode == "causal":
        return (span, 0)
    return (pad, pad) if mode == "pad" else (0, 0)


def parse_layer(spec):
    """A conv1dc/conv2dc problem string as a 2D layer (a conv1dc layer has
    H = KH = OH = 1, its length as W), the way the templates'
    FAMILY_as2d.cuh name it: sizes, (before, after) padding pairs, strides,
    dilations, groups, bias, channels_last, pass and element type."""
    f = spec.split(":")
    fam = f[0]
    if fam == "conv1dc" and len(f) >= 6:
        b, cin, w, cout, kw = (_size(v) for v in f[1:6])
        h, kh, opts = 1, 1, f[6:]
    elif fam == "conv2dc" and len(f) >= 8:
        b, cin, h, w, cout, kh, kw = (_size(v) for v in f[1:8])
        opts = f[8:]
    else:
        raise ValueError(f"{spec}: the passes are conv1dc:B:Cin:L:Cout:K or conv2dc:B:Cin:H:W:Cout:KH:KW problems")
    is1d = fam == "conv1dc"
    L = {"spec": spec, "family": fam, "is1d": is1d, "B": b, "Cin": cin, "H": h, "W": w, "Cout": cout, "KH": kh,
         "KW": kw, "mode": "valid", "stride": (1, 1), "dilation": (1, 1), "groups": 1, "bias": False, "cl": False,
         "pass": "fwd", "dtype": "f32"}
    pad = (0, 0)
    for t in opts:
        key, eq, val = t.partition("=")
        if not eq:
            if t in ("valid", "same", "causal"):
                L["mode"] = t
            elif t == "bias":
                L["bias"] = True
            elif t in ("nlc", "nhwc", "ncl", "nchw"):
                L["cl"] = t in ("nlc", "nhwc")
            elif t in ("fwd",) + PASSES:
                L["pass"] = t
            elif t in DTYPE_WORDS:
                L["dtype"] = t
            else:
                raise ValueError(f"{spec}: unknown field '{t}'")
        elif key == "groups":
            L["groups"] = int(val)
        elif key in ("pad", "stride", "dilation"):
            v = tuple(int(x) for x in val.split(","))
            v = (0 if key == "pad" else 1, v[0]) if is1d else (v * 2 if len(v) == 1 else v)
            if key == "pad":
                pad, L["mode"] = v, "pad"
            else:
                L[key] = v
        else:
            raise ValueError(f"{spec}: unknown field '{t}'")
    if L["pass"] == "dgrad":
        L["bias"] = False   # as convtune: a bias changes no input gradient
    L["ph"] = (0, 0) if is1d else _pads(L["mode"], kh, L["dilation"][0], pad[0])
    L["pw"] = _pads(L["mode"], kw, L["dilation"][1], pad[1])
    L["OH"] = (h + sum(L["ph"]) - L["dilation"][0] * (kh - 1) - 1) // L["stride"][0] + 1
    L["OW"] = (w + sum(L["pw"]) - L["dilation"][1] * (kw - 1) - 1) // L["stride"][1] + 1
    if cin % L["groups"] or cout % L["groups"] or L["OH"] < 1 or L["OW"] < 1:
        raise ValueError(f"{spec}: not a layer (groups, or no output)")
    return L


def counts(L):
    """Elements of the forward layer's x, weights and y."""
    x = L["B"] * L["Cin"] * L["H"] * L["W"]
    w = L["Cout"] * (L["Cin"] // L["groups"]) * L["KH"] * L["KW"]
    return x, w, L["B"] * L["Cout"] * L["OH"] * L["OW"]


def pass_flops(L):
    """convtune's FLOP count of the layer (either pass costs the forward's
    multiply-adds; taps on the padding count)."""
    return 2 * counts(L)[2] * (L["Cin"] // L["groups"]) * L["KH"] * L["KW"]


def pass_bytes(L):
    """Bytes the pass must read and write once (ct_pass_bytes): x, weights
    and dy, and the bias gradient of a wgrad with bias."""
    x, w, y = counts(L)
    return ELEM_SIZE[L["dtype"]] * (x + w + y + (L["Cout"] if L["pass"] == "wgrad" and L["bias"] else 0))


def act_layout(L, c, h, w):
    """An activation of c channels and h x w pixels: its shape in the
    problem's memory layout (what convtune's kernel reads or writes:
    NCHW/NHWC, NCL/NLC) and the permutation that views it as PyTorch's
    logical (B, C, H, W) / (B, C, L). The view of an NHWC buffer is a
    torch.channels_last tensor, that of an NLC buffer the (B, L, C) tensor
    transposed."""
    b = L["B"]
    if L["is1d"]:
        return ((b, w, c), (0, 2, 1)) if L["cl"] else ((b, c, w), (0, 1, 2))
    return ((b, h, w, c), (0, 3, 1, 2)) if L["cl"] else ((b, c, h, w), (0, 1, 2, 3))


def inverse(perm):
    """The permutation that undoes perm."""
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


def contiguous_strides(shape):
    s, acc = [], 1
    for n in reversed(shape):
        s.append(acc)
        acc *= n
    return tuple(reversed(s))


def view_of(shape, perm):
    """Shape and element strides of a contiguous buffer of shape viewed
    through permute(perm)."""
    st = contiguous_strides(shape)
    return tuple(shape[p] for p in perm), tuple(st[p] for p in perm)


def weight_shape(L):
    """OIHW (OIL for conv1dc): convtune's weight layout in every problem."""
    ws = (L["Cout"], L["Cin"] // L["groups"], L["KH"], L["KW"])
    return (ws[0], ws[1], ws[3]) if L["is1d"] else ws


def plan(L):
    """The buffers of the pass in convtune's argument order, the output
    last: (name, shape in the problem's layout, permutation to PyTorch's
    view, elements; the weight gradient's count includes the bias's)."""
    x, w, y = counts(L)
    xs, xp = act_layout(L, L["Cin"], L["H"], L["W"])
    ys, yp = act_layout(L, L["Cout"], L["OH"], L["OW"])
    ws = weight_shape(L)
    wid = tuple(range(len(ws)))
    if L["pass"] == "dgrad":
        return [("dout", ys, yp, y), ("weight", ws, wid, w), ("din", xs, xp, x)]
    if L["pass"] == "wgrad":
        return [("in", xs, xp, x), ("dout", ys, yp, y), ("dweight", ws, wid, w + (L["Cout"] if L["bias"] else 0))]
    raise ValueError(f"{L['spec']}: not a pass problem (dgrad or wgrad)")


def conv_args(L):
    """PyTorch's stride, padding and dilation lists of the layer, and the
    (before, after) zeros to add to the input by hand where the padding is
    not the same on both sides (causal; same with an even span), which
    convolution_backward cannot express: there PyTorch is called on the
    input padded once (as F.pad before the convolution: autograd keeps that
    padded input for the backward) with padding 0, and its input gradient is
    the interior of the padded one's."""
    sym = L["ph"][0] == L["ph"][1] and L["pw"][0] == L["pw"][1]
    pad = [L["ph"][0], L["pw"][0]] if sym else [0, 0]
    extra = ((0, 0), (0, 0)) if sym else (L["ph"], L["pw"])
    sl = slice(1, 2) if L["is1d"] else slice(0, 2)
    return list(L["stride"][sl]), pad[sl], list(L["dilation"][sl]), extra


# ---------------------------------------------------------------- PyTorch side

def build(L, torch, device, gen):
    """Random inputs of the pass in [-1, 1), rounded once to the problem's
    type, shared by both sides: the convtune buffers in the problem's
    layout (inputs in argument order, the output's element count), PyTorch's
    views of the same memory, the backward call (its dtype argument: the
    same call on the inputs converted to it, for the float64 reference) and
    to_ct, which lays PyTorch's result out as convtune's output buffer. The
    forward call of the layer is there for context."""
    dt = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[L["dtype"]]

    def rnd(shape):
        return (torch.rand(shape, generator=gen, device=device) * 2 - 1).to(dt)

    x, w, y = counts(L)
    xs, xp = act_layout(L, L["Cin"], L["H"], L["W"])
    ys, yp = act_layout(L, L["Cout"], L["OH"], L["OW"])
    x_ct, dy_ct, wt = rnd(xs), rnd(ys), rnd(weight_shape(L))
    bias = rnd((L["Cout"],)) if L["bias"] else None
    xv, dyv = x_ct.permute(xp), dy_ct.permute(yp)
    # A channels-last model keeps its weights channels-last too (as
    # Module.to(memory_format=torch.channels_last) leaves them); convtune's
    # are OIHW in every layout, the same values.
    wv = wt.contiguous(memory_format=torch.channels_last) if L["cl"] and not L["is1d"] else wt
    stride, padding, dilation, extra = conv_args(L)
    (h0, h1), (w0, w1) = extra
    interior = (slice(None), slice(None)) + ((slice(w0, w0 + L["W"]),) if L["is1d"] else
                                             (slice(h0, h0 + L["H"]), slice(w0, w0 + L["W"])))
    if extra != ((0, 0), (0, 0)):
        # The padded input in the same memory layout.
        ps, _ = act_layout(L, L["Cin"], L["H"] + h0 + h1, L["W"] + w0 + w1)
        xin = torch.zeros(ps, dtype=dt, device=device).permute(xp)
        xin[interior] = xv
    else:
        xin = xv
    dgrad = L["pass"] == "dgrad"
    mask = [True, False, False] if dgrad else [False, True, L["bias"]]
    bias_sizes = [L["Cout"]] if L["bias"] else None
    nd = 1 if L["is1d"] else 2

    def backward(dtype=None):
        c = (lambda t: t) if dtype is None else (lambda t: t.to(dtype))
        return torch.ops.aten.convolution_backward(c(dyv), c(xin), c(wv), bias_sizes, stride, padding, dilation,
                                                   False, [0] * nd, L["groups"], mask)

    def to_ct(res):
        if dgrad:
            return res[0][interior].permute(inverse(xp)).contiguous().flatten()
        dw = res[1].contiguous().flatten()
        return torch.cat([dw, res[2].flatten()]) if L["bias"] else dw

    conv = torch.nn.functional.conv1d if L["is1d"] else torch.nn.functional.conv2d

    def forward():
        return conv(xin, wv, bias, stride, padding, dilation, L["groups"])

    inputs = [dy_ct, wt] if dgrad else [x_ct, dy_ct]
    return {"inputs": inputs, "nout": x if dgrad else w + (L["Cout"] if L["bias"] else 0), "dtype": dt,
            "backward": backward, "to_ct": to_ct, "forward": forward, "views": (xv, dyv, wv, xin)}


def logical_lists(flat, shape, perm, is1d):
    """PyTorch's logical view of a flat buffer laid out as shape (the
    problem's layout), as nested lists [b][c][y][x] read through the view's
    strides; a conv1dc buffer as one of height 1 ([b][c][0][x], weights
    [o][i][0][k])."""
    ls, st = view_of(shape, perm)
    if is1d:
        ls, st = (ls[0], ls[1], 1, ls[2]), (st[0], st[1], 0, st[2])
    return [[[[flat[b * st[0] + c * st[1] + y * st[2] + x * st[3]] for x in range(ls[3])] for y in range(ls[2])]
             for c in range(ls[1])] for b in range(ls[0])]


def brute_pass(L, X, DY, W):
    """The pass by its definition (conv_pass.h), in Python over nested
    lists [b][c][y][x] of x and dy and [o][i][kh][kw] of the weights (a
    conv1dc layer as one of height 1): dx in convtune's output layout
    (flattened), or dW then db. For tiny layers only."""
    b_, cin, cout, g = L["B"], L["Cin"], L["Cout"], L["groups"]
    cg, og = cin // g, cout // g
    sh, sw = L["stride"]
    dh, dw = L["dilation"]
    ph, pw = L["ph"][0], L["pw"][0]
    H, Wd, KH, KW, OH, OW = L["H"], L["W"], L["KH"], L["KW"], L["OH"], L["OW"]
    dx = [[[[0.0] * Wd for _ in range(H)] for _ in range(cin)] for _ in range(b_)]
    dW = [[[[0.0] * KW for _ in range(KH)] for _ in range(cg)] for _ in range(cout)]
    db = [0.0] * cout
    for b in range(b_):
        for co in range(cout):
            for y in range(OH):
                for xo in range(OW):
                    gv = DY[b][co][y][xo]
                    db[co] += gv
                    for c in range(cg):
                        ci = co // og * cg + c
                        for i in range(KH):
                            for j in range(KW):
                                yy, xx = y * sh + i * dh - ph, xo * sw + j * dw - pw
                                if 0 <= yy < H and 0 <= xx < Wd:
                                    dx[b][ci][yy][xx] += gv * W[co][c][i][j]
                                    dW[co][c][i][j] += gv * X[b][ci][yy][xx]
    if L["pass"] == "dgrad":
        flat = []
        for b in range(b_):
            if L["cl"]:
                flat += [dx[b][c][y][x] for y in range(H) for x in range(Wd) for c in range(cin)]
            else:
                flat += [dx[b][c][y][x] for c in range(cin) for y in range(H) for x in range(Wd)]
        return flat
    return [v for co in dW for c in co for r in c for v in r] + (db if L["bias"] else [])


# ---------------------------------------------------------------- self-check and plan

# Tiny layers of every padding form, stride, dilation, groups, bias and both
# layouts, for the self-check's brute-force comparison.
SELFCHECK_LAYERS = [
    "conv1dc:2:4:9:6:4:causal:groups=2:nlc:dgrad", "conv1dc:2:4:9:6:4:causal:groups=2:nlc:wgrad",
    "conv1dc:2:4:9:6:3:pad=1:stride=2:dilation=2:bias:wgrad", "conv1dc:2:4:9:4:4:causal:groups=4:dgrad:bf16",
    "conv2dc:2:4:7:6:6:4:4:same:nhwc:dgrad", "conv2dc:2:4:7:6:6:4:4:same:bias:wgrad",
    "conv2dc:2:4:7:6:6:3:2:pad=1,0:stride=2,3:groups=2:bias:nhwc:wgrad",
    "conv2dc:2:4:7:6:6:3:2:pad=1,0:stride=2,3:groups=2:nhwc:dgrad",
    "conv2dc:2:6:8:7:6:3:3:same:dilation=2:groups=6:wgrad", "conv2dc:2:6:8:7:6:3:3:same:dilation=2:groups=6:dgrad",
]


def space_line(convtune, spec):
    """convtune's canonical string, GFLOP and MB of spec from `convtune
    space` (which needs no GPU), or raises with its message."""
    r = subprocess.run([convtune, "space", "--problem", spec], capture_output=True, text=True)
    m = re.match(r"problem (\S+) on \S+: (\S+) GFLOP, (\S+) MB moved at least", r.stdout)
    if r.returncode != 0 or not m:
        raise ValueError(f"{spec}: convtune space failed ({r.returncode}): {(r.stderr or r.stdout).strip()[:300]}")
    adm = sum(int(n) for n in re.findall(r"admissible (\d+)", r.stdout))
    return m.group(1), float(m.group(2)), float(m.group(3)), adm


def check_layout(L, fail):
    """The plan's buffers against convtune's (conv_pass.h): counts, and the
    element index of every logical element through PyTorch's strided view
    equal to the index convtune's reference computes (x: plane + pixel*ip,
    dy: b*Cout*OH*OW + co*oc + pixel*op); a channels-last 2D view has
    torch.channels_last's strides."""
    bufs = plan(L)
    x, w, y = counts(L)
    want = {"dout": y, "weight": w, "din": x, "in": x, "dweight": w + (L["Cout"] if L["bias"] else 0)}
    for name, shape, perm, n in bufs:
        if n != want[name]:
            fail(f"{L['spec']}: {name} has {n} elements, convtune's {want[name]}")
        if name in ("dweight", "weight"):
            if math.prod(shape) != w:
                fail(f"{L['spec']}: weight shape {shape}")
            continue
        lshape, lstride = view_of(shape, perm)
        if len(lshape) != (3 if L["is1d"] else 4):
            fail(f"{L['spec']}: {name} view {lshape}")
        c, oh, ow = (L["Cin"], L["H"], L["W"]) if name in ("in", "din") else (L["Cout"], L["OH"], L["OW"])
        want_shape = (L["B"], c, ow) if L["is1d"] else (L["B"], c, oh, ow)
        if lshape != want_shape:
            fail(f"{L['spec']}: {name} view shape {lshape}, want {want_shape}")
        if L["cl"] and not L["is1d"] and lstride != (oh * ow * c, 1, ow * c, c):
            fail(f"{L['spec']}: {name} strides {lstride} are not channels_last's")
        st = lstride if not L["is1d"] else (lstride[0], lstride[1], 0, lstride[2])
        chan, pix = (1, c) if L["cl"] else (oh * ow, 1)
        # Every element of small buffers; the corners of large ones.
        pts = lambda n: range(n) if n <= 8 else (0, 1, n - 2, n - 1)
        for b in pts(L["B"]):
            for ch in pts(c):
                for yy in pts(oh):
                    for xx in pts(ow):
                        got = b * st[0] + ch * st[1] + yy * st[2] + xx * st[3]
                        ref = b * c * oh * ow + ch * chan + (yy * ow + xx) * pix
                        if got != ref:
                            fail(f"{L['spec']}: {name}[{b},{ch},{yy},{xx}] at {got}, convtune's {ref}")
                            return


def selfcheck(a):
    """The layout mapping without a GPU: every problem of the default and
    dense lists and the tiny layers parses into a plan whose buffers and
    strides are convtune's; with --convtune, convtune's own parse agrees
    (canonical, GFLOP, MB); with PyTorch importable, its backward through
    this mapping on the tiny layers equals the brute-force sums."""
    bad, n, nbad = [], [0], [0]

    def fail(msg):
        bad.append(msg)
        print("FAIL", msg, flush=True)

    def done(before):
        """One check more, failed when it added a failure."""
        n[0] += 1
        nbad[0] += len(bad) > before

    specs = [s for s, _ in expand(DEFAULT_LAYERS + dense_layers())] + SELFCHECK_LAYERS
    for spec in specs:
        before = len(bad)
        try:
            L = parse_layer(spec)
            check_layout(L, fail)
            if a.convtune:
                canon, gflop, mb, _ = space_line(a.convtune, spec)
                L2 = parse_layer(canon)
                if counts(L2) != counts(L) or L2["pass"] != L["pass"] or L2["bias"] != L["bias"]:
                    fail(f"{spec}: canonical {canon} reads as another layer")
                if abs(pass_flops(L) / 1e9 - gflop) > 6e-4 * gflop:
                    fail(f"{spec}: {pass_flops(L) / 1e9:.6g} GFLOP here, convtune {gflop}")
                if abs(pass_bytes(L) / 1e6 - mb) > 6e-4 * mb:
                    fail(f"{spec}: {pass_bytes(L) / 1e6:.6g} MB here, convtune {mb}")
        except Exception as ex:
            fail(f"{spec}: {ex!r}")
        done(before)
    try:
        import torch
    except ImportError:
        torch = None
        print("selfcheck: PyTorch is not installed here: the PyTorch side is checked on the GPU machine")
    if torch is not None:
        gen = torch.Generator().manual_seed(7)
        for spec in SELFCHECK_LAYERS + [s for s, _ in expand(DEFAULT_LAYERS + dense_layers())]:
            before = len(bad)
            L = parse_layer(spec)
            tiny = spec in SELFCHECK_LAYERS
            try:
                if tiny:
                    T = build(L, torch, "cpu", gen)
                    to4 = lambda t: (t.unsqueeze(2) if L["is1d"] else t).double().tolist()
                    xv, dyv, wv, _ = T["views"]
                    got = T["to_ct"](T["backward"](torch.float64))
                    ref = torch.tensor(brute_pass(L, to4(xv), to4(dyv), to4(wv)), dtype=torch.float64)
                    err = (torch.linalg.vector_norm(got - ref) / torch.linalg.vector_norm(ref)).item()
                    if not err < 1e-12 or got.numel() != T["nout"]:
                        fail(f"{spec}: PyTorch through this mapping differs from the definition: {err:.3g}")
                # The views' shapes and strides of every problem (meta
                # tensors: no memory), against the plan.
                for name, shape, perm, _ in plan(L):
                    t = torch.empty(shape, device="meta").permute(perm)
                    if (tuple(t.shape), tuple(t.stride())) != view_of(shape, perm):
                        fail(f"{spec}: {name} view {tuple(t.shape)} {t.stride()}")
                    if L["cl"] and not L["is1d"] and name not in ("weight", "dweight") and \
                            not t.is_contiguous(memory_format=torch.channels_last):
                        fail(f"{spec}: {name} is not channels_last")
            except Exception as ex:
                fail(f"{spec}: {ex!r}")
            done(before)
    print(f"selfcheck: {n[0] - nbad[0]} passed, {nbad[0]} failed")
    return 1 if bad else 0


def show_plan(a, items):
    """What a run would do, without a GPU: each problem's pass string,
    budget, convtune's canonical form and space (with --convtune) and the
    buffers PyTorch and convtune share."""
    bad = 0
    print(f"plan: {len(items)} problem-passes, convtune --budget {a.budget} --time {a.time} per problem"
          + (f", stop starting problems after {a.max_wall} s" if a.max_wall else ""))
    for spec, own in items:
        try:
            L = parse_layer(spec)
            line = f"{spec}  budget {min(own or a.budget, MAX_BUDGET)}"
            if a.convtune:
                canon, gflop, mb, adm = space_line(a.convtune, spec)
                line += f"  -> {canon}: {gflop} GFLOP, {mb} MB, {adm} admissible candidates"
            print(line)
            for name, shape, perm, nel in plan(L):
                vs, st = view_of(shape, perm)
                print(f"    {name:8s} buffer {shape} ({nel} elements) as PyTorch {vs} strides {st}")
            stride, padding, dilation, extra = conv_args(L)
            print(f"    PyTorch: stride {stride} padding {padding} dilation {dilation} groups {L['groups']}"
                  + (f", input padded by hand {extra}" if extra != ((0, 0), (0, 0)) else "")
                  + (", copy floor timed" if L["mode"] == "causal" else ""))
        except Exception as ex:
            bad += 1
            print(f"{spec}: FAILED {ex}")
    return 1 if bad else 0


# ---------------------------------------------------------------- the GPU run

def _meta(torch):
    """Device, driver, library versions and date of the run."""
    try:
        drv = subprocess.run(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"],
                             capture_output=True, text=True).stdout.split("\n")[0].strip()
    except OSError:
        drv = ""
    return {"device": torch.cuda.get_device_name(), "capability": ".".join(map(str, torch.cuda.get_device_capability())),
            "driver": drv or "?", "torch": torch.__version__, "cuda": torch.version.cuda,
            "cudnn": torch.backends.cudnn.version(), "date": datetime.datetime.now(datetime.timezone.utc).strftime(
                "%Y-%m-%d %H:%M UTC")}


def measure(a, spec, summary, gen, lib, state):
    """Export the tuned winner of spec, time it as a user calls it against
    PyTorch's backward in the same process and gather what the table
    reports; state["stage"] says how far it got, for a failure's row."""
    torch, benchlib = lib
    res = {"spec": spec, "problem": summary.get("problem", spec)}
    state["stage"] = "export"
    win = json.loads(benchlib.run_convtune(a.convtune, ["query", "--problem", spec, "--db", a.db,
                                                        "--format", "json"]))[0]
    canonical = res["problem"] = win["problem"]
    cu = os.path.join(a.workdir, canonical.replace(":", "_").replace("=", "").replace(",", "-") + ".cu")
    benchlib.run_convtune(a.convtune, ["export", "--problem", spec, "--db", a.db, "-o", cu, "--force"])
    state["stage"] = "measurement"
    L = parse_layer(canonical)
    res.update(family=L["family"], dtype=L["dtype"], template=win["template"], params=win["params"],
               ct_tuned_ms=win["median_us"] / 1e3, flops=pass_flops(L), bytes=pass_bytes(L))
    res["pass"] = L["pass"]
    T = build(L, torch, "cuda", gen)

    def gtime(fn):
        """Graph time, or the eager time (marked) where fn cannot be captured."""
        t = benchlib.graph_ms(fn)
        return (t, "graph") if t is not None else (benchlib.median_ms(fn), "eager")

    # The float64 reference: the same PyTorch call on the same rounded
    # inputs (benchmark mode off: no fp64 algorithm search).
    torch.backends.cudnn.benchmark = False
    ref = T["to_ct"](T["backward"](torch.float64))
    torch.backends.cudnn.benchmark = True
    res["torch_ms"], res["torch_timing"] = gtime(T["backward"])
    res["torch_err"] = benchlib.relerr(T["to_ct"](T["backward"]()), ref)
    res["fwd_ms"], _ = gtime(T["forward"])
    res["tf32_ms"] = res["tf32_err"] = None
    if L["dtype"] == "f32":
        torch.backends.cudnn.allow_tf32 = True
        try:
            res["tf32_ms"], _ = gtime(T["backward"])
            res["tf32_err"] = benchlib.relerr(T["to_ct"](T["backward"]()), ref)
        finally:
            torch.backends.cudnn.allow_tf32 = False
    res["copy_ms"] = None
    if L["mode"] == "causal":
        # The floor of a memory-bound pass: a device-to-device copy moving
        # as many bytes (reading half, writing half) as the pass must read
        # and write once.
        n = pass_bytes(L) // 2
        src, dst = torch.empty(n, dtype=torch.uint8, device="cuda"), torch.empty(n, dtype=torch.uint8, device="cuda")
        res["copy_ms"], _ = gtime(lambda: dst.copy_(src))
        del src, dst

    out_t = torch.full((T["nout"],), float("nan"), dtype=T["dtype"], device="cuda")
    ins = [benchlib.as_cupy(t) for t in T["inputs"]]
    symbols = [None, "c_weight"] if L["pass"] == "dgrad" and L["family"] == "conv2dc" else []
    launch = benchlib.exported_launcher(cu, canonical, ins, benchlib.as_cupy(out_t), symbols)
    launch()
    torch.cuda.synchronize()
    res["ct_err"] = benchlib.relerr(out_t, ref)
    res["ct_ms"], res["ct_timing"] = gtime(launch)
    # A second check after the timed calls: a kernel that accumulates into
    # its output (atomics without a reset) would drift.
    res["ct_err_after"] = benchlib.relerr(out_t, ref)

    con = sqlite3.connect(a.db)
    naive = con.execute(
        "SELECT min(c.median_us) FROM candidates c JOIN problems p ON p.id = c.problem_id "
        "WHERE p.canonical = ? AND c.template = ? AND c.status = 'ok'",
        (canonical, f"{L['family']}_{'dg' if L['pass'] == 'dgrad' else 'wg'}naive")).fetchone()[0]
    tried, verified = con.execute(
        "SELECT count(*), sum(c.status = 'ok') FROM candidates c JOIN problems p ON p.id = c.problem_id "
        "WHERE p.canonical = ?", (canonical,)).fetchone()
    dev = con.execute("SELECT fma_tflops, bandwidth_gbs FROM devices ORDER BY id DESC LIMIT 1").fetchone()
    con.close()
    naive = naive or summary.get("baseline_us") or None
    res["naive_ms"] = naive / 1e3 if naive else None
    res["tried"], res["verified"] = tried, verified or 0
    res["fma_tflops"], res["bw_gbs"] = dev if dev else (None, None)
    res["tune_wall_s"] = summary.get("time", {}).get("wall_s")
    res["candidates"] = summary.get("candidates")
    return res


# Issue 29's targets, each (what, measure (higher is better), bar), by the
# pass string expand() makes of the layer.
_speedup = lambda r: r["torch_ms"] / r["ct_ms"]
_copy = lambda r: r["copy_ms"] / r["ct_ms"]
TARGETS = {}
for _layer, _dg, _wg in [(DEFAULT_LAYERS[0], 5, 10), (DEFAULT_LAYERS[1], 5, 10)] + \
        [(lay, 2, 2) for lay in DEFAULT_LAYERS[2:4] + DEFAULT_LAYERS[6:]]:
    for _p, _bar in (("dgrad", _dg), ("wgrad", _wg)):
        TARGETS[with_pass(_layer, _p)] = (f"x PyTorch (>= {_bar})", _speedup, _bar)
for _layer in DEFAULT_LAYERS[4:6]:
    for _p in PASSES:
        TARGETS[with_pass(_layer, _p)] = ("copy time / convtune time (within 1.5x of the copy: >= 0.67)", _copy,
                                          1 / 1.5)


def write_report(rows, meta, a, path, json_path):
    """The Markdown table (and the targets) into path and the raw numbers
    into json_path; written again after every problem. Returns the lines."""
    us = lambda v: "n/a" if v is None else f"{v * 1e3:.1f}"
    e = lambda v: "n/a" if v is None else f"{v:.1e}"
    x = lambda num, den: "n/a" if num is None or not den else f"{num / den:.2f}x"
    lines = [
        f"Training passes (issue 29): {meta.get('device', '?')} (sm_{meta.get('capability', '?')}), driver "
        f"{meta.get('driver', '?')}, PyTorch {meta.get('torch', '?')} (CUDA {meta.get('cuda', '?')}, cuDNN "
        f"{meta.get('cudnn', '?')}), {meta.get('date', '?')}.",
        f"Tuning: convtune --budget {a.budget} --time {a.time} per problem (PROBLEM@N: N candidates), a short "
        "budget for one device call: the winners are what that budget finds, not the best of the space.",
        "",
        "Times in us a call, both sides replayed from CUDA graphs (bench/benchlib.py graph_ms; 'eager' where a call",
        "could not be captured) on the same random inputs, rounded once to the problem's type. convtune = its",
        "exported winner loaded through CuPy (RawModule; nvcc and ctypes for a winner of several launches), called",
        "as its C launcher calls it (dgrad weights copied to __constant__ memory each call where the winner reads",
        "them there). PyTorch = torch.ops.aten.convolution_backward in the problem's type (cuDNN benchmark mode,",
        "TF32 off; output_mask [True, False, False] for dgrad, [False, True, bias] for wgrad) on NCHW/NCL",
        "contiguous tensors, torch.channels_last ones for :nhwc and a (B, L, C) tensor transposed for :nlc; a",
        "padding that differs before and after (causal) is applied once to the input beforehand (as F.pad",
        "before the forward), not timed. TF32 = the same fp32 call with torch.backends.cudnn.allow_tf32 = True",
        "(PyTorch's default). ratio = PyTorch time / convtune time. naive = convtune's baseline template",
        "(FAMILY_dgnaive / FAMILY_wgnaive) as convtune timed it while tuning. fwd = PyTorch's forward pass of the",
        "layer (context). copy floor = a device-to-device copy moving as many bytes as the pass must read and",
        "write once. relerr = ||out - ref|| / ||ref|| against the same PyTorch call in float64 (fp32 must be",
        "<= 1e-5). candidates = verified / tried in the database for the problem.",
        "",
        "| problem | pass | convtune us | PyTorch us | ratio | PyTorch TF32 us | ratio | naive us | copy floor us "
        "| fwd us | relerr convtune | relerr PyTorch | relerr TF32 | TFLOP/s | GB/s | winning template "
        "| candidates |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        if "failed" in r:
            lines.append(f"| `{r['problem']}` | {pass_of(r['spec']) or '?'} | {r['failed'][:160].replace('|', '/')} "
                         "| | | | | | | | | | | | | | |")
            continue
        ms = r["ct_ms"]
        mark = lambda key: "" if r[key] == "graph" else " (eager)"
        lines.append(
            f"| `{r['problem']}` | {r['pass']} | **{us(ms)}**{mark('ct_timing')} | {us(r['torch_ms'])}"
            f"{mark('torch_timing')} | {x(r['torch_ms'], ms)} | "
            f"{us(r['tf32_ms'])} | {x(r['tf32_ms'], ms)} | {us(r['naive_ms'])} | {us(r['copy_ms'])} | "
            f"{us(r['fwd_ms'])} | {e(r['ct_err'])} | {e(r['torch_err'])} | {e(r['tf32_err'])} | "
            f"{r['flops'] / (ms * 1e-3) / 1e12:.2f} | {r['bytes'] / (ms * 1e-3) / 1e9:.0f} | {r['template']} | "
            f"{r['verified']}/{r['tried']} |")
    ok = [r for r in rows if "failed" not in r]
    checks = [r for r in ok if r["spec"] in TARGETS]
    if checks:
        lines += ["", "Targets (issue 29; speedups against PyTorch with TF32 off, the TF32 ratio beside):", "",
                  "| problem | target | measured | met |", "| --- | --- | --- | --- |"]
        for r in checks:
            what, value, need = TARGETS[r["spec"]]
            try:
                v = value(r)
            except TypeError:
                v = None
            shown = "n/a" if v is None else f"{v:.2f}"
            if v is not None and value is _speedup and r["tf32_ms"]:
                shown += f" (TF32: {r['tf32_ms'] / r['ct_ms']:.2f})"
            lines.append(f"| `{r['problem']}` | {what} | {shown} | {'yes' if v is not None and v >= need else '**no**'} |")
    if ok:
        lines += ["", "Winners:"]
        lines += [f"- `{r['problem']}`: {r['template']} `{json.dumps(r['params'], separators=(',', ':'))}`"
                  for r in ok]
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    if json_path:
        tmp = json_path + ".tmp"
        with open(tmp, "w") as fh:
            json.dump({"meta": meta, "budget": a.budget, "time": a.time, "rows": rows}, fh, indent=1)
        os.replace(tmp, json_path)
    return lines


def run(a, items):
    """Tune, export and time every problem; one that fails is a row saying
    where, and the run goes on."""
    import torch
    import benchlib
    from bench_families import TOLERANCE
    os.makedirs(a.workdir, exist_ok=True)
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(2026)
    meta = _meta(torch)
    json_path = a.json or os.path.splitext(a.out)[0] + ".json"
    rows, start = [], time.monotonic()
    for spec, own in items:
        if a.max_wall and time.monotonic() - start > a.max_wall:
            rows.append({"spec": spec, "problem": spec, "failed": f"not run: past --max-wall {a.max_wall} s"})
            continue
        budget = min(own or a.budget, MAX_BUDGET)
        try:
            out = benchlib.run_convtune(a.convtune, ["--problem", spec, "--db", a.db, "--json"]
                                        + (["--budget", str(budget)] if budget else [])
                                        + (["--time", str(a.time)] if a.time else []))
            print(out, flush=True)
            summary = json.loads(out)
        except Exception as ex:
            print(f"{spec}: {ex}", file=sys.stderr, flush=True)
            rows.append({"spec": spec, "problem": spec, "failed": f"tuning failed: {ex}"})
            write_report(rows, meta, a, a.out, json_path)
            continue
        state = {"stage": "export"}
        try:
            res = measure(a, spec, summary, gen, (torch, benchlib), state)
        except Exception as ex:  # one problem failing leaves the others measured
            print(f"{spec}: {ex!r}", file=sys.stderr, flush=True)
            rows.append({"spec": spec, "problem": summary.get("problem", spec),
                         "failed": f"{state['stage']} failed: {ex!r}"})
        else:
            rows.append(res)
            print(json.dumps(res), flush=True)
        torch.cuda.empty_cache()
        write_report(rows, meta, a, a.out, json_path)
    lines = write_report(rows, meta, a, a.out, json_path)
    print("\n".join(lines))
    bad = [r["problem"] for r in rows if "failed" in r or not (r["ct_err"] <= TOLERANCE[r["dtype"]]
                                                                and r["ct_err_after"] <= TOLERANCE[r["dtype"]])]
    if bad:
        print("FAILED:", bad, file=sys.stderr)
        return 1
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--convtune", help="the convtune binary (needed for a run; for --list/--selfcheck optional)")
    ap.add_argument("--db")
    ap.add_argument("--out", help="the Markdown table")
    ap.add_argument("--json", help="the raw numbers (default: --out with .json)")
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--budget", type=int, default=300, help="convtune --budget per problem (at most 600)")
    ap.add_argument("--time", type=int, default=15,
                    help="convtune --time per problem in seconds (at most 180; 0: none), so a run fits one "
                         "device call")
    ap.add_argument("--max-wall", type=int, default=0,
                    help="start no problem after this many seconds (0: no limit); the rest are reported as not run")
    ap.add_argument("--dense", action="store_true",
                    help="the dense layers (bench_families.py's eight fp32 layers and four bf16 ones) instead of "
                         "the targets")
    ap.add_argument("--list", "--dry-run", dest="list", action="store_true",
                    help="print the plan (with --convtune: convtune's parse of each problem) and exit")
    ap.add_argument("--selfcheck", action="store_true", help="check the layout mapping (no GPU) and exit")
    ap.add_argument("problems", nargs="*", help="PROBLEM[@BUDGET]; without a pass token: both passes")
    a = ap.parse_args()
    if a.time > MAX_TIME:
        print(f"--time {a.time} is past issue 29's {MAX_TIME} s a problem: using {MAX_TIME}", file=sys.stderr)
        a.time = MAX_TIME
    if a.budget > MAX_BUDGET:
        print(f"--budget {a.budget} is past issue 29's {MAX_BUDGET} candidates: using {MAX_BUDGET}", file=sys.stderr)
        a.budget = MAX_BUDGET
    if a.selfcheck:
        return selfcheck(a)
    try:
        items = expand(a.problems or (dense_layers() if a.dense else DEFAULT_LAYERS))
    except ValueError as ex:
        ap.error(str(ex))
    if a.list:
        return show_plan(a, items)
    if not (a.convtune and a.db and a.out):
        ap.error("a run needs --convtune, --db and --out")
    return run(a, items)


if __name__ == "__main__":
    sys.exit(main())
