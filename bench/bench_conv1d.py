#!/usr/bin/env python3
"""Side-by-side benchmark of convtune against what a user can run today.

For each problem: tune it with convtune, export the winner, load the exported
.cu with CuPy's RawModule and time it in this process, on the same inputs as
PyTorch F.conv1d (cuDNN, benchmark mode, TF32 off) and CuPy's correlate
(direct and FFT). Every output is checked against one fp64 reference
(F.conv1d in float64 on the GPU). convtune's naive template is timed by
convtune in the same run. Writes a Markdown table.

usage: bench_conv1d.py --convtune BIN --db DB --out FILE.md [--workdir DIR] [--budget N] [PROBLEM ...]
"""
import argparse
import datetime
import json
import os
import re
import sqlite3
import sys

import cupy
import cupyx.scipy.signal
import torch
import torch.nn.functional as F

from benchlib import load_exported, load_exported_lib, median_ms, relerr, run_convtune

DEFAULT_PROBLEMS = [
    "conv1d:1e6:2047", "conv1d:6:3:right", "conv1d:15:4:right", "conv1d:1e6:31",
    "conv1d:1e7:2047", "conv1d:1e5:127", "conv1d:1e7:9", "conv1d:1e6:513:same",
    "conv1d:4096:4096", "conv1d:1e8:3",
]


def parse(canonical):
    fam, n, k, mode = canonical.split(":")
    return int(n), int(k), mode


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--convtune", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--workdir", default=".")
    ap.add_argument("--budget", type=int, default=0, help="convtune --budget per problem (0: its default)")
    ap.add_argument("problems", nargs="*")
    a = ap.parse_args()
    problems = a.problems or DEFAULT_PROBLEMS
    torch.backends.cudnn.benchmark = True
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False
    gen = torch.Generator(device="cuda").manual_seed(2026)
    rows = []
    for spec in problems:
        tune_out = run_convtune(a.convtune, ["--problem", spec, "--db", a.db]
                                + (["--budget", str(a.budget)] if a.budget else []))
        print(tune_out, flush=True)
        win = json.loads(run_convtune(a.convtune, ["query", "--problem", spec, "--db", a.db, "--format", "json"]))[0]
        canonical = win["problem"]
        n, k, mode = parse(canonical)
        cu = os.path.join(a.workdir, canonical.replace(":", "_") + ".cu")
        run_convtune(a.convtune, ["export", "--problem", spec, "--db", a.db, "-o", cu, "--force"])

        x = torch.rand(n, device="cuda", generator=gen) * 2 - 1
        w = torch.rand(k, device="cuda", generator=gen) * 2 - 1
        xd, wd = x.double()[None, None], w.double()[None, None]
        if mode == "valid":
            ref = F.conv1d(xd, wd).flatten()
            torch_fn = lambda: F.conv1d(x[None, None], w[None, None])
        elif mode == "same":
            ref = F.conv1d(xd, wd, padding="same").flatten()
            torch_fn = lambda: F.conv1d(x[None, None], w[None, None], padding="same")
        else:  # right: zeros past the end of the input
            ref = F.conv1d(F.pad(xd, (0, k - 1)), wd).flatten()
            torch_fn = lambda: F.conv1d(F.pad(x[None, None], (0, k - 1)), w[None, None])
        res = {"problem": canonical}
        res["torch_ms"] = median_ms(torch_fn)
        res["torch_err"] = relerr(torch_fn(), ref)

        xc, wc = cupy.asarray(x), cupy.asarray(w)
        if mode == "valid":
            for meth in ("direct", "fft"):
                fn = lambda: cupyx.scipy.signal.correlate(xc, wc, mode="valid", method=meth)
                res[f"cupy_{meth}_ms"] = median_ms(fn, reps=20 if meth == "direct" else 50)
                res[f"cupy_{meth}_err"] = relerr(fn(), ref)

        out = cupy.full(ref.numel(), cupy.nan, dtype=cupy.float32)
        # A winner that needs a library (cuFFT) has host code to build with nvcc.
        if not re.search(r"link with -l\w+", open(cu).read()):
            mod, kern, grid, block, smem = load_exported(cu)
            try:
                sym = mod.get_global("c_mask")
                cupy.ndarray((k,), cupy.float32, sym)[...] = wc
            except Exception:
                pass  # this winner reads the mask from global or shared memory
            launch = lambda: kern(grid, block, (xc, wc, out), shared_mem=smem)
            res["path"] = "CuPy RawModule"
        else:
            symbol = "convtune_" + re.sub(r"[^0-9A-Za-z]", "_", canonical)
            fn = load_exported_lib(cu, symbol, 3)
            stream = cupy.cuda.get_current_stream().ptr
            def launch():
                rc = fn(xc.data.ptr, wc.data.ptr, out.data.ptr, stream)
                if rc != 0:
                    raise RuntimeError(f"{symbol} returned {rc}")
            res["path"] = "nvcc + ctypes"
        launch()
        torch.cuda.synchronize()
        res["ct_err"] = relerr(out, ref)
        res["ct_ms"] = median_ms(launch)
        res["ct_tuned_ms"] = win["median_us"] / 1e3
        res["template"] = win["template"]
        res["params"] = win["params"]
        con = sqlite3.connect(a.db)
        naive = con.execute(
            "SELECT min(c.median_us) FROM candidates c JOIN problems p ON p.id = c.problem_id "
            "WHERE p.canonical = ? AND c.template = 'conv1d_naive' AND c.status = 'ok'", (canonical,)).fetchone()[0]
        dev = con.execute("SELECT name, fma_tflops, bandwidth_gbs, launch_us FROM devices ORDER BY id DESC LIMIT 1").fetchone()
        flops, nbytes = con.execute("SELECT flops, bytes FROM problems WHERE canonical = ?", (canonical,)).fetchone()
        con.close()
        res["naive_ms"] = naive / 1e3 if naive else None
        res["device"], res["fma"], res["bw"], res["launch_us"] = dev
        res["flops"], res["bytes"] = flops, nbytes
        rows.append(res)
        print(json.dumps(res), flush=True)

    dev = rows[0]
    date = datetime.date.today().isoformat()
    f = lambda v: "n/a" if v is None else f"{v:.4f}"
    lines = [
        f"Device: {dev['device']}, {date}. Ceilings measured by convtune in this run: "
        f"{dev['fma']:.1f} TFLOP/s fp32 FMA, {dev['bw']:.0f} GB/s, empty launch {dev['launch_us']:.1f} us.",
        "Times are medians in ms (CUDA events around each launch, after warm-up), all on the same random",
        "inputs; relerr is ||out - ref|| / ||ref|| against F.conv1d in float64. convtune = its exported",
        "winner loaded through CuPy RawModule and timed here; 'tuned' = the time convtune measured while tuning.",
        "",
        "| problem | cuDNN (torch) | CuPy direct | CuPy FFT | convtune naive | convtune | tuned | vs cuDNN | vs naive | % FMA peak | % bandwidth | relerr convtune | relerr cuDNN |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        ms = r["ct_ms"]
        lines.append(
            f"| `{r['problem']}` | {f(r['torch_ms'])} | {f(r.get('cupy_direct_ms'))} | {f(r.get('cupy_fft_ms'))} | "
            f"{f(r['naive_ms'])} | **{f(ms)}** | {f(r['ct_tuned_ms'])} | {r['torch_ms'] / ms:.1f}x | "
            f"{(r['naive_ms'] / ms) if r['naive_ms'] else 0:.1f}x | "
            f"{100 * r['flops'] / (ms * 1e-3) / 1e12 / r['fma']:.0f}% | "
            f"{100 * r['bytes'] / (ms * 1e-3) / 1e9 / r['bw']:.0f}% | {r['ct_err']:.1e} | {r['torch_err']:.1e} |")
    lines.append("")
    lines.append("Winners:")
    for r in rows:
        lines.append(f"- `{r['problem']}`: {r['template']} `{json.dumps(r['params'], separators=(',', ':'))}`"
                     f" (loaded through {r['path']})")
    with open(a.out, "w") as fh:
        fh.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    bad = [r["problem"] for r in rows if not (r["ct_err"] <= 1e-5)]
    if bad:
        print("FAILED verification:", bad, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
