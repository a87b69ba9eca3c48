#!/usr/bin/env python3
"""gpu_torch_ops.py - the PyTorch ops of `convtune export --family F --torch`
on a GPU (templates/torch/convtune_torch.py). Tunes, with a tiny budget into a
fresh database, the forward pass and both training passes of small layers of
conv1dc and conv2dc (fp32 and bf16, both layouts, with and without bias,
stride, padding forms, depthwise, causal), exports the four family modules
(fp32 and bf16 of each family), then, each module in its own process:

  * autograd against PyTorch's gradients in float64, every tuned layer, with
    convtune's kernels forced (its verification tolerance: relative L2 error
    <= 1e-5 for fp32, 2^-7 for bf16 against float64 of the same rounded
    inputs) and with PyTorch's forced (its own result, TF32 off);
  * the automatic choice: measured on first use, stored next to the module,
    reported per pass (report());
  * needs_input_grad: a frozen weight runs no weight gradient; a frozen input
    no input gradient;
  * torch.library.opcheck of the forward op (with autograd) and of the dgrad
    and wgrad ops;
  * torch.compile(model, fullgraph=True) of a converted model, against eager;
  * a CUDA-graph capture of a whole training step (forward, backward, SGD),
    replayed, against the same steps in eager mode;
  * fallback: an untuned size runs PyTorch's kernel (report says why), and
    raises ValueError under set_policy(untuned="raise");
  * refusals: wrong dtype (TypeError), CPU tensor, wrong weight or bias shape
    (ValueError naming the tensor);
  * convert(): tuned layers become the module's Conv1d / Conv2d, untuned
    ones stay, state-dict keys unchanged; problems() gives the problem string
    of each pass, which convtune accepts.

Exits 77 (skipped) without PyTorch or a GPU.

    gpu_torch_ops.py CONVTUNE
"""
import os
import subprocess
import sys
import tempfile

from torch_check import Checker, relerr, run

SKIP = 77
TOL = {"": 1e-5, "bf16": 2.0 ** -7}
# Each layer is tuned in its forward pass and both training passes.
LAYERS = {
    "": ["conv2dc:2:8:12:12:8:3:3:same:groups=8:bias", "conv2dc:2:6:10:9:4:3:3:pad=1:stride=2:bias",
         "conv2dc:2:4:11:11:8:5:5:same:nhwc", "conv1dc:2:8:33:8:3:pad=1:bias",
         "conv1dc:2:16:40:16:4:causal:groups=16:bias:nlc"],
    "bf16": ["conv2dc:2:16:12:12:16:7:7:same:groups=16:bias:nhwc", "conv2dc:2:8:10:10:16:3:3:pad=1",
             "conv1dc:2:16:40:16:4:causal:groups=16:nlc"],
}


# ---------------------------------------------------------------------------
# One module (child process)

def parse(spec):
    """A layer problem as the F.convNd call of the ops: dims, tensor shapes
    (logical, channels first), keyword arguments, channels last, bias."""
    f = spec.split(":")
    n = [int(v) for v in f[1:] if v.isdigit()]
    o = {"stride": 1, "dilation": 1, "groups": 1, "padding": 0, "causal": False}
    for v in f:
        key, _, val = v.partition("=")
        if key in ("stride", "dilation"):
            o[key] = tuple(int(x) for x in val.split(","))
        elif key == "pad":
            o["padding"] = tuple(int(x) for x in val.split(","))
        elif key == "groups":
            o["groups"] = int(val)
        elif v in ("same", "valid"):
            o["padding"] = v
        elif v == "causal":
            o["causal"] = True
    cl, bias = ("nhwc" in f or "nlc" in f), "bias" in f
    if f[0] == "conv1dc":
        b, cin, l, cout, k = n[:5]
        return 1, (b, cin, l), (cout, cin // o["groups"], k), o, cl, bias
    b, cin, h, w, cout, kh, kw = n[:7]
    if not o["causal"]:
        del o["causal"]
    return 2, (b, cin, h, w), (cout, cin // o["groups"], kh, kw), o, cl, bias


def make_input(shape, dims, cl, dtype):
    import torch
    x = torch.randn(shape, device="cuda").to(dtype)
    if cl:
        x = x.contiguous(memory_format=torch.channels_last) if dims == 2 else \
            x.transpose(1, 2).contiguous().transpose(1, 2)
    return x


def ref_conv(dims, x, w, b, o):
    """float64 forward by PyTorch's functional convolution."""
    import torch.nn.functional as F
    conv = F.conv1d if dims == 1 else F.conv2d
    o = dict(o)
    if o.pop("causal", False):
        k = w.shape[-1]
        d = o["dilation"][0] if isinstance(o["dilation"], tuple) else o["dilation"]
        return conv(F.pad(x, (d * (k - 1), 0)), w, b, **o)
    return conv(x, w, b, **o)


def check_grads(mod, c, spec, side, tol):
    """Forward and backward of one layer on one side against float64."""
    import torch
    dims, xs, ws, o, cl, bias = parse(spec)
    dt = mod.DTYPE
    mod.set_policy(side=side)
    x = make_input(xs, dims, cl, dt).requires_grad_()
    w = torch.randn(ws, device="cuda").to(dt).requires_grad_()
    b = torch.randn(ws[0], device="cuda").to(dt).requires_grad_() if bias else None
    conv = mod.conv1d if dims == 1 else mod.conv2d
    y = conv(x, w, b, **o)
    gy = torch.randn(y.shape, device="cuda").to(dt)
    (y * gy).sum().backward()
    torch.cuda.synchronize()
    xd, wd = x.detach().double().requires_grad_(), w.detach().double().requires_grad_()
    bd = b.detach().double().requires_grad_() if bias else None
    yd = ref_conv(dims, xd, wd, bd, o)
    (yd * gy.double()).sum().backward()
    c.check(tuple(y.shape) == tuple(yd.shape), "%s: output shape %s, expected %s" % (spec, tuple(y.shape),
                                                                                      tuple(yd.shape)))
    c.check(sys.modules["convtune_torch"]._is_cl(y, dims) == cl,
            "%s: output layout (channels last %d): strides %s" % (spec, cl, y.stride()))
    pairs = [("out", y, yd), ("dx", x.grad, xd.grad), ("dW", w.grad, wd.grad)] + \
        ([("db", b.grad, bd.grad)] if bias else [])
    for what, got, want in pairs:
        e = relerr(got, want)
        print("  %s [%s] %s: relerr %.2e" % (spec, side, what, e), flush=True)
        c.check(e <= tol, "%s [%s] %s: relative error %.3g > %g" % (spec, side, what, e, tol))
    mod.set_policy(side="auto")


def rt_specs(spec):
    """The problem strings the runtime names a layer's three passes by
    (its own spelling: report()'s rows), from the tuned forward problem."""
    import torch
    rt = sys.modules["convtune_torch"]
    dims, xs, ws, o, cl, bias = parse(spec)
    k = ws[2:]
    st, dl = rt._pair(o["stride"], dims, "stride"), rt._pair(o["dilation"], dims, "dilation")
    lo, hi = rt._padding(o["padding"], dims, k, dl, st, o.get("causal", False))
    dt = torch.bfloat16 if spec.endswith(":bf16") else torch.float32
    x = make_input(xs, dims, cl, dt)
    g = rt._geom(dims, x, torch.empty(ws, device="cuda", dtype=dt), bias, st, lo, hi, dl, o["groups"])
    return {rt.spec(g, p, dt) for p in rt.PASSES}


def check_module(mod, c):
    import torch
    import torch.nn as nn
    rt = sys.modules["convtune_torch"]
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    tname = "bf16" if mod.DTYPE == torch.bfloat16 else ""
    tol = TOL[tname]
    fwd = [p for p in mod.SETS["fwd"]["problems"]]
    c.check(set(mod.SETS) == {"fwd", "dgrad", "wgrad"}, "passes in the module: %s" % sorted(mod.SETS))
    for spec in fwd:
        check_grads(mod, c, spec, "convtune", tol)
        check_grads(mod, c, spec, "torch", max(tol, 1e-4))

    # The automatic choice: measured once, stored, reported.
    spec = fwd[0]
    dims, xs, ws, o, cl, bias = parse(spec)
    conv = mod.conv1d if dims == 1 else mod.conv2d
    x = make_input(xs, dims, cl, mod.DTYPE).requires_grad_()
    w = torch.randn(ws, device="cuda").to(mod.DTYPE).requires_grad_()
    b = torch.randn(ws[0], device="cuda").to(mod.DTYPE).requires_grad_() if bias else None
    conv(x, w, b, **o).sum().backward()
    rows = [r for r in mod.report() if r["module"] == mod.NAME and r["problem"] in rt_specs(spec)]
    for p in ("fwd", "dgrad", "wgrad"):
        got = [r for r in rows if r["pass"] == p and r["why"].startswith("measured")]
        c.check(got and got[0]["side"] in ("convtune", "torch") and got[0]["convtune_us"] > 0,
                "%s: no measured choice for %s in %s" % (spec, p, rows))
    path = os.path.join(os.path.dirname(mod.__file__), mod.NAME + ".decisions.json")
    c.check(os.path.exists(path), "the measured choices are not stored in %s" % path)

    # needs_input_grad: a frozen weight runs no weight gradient, a frozen
    # input no input gradient.
    calls = []
    ops = mod._OPS
    real_w, real_d = ops._wgrad, ops._dgrad
    ops._wgrad = lambda *a, **k: calls.append("wgrad") or real_w(*a, **k)
    ops._dgrad = lambda *a, **k: calls.append("dgrad") or real_d(*a, **k)
    try:
        wf = w.detach()
        conv(x, wf, None, **o).sum().backward()
        c.check(calls == ["dgrad"], "frozen weight: passes run %s, expected dgrad only" % calls)
        del calls[:]
        conv(x.detach(), w, None, **o).sum().backward()
        c.check(calls == ["wgrad"], "frozen input: passes run %s, expected wgrad only" % calls)
    finally:
        ops._wgrad, ops._dgrad = real_w, real_d

    # opcheck: the forward op with autograd, both training ops.
    for spec in fwd:
        dims, xs, ws, o, cl, bias = parse(spec)
        k = ws[2:]
        st = rt._pair(o["stride"], dims, "stride")
        dl = rt._pair(o["dilation"], dims, "dilation")
        lo, hi = rt._padding(o["padding"], dims, k, dl, st, o.get("causal", False))
        args = [list(st), list(lo), list(hi), list(dl), o["groups"]]
        x = make_input(xs, dims, cl, mod.DTYPE).requires_grad_()
        w = torch.randn(ws, device="cuda").to(mod.DTYPE).requires_grad_()
        b = torch.randn(ws[0], device="cuda").to(mod.DTYPE).requires_grad_() if bias else None
        try:
            torch.library.opcheck(mod._OPS.op, (x, w, b, *args))
            y = mod._OPS.op(x.detach(), w.detach(), b.detach() if bias else None, *args)
            dy = torch.randn_like(y)
            torch.library.opcheck(getattr(torch.ops.convtune, mod.NAME + "_dgrad").default,
                                  (dy, x.detach(), w.detach(), *args))
            torch.library.opcheck(getattr(torch.ops.convtune, mod.NAME + "_wgrad").default,
                                  (x.detach(), dy, w.detach(), bias, *args))
            c.check(True, "opcheck")
            print("  %s: opcheck passed (fwd, dgrad, wgrad)" % spec, flush=True)
        except Exception as exc:
            c.check(False, "%s: opcheck: %s" % (spec, str(exc)[:2000]))

    # Fallback on an untuned size, and the raising policy.
    spec = fwd[0]
    dims, xs, ws, o, cl, bias = parse(spec)
    big = (xs[0] + 1,) + xs[1:]
    x = make_input(big, dims, cl, mod.DTYPE)
    w = torch.randn(ws, device="cuda").to(mod.DTYPE)
    y = conv(x, w, None, **o)
    e = relerr(y, ref_conv(dims, x.double(), w.double(), None, o))
    c.check(e <= max(tol, 1e-4), "untuned size: PyTorch's result relerr %.3g" % e)
    rows = [r for r in mod.report() if r["module"] == mod.NAME and r["problem"] and
            r["problem"].split(":")[1] == str(big[0])]
    c.check(rows and rows[0]["side"] == "torch" and "not tuned" in rows[0]["why"], "untuned row: %s" % rows)
    mod.set_policy(untuned="raise")
    x2 = make_input((xs[0] + 2,) + xs[1:], dims, cl, mod.DTYPE)
    c.raises(lambda: conv(x2, w, None, **o), ["not tuned"], "untuned under untuned='raise'", ValueError)
    mod.set_policy(untuned="fallback")

    # Refusals.
    other = torch.float32 if mod.DTYPE != torch.float32 else torch.bfloat16
    xr = make_input(xs, dims, cl, mod.DTYPE)
    c.raises(lambda: conv(xr.to(other), w, None, **o), ["input", "takes"], "input of another dtype", TypeError)
    c.raises(lambda: conv(xr.cpu(), w, None, **o), ["input", "CUDA"], "CPU input", ValueError)
    c.raises(lambda: conv(xr, w[:, :1].contiguous() if w.shape[1] > 1 else torch.cat([w, w], 1), None, **o),
             ["weight"], "weight of the wrong shape", ValueError)
    c.raises(lambda: conv(xr, w, torch.randn(ws[0] + 1, device="cuda").to(mod.DTYPE), **o), ["bias"],
             "bias of the wrong shape", ValueError)

    # convert(), problems(), torch.compile and a CUDA-graph training step on
    # a model of the first tuned layer and an untuned one.
    plain = [p for p in fwd if ":causal" not in p]
    if not plain:   # nn.Conv1d has no causal padding: the module's only layers are causal
        return
    dims, xs, ws, o, cl, bias = parse(plain[0])
    Conv = nn.Conv1d if dims == 1 else nn.Conv2d
    o.pop("causal", None)
    pad = o["padding"]

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.a = Conv(xs[1], ws[0], ws[2:], stride=o["stride"], padding=pad, dilation=o["dilation"],
                          groups=o["groups"], bias=bias)
            self.b = Conv(ws[0], 3, 1)

        def forward(self, x):
            return self.b(torch.tanh(self.a(x)))
    torch.manual_seed(1)
    net0 = Net().to("cuda", mod.DTYPE)
    if True:
        keys = sorted(net0.state_dict())
        net = Net().to("cuda", mod.DTYPE)
        net.load_state_dict(net0.state_dict())
        if cl and dims == 2:
            net = net.to(memory_format=torch.channels_last)
        xin = make_input(xs, dims, cl, mod.DTYPE)
        mod.convert(net, xin)
        c.check(type(net.a).__name__ in ("Conv1d", "Conv2d") and type(net.a) is not Conv and type(net.b) is Conv,
                "convert: a %s, b %s" % (type(net.a), type(net.b)))
        c.check(sorted(net.state_dict()) == keys, "convert changed the state-dict keys")
        probs = rt.problems(net0, xin)
        c.check(len(probs) == 6, "problems(): %s" % probs)
        print("  problems(): %s" % probs)
        with torch.no_grad():
            want = net0(xin)
            got = net(xin)
            cnet = torch.compile(net, fullgraph=True)
            got_c = cnet(xin)
        e1, e2 = relerr(got, want.double()), relerr(got_c, want.double())
        print("  converted model: relerr %.2e eager, %.2e torch.compile(fullgraph=True)" % (e1, e2), flush=True)
        c.check(e1 <= max(tol, 1e-4) * 4 and e2 <= max(tol, 1e-4) * 4,
                "converted model: relerr %.3g eager, %.3g compiled" % (e1, e2))
        # A layer whose every pass chose PyTorch's kernel is nn's own again
        # after a step (no op on the step's path), and computes the same.
        mod.set_policy(side="torch")
        xg = xin.clone().requires_grad_()
        for _ in range(2):
            net(xg).sum().backward()
        plan = net.a.__dict__.get("_convtune_plan")
        c.check(plan is not None and plan[1], "every pass on PyTorch's side: the layer still runs the op (%r)" % (plan,))
        with torch.no_grad():
            e3 = relerr(net(xin), net0(xin).double())
        c.check(e3 <= max(tol, 1e-4) * 4, "the layer as nn's own again: relerr %.3g" % e3)
        mod.set_policy(side="auto")
        # A training step captured in a CUDA graph, replayed, against eager.
        mod.set_policy(side="convtune")
        ref = Net().to("cuda", mod.DTYPE)
        ref.load_state_dict(net0.state_dict())
        mod.convert(ref, xin, verbose=False)
        opt_r = torch.optim.SGD(ref.parameters(), lr=0.01)
        opt_n = torch.optim.SGD(net.parameters(), lr=0.01)
        static_x = xin.clone()
        side = torch.cuda.Stream()
        side.wait_stream(torch.cuda.current_stream())
        steps = [make_input(xs, dims, cl, mod.DTYPE) for _ in range(3)]
        with torch.cuda.stream(side):
            for _ in range(2):   # warm-up, as capture needs; then undo it
                opt_n.zero_grad(set_to_none=False)
                net(static_x).square().mean().backward()
        torch.cuda.current_stream().wait_stream(side)
        net.load_state_dict(net0.state_dict())
        opt_n = torch.optim.SGD(net.parameters(), lr=0.01)
        g = torch.cuda.CUDAGraph()
        opt_n.zero_grad(set_to_none=False)
        with torch.cuda.graph(g):
            loss = net(static_x).square().mean()
            loss.backward()
            opt_n.step()
        net.load_state_dict(net0.state_dict())   # the capture ran nothing; start both from the same weights
        for xb in steps:
            static_x.copy_(xb)
            for p in net.parameters():
                p.grad.zero_()
            g.replay()
            opt_r.zero_grad()
            ref(xb).square().mean().backward()
            opt_r.step()
        torch.cuda.synchronize()
        e = max(relerr(p, q.double()) for p, q in zip(net.parameters(), ref.parameters()))
        print("  CUDA-graph training step x3 against eager: max relerr of the weights %.2e" % e, flush=True)
        c.check(e <= max(tol, 1e-5) * 10, "CUDA-graph training step: weights differ by %.3g" % e)
        mod.set_policy(side="auto")


def child(directory, name):
    sys.path.insert(0, directory)
    import importlib
    mod = importlib.import_module(name)
    c = Checker(name)
    check_module(mod, c)
    print("%s: %d checks, %d failed" % (name, c.checks, c.failures), flush=True)
    return 1 if c.failures else 0


# ---------------------------------------------------------------------------
# The driver

def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--module":
        return child(sys.argv[2], sys.argv[3])
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
    tmp = tempfile.mkdtemp(prefix="ct_gpu_torch_ops_")
    db, out = os.path.join(tmp, "t.db"), os.path.join(tmp, "mods")
    os.mkdir(out)
    env = dict(os.environ, CONVTUNE_TORCH_CACHE=os.path.join(tmp, "cache"))
    failures = 0
    # Tiny budgets, four runs at a time into one database: what is tested is
    # the module, not the search (the times are not compared).
    from concurrent.futures import ThreadPoolExecutor
    todo = [spec + p + (":" + t if t else "") for t, specs in LAYERS.items() for spec in specs
            for p in ("", ":dgrad", ":wgrad")]
    with ThreadPoolExecutor(max_workers=4) as pool:
        for p in pool.map(lambda s: run([ct, "--problem", s, "--db", db, "--budget", "4", "--seed", "3"]), todo):
            failures += p.returncode != 0
    modules = []
    for fam in ("conv1dc", "conv2dc"):
        for t in LAYERS:
            cmd = [ct, "export", "--family", fam, "--torch", "-o", out, "--db", db] + (["--dtype", t] if t else [])
            p = run(cmd)
            failures += p.returncode != 0
            if p.returncode == 0:
                print(p.stdout.strip())
                modules.append("convtune_%s%s" % (fam, "_" + t if t else ""))
    # Each module in its own process, side by side (each builds its library
    # with nvcc first); their output printed whole, in order.
    def check(name):
        return subprocess.run([sys.executable, __file__, "--module", out, name], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
    with ThreadPoolExecutor(max_workers=len(modules) or 1) as pool:
        for name, p in zip(modules, pool.map(check, modules)):
            print(p.stdout[-20000:], flush=True)
            if p.returncode != 0:
                print("FAIL module %s (exit %d)" % (name, p.returncode))
                failures += 1
    print("gpu_torch_ops: %d modules, %d failures" % (len(modules), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
