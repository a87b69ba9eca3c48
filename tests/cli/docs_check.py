#!/usr/bin/env python3
"""docs_check.py - the README and docs/ hold what they claim to hold.

The README is a first screen (at most 150 lines) whose test command is the
one CI runs (.ci/run), whose links and docs/' links lead to files and
headings that exist, whose problem strings convtune accepts, and whose
pages speak of the product only (no work sessions, no issue numbers).
Usage: docs_check.py CONVTUNE SOURCE_DIR. Needs no GPU.
"""
import os
import re
import subprocess
import sys
import tempfile

failures = 0


def check(ok, what):
    global failures
    if not ok:
        failures += 1
        print("FAIL:", what)


def anchors(path):
    """GitHub's anchors of a Markdown file's headings."""
    out, fence = set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if not fence and line.startswith("#"):
            t = line.lstrip("#").strip().lower()
            out.add(re.sub(r"[^\w\- ]", "", t).replace(" ", "-"))
    return out


def main():
    convtune, src = sys.argv[1], sys.argv[2]
    readme = os.path.join(src, "README.md")
    docs = os.path.join(src, "docs")
    pages = [readme] + sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    text = open(readme, encoding="utf-8").read()

    n = text.count("\n")
    check(n <= 150, f"README.md has {n} lines, more than 150")

    # The README's test command is the one .ci/run runs, word for word.
    ci = open(os.path.join(src, ".ci", "run"), encoding="utf-8").read()
    cmds = [l for l in text.splitlines() if l.startswith("scripts/setup-deps.sh")]
    check(len(cmds) >= 3, f"README.md gives {len(cmds)} set-up commands, expected build-only, main job, tests")
    tests = [c for c in cmds if "ctest" in c]
    check(len(tests) == 1 and tests[0] in ci, "README.md's test command is not the one .ci/run runs")
    check(any("--build-only" in c for c in cmds), "README.md gives no build-only command")
    setup = open(os.path.join(src, "scripts", "setup-deps.sh"), encoding="utf-8").read()
    check("--build-only" in setup, "scripts/setup-deps.sh has no --build-only")

    for page in pages:
        body = open(page, encoding="utf-8").read()
        name = os.path.relpath(page, src)
        for m in re.finditer(r"\]\(([^)\s]+)\)", body):
            link = m.group(1)
            if re.match(r"[a-z]+:", link):
                continue
            path, _, anchor = link.partition("#")
            target = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            check(os.path.exists(target), f"{name}: link to missing {link}")
            if anchor and target.endswith(".md") and os.path.exists(target):
                check(anchor in anchors(target), f"{name}: link to missing heading {link}")
        for m in re.finditer(r"(?i)\bsessions?\b|\bissues? [0-9]+", body):
            line = body.count("\n", 0, m.start()) + 1
            check(False, f"{name}:{line}: '{m.group(0)}' (the docs speak of the product only)")

    # Every problem of the README's results table parses (convtune space
    # refuses a bad one with exit 2).
    probs = re.findall(r"^\| `([a-z0-9]+:[^`]+)`", text, re.M)
    check(len(probs) >= 5, f"README.md's results table has {len(probs)} problems, expected 5 to 8")
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, CONVTUNE_DB=os.path.join(tmp, "t.db"), CONVTUNE_CACHE=os.path.join(tmp, "c"))
        for p in probs:
            r = subprocess.run([convtune, "space", "--problem", p], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            check(r.returncode == 0, f"README.md's problem {p} is refused: {r.stderr.strip()}")

    print(f"docs_check: {len(pages)} pages, {len(probs)} problems, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
