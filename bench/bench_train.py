#!/usr/bin/env python3
"""Training steps of small models in PyTorch eager against the same models
after convtune's convert(): the PyTorch ops of `convtune export --family F
--torch` (templates/torch/convtune_torch.py) with their tuned forward, dgrad
and wgrad kernels.

For each model: list the problems of its chosen convolutions (problems(),
every pass) into a file, tune them with `convtune --problems FILE --time S`, export each family and type needed as a PyTorch module, convert a copy of
the model (same initial weights), let its first steps measure which side runs
each pass, then time steps (forward, loss, backward, AdamW) of both models
from the same initial weights on the same batches (inputs that need their
gradient, as a block's inside a network do), both in one process,
timed with CUDA events around the whole run of steps, the better of two
rounds. Reports ms per step, the speedup, the largest relative difference of
the losses over the steps, and which side ran each pass of each layer.

Models (issue "PyTorch without glue"):
  replknet  fp32 NCHW: depthwise 31x31 and 17x17 (B64 C256 16x16) + 1x1 convs
  convnext  bf16 channels last: depthwise 7x7 (B32 C96 56x56) + LayerNorm + MLP
  mamba     bf16: Linear, causal depthwise conv1d K=4 (B8 D2048 L4096, as
            nn.Conv1d(padding=3) then [..., :L]), SiLU, Linear
  resnet    bf16 channels last: two dense 3x3 convs of 64 channels (B32 56x56)

usage: bench_train.py --convtune BIN --workdir DIR --out FILE.md [--json FILE]
                      [--time S] [--steps N] [--profile] [--graph] [MODEL ...]
"""
import argparse
import copy
import datetime
import importlib
import importlib.util
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RUNTIME = os.path.join(HERE, "..", "templates", "torch", "convtune_torch.py")


def runtime():
    rt = sys.modules.get("convtune_torch")
    if rt is None:
        spec = importlib.util.spec_from_file_location("convtune_torch", RUNTIME)
        rt = importlib.util.module_from_spec(spec)
        sys.modules["convtune_torch"] = rt
        spec.loader.exec_module(rt)
    return rt


def models():
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    class RepLK(nn.Module):
        def __init__(self, c=256):
            super().__init__()
            self.dw31 = nn.Conv2d(c, c, 31, padding=15, groups=c, bias=False)
            self.pw1 = nn.Conv2d(c, c, 1)
            self.dw17 = nn.Conv2d(c, c, 17, padding=8, groups=c, bias=False)
            self.pw2 = nn.Conv2d(c, c, 1)

        def forward(self, x):
            return x + self.pw2(self.dw17(F.gelu(self.pw1(self.dw31(x)))))

    class ConvNeXt(nn.Module):
        def __init__(self, c=96):
            super().__init__()
            self.dw = nn.Conv2d(c, c, 7, padding=3, groups=c)
            self.ln = nn.LayerNorm(c)
            self.fc1, self.fc2 = nn.Linear(c, 4 * c), nn.Linear(4 * c, c)

        def forward(self, x):
            y = self.dw(x).permute(0, 2, 3, 1)
            y = self.fc2(F.gelu(self.fc1(self.ln(y))))
            return x + y.permute(0, 3, 1, 2)

    class Mamba(nn.Module):
        def __init__(self, d=2048, k=4):
            super().__init__()
            self.inp, self.out = nn.Linear(d, d), nn.Linear(d, d)
            self.conv = nn.Conv1d(d, d, k, padding=k - 1, groups=d)

        def forward(self, x):
            h = self.inp(x).transpose(1, 2)
            h = F.silu(self.conv(h)[..., :x.shape[1]]).transpose(1, 2)
            return x + self.out(h)

    class Res(nn.Module):
        def __init__(self, c=64):
            super().__init__()
            self.c1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
            self.c2 = nn.Conv2d(c, c, 3, padding=1, bias=False)

        def forward(self, x):
            return x + self.c2(F.relu(self.c1(x)))

    cl = torch.channels_last
    return {
        # name: (model, input shape, dtype, memory format, the layers to tune)
        "replknet": (RepLK, (64, 256, 16, 16), torch.float32, None, ("dw31", "dw17")),
        "convnext": (ConvNeXt, (32, 96, 56, 56), torch.bfloat16, cl, ("dw",)),
        "mamba": (Mamba, (8, 4096, 2048), torch.bfloat16, None, ("conv",)),
        "resnet": (Res, (32, 64, 56, 56), torch.bfloat16, cl, ("c1",)),
    }


def make_input(shape, dtype, fmt, seed):
    import torch
    g = torch.Generator(device="cuda").manual_seed(seed)
    x = torch.randn(shape, device="cuda", generator=g).to(dtype)
    return x.contiguous(memory_format=fmt) if fmt is not None else x


def layer_problems(rt, model, x, names):
    """The problems of the named conv layers, every pass."""
    seen = rt._capture(model, (x,), {})
    return [rt.spec(seen[n][0], p, seen[n][1]) for n in names for p in rt.PASSES]


def run_steps(model, batches, lr=1e-4):
    """Forward, loss, backward and AdamW step per batch: the losses and the
    time of the whole run (ms per step)."""
    import torch
    opt = torch.optim.AdamW(model.parameters(), lr=lr)
    losses = []
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    e0.record()
    for x in batches:
        opt.zero_grad(set_to_none=True)
        loss = model(x).float().square().mean()
        loss.backward()
        opt.step()
        losses.append(loss.detach())
    e1.record()
    torch.cuda.synchronize()
    return [l.item() for l in losses], e0.elapsed_time(e1) / len(batches)


def run_steps_graph(model, init, batches, lr=1e-4):
    """The same steps with the whole step (forward, loss, backward, AdamW
    with capturable state) captured once in a CUDA graph and replayed per
    batch, the batch copied into the captured input: the GPU's time, without
    the host's launches. Warm-up on a side stream, then the weights and the
    optimizer's state are put back to the start before the replays."""
    import torch
    opt = torch.optim.AdamW(model.parameters(), lr=lr, capturable=True)
    static_x = batches[0].detach().clone().requires_grad_(batches[0].requires_grad)
    side = torch.cuda.Stream()
    side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(side):
        for _ in range(3):
            opt.zero_grad(set_to_none=True)
            model(static_x).float().square().mean().backward()
            opt.step()
    torch.cuda.current_stream().wait_stream(side)
    opt.zero_grad(set_to_none=True)
    g = torch.cuda.CUDAGraph()
    with torch.cuda.graph(g):
        static_loss = model(static_x).float().square().mean()
        static_loss.backward()
        opt.step()
    with torch.no_grad():
        model.load_state_dict(init)
        for st in opt.state.values():
            for v in st.values():
                if torch.is_tensor(v):
                    v.zero_()
    losses = []
    e0, e1 = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    torch.cuda.synchronize()
    e0.record()
    for x in batches:
        with torch.no_grad():
            static_x.copy_(x)
        g.replay()
        losses.append(static_loss.detach().clone())
    e1.record()
    torch.cuda.synchronize()
    return [l.item() for l in losses], e0.elapsed_time(e1) / len(batches)


def bench_model(args, rt, name, spec, log):
    import torch
    cls, shape, dtype, fmt, tune = spec
    torch.manual_seed(0)
    base = cls().to("cuda", dtype)
    if fmt is not None:
        base = base.to(memory_format=fmt)
    init = copy.deepcopy(base.state_dict())
    x0 = make_input(shape, dtype, fmt, 1)
    probs = layer_problems(rt, base, x0, tune)
    db = os.path.join(args.workdir, "bench.db")
    listing = os.path.join(args.workdir, "%s.problems" % name)
    with open(listing, "w") as f:
        f.write("# %s: the tuned layers' passes (problems())\n%s\n" % (name, "\n".join(probs)))
    r = subprocess.run([args.convtune, "--problems", listing, "--db", db, "--time", str(args.time)],
                       capture_output=True, text=True)
    log(r.stdout.strip() + ("\n" + r.stderr.strip() if r.returncode else ""))
    mods = os.path.join(args.workdir, "mods")
    os.makedirs(mods, exist_ok=True)
    fam = "conv1dc" if len(shape) == 3 else "conv2dc"
    t = {torch.float32: None, torch.bfloat16: "bf16", torch.float16: "f16"}[dtype]
    modname = "convtune_%s%s" % (fam, "_" + t if t else "")
    cmd = [args.convtune, "export", "--family", fam, "--torch", "-o", mods, "--db", db, "--force"] + \
        (["--dtype", t] if t else [])
    r = subprocess.run(cmd, capture_output=True, text=True)
    log((r.stdout + r.stderr).strip())
    if mods not in sys.path:
        sys.path.insert(0, mods)
    sys.modules.pop(modname, None)   # exported again with this model's problems: a new library
    mod = importlib.import_module(modname)
    conv = copy.deepcopy(base)
    rt.convert(conv, x0, verbose=False)
    for row in conv.convtune_conversion:
        log("convert %s: %s (%s)" % row)
    # First steps of the converted model measure which side runs each pass.
    # The block's input needs its gradient, as a block inside a network does
    # (the previous block's backward reads it): every pass of every layer runs.
    warm = [make_input(shape, dtype, fmt, 100 + i).requires_grad_() for i in range(3)]
    run_steps(conv, warm)
    run_steps(base, warm)
    batches = [make_input(shape, dtype, fmt, 200 + i).requires_grad_() for i in range(args.steps)]
    best = {}
    for rnd in range(2):
        for label, m in (("eager", base), ("convtune", conv)):
            m.load_state_dict(init)
            losses, ms = run_steps(m, batches)
            if label not in best or ms < best[label][1]:
                best[label] = (losses, ms)
    graphed = {}
    if args.graph:
        for label, m in (("eager", base), ("convtune", conv)):
            m.load_state_dict(init)
            graphed[label] = run_steps_graph(m, init, batches)
        log("%s, steps replayed from CUDA graphs: eager %.3f ms/step, converted %.3f ms/step: %.2fx" % (
            name, graphed["eager"][1], graphed["convtune"][1], graphed["eager"][1] / graphed["convtune"][1]))
    if args.profile:   # where a converted step's host time goes (the steps are short and host-bound)
        from torch.profiler import ProfilerActivity, profile
        for label, m in (("eager", base), ("convtune", conv)):
            with profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA]) as prof:
                run_steps(m, batches[:3])
            log("profile of 3 %s steps of %s:\n%s" % (label, name, prof.key_averages().table(
                sort_by="self_cpu_time_total", row_limit=14)))
    le, lc = best["eager"][0], best["convtune"][0]
    dloss = max(abs(a - b) / max(abs(a), 1e-30) for a, b in zip(le, lc))
    rows = [r for r in rt.report(file=open(os.devnull, "w")) if r["module"] == mod.NAME]
    res = {"model": name, "dtype": str(dtype).replace("torch.", ""), "eager_ms": best["eager"][1],
           "convtune_ms": best["convtune"][1], "speedup": best["eager"][1] / best["convtune"][1],
           "max_loss_rel_diff": dloss,
           "graph_eager_ms": graphed["eager"][1] if graphed else None,
           "graph_convtune_ms": graphed["convtune"][1] if graphed else None,
           "graph_max_loss_rel_diff": max(abs(a - b) / max(abs(a), 1e-30) for a, b in
                                          zip(graphed["eager"][0], graphed["convtune"][0])) if graphed else None, "losses_eager": le, "losses_convtune": lc, "passes": rows,
           "problems": probs}
    log("%s: eager %.3f ms/step, converted %.3f ms/step: %.2fx; losses differ by at most %.2e (relative)" % (
        name, res["eager_ms"], res["convtune_ms"], res["speedup"], dloss))
    for r in rows:
        log("  %-6s %-9s %s: %s" % (r["pass"], r["side"], r["problem"], r["why"]))
    return res


def write_md(path, device, results):
    with open(path, "w") as f:
        f.write("# Training steps: PyTorch eager against convert()\n\n")
        f.write("%s, %s, PyTorch %s. Steps of forward, loss, backward and AdamW, CUDA events around the\n"
                "whole run, the better of two rounds; TF32 as PyTorch's default.\n\n" % (
                    device, datetime.date.today().isoformat(), __import__("torch").__version__))
        f.write("| model | type | eager ms/step | converted ms/step | speedup | max loss diff | graphed: eager | "
                "graphed: converted | graphed speedup | convtune runs |\n")
        f.write("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n")
        for r in results:
            runs = ", ".join("%s %s" % (p["problem"].split(":")[0] + ":" + ":".join(p["problem"].split(":")[6:8]),
                                        p["pass"]) for p in r["passes"] if p["side"] == "convtune") or "none"
            ge, gc = r.get("graph_eager_ms"), r.get("graph_convtune_ms")
            f.write("| %s | %s | %.3f | %.3f | %.2fx | %.1e | %s | %s | %s | %s |\n" % (
                r["model"], r["dtype"], r["eager_ms"], r["convtune_ms"], r["speedup"], r["max_loss_rel_diff"],
                "%.3f" % ge if ge else "n/a", "%.3f" % gc if gc else "n/a", "%.2fx" % (ge / gc) if ge and gc else "n/a",
                runs))
        f.write("\nEach pass of each tuned layer:\n\n| model | pass | side | problem | why |\n| --- | --- | --- | --- | --- |\n")
        for r in results:
            for p in r["passes"]:
                f.write("| %s | %s | %s | `%s` | %s |\n" % (r["model"], p["pass"], p["side"], p["problem"], p["why"]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--convtune", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--json")
    ap.add_argument("--time", type=int, default=20)
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--profile", action="store_true", help="print a torch.profiler table of a few steps of each")
    ap.add_argument("--graph", action="store_true", help="also time the steps replayed from a CUDA graph")
    ap.add_argument("models", nargs="*")
    args = ap.parse_args()
    import torch
    os.makedirs(args.workdir, exist_ok=True)
    os.environ.setdefault("CONVTUNE_TORCH_CACHE", os.path.join(args.workdir, "cache"))
    rt = runtime()
    table = models()
    names = args.models or list(table)
    device = torch.cuda.get_device_name()

    def log(msg):
        print(msg, flush=True)
    results = []
    for n in names:
        results.append(bench_model(args, rt, n, table[n], log))
        write_md(args.out, device, results)
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"device": device, "results": results}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
