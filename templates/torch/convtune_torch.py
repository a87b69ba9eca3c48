"""convtune_torch.py - the runtime of convtune's PyTorch family modules.

`convtune export --family conv2dc --torch -o DIR` writes DIR/convtune_conv2dc.py
(the tuned selectors' description) and this file next to it; importing the
module loads this runtime once per process. For a family of layers (conv1dc,
conv2dc) it provides:

  * custom ops (torch.library): torch.ops.convtune.NAME_fwd, NAME_dgrad and
    NAME_wgrad, with fake kernels (torch.compile(fullgraph=True), meta
    tensors) and autograd (the forward op's backward runs NAME_dgrad and
    NAME_wgrad; `needs_input_grad` is respected: a frozen weight costs no
    weight gradient);
  * conv1d / conv2d with F.conv1d / F.conv2d's signature (padding an int, a
    tuple, 'same' or 'valid'; conv1d also takes causal=True), on the current
    stream, also under CUDA graph capture. Channels-last tensors are taken as
    PyTorch holds them: a 4-D tensor in torch.channels_last, or for 1-D
    layers the (B, C, L) view x.transpose(1, 2) of a (B, L, C) tensor; the
    output comes in the input's layout;
  * Conv1d / Conv2d: torch.nn.Conv1d / Conv2d with the same constructor and
    state-dict keys, and convert(model), which turns a model's nn.Conv1d /
    nn.Conv2d layers whose shapes were tuned into them (in place) and says
    which it turned and why not the others;
  * problems(model, *inputs): the convtune problem of each pass of each
    convolution a forward call of the model runs, for `convtune --problems`;
  * report(model=None): which side runs each pass of each layer seen, and why.

Never slower than PyTorch: for each pass of each layer, convtune's kernel runs
only where the module holds a kernel tuned for exactly that layer on this GPU
model (grade exact) and where, on the first call, it measured faster than
PyTorch's own (both timed on the call's tensors, CUDA events, several rounds).
The outcome is cached in NAME.decisions.json next to the module (or, where that
folder is read-only, in the cache folder below), keyed by the layer, the device
and the versions of PyTorch and of the module's kernels. A first call under
CUDA graph capture cannot measure: it runs PyTorch's kernel and says so once
(call the model once before capturing). set_policy(...) or the environment
variable CONVTUNE_TORCH_SIDE=convtune|torch forces one side; a layer with no
exact kernel runs PyTorch's (said once) unless set_policy(untuned="raise").

Building: the first call compiles the module's .cu files with nvcc (found
through CUDA_HOME, else torch.utils.cpp_extension.CUDA_HOME, else
/usr/local/cuda) into one shared library, cached in CONVTUNE_TORCH_CACHE (else
$XDG_CACHE_HOME/convtune/torch or ~/.cache/convtune/torch) under a digest of
the sources and the GPU's architecture, and calls the selectors through ctypes.
The library carries its own static CUDA runtime and launches on PyTorch's
current stream.

Written by convtune, do not edit: `convtune export --family F --torch`
writes it again.
"""
import ctypes
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F

API = 1
PASSES = ("fwd", "dgrad", "wgrad")
SIDES = ("auto", "convtune", "torch")
_DTYPE_TOKENS = {torch.float32: "", torch.bfloat16: ":bf16", torch.float16: ":f16"}

_registry = {}     # (dims, dtype) -> LayerOps: the module a drop-in layer uses
_by_name = {}      # selector name -> LayerOps (an op is registered once per process)
_said = set()


def _say_once(msg):
    if msg not in _said:
        _said.add(msg)
        warnings.warn(msg, stacklevel=3)


def _cache_dir():
    d = os.environ.get("CONVTUNE_TORCH_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "convtune", "torch")
    os.makedirs(d, exist_ok=True)
    return d


def _arch_flag(major, minor):
    # sm_90a, as convtune compiled the kernels: their wgmma needs the
    # architecture-specific target, which runs on every 9.0 device.
    if (major, minor) == (9, 0):
        return "-gencode=arch=compute_90a,code=sm_90a"
    return "-arch=sm_%d%d" % (major, minor)


def _nvcc():
    home = os.environ.get("CUDA_HOME")
    if not home:
        try:
            from torch.utils import cpp_extension
            home = cpp_extension.CUDA_HOME
        except Exception:   # no cpp_extension: the usual place
            home = None
    path = os.path.join(home or "/usr/local/cuda", "bin", "nvcc")
    if not os.path.exists(path):
        found = shutil.which("nvcc")
        if not found:
            raise RuntimeError("convtune: nvcc not found (set CUDA_HOME to the CUDA toolkit)")
        path = found
    return path


# ---------------------------------------------------------------------------
# The selectors of one module, through ctypes

_CTYPE = {"s": ctypes.c_longlong, "k": ctypes.c_int, "b": ctypes.c_int}


class Library:
    """The selectors of one family module (its SETS: the forward one and each
    tuned training pass), built into one shared library on first use."""

    def __init__(self, name, here, sets, ldflags):
        self.name, self.here, self.sets, self.ldflags = name, here, sets, list(ldflags)
        self._lock = threading.Lock()
        self._tls = threading.local()
        self._fns = None
        self.build = None   # "nvcc" once built
        self._digest = None

    def digest(self):
        if self._digest is None:
            h = hashlib.sha256(("%d %s" % (API, self.name)).encode())
            for p in sorted(self.sets):
                with open(os.path.join(self.here, self.sets[p]["source"]), "rb") as f:
                    h.update(f.read())
            self._digest = h.hexdigest()[:16]
        return self._digest

    def _compile(self):
        major, minor = torch.cuda.get_device_capability()
        cache = _cache_dir()
        lib = os.path.join(cache, "%s_%s_sm%d%d.so" % (self.name, self.digest(), major, minor))
        if os.path.exists(lib):
            return lib
        nvcc, arch = _nvcc(), _arch_flag(major, minor)
        work = tempfile.mkdtemp(prefix=".convtune-build-", dir=cache)
        try:
            # The library's CUDA runtime is its own (static, hidden): this
            # entry point selects the tensors' device in it.
            shim = os.path.join(work, "shim.cu")
            with open(shim, "w") as f:
                f.write("#include <cuda_runtime.h>\nextern \"C\" int convtune_set_device(int d) "
                        "{ return (int)cudaSetDevice(d); }\n")
            sources = [shim] + [os.path.join(self.here, self.sets[p]["source"]) for p in sorted(self.sets)]

            def compile_one(i):
                obj = os.path.join(work, "%d.o" % i)
                r = subprocess.run([nvcc, "-O3", "-c", "-Xcompiler", "-fPIC", arch, "-o", obj, sources[i]],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    raise RuntimeError("convtune: building %s with nvcc failed:\n%s" % (sources[i], r.stderr[-4000:]))
                return obj
            with ThreadPoolExecutor(max_workers=max(1, min(len(sources), os.cpu_count() or 1))) as pool:
                objs = list(pool.map(compile_one, range(len(sources))))
            tmp = os.path.join(work, "lib.so")
            r = subprocess.run([nvcc, "-shared", "-Xlinker", "-Bsymbolic", arch, "-o", tmp] + objs + self.ldflags,
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError("convtune: linking %s failed:\n%s" % (self.name, r.stderr[-4000:]))
            os.replace(tmp, lib)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return lib

    def _load(self):
        if self._fns is not None:
            return self._fns
        with self._lock:
            if self._fns is not None:
                return self._fns
            dll = ctypes.CDLL(self._compile())
            fns = {}
            for p, st in self.sets.items():
                kinds = st["kinds"]
                fn = getattr(dll, st["symbol"])
                fn.restype = ctypes.c_int
                fn.argtypes = ([ctypes.c_void_p] * len(st["buffers"]) + [_CTYPE[k] for k in kinds if k in "sk"] +
                               [ctypes.c_void_p, ctypes.POINTER(ctypes.c_int)])
                pick = getattr(dll, st["symbol"] + "_pick")
                pick.restype = ctypes.c_int
                pick.argtypes = [_CTYPE[k] for k in kinds if k in "skb"] + [ctypes.POINTER(ctypes.c_double)]
                fns[p] = (fn, pick)
            set_device = dll.convtune_set_device
            set_device.restype = ctypes.c_int
            set_device.argtypes = [ctypes.c_int]
            fns[None] = set_device
            self._fns, self.build = fns, "nvcc"
            return fns

    def run(self, pass_, tensors, ints):
        """Launch pass_'s selector on the current stream of the tensors'
        device; None or an empty tensor travels as NULL (an absent bias). Returns
        the grade (0 exact, 1 nearest_size, 2 other_device, 3 generic)."""
        fns = self._load()
        dev = tensors[0].device
        grade = ctypes.c_int(-1)
        idx = dev.index if dev.index is not None else torch.cuda.current_device()
        err = 0
        if getattr(self._tls, "dev", None) != idx:   # the library's runtime: its current device is per thread
            err = fns[None](idx)
            self._tls.dev = idx if err == 0 else None
        if err == 0:
            args = [t.data_ptr() if t is not None and t.numel() else None for t in tensors] + list(ints)
            err = fns[pass_][0](*args, torch._C._cuda_getCurrentRawStream(idx), ctypes.byref(grade))
        if err != 0:
            raise RuntimeError("convtune: %s (%s) failed with CUDA error %d%s" % (
                self.sets[pass_]["symbol"], pass_, err,
                " (invalid value: the selector refused these sizes)" if err == 1 else ""))
        return grade.value

    def pick(self, pass_, fields):
        """The tuned problem pass_'s selector would use for these field
        values, and its log-size distance (0: exact); (-1, -1) for none."""
        fns = self._load()
        kinds = self.sets[pass_]["kinds"]
        dist = ctypes.c_double(-1)
        i = fns[pass_][1](*[v for v, k in zip(fields, kinds) if k in "skb"], ctypes.byref(dist))
        return i, dist.value


def check_tensor(name, t, shape, device, dtype):
    """The bare selector's checks (conv()): ValueError naming the tensor."""
    if not isinstance(t, torch.Tensor):
        raise ValueError("%s: expected a torch.Tensor, got %s" % (name, type(t).__name__))
    if t.device.type != "cuda":
        raise ValueError("%s: expected a CUDA tensor, got one on %s" % (name, t.device))
    if device is not None and t.device != device:
        raise ValueError("%s: on %s, but the first tensor is on %s" % (name, t.device, device))
    if t.dtype != dtype:
        raise ValueError("%s: expected dtype %s, got %s" % (name, dtype, t.dtype))
    if shape is not None and tuple(t.shape) != shape:
        raise ValueError("%s: expected shape %s, got %s" % (name, shape, tuple(t.shape)))
    if not t.is_contiguous():
        raise ValueError("%s: must be contiguous (use .contiguous())" % name)
    if t.data_ptr() % 16:
        raise ValueError("%s: data must be 16-byte aligned (a fresh tensor or .clone() is)" % name)


# ---------------------------------------------------------------------------
# Layouts and layer geometry

def _is_cl(t, dims):
    """Whether t is held channels last: torch.channels_last for 4-D, the
    transposed view of a (B, L, C) tensor for 3-D; a tensor contiguous both
    ways counts as channels first."""
    if t.is_contiguous():
        return False
    if dims == 2:
        return t.is_contiguous(memory_format=torch.channels_last)
    b, c, n = t.shape
    return t.stride(1) == 1 and t.stride(2) == c and (b == 1 or t.stride(0) == c * n)


def _empty(shape, cl, dims, like):
    """A new tensor of the logical shape (B, C, *spatial) in the layout."""
    if not cl:
        return like.new_empty(shape)
    if dims == 2:   # allocated channels last, not copied into it
        return torch.empty(shape, dtype=like.dtype, device=like.device, memory_format=torch.channels_last)
    return like.new_empty((shape[0], shape[2], shape[1])).transpose(1, 2)


def _to_layout(t, cl, dims):
    if dims == 2:
        return t.contiguous(memory_format=torch.channels_last if cl else torch.contiguous_format)
    if not cl:
        return t.contiguous()
    return t if _is_cl(t, 1) else t.transpose(1, 2).contiguous().transpose(1, 2)


def _aligned(t):
    """t, or a copy of it in the same layout (clone preserves a dense
    layout) where its data is not 16-byte aligned. The kernels take data
    pointers only: a tensor in its layout (_to_layout) starts where its
    memory-order view (B, H, W, C) / (B, L, C) starts, so no view is made
    (each one is an operator call on the step's host path)."""
    return t if t.numel() == 0 or t.data_ptr() % 16 == 0 else t.clone()


def _pair(v, dims, what):
    if isinstance(v, int):
        return (v,) * dims
    v = tuple(int(x) for x in v)
    if len(v) == 1:
        return v * dims
    if len(v) != dims:
        raise ValueError("%s: expected an int or %d ints, got %s" % (what, dims, v))
    return v


class _Geom:
    """A layer call's sizes: what the ops, the selectors' fields and the
    problem strings are made of."""
    __slots__ = ("dims", "b", "cin", "cout", "n", "k", "stride", "dilation", "lo", "hi", "groups", "bias", "cl",
                 "out")

    def key(self):
        return (self.dims, self.b, self.cin, self.cout, self.n, self.k, self.stride, self.dilation, self.lo, self.hi,
                self.groups, self.bias, self.cl)


def _geom(dims, x, w, has_bias, stride, lo, hi, dilation, groups, bias=None):
    """Check the tensors of a layer call and describe it; ValueError or
    TypeError naming the tensor and what was expected."""
    sp = ("H", "W") if dims == 2 else ("L",)
    for name, t in (("input", x), ("weight", w)) + ((("bias", bias),) if bias is not None else ()):
        if not isinstance(t, torch.Tensor):
            raise TypeError("%s: expected a torch.Tensor, got %s" % (name, type(t).__name__))
    if x.dim() != dims + 2:
        raise ValueError("input: expected a %d-D tensor (N, C, %s), got shape %s" % (dims + 2, ", ".join(sp),
                                                                                     tuple(x.shape)))
    if w.dim() != dims + 2:
        raise ValueError("weight: expected a %d-D tensor (Cout, Cin/groups, %s), got shape %s" % (
            dims + 2, ", ".join("K" + s for s in sp), tuple(w.shape)))
    for name, t in (("weight", w),) + ((("bias", bias),) if bias is not None else ()):
        if t.dtype != x.dtype:
            raise TypeError("%s: expected dtype %s (the input's), got %s" % (name, x.dtype, t.dtype))
        if t.device != x.device:
            raise ValueError("%s: on %s, but the input is on %s" % (name, t.device, x.device))
    g = _Geom()
    g.dims, g.b, g.cin = dims, int(x.shape[0]), int(x.shape[1])
    g.n = tuple(int(s) for s in x.shape[2:])
    g.cout, g.k = int(w.shape[0]), tuple(int(s) for s in w.shape[2:])
    g.stride, g.dilation, g.lo, g.hi = tuple(stride), tuple(dilation), tuple(lo), tuple(hi)
    g.groups, g.bias = int(groups), int(bool(has_bias))
    if g.groups < 1 or g.cin % g.groups or g.cout % g.groups:
        raise ValueError("groups: %d does not divide the input's %d and the weight's %d channels" % (
            g.groups, g.cin, g.cout))
    if int(w.shape[1]) * g.groups != g.cin:
        raise ValueError("weight: expected shape (%d, %d, ...) for %d input channels in %d groups, got %s" % (
            g.cout, g.cin // g.groups, g.cin, g.groups, tuple(w.shape)))
    if bias is not None and tuple(bias.shape) != (g.cout,):
        raise ValueError("bias: expected shape (%d,), got %s" % (g.cout, tuple(bias.shape)))
    if min(g.stride + g.dilation) < 1 or min(g.lo + g.hi) < 0:
        raise ValueError("stride and dilation must be >= 1 and padding >= 0")
    g.out = tuple((n + lo_ + hi_ - d * (k - 1) - 1) // s + 1
                  for n, k, s, d, lo_, hi_ in zip(g.n, g.k, g.stride, g.dilation, g.lo, g.hi))
    if min(g.out) < 1:
        raise ValueError("input: spatial size %s is smaller than the dilated kernel %s: no output" % (
            g.n, tuple(d * (k - 1) + 1 for k, d in zip(g.k, g.dilation))))
    g.cl = int(_is_cl(x, dims))
    return g


def _padding_form(g):
    """How a problem spells a layer call's padding: "pad" (the same zeros
    before and after: g.lo), "same" (2D, stride 1: PyTorch's split of an even
    span), "causal" (1D: all zeros before) or None (none a problem spells)."""
    if g.lo == g.hi:
        return "pad"
    if g.dims == 2:
        same = all(lo == d * (k - 1) // 2 and hi == d * (k - 1) - lo for lo, hi, k, d in
                   zip(g.lo, g.hi, g.k, g.dilation))
        return "same" if same and g.stride == (1, 1) else None
    return "causal" if g.lo[0] == g.dilation[0] * (g.k[0] - 1) and g.hi[0] == 0 else None


def _fields(g, names, modes, pass_):
    """The selector's field values (FIELDS order) of a layer call, None where
    its padding is none a problem can spell (lo != hi, other than 'same' at
    stride 1 or causal)."""
    v = {"b": g.b, "cin": g.cin, "cout": g.cout, "groups": g.groups, "layout": g.cl,
         "bias": 0 if pass_ == "dgrad" else g.bias}
    form = _padding_form(g)
    if form is None:
        return None
    if g.dims == 2:
        v.update(h=g.n[0], w=g.n[1], kh=g.k[0], kw=g.k[1], sh=g.stride[0], sw=g.stride[1], dh=g.dilation[0],
                 dw=g.dilation[1], mode=modes.index(form), ph=g.lo[0] if form == "pad" else 0,
                 pw=g.lo[1] if form == "pad" else 0)
    else:
        v.update(l=g.n[0], k=g.k[0], stride=g.stride[0], dilation=g.dilation[0], pad=g.lo[0] if form == "pad" else 0,
                 causal=int(form == "causal"))
    return tuple(v[n] for n in names)


def spec(g, pass_, dtype):
    """The convtune problem string of a layer call's pass."""
    form = _padding_form(g)
    if form is None:
        return None
    if g.dims == 2:
        s = "conv2dc:%d:%d:%d:%d:%d:%d:%d" % ((g.b, g.cin) + g.n + (g.cout,) + g.k)
        if form == "pad":
            s += ":pad=%d,%d" % g.lo if any(g.lo) else ""
        else:
            s += ":same"
        if g.stride != (1, 1):
            s += ":stride=%d,%d" % g.stride
        if g.dilation != (1, 1):
            s += ":dilation=%d,%d" % g.dilation
    else:
        s = "conv1dc:%d:%d:%d:%d:%d" % (g.b, g.cin, g.n[0], g.cout, g.k[0])
        if form == "pad":
            s += ":pad=%d" % g.lo[0] if g.lo[0] else ""
        else:
            s += ":causal"
        if g.stride[0] != 1:
            s += ":stride=%d" % g.stride[0]
        if g.dilation[0] != 1:
            s += ":dilation=%d" % g.dilation[0]
    if g.groups != 1:
        s += ":groups=%d" % g.groups
    if g.bias and pass_ != "dgrad":
        s += ":bias"
    if g.cl:
        s += ":nhwc" if g.dims == 2 else ":nlc"
    if pass_ != "fwd":
        s += ":" + pass_
    return s + _DTYPE_TOKENS.get(dtype, "")


def _padding(padding, dims, k, dilation, stride, causal):
    """(lo, hi) per spatial dimension of F.convNd's padding argument."""
    if causal:
        if padding not in (0, "valid") and _pair(padding, dims, "padding") != (0,) * dims:
            raise ValueError("padding: causal=True pads (K-1)*dilation before the input itself; got padding=%r" %
                             (padding,))
        return tuple(d * (kk - 1) for kk, d in zip(k, dilation)), (0,) * dims
    if isinstance(padding, str):
        if padding == "valid":
            return (0,) * dims, (0,) * dims
        if padding == "same":
            if any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
            lo = tuple(d * (kk - 1) // 2 for kk, d in zip(k, dilation))
            return lo, tuple(d * (kk - 1) - l for kk, d, l in zip(k, dilation, lo))
        raise ValueError("padding: expected an int, a tuple, 'same' or 'valid', got %r" % (padding,))
    p = _pair(padding, dims, "padding")
    return p, p


# ---------------------------------------------------------------------------
# PyTorch's side of each pass

def _torch_pads(g):
    pads = []
    for lo, hi in reversed(list(zip(g.lo, g.hi))):
        pads += [lo, hi]
    return pads


def _torch_fwd(g, x, w, b):
    conv = F.conv2d if g.dims == 2 else F.conv1d
    if g.lo == g.hi:
        y = conv(x, w, b, g.stride, g.lo, g.dilation, g.groups)
    else:
        y = conv(F.pad(x, _torch_pads(g)), w, b, g.stride, 0, g.dilation, g.groups)
    return _to_layout(y, g.cl, g.dims)


def _torch_bwd(g, dy, x, w, mask):
    """aten.convolution_backward; an asymmetric padding through a padded
    input, whose gradient is cropped."""
    zeros = [0] * g.dims
    bias_sizes = [g.cout] if mask[2] else None
    if g.lo == g.hi:
        return torch.ops.aten.convolution_backward(dy, x, w, bias_sizes, list(g.stride), list(g.lo),
                                                   list(g.dilation), False, zeros, g.groups, mask)
    xp = F.pad(x, _torch_pads(g))
    dx, dw, db = torch.ops.aten.convolution_backward(dy, xp, w, bias_sizes, list(g.stride), zeros,
                                                     list(g.dilation), False, zeros, g.groups, mask)
    if dx is not None:
        for i, (lo, n) in enumerate(zip(g.lo, g.n)):
            dx = dx.narrow(2 + i, lo, n)
    return dx, dw, db


# ---------------------------------------------------------------------------
# Which side runs: measured once per layer, pass and device

def _elapsed_us(fns):
    """The time of one call of each of fns (us): a warm-up call, then
    interleaved rounds of back-to-back calls between CUDA events, the best
    round of each."""
    for f in fns:
        f()
    torch.cuda.synchronize()
    first = []
    for f in fns:
        e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        e0.record()
        f()
        e1.record()
        first.append((e0, e1))
    torch.cuda.synchronize()
    longest = max(e0.elapsed_time(e1) for e0, e1 in first) * 1000.0
    reps = max(1, min(20, int(2000.0 / max(longest, 1.0))))
    rounds = []
    for _ in range(3):
        for i, f in enumerate(fns):
            e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            e0.record()
            for _ in range(reps):
                f()
            e1.record()
            rounds.append((i, e0, e1))
    torch.cuda.synchronize()
    best = [float("inf")] * len(fns)
    for i, e0, e1 in rounds:
        best[i] = min(best[i], e0.elapsed_time(e1) * 1000.0 / reps)
    return best


class _Decisions:
    """The measured side of each (pass, device, layer): NAME.decisions.json
    next to the module, or in the cache folder where that is read-only;
    replaced atomically. Void when the kernels or PyTorch changed."""

    def __init__(self, lib):
        self.lib, self.data, self.path = lib, None, None

    def _stamp(self):
        return {"kernels": self.lib.digest(), "torch": torch.__version__,
                "cudnn": torch.backends.cudnn.version() if torch.backends.cudnn.is_available() else None}

    def _load(self):
        if self.data is not None:
            return
        name = "%s.decisions.json" % self.lib.name
        here = os.path.join(self.lib.here, name)
        self.path = os.environ.get("CONVTUNE_TORCH_DECISIONS") or (
            here if os.access(self.lib.here, os.W_OK) else os.path.join(_cache_dir(), name))
        self.data = {}
        try:
            with open(self.path) as f:
                doc = json.load(f)
            if doc.get("stamp") == self._stamp() and isinstance(doc.get("layers"), dict):
                self.data = doc["layers"]
        except (OSError, ValueError):
            pass

    def get(self, key):
        self._load()
        return self.data.get(key)

    def put(self, key, value):
        self._load()
        self.data[key] = value
        tmp = "%s.%d.tmp" % (self.path, os.getpid())
        try:
            with open(tmp, "w") as f:
                json.dump({"stamp": self._stamp(), "layers": self.data}, f, indent=1, sort_keys=True)
            os.replace(tmp, self.path)
        except OSError as exc:
            _say_once("convtune: cannot store the measured choices in %s (%s): they hold for this process only" %
                      (self.path, exc))
            try:
                os.unlink(tmp)
            except OSError:
                pass


# ---------------------------------------------------------------------------
# The ops of one family module

class LayerOps:
    """The custom ops, autograd and dispatch of one family module of layers
    (its selectors: SETS), registered as torch.ops.convtune.NAME_fwd,
    NAME_dgrad and NAME_wgrad."""

    def __init__(self, mod):
        self.mod, self.lib, self.name = mod, mod._LIB, mod.NAME
        self.dims = 2 if "kh" in mod.FIELDS else 1
        self.dtype = mod.DTYPE
        self.modes = getattr(mod, "MODES", ())
        side = os.environ.get("CONVTUNE_TORCH_SIDE", "auto")
        if side not in SIDES:
            raise ValueError("CONVTUNE_TORCH_SIDE must be one of %s, not %r" % (", ".join(SIDES), side))
        self.policy = {p: side for p in PASSES}
        self.untuned = "fallback"
        self.decisions = _Decisions(self.lib)
        self.seen = {}     # (pass, layer key) -> row of report()
        self._memo = {}    # (pass, layer key, device) -> side
        self._int_memo = {}
        self._geom_memo = {}
        self.generation = 0
        old = _by_name.get(self.name)
        self.op = old.op if old is not None else self._register()
        _by_name[self.name] = self
        _registry[(self.dims, self.dtype)] = self

    # -- policy --------------------------------------------------------------
    def set_policy(self, side=None, passes=None, untuned=None):
        """side: 'auto' (measure, the default), 'convtune' or 'torch', for
        passes (default all); untuned: 'fallback' (PyTorch's kernel, said
        once) or 'raise' (ValueError) for a layer without an exact kernel."""
        if side is not None:
            if side not in SIDES:
                raise ValueError("side: expected one of %s, got %r" % (", ".join(SIDES), side))
            for p in passes or PASSES:
                if p not in PASSES:
                    raise ValueError("passes: expected some of %s, got %r" % (", ".join(PASSES), p))
                self.policy[p] = side
        if untuned is not None:
            if untuned not in ("fallback", "raise"):
                raise ValueError("untuned: expected 'fallback' or 'raise', got %r" % (untuned,))
            self.untuned = untuned
        self._memo.clear()
        self.generation += 1   # the layers' plans (_forward) are made again

    def _side(self, pass_, g, device, run_conv, run_torch):
        """'convtune' or 'torch' for this pass of this layer on device,
        measuring both on the first call where that decides it."""
        memo_key = (pass_, g.key(), device)
        hit = self._memo.get(memo_key)
        if hit is not None:
            return hit
        fields = _fields(g, self.mod.FIELDS, self.modes, pass_)
        st = self.mod.SETS.get(pass_)
        pol = self.policy[pass_]
        row = {"module": self.name, "pass": pass_, "problem": spec(g, pass_, self.dtype), "convtune_us": None,
               "torch_us": None}
        side, why, exact = "torch", None, False
        if fields is None:
            why = "a padding no convtune problem spells"
        elif st is None:
            why = "no %s problem was tuned for this module" % pass_
        else:
            idx, dist = self.lib.pick(pass_, fields)
            same = torch.cuda.get_device_name(device) == st["device"]
            exact = idx >= 0 and dist == 0 and same
            if not exact:
                why = ("not tuned for this layer" if idx < 0 or dist != 0 else
                       "tuned on %s, not this GPU model" % st["device"])
        if pol == "torch":
            side, why = "torch", "set_policy / CONVTUNE_TORCH_SIDE"
        elif pol == "convtune" and fields is not None and st is not None:
            side, why = "convtune", "set_policy / CONVTUNE_TORCH_SIDE" + ("" if exact else " (%s)" % why)
        elif exact:
            key = "%s|%s|%s" % (pass_, torch.cuda.get_device_name(device), ",".join(str(v) for v in fields))
            d = self.decisions.get(key)
            if d is None and torch.cuda.is_current_stream_capturing():
                _say_once("convtune: %s of %s first called under CUDA graph capture: PyTorch's kernel runs (call "
                          "the model once before capturing to measure which is faster)" % (pass_, row["problem"]))
                return "torch"   # not memoised: measured on the next eager call
            if d is None:
                t = _elapsed_us([run_conv, run_torch])
                d = {"side": "convtune" if t[0] < t[1] else "torch", "convtune_us": round(t[0], 3),
                     "torch_us": round(t[1], 3)}
                self.decisions.put(key, d)
            side = d["side"]
            row.update(convtune_us=d["convtune_us"], torch_us=d["torch_us"])
            why = "measured %.1f us against PyTorch's %.1f us" % (d["convtune_us"], d["torch_us"])
        elif self.untuned == "raise":
            raise ValueError("convtune: %s of %s: %s (set_policy(untuned='fallback') runs PyTorch's kernel)" % (
                pass_, row["problem"] or "this layer", why))
        else:
            _say_once("convtune: %s of %s: %s; PyTorch's kernel runs" % (pass_, row["problem"] or "a layer", why))
        row.update(side=side, why=why)
        self.seen[(pass_, g.key())] = row
        self._memo[memo_key] = side
        return side

    def torch_only(self, x, weight, bias, stride, padding, dilation, groups, causal):
        """True when every pass of this layer call that runs has chosen
        PyTorch's kernel (the forward, and where gradients flow, a backward
        pass already seen: a step has run); False when a pass has chosen
        convtune's; None while that is not known yet. Choices change only
        with the policy, so True and False are final for a call's shape."""
        k = tuple(weight.shape[2:])
        st, dl = _pair(stride, self.dims, "stride"), _pair(dilation, self.dims, "dilation")
        lo, hi = _padding(padding, self.dims, k, dl, st, causal)
        g = self._geom(x, weight, bias is not None, st, lo, hi, dl, groups, bias)
        sides = [self._memo.get((p, g.key(), x.device)) for p in PASSES]
        if "convtune" in sides:
            return False
        grads = torch.is_grad_enabled() and (x.requires_grad or weight.requires_grad or
                                             (bias is not None and bias.requires_grad))
        if sides[0] is None or (grads and all(s is None for s in sides[1:])):
            return None
        return True

    def exact(self, pass_, fields):
        """Whether pass_'s selector holds a kernel tuned for exactly these
        field values (any GPU model)."""
        if fields is None or pass_ not in self.mod.SETS:
            return False
        idx, dist = self.lib.pick(pass_, fields)
        return idx >= 0 and dist == 0

    def _ints(self, pass_, g):
        """The selector's size and key arguments of a layer call (memoised:
        the same layer is called every step)."""
        key = (pass_, g.key())
        ints = self._int_memo.get(key)
        if ints is None:
            kinds = self.mod.SETS[pass_]["kinds"]
            ints = [v for v, k in zip(_fields(g, self.mod.FIELDS, self.modes, pass_), kinds) if k in "sk"]
            self._int_memo[key] = ints
        return ints

    # -- the three passes ----------------------------------------------------
    def _geom(self, x, w, has_bias, stride, lo, hi, dilation, groups, b=None):
        """_geom, memoised on what it reads: a training step calls the same
        layers every time, and the ops' own Python is on the step's path."""
        key = (x.shape, x.stride(), x.dtype, x.device, w.shape, w.dtype, w.device, has_bias,
               None if b is None else (b.shape, b.dtype, b.device), tuple(stride), tuple(lo), tuple(hi),
               tuple(dilation), groups)
        g = self._geom_memo.get(key)
        if g is None:
            g = _geom(self.dims, x, w, has_bias, stride, lo, hi, dilation, groups, b)
            if len(self._geom_memo) > 4096:
                self._geom_memo.clear()
            self._geom_memo[key] = g
        return g

    def _fwd(self, x, w, b, stride, lo, hi, dilation, groups):
        g = self._geom(x, w, b is not None, stride, lo, hi, dilation, groups, b)

        def run_conv():
            out = _empty((g.b, g.cout) + g.out, g.cl, g.dims, x)
            xk = _aligned(_to_layout(x, g.cl, g.dims))
            bias = _aligned(b.contiguous()) if b is not None else None
            self.lib.run("fwd", [xk, _aligned(w.contiguous()), bias, out], self._ints("fwd", g))
            return out

        def run_torch():
            return _torch_fwd(g, x, w, b)
        side = self._side("fwd", g, x.device, run_conv, run_torch)
        return run_conv() if side == "convtune" else run_torch()

    def _dgrad(self, dy, x, w, stride, lo, hi, dilation, groups):
        g = self._geom(x, w, False, stride, lo, hi, dilation, groups)

        def run_conv():
            dx = _empty((g.b, g.cin) + g.n, g.cl, g.dims, x)
            dyk = _aligned(_to_layout(dy, g.cl, g.dims))
            self.lib.run("dgrad", [dyk, _aligned(w.contiguous()), dx], self._ints("dgrad", g))
            return dx

        def run_torch():
            return _to_layout(_torch_bwd(g, dy, x, w, [True, False, False])[0], g.cl, g.dims)
        side = self._side("dgrad", g, x.device, run_conv, run_torch)
        return run_conv() if side == "convtune" else run_torch()

    def _wgrad_eager(self, x, dy, w, has_bias, stride, lo, hi, dilation, groups):
        return self._wgrad(x, dy, w, has_bias, stride, lo, hi, dilation, groups, eager=True)

    def _wgrad(self, x, dy, w, has_bias, stride, lo, hi, dilation, groups, eager=False):
        """(dW, db); eager (the autograd.Function's backward): db is a view
        of the one buffer the kernel writes (the custom op's outputs may not
        alias: it gets a copy), None without bias."""
        g = self._geom(x, w, has_bias, stride, lo, hi, dilation, groups)
        n = w.numel()

        def run_conv():
            buf = x.new_empty(n + (g.cout if has_bias else 0))
            xk = _aligned(_to_layout(x, g.cl, g.dims))
            dyk = _aligned(_to_layout(dy, g.cl, g.dims))
            self.lib.run("wgrad", [xk, dyk, buf], self._ints("wgrad", g))
            if eager:
                return buf[:n].view(w.shape), buf[n:] if has_bias else None
            return buf[:n].view(w.shape), buf[n:].clone() if has_bias else x.new_empty(0)

        def run_torch():
            _, dw, db = _torch_bwd(g, dy, x, w, [False, True, bool(has_bias)])
            return dw.contiguous(), db if has_bias else (None if eager else x.new_empty(0))
        side = self._side("wgrad", g, x.device, run_conv, run_torch)
        return run_conv() if side == "convtune" else run_torch()

    # -- registration --------------------------------------------------------
    def _register(self):
        ns, name, dims = "convtune", self.name, self.dims

        @torch.library.custom_op("%s::%s_fwd" % (ns, name), mutates_args=(), device_types="cuda")
        def fwd(x: torch.Tensor, weight: torch.Tensor, bias: Optional[torch.Tensor], stride: List[int],
                pad_lo: List[int], pad_hi: List[int], dilation: List[int], groups: int) -> torch.Tensor:
            return _by_name[name]._fwd(x, weight, bias, stride, pad_lo, pad_hi, dilation, groups)

        @fwd.register_fake
        def _(x, weight, bias, stride, pad_lo, pad_hi, dilation, groups):
            out = [(n + lo + hi - d * (k - 1) - 1) // s + 1 for n, k, s, d, lo, hi in
                   zip(x.shape[2:], weight.shape[2:], stride, dilation, pad_lo, pad_hi)]
            return _empty([x.shape[0], weight.shape[0]] + out, _is_cl(x, dims), dims, x)

        @torch.library.custom_op("%s::%s_dgrad" % (ns, name), mutates_args=(), device_types="cuda")
        def dgrad(dy: torch.Tensor, x: torch.Tensor, weight: torch.Tensor, stride: List[int], pad_lo: List[int],
                  pad_hi: List[int], dilation: List[int], groups: int) -> torch.Tensor:
            return _by_name[name]._dgrad(dy, x, weight, stride, pad_lo, pad_hi, dilation, groups)

        @dgrad.register_fake
        def _(dy, x, weight, stride, pad_lo, pad_hi, dilation, groups):
            return _empty(list(x.shape), _is_cl(x, dims), dims, x)

        @torch.library.custom_op("%s::%s_wgrad" % (ns, name), mutates_args=(), device_types="cuda")
        def wgrad(x: torch.Tensor, dy: torch.Tensor, weight: torch.Tensor, has_bias: bool, stride: List[int],
                  pad_lo: List[int], pad_hi: List[int], dilation: List[int],
                  groups: int) -> Tuple[torch.Tensor, torch.Tensor]:
            return _by_name[name]._wgrad(x, dy, weight, has_bias, stride, pad_lo, pad_hi, dilation, groups)

        @wgrad.register_fake
        def _(x, dy, weight, has_bias, stride, pad_lo, pad_hi, dilation, groups):
            return weight.new_empty(weight.shape), weight.new_empty(weight.shape[0] if has_bias else 0)

        def setup_context(ctx, inputs, output):
            x, weight, bias, stride, pad_lo, pad_hi, dilation, groups = inputs
            ctx.save_for_backward(x, weight)
            ctx.conf = (stride, pad_lo, pad_hi, dilation, groups)
            ctx.has_bias = bias is not None

        def backward(ctx, dy):
            x, weight = ctx.saved_tensors
            return _backward(dims, dgrad, wgrad, x, weight, dy, ctx.conf, ctx.has_bias, ctx.needs_input_grad) + \
                (None,) * 5

        fwd.register_autograd(backward, setup_context=setup_context)
        return fwd

    # -- F.conv1d / F.conv2d ---------------------------------------------------
    def conv(self, input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1, causal=False):
        """F.conv1d / F.conv2d (causal=True, 1-D only: (K-1)*dilation zeros
        before the input, none after) through torch.ops.convtune.NAME_fwd."""
        return self.call(input, weight, bias, self.conf(input, weight, bias, stride, padding, dilation, groups, causal))

    def call(self, input, weight, bias, conf):
        """conv() on checked arguments: conf is what conf() returned."""
        if torch.compiler.is_compiling():   # the custom op: its fake kernel traces
            return self.op(input, weight, bias, *conf)
        # Eager (and CUDA graph capture): the same passes through a plain
        # autograd.Function, without the custom op's dispatch on a step's path.
        return _EagerConv.apply(self, input, weight, bias, *conf)

    def conf(self, input, weight, bias, stride, padding, dilation, groups, causal):
        """conv()'s checks of its arguments, and the op's (stride, pad_lo,
        pad_hi, dilation, groups) of them."""
        for name, t in (("input", input), ("weight", weight)) + ((("bias", bias),) if bias is not None else ()):
            if not isinstance(t, torch.Tensor):
                raise TypeError("%s: expected a torch.Tensor, got %s" % (name, type(t).__name__))
            if t.dtype != self.dtype:
                raise TypeError("%s: %s takes %s tensors, got %s" % (name, self.name, self.dtype, t.dtype))
            if t.device.type != "cuda":
                raise ValueError("%s: expected a CUDA tensor, got one on %s" % (name, t.device))
        if causal and self.dims != 1:
            raise ValueError("causal: 1-D layers only")
        if weight.dim() != self.dims + 2:
            raise ValueError("weight: expected a %d-D tensor, got shape %s" % (self.dims + 2, tuple(weight.shape)))
        k = tuple(weight.shape[2:])
        st, dl = _pair(stride, self.dims, "stride"), _pair(dilation, self.dims, "dilation")
        lo, hi = _padding(padding, self.dims, k, dl, st, causal)
        return (list(st), list(lo), list(hi), list(dl), int(groups))


def _backward(dims, dgrad, wgrad, x, weight, dy, conf, has_bias, need):
    """The gradients of (input, weight, bias) from the layer's passes:
    dgrad(dy, x, weight, *conf) and wgrad(x, dy, weight, bias, *conf), only
    those needed (a frozen weight costs no weight gradient; a frozen weight
    with a trained bias, the bias gradient alone)."""
    dx = dw = db = None
    if need[0] or need[1]:   # dy in x's layout once, not once per pass
        dy = _to_layout(dy, _is_cl(x, dims), dims)
    if need[0]:
        dx = dgrad(dy, x, weight, *conf)
    if need[1]:
        dw, db_ = wgrad(x, dy, weight, has_bias and need[2], *conf)
        db = db_ if has_bias and need[2] else None
    elif has_bias and need[2]:
        db = dy.sum(dim=[0] + list(range(2, dy.dim())))
    return dx, dw, db


class _EagerConv(torch.autograd.Function):
    """The forward op's passes in eager mode: what the custom op runs, called
    directly (same choice of side, same kernels)."""

    @staticmethod
    def forward(ctx, ops, x, weight, bias, stride, pad_lo, pad_hi, dilation, groups):
        ctx.save_for_backward(x, weight)
        ctx.ops, ctx.conf, ctx.has_bias = ops, (stride, pad_lo, pad_hi, dilation, groups), bias is not None
        return ops._fwd(x, weight, bias, stride, pad_lo, pad_hi, dilation, groups)

    @staticmethod
    def backward(ctx, dy):
        x, weight = ctx.saved_tensors
        ops = ctx.ops
        return (None,) + _backward(ops.dims, ops._dgrad, ops._wgrad_eager, x, weight, dy, ctx.conf, ctx.has_bias,
                                   ctx.needs_input_grad[1:4]) + (None,) * 5


# ---------------------------------------------------------------------------
# Drop-in modules, conversion, problems and the report

def _layer_args(m, dims):
    causal = bool(getattr(m, "causal", False))
    return m.stride, (0 if causal else m.padding), m.dilation, m.groups, causal


def _native(m, x, base):
    """nn's own forward of the layer (a causal Conv1d: on the causally padded
    input)."""
    if getattr(m, "causal", False):
        return F.conv1d(F.pad(x, (m.dilation[0] * (m.kernel_size[0] - 1), 0)), m.weight, m.bias, m.stride, 0,
                        m.dilation, m.groups)
    return base.forward(m, x)


def _forward(m, x, dims, base):
    ops = _registry.get((dims, x.dtype))
    if ops is None or not x.is_cuda or m.padding_mode != "zeros" or m.weight.dtype != x.dtype:
        return _native(m, x, base)
    if torch.compiler.is_compiling():
        return ops.conv(x, m.weight, m.bias, *_layer_args(m, dims))
    # Once every pass this layer runs has chosen PyTorch's kernel, the layer
    # is nn's own again: the op's Python would only add host time to a step.
    # Once that is known either way, it is not asked again for this shape,
    # and the op's argument checks are not made again either (the layer's
    # sizes, types and devices are checked by the passes' _geom, memoised).
    key = (x.shape, x.stride(), x.device, torch.is_grad_enabled(), ops.generation)
    plan = m.__dict__.get("_convtune_plan")
    if plan is not None and plan[0] == key and plan[1] is not None:
        return _native(m, x, base) if plan[1] else _EagerConv.apply(ops, x, m.weight, m.bias, *plan[2])
    stride, padding, dilation, groups, causal = _layer_args(m, dims)
    conf = ops.conf(x, m.weight, m.bias, stride, padding, dilation, groups, causal)
    y = ops.call(x, m.weight, m.bias, conf)
    m.__dict__["_convtune_plan"] = (key, ops.torch_only(x, m.weight, m.bias, stride, padding, dilation, groups,
                                                        causal), conf)
    return y


class Conv2d(nn.Conv2d):
    """torch.nn.Conv2d (same constructor, parameters and state-dict keys)
    running convtune's op where a module of its tensors' type is loaded, and
    nn.Conv2d's own forward otherwise (CPU tensors, padding modes other than
    zeros)."""

    def forward(self, x):
        return _forward(self, x, 2, nn.Conv2d)


class Conv1d(nn.Conv1d):
    """torch.nn.Conv1d likewise; causal=True pads (K-1)*dilation zeros before
    the input and none after (padding must then be 0), as a causal sequence
    filter does."""

    def __init__(self, *args, causal=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.causal = bool(causal)

    def forward(self, x):
        return _forward(self, x, 1, nn.Conv1d)


def _capture(model, inputs, kwargs):
    """The geometry of every Conv1d / Conv2d call of one forward call."""
    seen, hooks = {}, []
    for name, m in model.named_modules():
        if isinstance(m, (nn.Conv1d, nn.Conv2d)):
            dims = 1 if isinstance(m, nn.Conv1d) else 2

            def hook(mod, args, name=name, dims=dims):
                x = args[0]
                stride, padding, dilation, groups, causal = _layer_args(mod, dims)
                k = tuple(mod.weight.shape[2:])
                st, dl = _pair(stride, dims, "stride"), _pair(dilation, dims, "dilation")
                lo, hi = _padding(padding, dims, k, dl, st, causal)
                seen[name] = (_geom(dims, x, mod.weight, mod.bias is not None, st, lo, hi, dl, groups), x.dtype)
            hooks.append(m.register_forward_pre_hook(hook))
    try:
        with torch.no_grad():
            model(*inputs, **kwargs)
    finally:
        for h in hooks:
            h.remove()
    return seen


def problems(model, *inputs, passes=PASSES, **kwargs):
    """The convtune problem of each pass of each convolution one forward
    call model(*inputs, **kwargs) runs, once each, in call order: the lines
    of a `convtune --problems FILE` list."""
    out = []
    for g, dtype in _capture(model, inputs, kwargs).values():
        for p in passes:
            s = spec(g, p, dtype)
            if s is not None and s not in out:
                out.append(s)
    return out


def _tuned_for(g, dtype):
    """Which passes of layer g have an exact kernel in a loaded module."""
    ops = _registry.get((g.dims, dtype))
    if ops is None:
        return None, "no convtune module for %d-D %s layers is loaded" % (g.dims, dtype)
    return [p for p in ops.mod.SETS if ops.exact(p, _fields(g, ops.mod.FIELDS, ops.modes, p))], None


def convert(model, *inputs, verbose=True, **kwargs):
    """Turn, in place, the nn.Conv1d / nn.Conv2d layers of model whose shapes
    were tuned into Conv1d / Conv2d (parameters, hooks and state-dict keys
    unchanged); the others stay as they are. With example inputs, a layer
    counts as tuned where one of its passes has a kernel tuned for exactly the
    sizes that call gives it; without, where one was tuned for its channels,
    kernel, stride, padding, dilation, groups and bias at any size. Prints
    (verbose) and returns [(layer name, converted, why)]. Returns model's rows
    also as model.convtune_conversion."""
    seen = _capture(model, inputs, kwargs) if inputs else {}
    rows = []
    for name, m in model.named_modules():
        if type(m) not in (nn.Conv1d, nn.Conv2d):
            continue
        dims = 1 if type(m) is nn.Conv1d else 2
        if name in seen:
            g, dtype = seen[name]
            have, why = _tuned_for(g, dtype)
            why = why or ("tuned: %s" % ", ".join(have) if have else "no pass tuned for %s" % spec(g, "fwd", dtype))
        else:
            have, why = _tuned_any_size(m, dims)
        if have:
            m.__class__ = Conv1d if dims == 1 else Conv2d
            if dims == 1:
                m.causal = False
        rows.append((name, bool(have), why))
    if verbose:
        for name, done, why in rows:
            print("convtune: %-30s %s (%s)" % (name or "<model>", "converted" if done else "kept", why))
    model.convtune_conversion = rows
    return model


def _tuned_any_size(m, dims):
    dtype = m.weight.dtype
    ops = _registry.get((dims, dtype))
    if ops is None:
        return None, "no convtune module for %d-D %s layers is loaded" % (dims, dtype)
    stride, padding, dilation, groups, causal = _layer_args(m, dims)
    k = tuple(m.weight.shape[2:])
    st, dl = _pair(stride, dims, "stride"), _pair(dilation, dims, "dilation")
    lo, hi = _padding(padding, dims, k, dl, st, causal)
    sizes = {"b", "h", "w", "l", "layout"}
    have = []
    for p, st_ in ops.mod.SETS.items():
        g = _Geom()
        g.dims, g.b, g.cin, g.cout, g.n, g.k = dims, 1, m.in_channels, m.out_channels, (1 << 20,) * dims, k
        g.stride, g.dilation, g.lo, g.hi, g.groups = st, dl, lo, hi, groups
        g.bias, g.cl, g.out = int(m.bias is not None), 0, (1,) * dims
        f = _fields(g, ops.mod.FIELDS, ops.modes, p)
        if f is None:
            continue
        # Each tuned problem's sizes with this layer's other fields: exact
        # where the layer is that problem at another size (the selector's
        # pick spells both alike: 'same' and its padding are one layer).
        for t in st_["tuned"]:
            at = tuple(t[i] if n in sizes else f[i] for i, n in enumerate(ops.mod.FIELDS))
            if ops.exact(p, at):
                have.append(p)
                break
    return have, ("tuned at some size: %s" % ", ".join(have) if have else "no pass tuned for this layer's "
                  "channels, kernel, stride, padding, dilation, groups and bias")


def report(model=None, file=None):
    """Which side ran each pass of each layer seen in this process (all
    loaded modules; with model, also its conversion rows), printed to file
    (default stdout) and returned as a list of dicts."""
    rows = [r for ops in _by_name.values() for r in ops.seen.values()]
    out = file or sys.stdout
    if model is not None:
        for name, done, why in getattr(model, "convtune_conversion", []):
            print("layer %-30s %s (%s)" % (name or "<model>", "convtune op" if done else "nn module", why), file=out)
    for r in rows:
        print("%-6s %-9s %-60s %s" % (r["pass"], r["side"], r["problem"] or "?", r["why"]), file=out)
    return rows
