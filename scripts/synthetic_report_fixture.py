#!/usr/bin/env python3
"""Write a `convtune db export` JSON file of made-up tuning runs, for the
report tests until a fixture from a real GPU run replaces it
(scripts/make_report_fixture.sh). The candidates are real points of each
problem's space (`convtune space --list`); their times, statuses and
ceilings are invented but plausible.

    scripts/synthetic_report_fixture.py build/convtune > /tmp/synth.json
    build/convtune db import /tmp/synth.json --db tests/fixtures/report.db
"""
import json, random, subprocess, sys

CT = sys.argv[1]
rng = random.Random(17)
PROBLEMS = [("conv1d:1000000:2047:valid", 50), ("conv1d:15:4:right", 12),
            ("conv2dc:10000:12:22:22:12:3:3:valid", 40)]
DEVICE = dict(device="NVIDIA H200", device_uuid="GPU-00000000-0000-0000-0000-000000000000",
              cc_major=9, cc_minor=0, sm_count=132, driver_version=13000, nvrtc_version="13.0",
              fma_tflops=65.03, bandwidth_gbs=3925.4, launch_us=4.02,
              ceilings_measured_at="2026-11-20T10:00:00Z")
FAILS = ["compile_failed", "wrong_result", "exceeds_limits", "timed_out"]


def value(v):
    try:
        return int(v)
    except ValueError:
        return v


def space(problem):
    out = subprocess.run([CT, "space", "--problem", problem, "--list"], check=True,
                         capture_output=True, text=True).stdout
    cands = []
    for line in out.splitlines():
        parts = line.split(" ")
        if len(parts) == 2 and "=" in parts[1] and not line.startswith(" "):
            cands.append((parts[0], {k: value(v) for k, v in (kv.split("=") for kv in parts[1].split(","))}))
    return cands


def info(problem):
    out = subprocess.run([CT, "space", "--problem", problem], check=True, capture_output=True,
                         text=True).stdout.splitlines()[0]
    gflop = float(out.split(": ")[1].split(" GFLOP")[0])
    mb = float(out.split(", ")[1].split(" MB")[0])
    return gflop * 1e9, mb * 1e6


records = []
sec = 0
for day, (problem, n) in enumerate(PROBLEMS):
    cands = space(problem)
    flops, nbytes = info(problem)
    naive = [c for c in cands if c[0].endswith("_naive")][:1]
    rest = [c for c in cands if not c[0].endswith("_naive")]
    chosen = naive + rng.sample(rest, min(n - 1, len(rest)))
    floor_us = max(flops / (DEVICE["fma_tflops"] * 1e6), nbytes / (DEVICE["bandwidth_gbs"] * 1e3), 2.0)
    start = "2026-11-2%dT1%d:00:00Z" % (day + 1, day)
    finish = "2026-11-2%dT1%d:30:00Z" % (day + 1, day)
    settings = {"warmup": 3, "min_reps": 10, "max_reps": 1000, "min_time_ms": 20, "tolerance": 1e-05,
                "seed": 42, "max_candidates": n, "timeout_s": 10, "retime_spread": 0.1, "race_factor": 3,
                "l2_flush": 1, "retime_top": 5,
                "conditions": {"sm_mhz": [1980, 1980], "temp_c": [34 + day, 41 + day], "l2": "flushed",
                               "retimed": 1, "raced": 3, "worker_starts": 2}}
    for i, (tmpl, params) in enumerate(chosen):
        sec += 7
        status = "ok" if i == 0 or rng.random() > 0.12 else rng.choice(FAILS)
        rec = dict(DEVICE, family=problem.split(":")[0], problem=problem, flops=flops, bytes=nbytes,
                   problem_created_at=start, run_started_at=start, run_finished_at=finish,
                   run_status="done", run_settings=settings, template=tmpl,
                   template_hash="%016x" % (hash(tmpl) & (2**64 - 1)), params=params, status=status,
                   error=None if status == "ok" else "synthetic %s" % status.replace("_", " "),
                   median_us=None, min_us=None, max_us=None, spread=None, reps=None, relerr=None,
                   registers=rng.choice([32, 40, 64, 96, 128]), smem_bytes=rng.choice([0, 4096, 16384]),
                   local_bytes=0, compile_ms=round(rng.uniform(80, 900), 1),
                   created_at="2026-11-2%dT1%d:%02d:%02dZ" % (day + 1, day, sec // 60 % 60, sec % 60))
        if status == "ok":
            med = floor_us * (12 if i == 0 else rng.lognormvariate(0.9, 0.6) + 0.25)
            rec.update(median_us=round(med, 4), min_us=round(med * 0.98, 4), max_us=round(med * 1.09, 4),
                       spread=round(rng.uniform(0.004, 0.05), 4), reps=rng.randint(40, 900),
                       relerr=float("%.2g" % rng.uniform(1e-8, 4e-7)))
        if status in ("compile_failed", "exceeds_limits"):
            rec.update(registers=None, smem_bytes=None, local_bytes=None)
        records.append(rec)

json.dump({"format": "convtune-db", "version": 1, "convtune": "0.1.0", "records": records}, sys.stdout)
print()
