#!/usr/bin/env bash
# Regenerate the example report and its screenshot in docs/ from the fixture
# database (tests/fixtures/report.db, the seed problems tuned on an H100):
# docs/report_example.html, and docs/report_example.png, the page's top as
# headless Chromium renders it at 1200x1600. The PNG is taken by the
# report's browser test (tests/report/report_browser.py), so it is only
# written when that test's checks of the page pass (tick labels on every
# axis, legends, one mark per candidate). No GPU needed; needs chromium and
# python3 (scripts/setup-deps.sh installs both).
#
#   scripts/report_screenshot.sh [BUILD_DIR]      (default: build)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ct="${1:-$root/build}/convtune"
[ -x "$ct" ] || { echo "report_screenshot: no convtune at $ct; build first" >&2; exit 2; }
db="$root/tests/fixtures/report.db"
"$ct" report --db "$db" -o "$root/docs/report_example.html" --force
python3 "$root/tests/report/report_browser.py" "$ct" "$db" "$root/docs/report_example.png"
ls -l "$root/docs/report_example.html" "$root/docs/report_example.png"
