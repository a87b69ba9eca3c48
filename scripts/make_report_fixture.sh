#!/usr/bin/env bash
# Make the fixture of the report tests (tests/fixtures/report.db) and the
# example report (docs/report_example.html) from a real GPU run: tunes the
# seed problems with small budgets into a fresh database, checks it, and
# writes the report. Run on a GPU machine from the repository root:
#
#   scripts/make_report_fixture.sh BUILD_DIR [OUT_DIR]
#
# then copy OUT_DIR/report.db to tests/fixtures/report.db and
# OUT_DIR/report_example.html to docs/ (the script prints the commands).
# The report tests derive every expected count from the database, so the
# new fixture needs no change to them. About 10 minutes on an H100/H200.
set -euo pipefail
BUILD=${1:?usage: scripts/make_report_fixture.sh BUILD_DIR [OUT_DIR]}
OUT=${2:-/tmp/convtune-report-fixture}
CT="$BUILD/convtune"
DB="$OUT/report.db"
mkdir -p "$OUT"
rm -f "$DB" "$DB-wal" "$DB-shm" "$OUT/report_example.html"

# Seeds 000-004, each with a budget that keeps the file small (a few hundred
# candidates in all) yet shows a search, several templates and failures.
while read -r spec budget; do
  "$CT" --problem "$spec" --db "$DB" --budget "$budget" --seed 17
done <<'LIST'
conv1d:1e6:2047 60
conv1d:15:4:right 20
conv1dc:1:1024:4:1024:5:pad=2:bias 40
conv2d:16:2048:2048:11:11:same 40
conv2dc:10000:1:28:28:12:7:7 40
conv2dc:10000:12:22:22:12:3:3 40
LIST

"$CT" db check --db "$DB"
"$CT" report --db "$DB" -o "$OUT/report_example.html" --force
"$CT" query --db "$DB"
ls -l "$DB" "$OUT/report_example.html"
echo
echo "now, in the repository:"
echo "  cp $DB tests/fixtures/report.db && cp $OUT/report_example.html docs/report_example.html"
