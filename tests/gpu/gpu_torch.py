#!/usr/bin/env python3
"""gpu_torch.py - `convtune export --torch` on a GPU: tunes small problems of
every family with a tiny budget into a fresh database, exports each with
--torch (and every family with --family F --torch), then, each module in
its own Python process:

  * compares conv(...) in float64 with F.conv1d / F.conv2d (and, for conv1d,
    with a direct float64 cross-correlation) within the verification
    tolerance (relative L2 error <= 1e-5; for bf16 and f16 problems, whose
    modules take torch.bfloat16 / torch.float16 tensors, twice the type's
    unit roundoff, 2^-7 and 2^-10, against float64 of the same rounded
    inputs);
  * checks the ValueErrors for a wrong dtype, shape, device (CPU), a
    non-contiguous and a misaligned tensor, and that backward raises an
    error saying the kernels are forward-only;
  * runs it on a side stream and under torch.cuda.graph capture (replayed
    on new inputs);
  * for the family modules: the results and grades (exact for tuned sizes,
    nearest_size for another), and for conv1d the mode checks; the half
    family modules (--family F --dtype bf16|f16, one per family and type
    among the problems tuned) in their type, with its tolerance.

A module, a half one and a family one are also built the other way
(CONVTUNE_TORCH_BUILD=nvcc: nvcc and ctypes) to exercise both. Exits 77
(skipped) without PyTorch or a GPU.

    gpu_torch.py CONVTUNE            (from CTest: ctest -R gpu_torch)
"""
import concurrent.futures
import importlib, os, subprocess, sys, tempfile

from torch_check import Checker, relerr, run

SKIP = 77
TOL = 1e-5
# Half problems: twice the unit roundoff of the type (ct_dtype_tolerance).
HALF_TOL = {"bf16": 2.0 ** -7, "f16": 2.0 ** -10}
SINGLE = ["conv1d:4096:31", "conv1d:1000:17:same", "conv1d:777:9:right",
          "conv1dc:2:8:64:16:3:pad=1:bias", "conv1dc:1:4:50:4:5",
          "conv2d:2:64:64:5:5:same", "conv2d:3:40:33:3:4",
          "conv2dc:2:3:32:32:8:3:3:same:bias", "conv2dc:4:2:20:20:4:5:5",
          # channels last: the activations in memory order ([B][L][C], [B][H][W][C])
          "conv1dc:2:16:64:16:4:causal:groups=16:nlc", "conv1dc:2:6:40:9:3:pad=1:stride=2:groups=3:bias:nlc",
          "conv2dc:2:3:20:20:8:3:3:pad=1:stride=2:bias:nhwc", "conv2dc:1:4:9:11:4:5:5:same:groups=4:nhwc",
          # half precision: torch.bfloat16 / torch.float16 tensors, channels last too
          "conv1d:4096:31:bf16", "conv1d:1000:17:same:f16", "conv2d:2:64:64:5:5:same:bf16",
          "conv1dc:2:8:64:16:3:pad=1:bias:bf16", "conv2dc:2:3:32:32:8:3:3:same:bias:f16",
          "conv2dc:2:16:20:20:16:3:3:pad=1:bias:bf16",
          "conv1dc:2:16:64:16:4:causal:groups=16:nlc:bf16", "conv2dc:2:16:20:20:16:3:3:pad=1:nhwc:f16",
          "conv2dc:1:8:9:11:8:5:5:same:groups=8:nhwc:bf16"]
FAMILY_UNTUNED = [(3000, 50, "same"), (5000, 31, "valid"), (100, 3, "right")]


# ---------------------------------------------------------------------------
# Checking one module (in a child process)

def pad_same(k):
    return (k - 1) // 2, k - 1 - (k - 1) // 2


def layer_opts(f):
    """The optional fields of a conv1dc / conv2dc problem's fields f, as a
    dict: pad (a pair), causal, stride and dilation (pairs), groups, bias,
    mode (conv2dc) and cl (channels last)."""
    o = {"pad": (0, 0), "causal": 0, "stride": (1, 1), "dilation": (1, 1), "groups": 1, "bias": 0, "mode": "valid",
         "cl": 0}
    for v in f:
        key, _, val = v.partition("=")
        if key in ("pad", "stride", "dilation"):
            p = [int(x) for x in val.split(",")]
            o[key] = (p[0], p[-1])
            if key == "pad":
                o["mode"] = "pad"
        elif key == "groups":
            o["groups"] = int(val)
        elif v in ("causal", "bias"):
            o[v] = 1
        elif v in ("valid", "same"):
            o["mode"] = v
        elif v in ("nlc", "nhwc"):
            o["cl"] = 1
    return o


def reference(problem, ts):
    """float64 references of the problem for inputs ts: a list of tensors
    that must all agree with the kernel."""
    import torch.nn.functional as F
    f = problem.split(":")
    d = [t.double() for t in ts]
    bias = "bias" in f
    if f[0] == "conv1d":
        k, mode = int(f[2]), f[3]
        x, m = d
        lr = {"valid": (0, 0), "same": pad_same(k), "right": (0, k - 1)}[mode]
        xp = F.pad(x, lr)
        return [F.conv1d(xp[None, None], m[None, None])[0, 0], (xp.unfold(0, k, 1) * m).sum(1)]
    if f[0] == "conv1dc":
        o, k = layer_opts(f), int(f[5])
        x = d[0].permute(0, 2, 1) if o["cl"] else d[0]
        pad = o["pad"][0]
        if o["causal"]:
            x, pad = F.pad(x, ((k - 1) * o["dilation"][0], 0)), 0
        y = F.conv1d(x, d[1], d[2] if bias else None, stride=o["stride"][0], padding=pad, dilation=o["dilation"][0],
                     groups=o["groups"])
        return [y.permute(0, 2, 1) if o["cl"] else y]
    if f[0] == "conv2d":
        kh, kw, mode = int(f[4]), int(f[5]), f[6]
        x = d[0][:, None]
        if mode == "same":
            x = F.pad(x, pad_same(kw) + pad_same(kh))
        return [F.conv2d(x, d[1][None, None])[:, 0]]
    if f[0] == "conv2dc":
        o, kh, kw = layer_opts(f), int(f[6]), int(f[7])
        x = d[0].permute(0, 3, 1, 2) if o["cl"] else d[0]
        dh, dw = o["dilation"]
        if o["mode"] == "same":
            x = F.pad(x, pad_same(dw * (kw - 1) + 1) + pad_same(dh * (kh - 1) + 1))
        y = F.conv2d(x, d[1], d[2] if bias else None, stride=o["stride"], padding=o["pad"], dilation=o["dilation"],
                     groups=o["groups"])
        return [y.permute(0, 2, 3, 1) if o["cl"] else y]
    raise ValueError(problem)


def element_type(problem):
    """The torch dtype of a problem's tensors and its tolerance."""
    import torch
    t = problem.split(":")[-1]
    if t in HALF_TOL:
        return (torch.bfloat16 if t == "bf16" else torch.float16), HALF_TOL[t]
    return torch.float32, TOL


def check_single(mod, c):
    import torch
    names = list(mod.SHAPES)
    dt, tol = element_type(mod.PROBLEM)
    # Inputs rounded to the type; the float64 references read the same values.
    ins = [torch.randn(mod.SHAPES[n], device="cuda", dtype=torch.float32).to(dt) for n in names]
    out = mod.conv(*ins)
    torch.cuda.synchronize()
    c.check(tuple(out.shape) == mod.OUT_SHAPE and out.dtype == dt, "output %s %s" % (out.shape, out.dtype))
    for i, ref in enumerate(reference(mod.PROBLEM, ins)):
        e = relerr(out, ref)
        print("  %s: relerr %.2e against reference %d (build: %s)" % (mod.PROBLEM, e, i, mod.BUILD))
        c.check(e <= tol, "relative error %.3g > %g against reference %d" % (e, tol, i))

    def with_(i, t):
        return lambda: mod.conv(*(ins[:i] + [t] + ins[i + 1:]))
    for i, n in enumerate(names):
        shape = mod.SHAPES[n]
        c.raises(with_(i, ins[i].double()), [n, "dtype"], "%s float64" % n)
        if dt != torch.float32:
            c.raises(with_(i, ins[i].float()), [n, "dtype"], "%s float32 for a half module" % n)
        c.raises(with_(i, ins[i].cpu()), [n, "CUDA"], "%s on the CPU" % n)
        c.raises(with_(i, torch.randn(tuple(s + 1 for s in shape), device="cuda", dtype=dt)), [n, "shape"],
                 "%s shape" % n)
        wide = torch.randn(*shape[:-1], 2 * shape[-1], device="cuda", dtype=dt)[..., ::2]
        c.raises(with_(i, wide), [n, "contiguous"], "%s strided" % n)
        numel = ins[i].numel()
        c.raises(with_(i, torch.randn(numel + 1, device="cuda", dtype=dt)[1:].view(shape)), [n, "aligned"],
                 "%s misaligned" % n)
    x = ins[0].clone().requires_grad_()
    y = mod.conv(x, *ins[1:])
    c.raises(lambda: y.sum().backward(), ["forward-only"], "backward")

    refs = reference(mod.PROBLEM, ins)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        out2 = mod.conv(*ins)
    side.synchronize()
    c.check(relerr(out2, refs[0]) <= tol, "on a side stream: wrong result")

    static = [t.clone() for t in ins]
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(2):
            mod.conv(*static)
    torch.cuda.current_stream().wait_stream(side)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_out = mod.conv(*static)
    fresh = [torch.randn(t.shape, device="cuda").to(dt) for t in static]
    for a, b in zip(static, fresh):
        a.copy_(b)
    g.replay()
    torch.cuda.synchronize()
    e = relerr(static_out, reference(mod.PROBLEM, fresh)[0])
    print("  %s: CUDA graph replay on new inputs: relerr %.2e" % (mod.PROBLEM, e))
    c.check(e <= tol, "CUDA graph replay: relative error %.3g" % e)


def check_family(mod, c):
    import torch
    dt, tol = element_type(mod.TUNED[0])
    sizes = []
    for p in mod.TUNED:
        f = p.split(":")
        sizes.append((int(f[1]), int(f[2]), f[3], "exact"))
    sizes += [(n, k, m, "nearest_size") for n, k, m in FAMILY_UNTUNED]
    for n, k, mode, grade in sizes:
        x = torch.randn(n, device="cuda", dtype=dt)
        m = torch.randn(k, device="cuda", dtype=dt)
        out = mod.conv(x, m, mode=mode)
        torch.cuda.synchronize()
        tuned_modes = {p.split(":")[3] for p in mod.TUNED}
        want = grade if mode in tuned_modes else "generic"
        got = mod.last_grade_name()
        c.check(got in (want, "other_device"), "conv1d:%d:%d:%s: grade %s, expected %s" % (n, k, mode, got, want))
        for i, ref in enumerate(reference("conv1d:%d:%d:%s" % (n, k, mode), [x, m])):
            e = relerr(out, ref)
            print("  family conv1d:%d:%d:%s (%s): relerr %.2e against reference %d" % (n, k, mode, got, e, i))
            c.check(e <= tol, "conv1d:%d:%d:%s: relative error %.3g" % (n, k, mode, e))
    x, m = torch.randn(100, device="cuda", dtype=dt), torch.randn(5, device="cuda", dtype=dt)
    c.raises(lambda: mod.conv(x, m, mode="full"), ["mode"], "mode full")
    c.raises(lambda: mod.conv(x.view(10, 10), m), ["input", "1-D"], "2-D input")
    c.raises(lambda: mod.conv(m, x), ["mask", "valid"], "mask longer than the input")
    c.raises(lambda: mod.conv(x.double(), m), ["input", "dtype"], "float64 input")
    xg = x.clone().requires_grad_()
    y = mod.conv(xg, m)
    c.raises(lambda: y.sum().backward(), ["forward-only"], "backward")
    static_x, static_m = x.clone(), m.clone()
    mod.conv(static_x, static_m, mode="same")
    torch.cuda.synchronize()
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_out = mod.conv(static_x, static_m, mode="same")
    static_x.copy_(torch.randn_like(static_x))
    g.replay()
    torch.cuda.synchronize()
    e = relerr(static_out, reference("conv1d:100:5:same", [static_x, static_m])[0])
    c.check(e <= tol, "family under CUDA graph: relative error %.3g" % e)


def layer_call(spec):
    """The tensor shapes and keyword arguments of a conv1dc, conv2d or
    conv2dc problem, for its family module's conv()."""
    f = spec.split(":")
    n = [int(v) for v in f[1:] if v.isdigit()]
    bias = "bias" in f
    if f[0] == "conv2d":
        b, h, w, kh, kw = n[:5]
        return [(b, h, w), (kh, kw)], {"mode": f[6]}
    o = layer_opts(f)
    if f[0] == "conv1dc":
        b, cin, l, cout, k = n[:5]
        kw = {"pad": o["pad"][0], "causal": o["causal"], "stride": o["stride"][0], "dilation": o["dilation"][0],
              "groups": o["groups"], "layout": "nlc" if o["cl"] else "ncl"}
        return [(b, l, cin) if o["cl"] else (b, cin, l), (cout, cin // o["groups"], k)] + \
            ([(cout,)] if bias else []), kw
    b, cin, h, w, cout, kh, kw = n[:7]
    args = {"mode": o["mode"], "ph": o["pad"][0], "pw": o["pad"][1], "sh": o["stride"][0], "sw": o["stride"][1],
            "dh": o["dilation"][0], "dw": o["dilation"][1], "groups": o["groups"], "layout": "nhwc" if o["cl"] else "nchw"}
    return [(b, h, w, cin) if o["cl"] else (b, cin, h, w), (cout, cin // o["groups"], kh, kw)] + \
        ([(cout,)] if bias else []), args


def check_family_layers(mod, c):
    import torch
    dt, tol = element_type(mod.TUNED[0])
    for spec in mod.TUNED:
        shapes, kw = layer_call(spec)
        # One more position along the last spatial dimension: the last one,
        # or the one before the channels in a channels-last layout.
        a = len(shapes[0]) - (2 if kw.get("layout") in ("nlc", "nhwc") else 1)
        wider = [shapes[0][:a] + (shapes[0][a] + 1,) + shapes[0][a + 1:]] + shapes[1:]
        for sh, want in ((shapes, "exact"), (wider, "nearest_size")):
            ts = [torch.randn(s, device="cuda", dtype=dt) for s in sh]
            out = mod.conv(*ts, **kw)
            torch.cuda.synchronize()
            got = mod.last_grade_name()
            c.check(got in (want, "other_device"), "%s %s: grade %s, expected %s" % (spec, sh, got, want))
            e = relerr(out, reference(spec, ts)[0])
            print("  family %s %s (%s): relerr %.2e" % (spec, sh, got, e))
            c.check(e <= tol, "%s %s: relative error %.3g" % (spec, sh, e))
    # A conv2dc layer tuned as `same` (stride 1, odd kernel) asked for with
    # its padding spelled out is the same layer: the tuned kernel (exact).
    # (conv2d has no pad argument: its `same` has no other spelling.)
    for spec in mod.TUNED:
        shapes, kw = layer_call(spec)
        if not spec.startswith("conv2dc:") or kw["mode"] != "same" or kw["sh"] != 1 or kw["sw"] != 1:
            continue
        kh, kwd = shapes[1][2], shapes[1][3]
        if kh % 2 == 0 or kwd % 2 == 0:
            continue
        padded = dict(kw, mode="pad", ph=kw["dh"] * (kh - 1) // 2, pw=kw["dw"] * (kwd - 1) // 2)
        ts = [torch.randn(s, device="cuda", dtype=dt) for s in shapes]
        out = mod.conv(*ts, **padded)
        torch.cuda.synchronize()
        got = mod.last_grade_name()
        c.check(got in ("exact", "other_device"), "%s as pad=%d,%d: grade %s, expected exact" % (
            spec, padded["ph"], padded["pw"], got))
        e = relerr(out, reference(spec, ts)[0])
        print("  family %s as pad=%d,%d (%s): relerr %.2e" % (spec, padded["ph"], padded["pw"], got, e))
        c.check(e <= tol, "%s as pad: relative error %.3g" % (spec, e))
    shapes, kw = layer_call(mod.TUNED[0])
    ts = [torch.randn(s, device="cuda", dtype=dt) for s in shapes]
    c.raises(lambda: mod.conv(ts[0].double(), *ts[1:], **kw), ["input", "dtype"], "float64 input")
    c.raises(lambda: mod.conv(ts[0][None], *ts[1:], **kw), ["input", "-D"], "input of another rank")
    xg = ts[0].clone().requires_grad_()
    y = mod.conv(xg, *ts[1:], **kw)
    c.raises(lambda: y.sum().backward(), ["forward-only"], "backward")


def child(directory, name, want_build):
    sys.path.insert(0, directory)
    mod = importlib.import_module(name)
    c = Checker(name)
    if hasattr(mod, "TUNED") and mod.TUNED[0].startswith("conv1d:"):
        check_family(mod, c)
    elif hasattr(mod, "TUNED"):
        check_family_layers(mod, c)
    else:
        check_single(mod, c)
    # A family module builds with nvcc and calls its selectors through
    # ctypes (its runtime, convtune_torch.py); a single one either way.
    build = mod._LIB.build if hasattr(mod, "_LIB") else mod.BUILD
    print("  %s: built with %s" % (name, build))
    if hasattr(mod, "_LIB"):
        c.check(build == "nvcc", "built with %s, expected nvcc" % build)
    elif want_build:
        c.check(build == want_build, "built with %s, expected %s" % (build, want_build))
    return 1 if c.failures else 0


# ---------------------------------------------------------------------------
# The driver

def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--module":
        return child(sys.argv[2], sys.argv[3], sys.argv[4] if sys.argv[4] != "-" else None)
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    ct = sys.argv[1]
    try:
        import torch
        if not torch.cuda.is_available():
            print("SKIPPED: PyTorch sees no CUDA device")
            return SKIP
    except ImportError:
        print("SKIPPED: no PyTorch")
        return SKIP
    print("PyTorch %s (CUDA %s) on %s" % (torch.__version__, torch.version.cuda, torch.cuda.get_device_name()))
    tmp = tempfile.mkdtemp(prefix="ct_gpu_torch_")
    db, out = os.path.join(tmp, "t.db"), os.path.join(tmp, "mods")
    os.mkdir(out)
    # Both ways of building write only under tmp.
    env = dict(os.environ, CONVTUNE_TORCH_CACHE=os.path.join(tmp, "cache"),
               TORCH_EXTENSIONS_DIR=os.path.join(tmp, "torch_extensions"))
    failures = 0
    modules = []
    for spec in SINGLE:
        if run([ct, "--problem", spec, "--db", db, "--budget", "5", "--seed", "3"]).returncode != 0:
            failures += 1
            continue
        p = run([ct, "export", "--problem", spec, "--torch", "-o", out, "--db", db])
        if p.returncode != 0:
            failures += 1
            continue
        name = [l for l in os.listdir(out) if l.endswith(".py")]
        modules += [n[:-3] for n in name if n[:-3] not in modules]
    for fam in ("conv1d", "conv1dc", "conv2d", "conv2dc"):
        p = run([ct, "export", "--family", fam, "--torch", "-o", out, "--db", db])
        failures += p.returncode != 0
        if p.returncode == 0:
            modules.append("convtune_" + fam)
    # The half family modules (--dtype): every family and type SINGLE tunes.
    for fam, t in sorted({(s.split(":")[0], s.split(":")[-1]) for s in SINGLE if s.split(":")[-1] in HALF_TOL}):
        p = run([ct, "export", "--family", fam, "--dtype", t, "--torch", "-o", out, "--db", db])
        failures += p.returncode != 0
        if p.returncode == 0:
            modules.append("convtune_%s_%s" % (fam, t))
    # Where cpp_extension.load can work (ninja, nvcc of PyTorch's CUDA major
    # version), the modules must have been built with it; elsewhere they fall
    # back to nvcc and ctypes, with a warning.
    from torch.utils import cpp_extension
    nvcc = os.path.join(cpp_extension.CUDA_HOME or "/usr/local/cuda", "bin", "nvcc")
    v = subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout
    nvcc_major = v.split("release ")[1].split(".")[0] if "release " in v else "?"
    can_load = cpp_extension.is_ninja_available() and nvcc_major == (torch.version.cuda or "").split(".")[0]
    print("ninja: %s; nvcc CUDA %s, PyTorch CUDA %s: the modules should build with %s" % (
        cpp_extension.is_ninja_available(), nvcc_major, torch.version.cuda,
        "cpp_extension" if can_load else "nvcc (fallback)"))
    # Each module is checked in its own process; they build (nvcc, most of
    # the time) side by side, each in its own extension folder, and their
    # output is printed whole, in order.
    def check(name):
        return subprocess.run([sys.executable, __file__, "--module", out, name, "cpp_extension" if can_load else "-"],
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, min(8, os.cpu_count() or 1))) as pool:
        for r in pool.map(check, modules):
            sys.stdout.write(r.stdout)
            sys.stdout.flush()
            failures += r.returncode != 0
    # The other way of building: nvcc and ctypes, for a conv2d, a half module
    # (void pointers through ctypes) and the family module.
    halves = [m for m in modules if m.endswith("_bf16") or m.endswith("_f16")]
    for name in [m for m in modules if m.startswith("conv2d_")][:1] + halves[:1] + ["convtune_conv1d"]:
        if name in modules:
            r = subprocess.run([sys.executable, __file__, "--module", out, name, "nvcc"],
                               env=dict(env, CONVTUNE_TORCH_BUILD="nvcc"))
            failures += r.returncode != 0
    print("%d modules checked, %d failures" % (len(modules), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
