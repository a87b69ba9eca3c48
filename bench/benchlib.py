"""What the benchmark scripts share: event timing, the relative error, running
convtune, and loading an exported kernel through CuPy."""
import ctypes
import re
import subprocess
import warnings

import cupy
import torch


def median_ms(fn, reps=21, warmup=5, batch_ms=2.0):
    """Median time of one call in ms. Each of the reps events brackets a batch
    of calls issued back to back, enough for about batch_ms of GPU work, so the
    GPU queue stays ahead of the host and the time is the kernel's, not the
    Python launch overhead (which a user calling from C, or a model whose
    queue is full, does not see): a 37 us kernel timed one call per event
    pair read 111 us through CuPy."""
    for _ in range(warmup):
        fn()
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record()
    for _ in range(10):
        fn()
    b.record()
    torch.cuda.synchronize()
    inner = max(1, min(1000, int(batch_ms * 10 / max(a.elapsed_time(b), 1e-3))))
    start = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stop = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        start[i].record()
        for _ in range(inner):
            fn()
        stop[i].record()
    torch.cuda.synchronize()
    t = sorted(s.elapsed_time(e) / inner for s, e in zip(start, stop))
    return t[reps // 2]


def _cupy_on(stream):
    """CuPy's current stream set to a PyTorch stream (ExternalStream warns
    that it is deprecated in newer CuPy; it is what this CuPy has)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return cupy.cuda.ExternalStream(stream.cuda_stream)


def graph_ms(fn, reps=21, batch_ms=2.0):
    """Median time of one call in ms with the calls captured in a CUDA graph:
    each of the reps events brackets one replay of a graph of back-to-back
    calls (about batch_ms of GPU work), so what is timed is the GPU's, launch
    gaps included, not the host's: a kernel shorter than the host takes to
    launch it (CuPy: about 10 us a call) is otherwise timed at the launch
    rate. This is how a latency-bound user calls short kernels (PyTorch's
    CUDA graphs). fn launches on CuPy's and PyTorch's current streams, which
    are the capture's; it is warmed up on a side stream first (cuDNN's
    benchmark mode chooses its algorithm there). Returns None when fn cannot
    be captured."""
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side), _cupy_on(side):
        for _ in range(3):
            fn()
    torch.cuda.current_stream().wait_stream(side)
    torch.cuda.synchronize()
    inner = max(1, min(1000, int(batch_ms / max(median_ms(fn, reps=5, warmup=1), 1e-3))))
    g = torch.cuda.CUDAGraph()
    try:
        with torch.cuda.graph(g), _cupy_on(torch.cuda.current_stream()):
            for _ in range(inner):
                fn()
    except Exception:   # not capturable (a library call that synchronizes, say)
        torch.cuda.synchronize()
        return None
    g.replay()
    torch.cuda.synchronize()
    start = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    stop = [torch.cuda.Event(enable_timing=True) for _ in range(reps)]
    for i in range(reps):
        start[i].record()
        g.replay()
        stop[i].record()
    torch.cuda.synchronize()
    t = sorted(s.elapsed_time(e) / inner for s, e in zip(start, stop))
    return t[reps // 2]


def relerr(out, ref):
    out = torch.as_tensor(out, device="cuda").double().flatten()
    if not torch.isfinite(out).all():
        return float("inf")
    return (torch.linalg.vector_norm(out - ref.flatten()) / torch.linalg.vector_norm(ref)).item()


def run_convtune(binary, args):
    r = subprocess.run([binary] + args, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"convtune {' '.join(args)} failed ({r.returncode}): {r.stderr.strip()}")
    return r.stdout


def arch_suffix(cc):
    """'a' on compute capability 9.0, as convtune compiles there (sm_90a:
    wgmma), else ''."""
    return "a" if tuple(cc) == (9, 0) else ""


def load_exported(path):
    """The exported kernel through NVRTC (CuPy), its launch geometry and name."""
    src = open(path).read()
    macro = lambda m: int(re.search(rf"#define {m} (\d+)", src).group(1))
    name = re.search(r"^// template:\s+(\S+)", src, re.M).group(1)
    cc = torch.cuda.get_device_capability()
    mod = cupy.RawModule(code=src, options=("-std=c++17", f"--gpu-architecture=sm_{cc[0]}{cc[1]}{arch_suffix(cc)}"))
    return (mod, mod.get_function(name), (macro("CT_GRID_X"), macro("CT_GRID_Y"), macro("CT_GRID_Z")),
            (macro("CT_BLOCK_X"), macro("CT_BLOCK_Y"), macro("CT_BLOCK_Z")), macro("CT_SMEM_BYTES"))


def load_exported_lib(path, symbol, nargs):
    """An exported file whose launcher is host code (several launches, a
    library such as cuFFT): build it as a shared library with nvcc and return
    the C launcher (nargs device pointers, then the stream) through ctypes."""
    src = open(path).read()
    so = path[:-3] + ".so"
    cc = torch.cuda.get_device_capability()
    libs = re.findall(r"link with (-l\w+)", src)
    a = f"{cc[0]}{cc[1]}{arch_suffix(cc)}"   # -gencode: nvcc -arch=sm_90a also runs a plain sm_90 pass
    subprocess.run(["nvcc", f"-gencode=arch=compute_{a},code=sm_{a}", "-O3", "-shared", "-Xcompiler", "-fPIC", path, "-o", so]
                   + libs, check=True)
    fn = getattr(ctypes.CDLL(so), symbol)
    fn.restype = ctypes.c_int
    fn.argtypes = [ctypes.c_void_p] * (nargs + 1)
    return fn


def needs_host_code(path):
    """Whether an exported winner must be called through its C launcher:
    several launches, or a kernel taking TMA tensor maps that its launcher
    encodes at every call."""
    text = open(path).read()
    return "This winner is several launches" in text or "cuTensorMapEncodeTiled" in text


def as_cupy(t):
    """A CuPy view of a CUDA tensor's memory, for kernel arguments and
    __constant__ copies; 16-bit floats as int16 (CuPy has no bfloat16)."""
    t = t.contiguous()
    return cupy.asarray(t.view(torch.int16) if t.element_size() == 2 and t.is_floating_point() else t)


def exported_launcher(path, canonical, inputs, out, symbols=()):
    """launch() of the exported winner in path on CuPy's current stream (a
    graph capture's, under graph_ms), called as its C launcher calls it:
    inputs are CuPy arrays in buffer order, out the output's. symbols[i],
    where given, names the __constant__ array the kernel may read inputs[i]
    from; where the kernel declares it, every call copies the input there
    device to device first, as the launcher does (a training step's weights
    are new each step, so the copy is part of a call's cost). A winner of
    several launches is built with nvcc and called through its C launcher,
    which copies what it needs itself."""
    if needs_host_code(path):
        symbol = "convtune_" + re.sub(r"[^0-9A-Za-z]", "_", canonical)
        fn = load_exported_lib(path, symbol, len(inputs) + 1)
        ptrs = [c.data.ptr for c in inputs] + [out.data.ptr]

        def launch():
            rc = fn(*ptrs, cupy.cuda.get_current_stream().ptr)
            if rc != 0:
                raise RuntimeError(f"{symbol} returned {rc}")
        return launch
    mod, kern, grid, block, smem = load_exported(path)
    if smem:
        # Past 48 KiB (with the static part) the launch must opt in.
        kern.max_dynamic_shared_size_bytes = smem
    copies = []
    for c, sym in zip(inputs, symbols):
        if not sym:
            continue
        try:
            g = mod.get_global(sym)
        except Exception:
            continue  # this winner reads it from global memory
        copies.append((g.ptr, c.data.ptr, c.nbytes))
    args = tuple(inputs) + (out,)
    d2d = getattr(cupy.cuda.runtime, "memcpyDeviceToDevice", 3)   # cudaMemcpyDeviceToDevice

    def launch(_mod=mod):  # the module lives as long as the launcher
        stream = cupy.cuda.get_current_stream().ptr
        for dst, src, n in copies:
            cupy.cuda.runtime.memcpyAsync(dst, src, n, d2d, stream)
        kern(grid, block, args, shared_mem=smem)
    return launch
