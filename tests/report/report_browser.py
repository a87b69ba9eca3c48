#!/usr/bin/env python3
"""report_browser.py - `convtune report` as a person sees it: a report of the
fixture database (tests/fixtures/report.db, from a real GPU run) rendered by
headless Chromium.

Checks that the page loads with no console message (Chromium logs CSP
refusals and script errors there; a probe page with a console.error proves
the check sees them), that it is self-contained (no script, no external
URL), that every plot's SVG is there with the number of marks computed from
the database itself (so another fixture needs no change here), that every
axis has tick labels (time axes in a time unit) and a title, every section
has the template colour legend naming the templates it plots, the CSV has
one row per candidate, and that the screenshot is not blank (the PNG
is decoded with zlib).

    report_browser.py CONVTUNE FIXTURE.db [SCREENSHOT.png]

Chromium missing: exit 77 (skipped), except under CI (the CI variable set),
which installs it, where that is a failure. Runs Chromium as root with
--no-sandbox.
"""
import json, os, re, shutil, sqlite3, struct, subprocess, sys, tempfile, zlib

SKIP = 77
TOP = 10   # CT_REPORT_TOP in tuner/report.h
failures = []


def check(cond, msg):
    if not cond:
        failures.append(msg)
        print("FAIL: " + msg)


def chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    return None


def browse(exe, url, tmp, *extra):
    """Run headless Chromium on url; returns (stdout, stderr)."""
    # --no-sandbox: CI runs as root; --disable-dev-shm-usage: containers
    # often have a small /dev/shm.
    cmd = [exe, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
           "--user-data-dir=" + os.path.join(tmp, "profile"), "--enable-logging=stderr", "--v=0",
           *extra, url]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return p.stdout, p.stderr


def console_lines(err):
    return [l for l in err.splitlines() if "CONSOLE" in l or "Uncaught" in l]


def expected(db):
    """Per problem: the marks the report must draw, from the database."""
    con = sqlite3.connect("file:" + db + "?mode=ro", uri=True)
    rows = con.execute(
        "SELECT p.canonical, d.name, c.template, c.params, c.status, c.median_us FROM candidates c "
        "JOIN problems p ON p.id = c.problem_id JOIN devices d ON d.id = c.device_id").fetchall()
    con.close()
    out = {}
    for prob in sorted({r[0] for r in rows}):
        mine = [r for r in rows if r[0] == prob]
        ok = [r for r in mine if r[4] == "ok" and r[5] is not None]
        if ok:   # the device of the fastest verified result
            dev = min(ok, key=lambda r: r[5])[1]
        else:
            dev = max({r[1] for r in mine}, key=lambda n: sum(r[1] == n for r in mine))
        mine = [r for r in mine if r[1] == dev]
        ok = [r for r in ok if r[1] == dev]
        groups = {}
        for r in ok:
            for k, v in json.loads(r[3]).items():
                groups.setdefault((r[2], k), set()).add(json.dumps(v))
        nvalues = sum(len(v) for v in groups.values() if len(v) >= 2)
        baseline = any(r[2].endswith("_naive") for r in ok)
        out[prob] = {"device": dev, "rows": len(mine),
                     "search": {"mk-search": len(ok), "mk-fail": len(mine) - len(ok)},
                     "dist": {"mk-dist": len(ok), "mk-box": len({r[2] for r in ok})},
                     "param": {"mk-pmed": nvalues, "mk-pbest": nvalues},
                     "roofline": {"mk-roof": min(len(ok), TOP) + (1 if baseline else 0)}}
    return out


def png_stats(path):
    """(width, height, distinct colours, share of pixels that are not the
    most common colour) of an 8-bit RGB or RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "PNG type %d/%d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    prev = bytearray(stride)
    counts = {}
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        if y % 4 == 0:   # every fourth row is plenty for these statistics
            for x in range(0, stride, bpp * 2):
                px = bytes(line[x:x + 3])
                counts[px] = counts.get(px, 0) + 1
        prev = line
    total = sum(counts.values())
    return w, h, len(counts), 1 - max(counts.values()) / total


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    ct, fixture = sys.argv[1], sys.argv[2]
    shot_keep = sys.argv[3] if len(sys.argv) > 3 else None
    exe = chromium()
    if not exe:
        if os.environ.get("CI"):
            print("FAIL: chromium is not installed, and CI installs it (.ci/run)")
            return 1
        print("SKIPPED: no chromium (apt-get install chromium); under CI this fails")
        return SKIP
    tmp = tempfile.mkdtemp(prefix="ct_report_browser_")
    try:
        db = os.path.join(tmp, "fixture.db")   # a copy: opening may add WAL files
        shutil.copy(fixture, db)
        want = expected(db)
        check(len(want) > 0, "the fixture database holds no candidates")
        html = os.path.join(tmp, "report.html")
        p = subprocess.run([ct, "report", "--db", db, "-o", html], capture_output=True, text=True)
        check(p.returncode == 0, "report exit %d: %s" % (p.returncode, p.stderr))
        csvp = os.path.join(tmp, "report.csv")
        p = subprocess.run([ct, "report", "--db", db, "--format", "csv", "-o", csvp], capture_output=True,
                           text=True)
        check(p.returncode == 0, "report --format csv exit %d: %s" % (p.returncode, p.stderr))
        if failures:
            return 1
        import csv
        with open(csvp, newline="") as f:
            recs = list(csv.DictReader(f))
        check(len(recs) == sum(w["rows"] for w in want.values()),
              "CSV rows %d, database rows %d" % (len(recs), sum(w["rows"] for w in want.values())))
        check(recs and "median_us" in recs[0] and "run_settings" in recs[0], "CSV lacks fields")

        page = open(html, encoding="utf-8").read()
        check("<script" not in page.lower(), "the page has a script")
        urls = set(re.findall(r"(?:https?:)?//[A-Za-z0-9.-]+", page)) - {"http://www.w3.org"}
        check(not urls, "the page names external URLs: %s" % sorted(urls))

        # The console check sees what it should: a probe page's error.
        probe = os.path.join(tmp, "probe.html")
        open(probe, "w").write("<!DOCTYPE html><p>probe</p><script>console.error('ct-probe')</script>")
        _, err = browse(exe, "file://" + probe, tmp, "--dump-dom")
        check(any("ct-probe" in l for l in console_lines(err)), "the console check does not see a probe error")

        dom, err = browse(exe, "file://" + html, tmp, "--dump-dom")
        check(not console_lines(err), "console messages: %s" % console_lines(err))
        check("</html>" in dom, "no DOM dumped")
        sections = re.split(r'<section class="problem"', dom)[1:]
        check(len(sections) == len(want), "%d sections, %d problems" % (len(sections), len(want)))
        for sec in sections:
            m = re.search(r'data-problem="([^"]*)" data-device="([^"]*)"', sec)
            prob = m.group(1) if m else "?"
            w = want.get(prob)
            check(w is not None, "a section for an unknown problem %s" % prob)
            if not w:
                continue
            check(m.group(2) == w["device"], "%s: device %s, expected %s" % (prob, m.group(2), w["device"]))
            svgs = re.findall(r'<svg class="plot" data-plot="(\w+)".*?</svg>', sec, re.S)
            blocks = re.findall(r'(<svg class="plot" data-plot="\w+".*?</svg>)', sec, re.S)
            for kind in ("search", "dist", "roofline"):
                check(svgs.count(kind) == 1, "%s: %d %s plots" % (prob, svgs.count(kind), kind))
            for kind, marks in w.items():
                if not isinstance(marks, dict):
                    continue
                text = "".join(b for b, k in zip(blocks, svgs) if k == kind)
                for cls, n in marks.items():
                    got = len(re.findall(r'<(?:circle|rect|line)\b[^>]*class="%s[" ]' % cls, text))
                    check(got == n, "%s: %s plot: %d %s marks, expected %d" % (prob, kind, got, cls, n))
            # Every axis has tick labels: numeric axes (data-axis) at least two
            # each, time axes in a time unit; category axes name their rows or
            # values. The axis titles are there and not empty.
            time_unit = re.compile(r"^-?[0-9.]+ (?:ns|us|ms|s)$")
            for b, kind in zip(blocks, svgs):
                ticks = {ax: [t.strip() for t in re.findall(
                    r'<text class="tick" data-axis="%s"[^>]*>([^<]*)</text>' % ax, b)] for ax in "xy"}
                titles = dict(re.findall(r'<text class="label" data-axis="([xy])"[^>]*>([^<]*)</text>', b))
                num_axes = {"search": "xy", "roofline": "xy", "dist": "x", "param": "y"}[kind]
                for ax in num_axes:
                    check(len(ticks[ax]) >= 2 and all(ticks[ax]),
                          "%s: %s plot: %s axis tick labels %s" % (prob, kind, ax, ticks[ax]))
                for ax, timed in (("y", kind in ("search", "param")), ("x", kind == "dist")):
                    if timed:
                        check(all(time_unit.match(t) for t in ticks[ax]),
                              "%s: %s plot: %s ticks lack a time unit: %s" % (prob, kind, ax, ticks[ax]))
                check(titles.get("x"), "%s: %s plot: no x axis title" % (prob, kind))
                check(kind == "dist" or titles.get("y"), "%s: %s plot: no y axis title" % (prob, kind))
                if kind == "param":
                    cats = re.findall(r'<text class="tick" x="[^"]*" y="[^"]*" text-anchor="middle">([^<]+)</text>', b)
                    check(len(cats) >= 2, "%s: param plot: %d value labels" % (prob, len(cats)))
            # Small multiples share one time scale: every param plot of the
            # section has the same y tick labels.
            pticks = [tuple(re.findall(r'<text class="tick" data-axis="y"[^>]*>([^<]*)</text>', b))
                      for b, k in zip(blocks, svgs) if k == "param"]
            check(len(set(pticks)) <= 1, "%s: param plots on %d different scales" % (prob, len(set(pticks))))
            check(not pticks or "Parameter sensitivity" in sec, "%s: no sensitivity ranking" % prob)
            # The colour key: under the search/roofline pair and under the
            # per-template plot, naming every template the dist plot rows name.
            dist = "".join(b for b, k in zip(blocks, svgs) if k == "dist")
            rows = set(re.findall(r'<text class="label" x="[^"]*" y="[^"]*" text-anchor="end">([^<]+)</text>', dist))
            legends = re.findall(r'<div class="legend" data-legend="templates">(.*?)</div>', sec, re.S)
            check(len(legends) == 2, "%s: %d template legends, expected 2" % (prob, len(legends)))
            for lg in legends:
                names = set(re.findall(r'<span class="it"><i class="c\d"></i>([^<]+)</span>', lg))
                check(names and names == rows, "%s: legend names %s, plot rows %s" % (prob, sorted(names), sorted(rows)))
            print("%s on %s: %s" % (prob, w["device"],
                                    ", ".join("%s %d" % (c, n) for k, v in w.items() if isinstance(v, dict)
                                              for c, n in v.items())))

        shot = os.path.join(tmp, "shot.png")
        browse(exe, "file://" + html, tmp, "--screenshot=" + shot, "--window-size=1200,1600",
               "--hide-scrollbars")
        check(os.path.exists(shot), "no screenshot written")
        if os.path.exists(shot):
            wd, ht, colours, ink = png_stats(shot)
            print("screenshot %dx%d: %d colours, %.1f%% of pixels not background" % (wd, ht, colours, 100 * ink))
            check((wd, ht) == (1200, 1600), "screenshot is %dx%d" % (wd, ht))
            check(colours >= 16 and ink >= 0.02, "the screenshot looks blank")
            if shot_keep:
                shutil.copy(shot, shot_keep)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
