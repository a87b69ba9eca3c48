#!/usr/bin/env python3
"""Side-by-side benchmark of the multi-channel and 2D families (conv1dc, conv2d,
conv2dc) against PyTorch (cuDNN) and convtune's naive template.

For each problem: tune it with convtune, export the winner, load the exported
.cu with CuPy's RawModule (or, for a winner of several launches, build it with
nvcc and call its C launcher through ctypes) and time it in this process on
the same inputs as PyTorch's F.conv1d / F.conv2d, timed twice: cuDNN in fp32
(benchmark mode, TF32 off) and cuDNN with TF32 on (PyTorch's default for
convolutions). Every output is checked against the same PyTorch operation in
float64 on the GPU. The naive template is timed by convtune in the same run.
Writes a Markdown table.

usage: bench_families.py --convtune BIN --db DB --out FILE.md [--workdir DIR] [--budget N] [--time S]
                          [--layers] [--compile] [--gemm] [PROBLEM[@BUDGET] ...]

--compile adds torch.compile(mode="max-autotune-no-cudagraphs") of the same
call (compile time, graph time, relative error); --gemm the dense GEMM rate
of the problem's type (8192^3 through cuBLAS) and convtune's share of it.

A problem written PROBLEM@N is tuned with a budget of N candidates instead of --budget.
"""
import argparse
import datetime
import json
import math
import os
import re
import sqlite3
import sys

import cupy
import torch
import torch.nn.functional as F

from benchlib import (as_cupy, graph_ms, load_exported, load_exported_lib, median_ms, needs_host_code, relerr,
                      run_convtune)

# The seed layers of conv2dc have the largest spaces (about 1200 and 2600
# admissible candidates): they get a larger share of them.
DEFAULT_PROBLEMS = [
    "conv1dc:1:1024:4:1024:5:pad=2:bias", "conv1dc:8:64:1000:128:3:pad=1", "conv1dc:16:512:64:256:5:pad=2:bias",
    "conv2d:16:2048:2048:11:11:same", "conv2d:1:1000:1000:3:3", "conv2d:4:513:257:5:7:same",
    "conv2dc:10000:1:28:28:12:7:7@600", "conv2dc:10000:12:22:22:12:3:3@800", "conv2dc:64:3:224:224:16:3:3:same:bias",
]
# Ordinary CNN and audio layers, where cuDNN is strong (the layers issue).
LAYER_PROBLEMS = [
    "conv2dc:32:64:56:56:64:3:3:same", "conv2dc:16:128:28:28:128:3:3:same:bias", "conv2dc:8:256:14:14:256:3:3:same",
    "conv2dc:32:32:64:64:32:5:5:same", "conv2dc:16:3:224:224:64:7:7:same", "conv1dc:8:128:8192:128:3:pad=1",
    "conv1dc:4:512:2048:512:7:pad=3:bias", "conv1dc:16:512:64:256:5:pad=2:bias",
]
# Issue 15: the layers vendor paths neglect (depthwise, grouped, strided,
# dilated, causal).
GROUPED_PROBLEMS = [
    "conv1dc:8:1024:4096:1024:4:causal:groups=1024:nlc",
    "conv2dc:64:256:32:32:256:7:7:same:groups=256", "conv2dc:64:256:32:32:256:13:13:same:groups=256",
    "conv2dc:64:256:32:32:256:31:31:same:groups=256",
    "conv2dc:32:64:112:112:128:3:3:pad=1:stride=2", "conv2dc:32:3:224:224:64:7:7:pad=3:stride=2:bias",
    "conv1dc:8:64:16384:64:3:pad=8:dilation=8", "conv2dc:32:128:28:28:128:3:3:same:groups=32",
]


# convtune's element types: the torch type and the relative L2 bound its
# tuner verifies with (docs/PROBLEMS.md, "Half precision").
# tf32 problems take float32 tensors; their operands are rounded to TF32.
DTYPES = {"f32": torch.float32, "tf32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}
TOLERANCE = {"f32": 1e-5, "tf32": 2.0 ** -10, "bf16": 2 * 2.0 ** -8, "f16": 2 * 2.0 ** -11}   # twice the unit roundoff
# Issue 16: the same layers in half precision, against PyTorch in the same type.
HALF_PROBLEMS = [
    "conv2dc:32:64:56:56:64:3:3:same:bf16", "conv2dc:16:128:28:28:128:3:3:same:bias:bf16",
    "conv2dc:32:64:56:56:64:3:3:same:nhwc:bf16", "conv2dc:16:128:28:28:128:3:3:same:bias:nhwc:bf16",
    "conv1dc:1:1024:4:1024:5:pad=2:bias:bf16", "conv1d:1e6:2047:f16", "conv2d:16:2048:2048:11:11:same:f16",
]


def layer_options(fields):
    """The optional fields of a conv1dc/conv2dc canonical string as a dict:
    'mode' (valid, same, pad, causal), 'pad', 'stride', 'dilation' as
    pairs, 'groups', 'bias'."""
    o = {"mode": "valid", "pad": (0, 0), "stride": (1, 1), "dilation": (1, 1), "groups": 1, "bias": False,
         "channels_last": False, "dtype": "f32"}
    for t in fields:
        key, _, val = t.partition("=")
        if key in ("valid", "same", "causal"):
            o["mode"] = key
        elif key == "bias":
            o["bias"] = True
        elif key in ("nlc", "nhwc"):
            o["channels_last"] = True
        elif key in DTYPES:
            o["dtype"] = key
        elif not val:
            continue  # another mode word (conv1d's right)
        elif key == "groups":
            o["groups"] = int(val)
        else:
            v = tuple(int(x) for x in val.split(","))
            o[key] = v if len(v) == 2 else v * 2
            if key == "pad":
                o["mode"] = "pad"
    return o


def problem_tensors(canonical, gen):
    """The problem's inputs in convtune's buffer order, memory layout and
    element type (with the symbol names of their __constant__ copies), the
    PyTorch call as a user of that layout and type would make it (op(): its
    own output; op(torch.float64): the fp64 reference of the same rounded
    inputs), and to_ct(out), which lays a PyTorch output out as convtune's
    output buffer."""
    f = canonical.split(":")
    o = layer_options(f[3:] if f[0] == "conv1d" else f[6:] if f[0] in ("conv1dc", "conv2d") else f[8:])
    dt = DTYPES[o["dtype"]]
    # Random in [-1, 1), rounded once to the problem's type: PyTorch and the
    # fp64 reference read the same values convtune reads.
    rnd = lambda *shape: (torch.rand(*shape, device="cuda", generator=gen) * 2 - 1).to(dt)
    cast = lambda t, d: None if t is None else (t if d is None else t.to(d))
    to_ct = lambda out: out.flatten()
    if f[0] == "conv1d":
        n, k = map(int, f[1:3])
        mode = f[3] if len(f) > 3 else "valid"
        x, mask = rnd(n), rnd(k)
        # right: zeros past the end (seed 001's convention), same: PyTorch's.
        pads = {"valid": (0, 0), "same": ((k - 1) // 2, k - 1 - (k - 1) // 2), "right": (0, k - 1)}[mode]
        op = lambda d=None: F.conv1d(F.pad(cast(x, d)[None, None], pads), cast(mask, d)[None, None])
        bufs = [(x, None), (mask, "c_mask")]
    elif f[0] == "conv1dc":
        b, cin, l, cout, k = map(int, f[1:6])
        bias, g, st, dl = o["bias"], o["groups"], o["stride"][0], o["dilation"][0]
        w = rnd(cout, cin // g, k)
        bv = rnd(cout) if bias else None
        if o["channels_last"]:
            # convtune reads [B][L][C]; PyTorch's Conv1d takes [B][C][L], so
            # its best case is that tensor already transposed in memory.
            x_ct = rnd(b, l, cin)
            x = x_ct.permute(0, 2, 1).contiguous()
            to_ct = lambda out: out.permute(0, 2, 1).flatten()
        else:
            x = x_ct = rnd(b, cin, l)
        # causal: (k-1)*dilation zeros before the sequence, none after.
        lpad = (k - 1) * dl if o["mode"] == "causal" else 0
        op = lambda d=None: F.conv1d(F.pad(cast(x, d), (lpad, 0)), cast(w, d), cast(bv, d), stride=st,
                                     padding=o["pad"][0], dilation=dl, groups=g)
        bufs = [(x_ct, None), (w, "c_weight")] + ([(bv, "c_bias")] if bias else [])
    elif f[0] == "conv2d":
        b, h, wd, kh, kw = map(int, f[1:6])
        x, filt = rnd(b, h, wd), rnd(kh, kw)
        # PyTorch's 'same' puts (k-1)//2 zeros before and the rest after,
        # as convtune does, also for even filter sizes.
        padarg = "same" if o["mode"] == "same" else 0
        op = lambda d=None: F.conv2d(cast(x, d)[:, None], cast(filt, d)[None, None], padding=padarg)
        bufs = [(x, None), (filt, "c_filter")]
    elif f[0] == "conv2dc":
        b, cin, h, wd, cout, kh, kw = map(int, f[1:8])
        bias, g = o["bias"], o["groups"]
        x, w = rnd(b, cin, h, wd), rnd(cout, cin // g, kh, kw)
        bv = rnd(cout) if bias else None
        x_ct = x
        if o["channels_last"]:
            # PyTorch's channels_last memory format is convtune's NHWC; the
            # weights stay OIHW for convtune, PyTorch gets them channels-last too.
            x = x.contiguous(memory_format=torch.channels_last)
            w = w.contiguous(memory_format=torch.channels_last)
            x_ct = x.permute(0, 2, 3, 1).contiguous()
            to_ct = lambda out: out.permute(0, 2, 3, 1).flatten()
        padarg = "same" if o["mode"] == "same" else o["pad"]
        op = lambda d=None: F.conv2d(cast(x, d), cast(w, d), cast(bv, d), stride=o["stride"], padding=padarg,
                                     dilation=o["dilation"], groups=g)
        bufs = [(x_ct, None), (w.contiguous(), "c_weight")] + ([(bv, "c_bias")] if bias else [])
    else:
        raise ValueError(f"not a family of this benchmark: {canonical}")
    return bufs, op, to_ct, o["dtype"]


def roofline_pct(r):
    """How close to the binding ceiling: the larger of the FMA and the memory
    floor, over the measured time, in percent."""
    # Half problems against the measured half tensor-core rate, tf32 ones
    # against half of it (TF32 tensor cores run at half the 16-bit rate),
    # fp32 ones against the FMA rate.
    peak = r["fma"] if r["dtype"] == "f32" or not r.get("tc_half") else \
        r["tc_half"] / 2 if r["dtype"] == "tf32" else r["tc_half"]
    floor_s = max(r["flops"] / (peak * 1e12), r["bytes"] / (r["bw"] * 1e9))
    return 100 * floor_s / (r["ct_ms"] * 1e-3)


# Issue 15's targets, each a list of (what, measure (higher is better), bar).
_speedup = lambda r: r["torch_ms"] / r["ct_ms"]
TARGETS = {
    "conv1dc:8:1024:4096:1024:4:causal:groups=1024:nlc":
        [("copy time / convtune time (within 1.3x of the copy: >= 0.77)", lambda r: r["copy_ms"] / r["ct_ms"],
          1 / 1.3)],
    "conv2dc:32:64:112:112:128:3:3:pad=1:stride=2": [("x cuDNN fp32 (>= 1.0)", _speedup, 1.0)],
    "conv2dc:32:3:224:224:64:7:7:pad=3:stride=2:bias": [("x cuDNN fp32 (>= 1.0)", _speedup, 1.0)],
    "conv1dc:8:64:16384:64:3:pad=8:dilation=8": [("x cuDNN fp32 (>= 1.2)", _speedup, 1.2)],
    "conv2dc:32:128:28:28:128:3:3:same:groups=32": [("x cuDNN fp32 (>= 3)", _speedup, 3.0)],
}
# Issue 16's targets compare kernels, so both sides are timed from CUDA
# graphs: PyTorch's eager call of a 20 to 60 us convolution costs its host
# as long again (cuDNN's 17 us layer took 42 us a call eagerly on the H100 of
# 2026-11-26), which is not cuDNN's speed.
_gspeedup = lambda r: r["torch_graph_ms"] / r["ct_graph_ms"]
for _p in HALF_PROBLEMS[:4]:
    TARGETS[_p] = [("x cuDNN in the same type, CUDA graphs (>= 1.0)", _gspeedup, 1.0)]
for _p in HALF_PROBLEMS[5:]:
    TARGETS[_p] = [("x PyTorch in the same type, CUDA graphs (>= 3)", _gspeedup, 3.0)]
# Seed 002 in bf16: within 2x of reading its weights once at the measured
# bandwidth (1024 x 1024 x 5 bf16 weights).
# A call of this layer is shorter than the host takes to launch one from
# Python (CuPy: 5 to 11 us on the H100 hosts), so its eager time is the
# launch rate; its time is the GPU's, from calls replayed in a CUDA graph.
# The weight read is the measured bandwidth's, as before.
TARGETS[HALF_PROBLEMS[4]] = [("weight-read time / convtune time in a CUDA graph (within 2x: >= 0.5)",
                              lambda r: 1024 * 1024 * 5 * 2 / (r["bw"] * 1e9) / (r["ct_graph_ms"] * 1e-3), 0.5)]
for _k in (7, 13, 31):
    TARGETS[f"conv2dc:64:256:32:32:256:{_k}:{_k}:same:groups=256"] = [
        ("x PyTorch fp32 (>= 5)", _speedup, 5.0), ("% of the binding roofline (>= 60)", roofline_pct, 60.0)]


def compile_baseline(op, to_ct, ref, res):
    """torch.compile(mode="max-autotune-no-cudagraphs") of the same PyTorch
    call (Inductor's Triton convolution templates autotuned against cuDNN,
    what a PyTorch user reaches for to tune a convolution): its compile
    time (the first call), its graph time a call and its relative error.
    Each layer is compiled from a clean Dynamo state."""
    import time
    torch._dynamo.reset()
    cop = torch.compile(lambda: op(), mode="max-autotune-no-cudagraphs")
    t0 = time.time()
    try:
        out = cop()
        torch.cuda.synchronize()
    except Exception as ex:   # reported, not fatal: the other columns stand
        res["compile_failed"] = repr(ex)[:200]
        return
    res["compile_s"] = time.time() - t0
    res["compile_err"] = relerr(to_ct(out), ref)
    res["compile_graph_ms"] = graph_ms(cop)


def gemm_rate(dtype):
    """The dense GEMM rate of dtype on this GPU, TFLOP/s: an 8192^3 matmul
    through PyTorch (cuBLAS), timed from a CUDA graph; tf32 with TF32
    matmuls allowed, f32 without."""
    n = 8192
    dt = DTYPES[dtype]
    a_, b_ = torch.randn(n, n, device="cuda").to(dt), torch.randn(n, n, device="cuda").to(dt)
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = dtype == "tf32"
    try:
        ms = graph_ms(lambda: torch.matmul(a_, b_), reps=7) or median_ms(lambda: torch.matmul(a_, b_), reps=7)
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    return 2 * n ** 3 / (ms * 1e-3) / 1e12


def measure(a, spec, summary, gen):
    """Export the tuned winner of spec, time it as a user calls it against
    PyTorch in the same process and gather what the table reports."""
    win = json.loads(run_convtune(a.convtune, ["query", "--problem", spec, "--db", a.db, "--format", "json"]))[0]
    canonical = win["problem"]
    cu = os.path.join(a.workdir, canonical.replace(":", "_").replace("=", "") + ".cu")
    run_convtune(a.convtune, ["export", "--problem", spec, "--db", a.db, "-o", cu, "--force"])

    bufs, op, to_ct, dtype = problem_tensors(canonical, gen)
    ref = to_ct(op(torch.float64))
    res = {"problem": canonical, "spec": spec, "dtype": dtype}
    res["torch_ms"] = median_ms(op)
    res["torch_err"] = relerr(to_ct(op()), ref)
    res["tf32_ms"] = res["tf32_err"] = None
    if dtype in ("f32", "tf32"):
        # PyTorch's default for convolutions: cuDNN may use TF32 (the
        # baseline of a tf32 problem; TF32 off is the fp32 one beside it).
        torch.backends.cudnn.allow_tf32 = True
        res["tf32_ms"] = median_ms(op)
        res["tf32_err"] = relerr(to_ct(op()), ref)
        torch.backends.cudnn.allow_tf32 = False
    if ":causal" in canonical:
        # The causal target's floor: one device-to-device copy of its
        # input and output bytes, timed in this run.
        n = (bufs[0][0].numel() + ref.numel()) * bufs[0][0].element_size()
        src, dst = torch.empty(n, dtype=torch.uint8, device="cuda"), torch.empty(n, dtype=torch.uint8, device="cuda")
        res["copy_ms"] = median_ms(lambda: dst.copy_(src))
    if a.compile:
        compile_baseline(op, to_ct, ref, res)
    res["tune_wall_s"] = summary["time"]["wall_s"]
    res["tune_rate"] = summary["time"]["candidates_per_s"]

    tensors = [as_cupy(t) for t, _ in bufs]
    out_t = torch.full((ref.numel(),), float("nan"), dtype=DTYPES[dtype], device="cuda")
    out = as_cupy(out_t)
    if needs_host_code(cu):
        symbol = "convtune_" + re.sub(r"[^0-9A-Za-z]", "_", canonical)
        fn = load_exported_lib(cu, symbol, len(tensors) + 1)
        ptrs = [c.data.ptr for c in tensors] + [out.data.ptr, cupy.cuda.get_current_stream().ptr]

        def launch():
            # the stream at call time: a graph capture runs on its own
            rc = fn(*ptrs[:-1], cupy.cuda.get_current_stream().ptr)
            if rc != 0:
                raise RuntimeError(f"{symbol} returned {rc}")
    else:
        mod, kern, grid, block, smem = load_exported(cu)
        if smem:
            # Past 48 KiB (with the static part) the launch must opt in.
            kern.max_dynamic_shared_size_bytes = smem
        for c, (_, sym) in zip(tensors, bufs):
            if sym:
                try:
                    g = mod.get_global(sym)
                except Exception:
                    continue  # this winner reads it from global memory
                cupy.ndarray((c.size,), c.dtype, g)[...] = c.ravel()
        args = tuple(tensors + [out])
        launch = lambda: kern(grid, block, args, shared_mem=smem)
    launch()
    torch.cuda.synchronize()
    res["ct_err"] = relerr(out_t, ref)
    res["ct_ms"] = median_ms(launch)
    # The same calls replayed from a CUDA graph: the GPU's time a call, where
    # a short kernel's eager time is the host's launch rate.
    res["ct_graph_ms"] = graph_ms(launch)
    res["torch_graph_ms"] = graph_ms(op)
    res["ct_tuned_ms"] = win["median_us"] / 1e3
    res["template"] = win["template"]
    res["params"] = win["params"]
    fam = canonical.split(":")[0]
    con = sqlite3.connect(a.db)
    naive = con.execute(
        "SELECT min(c.median_us) FROM candidates c JOIN problems p ON p.id = c.problem_id "
        "WHERE p.canonical = ? AND c.template = ? AND c.status = 'ok'", (canonical, fam + "_naive")).fetchone()[0]
    dev = con.execute("SELECT name, fma_tflops, bandwidth_gbs, launch_us, tc_half_tflops FROM devices "
                      "ORDER BY id DESC LIMIT 1").fetchone()
    flops, nbytes = con.execute("SELECT flops, bytes FROM problems WHERE canonical = ?", (canonical,)).fetchone()
    counts = con.execute(
        "SELECT count(*), sum(c.status = 'ok') FROM candidates c JOIN problems p ON p.id = c.problem_id "
        "WHERE p.canonical = ?", (canonical,)).fetchone()
    con.close()
    res["naive_ms"] = naive / 1e3 if naive else None
    res["device"], res["fma"], res["bw"], res["launch_us"], res["tc_half"] = dev
    res["flops"], res["bytes"] = flops, nbytes
    res["tried"], res["verified"] = counts
    if a.gemm:
        if dtype not in GEMM_RATES:
            GEMM_RATES[dtype] = gemm_rate(dtype)
        res["gemm_tflops"] = GEMM_RATES[dtype]
    return res


GEMM_RATES = {}   # element type -> TFLOP/s, measured once a run


def extra_table(ok):
    """The --compile and --gemm columns, where measured: torch.compile
    max-autotune against convtune (both from CUDA graphs) and convtune's
    rate as a share of the same type's dense GEMM rate."""
    rows = [r for r in ok if "compile_graph_ms" in r or "compile_failed" in r or "gemm_tflops" in r]
    if not rows:
        return []
    fx = lambda v, d=4: "n/a" if v is None else f"{v:.{d}f}"
    lines = ["", "| problem | cuDNN graph | torch.compile graph (compile s) | relerr torch.compile "
                 "| convtune graph | vs cuDNN | vs torch.compile | convtune TFLOP/s (graph) | GEMM TFLOP/s "
                 "| % of GEMM |", "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    vs_dnn, vs_comp = [], []
    for r in rows:
        ct, dnn, comp = r.get("ct_graph_ms"), r.get("torch_graph_ms"), r.get("compile_graph_ms")
        rate = r["flops"] / (ct * 1e-3) / 1e12 if ct else None
        if ct and dnn:
            vs_dnn.append(dnn / ct)
        if ct and comp:
            vs_comp.append(comp / ct)
        comp_txt = (f"failed: {r['compile_failed'][:60]}" if "compile_failed" in r else
                    f"{fx(comp)} ({r['compile_s']:.0f} s)" if comp else "n/a")
        gemm = r.get("gemm_tflops")
        lines.append(f"| `{r['problem']}` | {fx(dnn)} | {comp_txt} | "
                     f"{'n/a' if r.get('compile_err') is None else format(r['compile_err'], '.1e')} | {fx(ct)} | "
                     f"{fx(dnn / ct if ct and dnn else None, 2)}x | {fx(comp / ct if ct and comp else None, 2)}x | "
                     f"{fx(rate, 1)} | {fx(gemm, 0)} | {fx(100 * rate / gemm if rate and gemm else None, 0)}% |")
    geo = lambda v: math.exp(sum(math.log(x) for x in v) / len(v))
    if vs_dnn:
        lines.append("")
        lines.append(f"Geometric mean, CUDA graphs: {geo(vs_dnn):.2f}x cuDNN over {len(vs_dnn)} problems"
                     + (f", {geo(vs_comp):.2f}x torch.compile max-autotune over {len(vs_comp)}." if vs_comp else "."))
    return lines


def write_report(rows, path):
    """The Markdown table of rows (with the targets checked) into path, and
    its lines; written again after every problem, so a run cut short keeps
    what it measured."""
    ok = [r for r in rows if "failed" not in r]
    dev = ok[0] if ok else {"device": "?", "fma": 0, "bw": 0, "launch_us": 0}
    date = datetime.date.today().isoformat()
    f = lambda v: "n/a" if v is None else f"{v:.4f}"
    x = lambda num, ms: "n/a" if num is None else f"{num / ms:.2f}x"
    e = lambda v: "n/a" if v is None else f"{v:.1e}"
    lines = [
        f"Device: {dev['device']}, {date}. Ceilings measured by convtune: {dev['fma']:.1f} TFLOP/s fp32 FMA, "
        f"{dev['bw']:.0f} GB/s, empty launch {dev['launch_us']:.1f} us"
        + (f", {dev['tc_half']:.0f} TFLOP/s half tensor cores (mma.sync bf16)." if dev.get("tc_half") else "."),
        "Times are medians in ms a call (CUDA events around batches of back-to-back calls, after warm-up) on the same",
        "random inputs, rounded once to the problem's type; relerr is ||out - ref|| / ||ref|| against the same",
        "PyTorch call in float64 on those inputs. convtune = its exported winner loaded through CuPy RawModule and",
        "timed here; 'tuned' = the",
        "time convtune measured while tuning. PyTorch = F.conv1d / F.conv2d in the problem's type (cuDNN benchmark",
        "mode, TF32 off; its own kernels where it does not call cuDNN, as for fp32 depthwise layers), on contiguous",
        "NCL input for an :nlc problem (its best case) and channels_last tensors for :nhwc.",
        "cuDNN TF32 = the same fp32 call with torch.backends.cudnn.allow_tf32 = True (PyTorch's default), with its",
        "relative error. % roofline = the larger of FLOPs / compute ceiling (fp32 FMA; for bf16/f16 the measured half",
        "tensor-core rate) and bytes / bandwidth ceiling (what binds), over the time. 'tuning' = convtune's wall time",
        "for the problem and its candidates per second. 'graph' = the same calls (batches of back-to-back calls, as",
        "the other columns) captured in a CUDA graph and replayed (bench/benchlib.py graph_ms): the GPU's time a",
        "call, launch gaps included, where an eager call shorter than the host's launch time is timed at the",
        "launch rate (an empty CuPy launch took 4.6 to 10.7 us on the H100 hosts of 2026-11-26).",
        "",
        "| problem | PyTorch | cuDNN TF32 | convtune naive | convtune | tuned | vs PyTorch | vs cuDNN TF32 | vs naive "
        "| TFLOP/s | % roofline | PyTorch graph | convtune graph | vs PyTorch, graph "
        "| relerr convtune | relerr PyTorch | relerr cuDNN TF32 | verified/tried | tuning |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- "
        "| --- |",
    ]
    for r in rows:
        if "failed" in r:
            lines.append(f"| `{r['problem']}` | tuning failed: {r['failed'][:120]} |")
            continue
        ms = r["ct_ms"]
        lines.append(
            f"| `{r['problem']}` | {f(r['torch_ms'])} | {f(r['tf32_ms'])} | {f(r['naive_ms'])} | **{f(ms)}** | "
            f"{f(r['ct_tuned_ms'])} | {x(r['torch_ms'], ms)} | {x(r['tf32_ms'], ms)} | {x(r['naive_ms'], ms)} | "
            f"{r['flops'] / (ms * 1e-3) / 1e12:.1f} | {roofline_pct(r):.0f}% | {f(r['torch_graph_ms'])} | "
            f"{f(r['ct_graph_ms'])} | {x(r['torch_graph_ms'], r['ct_graph_ms']) if r['ct_graph_ms'] else 'n/a'} | "
            f"{e(r['ct_err'])} | "
            f"{e(r['torch_err'])} | {e(r['tf32_err'])} | {r['verified']}/{r['tried']} | "
            f"{r['tune_wall_s']:.0f} s, {r['tune_rate']:.1f}/s |")
    for r in ok:
        if "copy_ms" in r:
            lines.append("")
            lines.append(f"`{r['problem']}`: a device-to-device copy of its input and output bytes took "
                         f"{r['copy_ms']:.4f} ms in this run; convtune's winner {r['ct_ms'] / r['copy_ms']:.2f}x that.")
    f32 = [r for r in ok if r["tf32_ms"] is not None]
    if ok:
        geo = lambda rs, key: math.exp(sum(math.log(r[key] / r["ct_ms"]) for r in rs) / len(rs))
        lines.append("")
        lines.append(f"Geometric mean over these {len(ok)} problems: {geo(ok, 'torch_ms'):.2f}x PyTorch"
                     + (f"; over the {len(f32)} fp32 ones {geo(f32, 'tf32_ms'):.2f}x cuDNN TF32." if f32 else "."))
    checks = [(r, TARGETS[r["spec"]]) for r in ok if r["spec"] in TARGETS]
    if checks:
        lines += ["", "Targets:", "", "| problem | target | measured | met |", "| --- | --- | --- | --- |"]
        for r, crit in checks:
            for what, value, need in crit:
                try:
                    v = value(r)
                except TypeError:   # a time that was not measured (a graph capture that failed)
                    v = None
                shown, met = ("n/a", False) if v is None else (f"{v:.2f}", v >= need)
                lines.append(f"| `{r['problem']}` | {what} | {shown} | {'yes' if met else '**no**'} |")
    lines += extra_table(ok)
    lines.append("")
    lines.append("Winners:")
    for r in ok:
        lines.append(f"- `{r['problem']}`: {r['template']} `{json.dumps(r['params'], separators=(',', ':'))}`")
    tmp = path + ".tmp"
    with open(tmp, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    os.replace(tmp, path)
    return lines


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--convtune", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--budget", type=int, default=0, help="convtune --budget per problem (0: its default)")
    ap.add_argument("--time", type=int, default=0,
                    help="convtune --time per problem in seconds (0: none), so a whole set fits one device call")
    ap.add_argument("--layers", action="store_true", help="the ordinary layer shapes instead of the defaults")
    ap.add_argument("--grouped", action="store_true",
                    help="the depthwise, grouped, strided, dilated and causal layers (issue 15)")
    ap.add_argument("--half", action="store_true", help="the half-precision layers (issue 16)")
    ap.add_argument("--compile", action="store_true",
                    help="also time torch.compile(mode='max-autotune-no-cudagraphs') of the PyTorch call")
    ap.add_argument("--gemm", action="store_true",
                    help="also measure the dense GEMM rate (8192^3, cuBLAS) of each element type and report %% of it")
    ap.add_argument("problems", nargs="*")
    a = ap.parse_args()
    os.makedirs(a.workdir, exist_ok=True)
    problems = a.problems or (GROUPED_PROBLEMS if a.grouped else HALF_PROBLEMS if a.half else
                              LAYER_PROBLEMS if a.layers else DEFAULT_PROBLEMS)
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(2026)
    rows = []
    for item in problems:
        spec, _, own = item.partition("@")
        budget = int(own) if own else a.budget
        try:
            tune_out = run_convtune(a.convtune, ["--problem", spec, "--db", a.db, "--json"]
                                    + (["--budget", str(budget)] if budget else [])
                                    + (["--time", str(a.time)] if a.time else []))
        except RuntimeError as ex:
            print(ex, file=sys.stderr, flush=True)
            rows.append({"problem": spec, "failed": str(ex)})
            continue
        print(tune_out, flush=True)
        summary = json.loads(tune_out)
        try:
            res = measure(a, spec, summary, gen)
        except Exception as ex:  # one problem failing leaves the others measured
            print(f"{spec}: {ex!r}", file=sys.stderr, flush=True)
            rows.append({"problem": spec, "failed": repr(ex)})
            continue
        rows.append(res)
        print(json.dumps(res), flush=True)
        write_report(rows, a.out)

    lines = write_report(rows, a.out)
    print("\n".join(lines))
    bad = [r["problem"] for r in rows if "failed" in r or not (r["ct_err"] <= TOLERANCE[r["dtype"]])]
    if bad:
        print("FAILED:", bad, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
