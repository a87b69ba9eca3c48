#!/usr/bin/env python3
"""Search quality on the GPU: how close a short tuning run gets to the best
of its space, against seconds and against candidates.

For each problem of the grid it tunes once as the reference (a large budget,
--ref-budget candidates, optionally capped at --ref-time seconds; exhaustive
where the space fits), then tunes again under each time limit (--time T) and
each candidate budget (--budget N) with each strategy and seed, all on the
same GPU. Every run has a database of its own and compiles without the
binary cache (--no-cache), so no run reuses another's outcomes or binaries:
a time limit pays for its compiles. Each run's database (the reference's
too) starts with the reference runs of the other problems (leave one out),
of the training problems and of any --prior-refs folder, as a user's
database holds the problems tuned before: the model strategy (and auto,
which uses it where the database has data) learns from them, and the anneal
search starts from their nearest winners.

A run's figure is "% of the best": the best time found by any run of the
problem (the reference or another) over the run's winner, times 100. Its
closeness estimate (basis and figure) is kept beside it, to compare the
tuner's claim with the outcome. Every run's records are kept (traces/), and
the curve "% of the best against seconds and against candidates" is read
from them: the best so far at each point of a run, over the problem's best.

With --ref-problems (a list, or "grid") the references of more problems
than --problems run, and every run trains on all of them; a later call
with --reuse-refs DIR runs the other problems against DIR's references
without running them again, so a grid too long for one call still trains
each run on every other problem. --summarize over a folder holding both
calls' rows.jsonl and traces/ gives the whole grid's summary.

With --gpus, problems are dealt to the GPUs of the host (one process each,
CUDA_VISIBLE_DEVICES), a problem's runs on the GPU of its reference; the
references all finish before any other run starts, since each training
database holds the others. With --retime-below US, a problem whose first
time-limited winner runs under US microseconds has that run's best 10
re-timed together (convtune retime: short kernels are timed from a CUDA
graph of launches), to check that the winner is within 3% of the best of
them.

Writes DIR/runs.csv (one row per run), DIR/summary.md (per strategy and
limit: median % of the best, how many within 5% and within 10%, median
seconds and candidates; run to run: how many problems' seeds agree within
3%; the curve), DIR/traces/ and DIR/retime_*.txt, and prints the summary.
--summarize DIR rewrites the summary from DIR's files.

  python3 bench/search_bench.py --out DIR [--quick] [--convtune build/convtune]
        [--problems P,...] [--ref-problems P,...|grid] [--reuse-refs DIR]
        [--train P,...] [--prior-refs DIR] [--strategies auto,model]
        [--times 10,30,60] [--budgets 50,150,600] [--seeds 1] [--budget-seeds N]
        [--ref-budget 3000] [--ref-time S] [--gpus 0,1,...] [--jobs N] [--retime-below US]

Only the standard library: no PyTorch or CuPy is needed. On one GPU the full
grid takes about two hours (the references, capped at 3000 candidates,
about 45 minutes of it: seed 003's layer compiles at under 3 candidates a
second); --quick about five minutes.
"""
import argparse
import csv
import datetime
import glob
import json
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import threading
import time

# The public grid: four seed problems (docs/PROBLEMS.md), four dense layers
# of bench_families.py, two depthwise layers and two in half precision.
GRID = [
    "conv1d:1e6:2047",                          # seed 000
    "conv1dc:1:1024:4:1024:5:pad=2:bias",       # seed 002
    "conv2dc:10000:12:22:22:12:3:3:valid",      # seed 003, second layer
    "conv2d:16:2048:2048:11:11:same",           # seed 004
    "conv2dc:32:64:56:56:64:3:3:same",
    "conv2dc:16:128:28:28:128:3:3:same:bias",
    "conv2dc:8:256:14:14:256:3:3:same",
    "conv1dc:4:512:2048:512:7:pad=3:bias",
    "conv2dc:8:96:56:56:96:7:7:same:groups=96:nhwc",
    "conv1dc:8:1024:4096:1024:4:causal:groups=1024:nlc",
    "conv2dc:32:64:56:56:64:3:3:same:bf16",
    "conv1dc:1:1024:4:1024:5:pad=2:bias:bf16",
]
# Tuned only to train the model (their references go into every training
# database): conv1d and conv2d have one grid problem each, and a model
# learns a template from other problems of its family.
TRAIN = ["conv1d:2e5:1023", "conv2d:4:513:257:5:7:same"]
# --quick: three layers of one family (so that each trains the others'
# model) whose candidates compile fast, two limits, a smaller reference:
# about five minutes of GPU.
QUICK = {
    "problems": ["conv2dc:32:64:56:56:64:3:3:same", "conv2dc:16:128:28:28:128:3:3:same:bias",
                 "conv2dc:8:256:14:14:256:3:3:same"],
    "train": [], "times": [10], "budgets": [50], "ref_budget": 300,
}
# The curve's points.
CURVE_S = [5, 10, 20, 30, 60, 120]
CURVE_N = [25, 50, 100, 150, 300, 600, 1200, 3000]


# What follows the problem in a time-limited run's trace name (Bench.runs).
RUN_TRACE = re.compile(r"_(auto|exhaustive|random|anneal|model)_time[0-9.]+_[0-9]+\.json")


def safe(problem):
    return "".join(c if c.isalnum() else "_" for c in problem)


def remove_db(db):
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(db + ext):
            os.remove(db + ext)


class Bench:
    def __init__(self, args):
        self.a = args
        self.out = args.out
        self.lock = threading.Lock()
        os.makedirs(os.path.join(self.out, "traces"), exist_ok=True)
        os.makedirs(os.path.join(self.out, "refs"), exist_ok=True)
        os.makedirs(os.path.join(self.out, "db"), exist_ok=True)

    def log(self, text):
        with self.lock:
            with open(os.path.join(self.out, "runs.log"), "a") as f:
                f.write(text)

    def log_row(self, r):
        """A row as soon as it is known (rows.jsonl: --summarize reads it
        when the run was cut short)."""
        with self.lock:
            with open(os.path.join(self.out, "rows.jsonl"), "a") as f:
                f.write(json.dumps(r) + "\n")

    def cv(self, cmd, gpu, **kw):
        env = dict(os.environ)
        if gpu is not None:
            env["CUDA_VISIBLE_DEVICES"] = str(gpu)
        return subprocess.run(cmd, capture_output=True, text=True, env=env, **kw)

    def tune(self, problem, db, extra, gpu):
        """One convtune run: its JSON summary (None when it failed) and seconds."""
        cmd = [self.a.convtune, "tune", "--problem", problem, "--db", db, "--json", "--baseline", "none",
               "--no-cache"] + (["--config", self.a.config] if self.a.config else []) + extra
        t0 = time.monotonic()
        r = self.cv(cmd, gpu)
        secs = time.monotonic() - t0
        self.log(f"$ [GPU {gpu}] " + " ".join(cmd) + f"\n# exit {r.returncode}, {secs:.1f} s\n" + r.stderr + "\n")
        if r.returncode != 0:
            print(f"  FAILED ({r.returncode}): {' '.join(cmd)}: {r.stderr.strip().splitlines()[-1:]}",
                  file=sys.stderr, flush=True)
            return None, secs
        try:
            return json.loads(r.stdout), secs
        except json.JSONDecodeError:
            return None, secs

    def export(self, db, path, problem):
        """The records of problem in db, exported to path (a run's database
        holds the training rows too)."""
        tmp = path + ".all"
        r = self.cv([self.a.convtune, "db", "export", "--db", db, "-o", tmp, "--force"], None)
        if r.returncode != 0 or not os.path.exists(tmp):
            return None
        keep_problem(tmp, problem, path)
        os.remove(tmp)
        return path

    def ref_files(self, prior_only):
        """Every reference export, --prior-refs' and (unless prior_only) this
        run's, by problem."""
        files = {}
        dirs = [self.a.prior_refs] if self.a.prior_refs else []
        for d in dirs + ([] if prior_only else [os.path.join(self.out, "refs")]):
            for f in sorted(glob.glob(os.path.join(d, "ref_*.json"))):
                try:
                    with open(f) as fh:
                        recs = json.load(fh).get("records", [])
                except (OSError, json.JSONDecodeError):
                    continue
                if recs:
                    files.setdefault(recs[0]["problem"], []).append(f)
        return files

    def training_db(self, problem, path, prior_only):
        """A database holding the reference runs of every problem but this one.
        A reference export is this problem's by its file name (ref_P.json, P as
        written); its records name the problem as the database spells it
        (conv1d:1e6:2047 is conv1d:1000000:2047), so comparing those with P
        alone would let a problem train on, and start from, its own reference."""
        remove_db(path)
        own = "ref_" + safe(problem) + ".json"
        files = [f for q, fs in self.ref_files(prior_only).items() if q != problem
                 for f in fs if os.path.basename(f) != own]
        if files:
            subprocess.run([self.a.convtune, "db", "import"] + files + ["--db", path], check=True,
                           capture_output=True)
        return path if os.path.exists(path) else None

    def fresh_db(self, problem, name, prior_only=False):
        """A run's database: the training rows, and nothing of its own."""
        db = os.path.join(self.out, "db", name + ".sqlite")
        remove_db(db)
        tdb = os.path.join(self.out, "db", "train_" + name + ".sqlite")
        if self.training_db(problem, tdb, prior_only):
            shutil.copy(tdb, db)
            remove_db(tdb)
        return db

    def reference(self, p, gpu, budget):
        name = "ref_" + safe(p)
        # The references run side by side: each trains on --prior-refs only.
        db = self.fresh_db(p, name, prior_only=True)
        extra = ["--budget", str(budget), "--seed", "1", "--strategy", self.a.ref_strategy]
        if self.a.ref_time:
            extra += ["--time", f"{self.a.ref_time:g}"]
        print(f"[GPU {gpu}] reference: {p} (budget {budget})", flush=True)
        j, secs = self.tune(p, db, extra, gpu)
        trace = self.export(db, os.path.join(self.out, "traces", name + ".json"), canonical(j, p))
        if trace:
            shutil.copy(trace, os.path.join(self.out, "refs", name + ".json.tmp"))
            os.replace(os.path.join(self.out, "refs", name + ".json.tmp"), os.path.join(self.out, "refs", name + ".json"))
        remove_db(db)
        return j, secs

    def runs(self, p, gpu):
        rows = []
        limits = [("time", t, self.a.seeds) for t in self.a.time_list] + \
                 [("budget", b, self.a.budget_seeds) for b in self.a.budget_list]
        for kind, value, nseeds in limits:
            for st in self.a.strategy_list:
                for seed in range(1, nseeds + 1):
                    name = f"run_{safe(p)}_{st}_{kind}{value:g}_{seed}"
                    db = self.fresh_db(p, name)
                    extra = ["--strategy", st, "--seed", str(seed)]
                    extra += ["--time", f"{value:g}"] if kind == "time" else ["--budget", str(value)]
                    print(f"[GPU {gpu}] {p}: {st} --{kind} {value:g} seed {seed}", flush=True)
                    j, secs = self.tune(p, db, extra, gpu)
                    self.export(db, os.path.join(self.out, "traces", name + ".json"), canonical(j, p))
                    if j and j.get("winner"):
                        rows.append(row(p, st, kind, value, seed, j, secs, gpu))
                        if (self.a.retime_below and kind == "time" and seed == 1 and st == self.a.strategy_list[0]
                                and value == self.a.time_list[0] and j["winner"]["median_us"] < self.a.retime_below):
                            r = self.cv([self.a.convtune, "retime", "--problem", p, "--db", db, "--top", "10"], gpu)
                            with open(os.path.join(self.out, "retime_" + safe(p) + ".txt"), "w") as f:
                                f.write(f"# winner of {name}: {j['winner']['median_us']} us\n"
                                        f"# exit {r.returncode}\n{r.stdout}{r.stderr}")
                    remove_db(db)
        return rows


def canonical(j, problem):
    """The problem as the database spells it (conv1d:1e6:2047 is stored as
    conv1d:1000000:2047), from a run's summary."""
    return j.get("problem", problem) if j else problem


def keep_problem(src, problem, dst):
    """An export file's records of one problem only."""
    with open(src) as f:
        doc = json.load(f)
    doc["records"] = [r for r in doc.get("records", []) if r.get("problem") == problem]
    tmp = dst + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f)
    os.replace(tmp, dst)


def row(p, st, kind, value, seed, j, secs, gpu):
    c = j.get("closeness") or {}
    return {"problem": p, "strategy": st, "limit": kind, "value": value, "seed": seed, "gpu": gpu,
            "candidates": j.get("candidates", 0), "wall_s": j.get("time", {}).get("wall_s", 0),
            "run_s": round(secs, 1), "winner_us": j["winner"]["median_us"], "template": j["winner"]["template"],
            "search": j.get("strategy", ""),
            "closeness_basis": c.get("basis", ""),
            "closeness_within_pct": "" if c.get("within_pct") is None else c["within_pct"]}


def parse_time(text):
    return datetime.datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ") if text else None


def trajectory(trace):
    """Best so far after each candidate of a run (its trace holds its
    problem's records alone): (candidates, seconds, best us)."""
    try:
        with open(trace) as f:
            recs = json.load(f).get("records", [])
    except (OSError, json.JSONDecodeError):
        return []
    if not recs:
        return []
    start = min(parse_time(r["run_started_at"]) for r in recs if r.get("run_started_at"))
    out, best = [], float("inf")
    for n, r in enumerate(recs, 1):
        if r.get("status") == "ok" and r.get("median_us"):
            best = min(best, float(r["median_us"]))
        t = parse_time(r.get("created_at"))
        out.append((n, (t - start).total_seconds() if t else 0.0, best))
    return out


def curve(out, best, problems):
    """Median over problems of % of the best (best: by problem) at fixed
    seconds and candidates: the reference runs (candidates) and the
    time-limited runs (seconds, up to their limit)."""
    lines = []
    for label, prefix in (("reference runs", "ref_"), ("time-limited runs, every strategy and seed", "run_")):
        by_n, by_s = {n: [] for n in CURVE_N}, {s: [] for s in CURVE_S}
        for p in problems:
            if p not in best:
                continue
            for trace in glob.glob(os.path.join(out, "traces", prefix + safe(p) + ("_*" if prefix == "run_" else "")
                                                + ".json")):
                # This problem's time-limited runs only: run_P_STRATEGY_timeT_SEED (the
                # glob also matches a problem whose name extends P's, P's bf16 twin).
                if prefix == "run_" and not RUN_TRACE.fullmatch(os.path.basename(trace)[len(prefix + safe(p)):]):
                    continue
                tr = trajectory(trace)
                if not tr:
                    continue
                for n in CURVE_N:
                    if prefix == "ref_" and n <= tr[-1][0]:
                        b = [x[2] for x in tr if x[0] <= n][-1]
                        by_n[n].append(100 * best[p] / b if b < float("inf") else 0)
                for s in CURVE_S:
                    if s <= tr[-1][1] + 1:
                        b = min([x[2] for x in tr if x[1] <= s] or [float("inf")])
                        by_s[s].append(100 * best[p] / b if b < float("inf") else 0)
        if prefix == "ref_":
            pts = [f"{n}: {statistics.median(v):.1f} ({len(v)})" for n, v in by_n.items() if v]
            lines.append(f"- {label}, median % of the best after N candidates (problems): " + ", ".join(pts))
        pts = [f"{s} s: {statistics.median(v):.1f} ({len(v)})" for s, v in by_s.items() if v]
        lines.append(f"- {label}, median % of the best after S seconds (runs): " + ", ".join(pts))
    return lines


def summary(out, rows, problems):
    best = {}
    for r in rows:
        best[r["problem"]] = min(best.get(r["problem"], float("inf")), float(r["winner_us"]))
    for r in rows:
        r["winner_us"] = float(r["winner_us"])
        r["best_us"] = best[r["problem"]]
        r["pct_of_best"] = round(100 * best[r["problem"]] / r["winner_us"], 2)
    lines = ["| strategy | limit | runs | median % of best | within 5% | within 10% | median s | "
             "median candidates | closeness claims held |", "|---|---|---|---|---|---|---|---|---|"]
    keys = []
    for r in rows:
        k = (r["strategy"], r["limit"], float(r["value"]))
        if k not in keys:
            keys.append(k)
    for st, kind, value in keys:
        rs = [r for r in rows if (r["strategy"], r["limit"], float(r["value"])) == (st, kind, value)]
        pct = [r["pct_of_best"] for r in rs]
        # A claim "within X%" holds when the run's winner is within X% of
        # the best any run found; the space's best may be faster still, so
        # this check is lenient (exact where the reference was exhaustive).
        claims = [r for r in rs if r["closeness_basis"] in ("model", "all") and r["closeness_within_pct"] != ""]
        held = sum(1 for r in claims if r["winner_us"] <= r["best_us"] * (1 + float(r["closeness_within_pct"]) / 100)
                   + 1e-9)
        label = f"--time {value:g}" if kind == "time" else f"--budget {value:g}"
        lines.append(f"| {st} | {label} | {len(rs)} | {statistics.median(pct):.1f} | "
                     f"{sum(p >= 100 / 1.05 for p in pct)} | {sum(p >= 100 / 1.10 for p in pct)} | "
                     f"{statistics.median(float(r['run_s']) for r in rs):.1f} | "
                     f"{statistics.median(int(r['candidates']) for r in rs):.0f} | "
                     f"{held} of {len(claims)} |")
    lines += ["", "Run to run (the seeds of one strategy and limit: slowest winner over fastest):"]
    for st, kind, value in keys:
        spreads = []
        for p in problems:
            w = [r["winner_us"] for r in rows if r["problem"] == p and
                 (r["strategy"], r["limit"], float(r["value"])) == (st, kind, value)]
            if len(w) > 1:
                spreads.append(max(w) / min(w))
        if spreads:
            lines.append(f"- {st} --{kind} {value:g}: within 3% on {sum(s <= 1.03 for s in spreads)} of "
                         f"{len(spreads)} problems (worst {100 * (max(spreads) - 1):.1f}%)")
    lines += ["", "Curve:"] + curve(out, best, problems)
    lines += ["", "Per problem, % of the best (strategy, limit, seed):"]
    for p in problems:
        rs = [r for r in rows if r["problem"] == p]
        if rs:
            lines.append(f"- `{p}` (best {rs[0]['best_us']:.3f} us): " + ", ".join(
                f"{r['strategy']} {r['limit']} {float(r['value']):g}/{r['seed']}: {r['pct_of_best']:.1f}"
                f" [{r['candidates']}]"
                + (f" (claimed within {float(r['closeness_within_pct']):.1f}%)"
                   if r["closeness_within_pct"] not in ("", None) else "") for r in rs))
    for f in sorted(glob.glob(os.path.join(out, "retime_*.txt"))):
        lines += ["", f"{os.path.basename(f)}:", "```"] + open(f).read().rstrip().splitlines() + ["```"]
    return "\n".join(lines) + "\n"


FIELDS = ["problem", "strategy", "limit", "value", "seed", "gpu", "candidates", "wall_s", "run_s", "winner_us",
          "best_us", "pct_of_best", "closeness_basis", "closeness_within_pct", "template", "search"]


def write_summary(out, rows, problems):
    text = summary(out, rows, problems)
    with open(os.path.join(out, "runs.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=FIELDS)
        w.writeheader()
        for r in rows:
            w.writerow({k: r.get(k, "") for k in FIELDS})
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(text)
    return text


def on_each_gpu(worker, gpus):
    """worker(g) for every GPU g at once; returns when all are done."""
    threads = [threading.Thread(target=worker, args=(g,)) for g in gpus]
    for t in threads:
        t.start()
    for t in threads:
        t.join()


def deal(problems, train, gpus):
    """Problems to GPUs in turn; training problems after, to the GPUs with fewest."""
    own = {g: [] for g in gpus}
    for i, p in enumerate(problems):
        own[gpus[i % len(gpus)]].append(p)
    extra = {g: [] for g in gpus}
    for t in train:
        g = min(gpus, key=lambda x: len(own[x]) + len(extra[x]))
        extra[g].append(t)
    return own, extra


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--convtune", default="build/convtune")
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--problems")
    ap.add_argument("--train", help="extra problems tuned for the training databases only ('' for none)")
    ap.add_argument("--prior-refs", help="a folder of reference exports (refs/ of an earlier run) to train on")
    ap.add_argument("--strategies", default="auto,model")
    ap.add_argument("--times")
    ap.add_argument("--budgets")
    ap.add_argument("--ref-budget", type=int)
    ap.add_argument("--ref-time", type=float, help="a time limit on each reference run (seconds)")
    ap.add_argument("--ref-strategy", default="auto")
    ap.add_argument("--seeds", type=int, default=1, help="seeds of each time-limited run")
    ap.add_argument("--budget-seeds", type=int, help="seeds of each budget run (default --seeds)")
    ap.add_argument("--gpus", default="0", help="GPU ordinals to deal the problems to (0,1,...)")
    ap.add_argument("--jobs", type=int, help="compile threads of each run (default: every core over the GPUs)")
    ap.add_argument("--retime-below", type=float, help="re-time the best 10 of a winner under this many us")
    ap.add_argument("--ref-problems", help="the problems whose references run (default --problems; a larger "
                    "set trains every run on all of them, its runs split over calls with --reuse-refs)")
    ap.add_argument("--reuse-refs", help="the --out folder of an earlier call: its references (rows and exports) "
                    "stand for this call's, none is run")
    ap.add_argument("--summarize", action="store_true", help="only rewrite the summary of --out from its files")
    args = ap.parse_args()
    args.problem_list = args.problems.split(",") if args.problems else QUICK["problems"] if args.quick else GRID
    args.time_list = [float(x) for x in args.times.split(",") if x] if args.times is not None else \
        QUICK["times"] if args.quick else [10, 30, 60]
    args.budget_list = ([int(x) for x in args.budgets.split(",") if x] if args.budgets is not None else
                        QUICK["budgets"] if args.quick else [50, 150, 600])
    args.ref_budget = args.ref_budget or (QUICK["ref_budget"] if args.quick else 3000)
    args.budget_seeds = args.budget_seeds or args.seeds
    train = ([x for x in args.train.split(",") if x] if args.train is not None else
             QUICK["train"] if args.quick else TRAIN)
    args.ref_list = (GRID if args.ref_problems == "grid" else args.ref_problems.split(",")) if args.ref_problems \
        else args.problem_list
    if not args.reuse_refs and not set(args.problem_list) <= set(args.ref_list):
        ap.error("--ref-problems must hold every problem of --problems (or give --reuse-refs)")
    train = [t for t in train if t not in args.problem_list and t not in args.ref_list]
    if args.reuse_refs:
        if args.prior_refs:
            ap.error("--reuse-refs trains on that call's references: give no --prior-refs")
        args.prior_refs = os.path.join(args.reuse_refs, "refs")
    args.strategy_list = args.strategies.split(",")
    gpus = [g for g in args.gpus.split(",") if g]
    out = args.out
    os.makedirs(out, exist_ok=True)
    if args.summarize:
        if os.path.exists(os.path.join(out, "runs.csv")):
            with open(os.path.join(out, "runs.csv")) as f:
                rows = list(csv.DictReader(f))
        else:
            with open(os.path.join(out, "rows.jsonl")) as f:
                rows = [json.loads(x) for x in f if x.strip()]
        probs = [p for p in args.problem_list if any(r["problem"] == p for r in rows)]
        print(write_summary(out, rows, probs))
        return
    args.config = None
    jobs = args.jobs or max(1, (os.cpu_count() or 1) // len(gpus))
    if len(gpus) > 1 or args.jobs:
        # Each GPU's runs compile on their share of the cores, as on a
        # machine of that size (the time-limited runs pay for compiles).
        args.config = os.path.join(out, "jobs.ini")
        with open(args.config, "w") as f:
            f.write(f"[tune]\njobs = {jobs}\n")
    bench = Bench(args)
    t_start = time.monotonic()
    own, _ = deal(args.problem_list, [], gpus)

    rows_q = queue.Queue()
    if args.reuse_refs:
        # An earlier call's references: their rows, and their exports as
        # the training data (args.prior_refs, set above).
        with open(os.path.join(args.reuse_refs, "rows.jsonl")) as f:
            for r in (json.loads(x) for x in f if x.strip()):
                # Not logged again: the two calls' rows.jsonl together hold each once.
                if r["strategy"] == "reference" and r["problem"] in args.problem_list:
                    rows_q.put(r)
    else:
        ref_own, ref_extra = deal(args.ref_list, train, gpus)

        def ref_worker(g):
            for p in ref_own[g] + ref_extra[g]:
                grid_problem = p in args.ref_list
                j, secs = bench.reference(p, g, args.ref_budget if grid_problem else min(args.ref_budget, 300))
                if grid_problem and j and j.get("winner"):
                    r = row(p, "reference", "budget", args.ref_budget, 1, j, secs, g)
                    rows_q.put(r)
                    bench.log_row(r)

        on_each_gpu(ref_worker, gpus)
        print(f"references done in {time.monotonic() - t_start:.0f} s", flush=True)

    def run_worker(g):
        for p in own[g]:
            for r in bench.runs(p, g):
                rows_q.put(r)
                bench.log_row(r)

    on_each_gpu(run_worker, gpus)
    rows = []
    while not rows_q.empty():
        rows.append(rows_q.get())
    order = args.problem_list + [p for p in args.ref_list if p not in args.problem_list]
    rows.sort(key=lambda r: (order.index(r["problem"]), r["strategy"] != "reference"))
    print(write_summary(out, rows, order))
    print(f"total {time.monotonic() - t_start:.0f} s; rows in {os.path.join(out, 'runs.csv')}; {jobs} compile "
          f"threads a run on {len(gpus)} GPU(s)")


if __name__ == "__main__":
    main()
