#!/usr/bin/env python3
"""CPU seconds (user + system, the test and every child it waited for) and
wall seconds of each CTest test (label cpu), each run alone, in CTest's order (fixture
set-ups first), and the estimated wall time of `ctest -jN` (N cores):
max(sum of CPU / N, the longest test's CPU). CPU time does not depend much
on the other work of a shared machine, where wall time does, so suite changes
are compared by it (docs/TESTING.md, "Suite time").

usage: cpu_profile.py BUILD_DIR [-R REGEX] [-j N] [--tsv FILE]
"""
import argparse, json, os, re, signal, subprocess, sys, time


def test_env(props):
    env = dict(os.environ)
    for p in props:
        if p["name"] == "ENVIRONMENT":
            for kv in p["value"]:
                k, _, v = kv.partition("=")
                env[k] = v
        elif p["name"] == "ENVIRONMENT_MODIFICATION":
            for kv in p["value"]:
                k, _, rest = kv.partition("=")
                op, _, v = rest.partition(":")
                old = env.get(k, "")
                if op == "set":
                    env[k] = v
                elif op == "reset":
                    env.pop(k, None)
                elif op == "path_list_prepend":
                    env[k] = v + (":" + old if old else "")
                elif op == "path_list_append":
                    env[k] = (old + ":" if old else "") + v
                elif op == "string_append":
                    env[k] = old + v
                elif op == "string_prepend":
                    env[k] = v + old
    return env


def run_one(t):
    props = t.get("properties", [])
    pd = {p["name"]: p["value"] for p in props}
    cwd = pd.get("WORKING_DIRECTORY")
    t0 = time.monotonic()
    # A shell's background job ignores SIGINT and SIGQUIT, and a child
    # inherits that: the tests that send them (test_cli_refuse) need the
    # default, as CTest gives them.
    def dfl():
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGQUIT, signal.SIG_DFL)
    proc = subprocess.Popen(t["command"], cwd=cwd, env=test_env(props), preexec_fn=dfl,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read()
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.monotonic() - t0
    rc = os.waitstatus_to_exitcode(status)
    cpu = ru.ru_utime + ru.ru_stime
    skip = pd.get("SKIP_RETURN_CODE")
    if skip is not None and rc == skip:
        res = "skip"
    elif "PASS_REGULAR_EXPRESSION" in pd:
        res = "ok" if any(re.search(r, out.decode(errors="replace"))
                          for r in pd["PASS_REGULAR_EXPRESSION"]) else "FAIL"
    else:
        res = "ok" if rc == 0 else "FAIL"
    return cpu, wall, res, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("build")
    ap.add_argument("-R", default="")
    ap.add_argument("-L", default="cpu")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("--tsv")
    a = ap.parse_args()
    js = json.loads(subprocess.check_output(
        ["ctest", "--test-dir", a.build, "--show-only=json-v1"]))
    tests = []
    for t in js["tests"]:
        pd = {p["name"]: p["value"] for p in t.get("properties", [])}
        if a.L and a.L not in pd.get("LABELS", []):
            continue
        if a.R and not re.search(a.R, t["name"]) and "FIXTURES_SETUP" not in pd:
            continue
        tests.append(t)
    # Fixture set-ups first, as CTest runs them.
    tests.sort(key=lambda t: 0 if any(p["name"] == "FIXTURES_SETUP" for p in t.get("properties", [])) else 1)
    rows = []
    for t in tests:
        cpu, wall, res, out = run_one(t)
        rows.append((t["name"], cpu, wall, res))
        print(f"{t['name']:32s} {cpu:8.1f} {wall:8.1f} {res}", flush=True)
        if res == "FAIL":
            sys.stdout.write(out.decode(errors="replace")[-3000:])
    total = sum(r[1] for r in rows)
    longest = max((r[1] for r in rows), default=0)
    print(f"total CPU {total:.1f} s, longest {longest:.1f} s, "
          f"estimated -j{a.j} wall {max(total / a.j, longest):.1f} s")
    if a.tsv:
        with open(a.tsv, "w") as f:
            for r in rows:
                f.write(f"{r[0]}\t{r[1]:.2f}\t{r[2]:.2f}\t{r[3]}\n")
    return 1 if any(r[3] == "FAIL" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
