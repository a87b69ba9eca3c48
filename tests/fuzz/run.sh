#!/usr/bin/env bash
# Run each libFuzzer target of a CONVTUNE_FUZZ build for SECONDS (default 30)
# over its seed corpus and the regression inputs; stop with status 1 at the
# first crash, leak, sanitizer report or broken invariant.
#
#   CC=clang cmake -S . -B build-fuzz -DCONVTUNE_FUZZ=ON -DBUILD_TESTING=OFF
#   cmake --build build-fuzz --target fuzz_problem fuzz_config
#   tests/fuzz/run.sh build-fuzz 30
#
# New corpus entries and crash files go under BUILD_DIR/fuzz-TARGET/, never
# into the source tree.
set -euo pipefail
build=${1:?usage: tests/fuzz/run.sh BUILD_DIR [SECONDS]}
secs=${2:-30}
src=$(cd "$(dirname "$0")" && pwd)
for t in problem config; do
  bin="$build/tests/fuzz/fuzz_$t"
  work="$build/fuzz-$t"
  mkdir -p "$work/corpus"
  log="$work/log.txt"
  if ! "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
       -artifact_prefix="$work/" "$work/corpus" "$src/corpus_$t" "$src/regressions" >"$log" 2>&1; then
    tail -n 60 "$log" >&2
    echo "fuzz_$t: FAILED; the input is in $work/ (crash-*, leak-*, timeout-*): add it to" \
         "tests/fuzz/regressions/ with the fix" >&2
    exit 1
  fi
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
  echo "fuzz_$t: ${runs:-?} inputs in ${secs} s, no crash ($(ls "$work/corpus" | wc -l) new corpus entries)"
done
