#!/usr/bin/env bash
# Everything that needs a GPU, in two calls of the device machine, logs in $OUT.
#   scripts/gpu_all.sh BUILD_DIR tests   GPU tests (ctest -L gpu, verbose)
#   scripts/gpu_all.sh BUILD_DIR search  the search-quality experiment
#   scripts/gpu_all.sh BUILD_DIR bench   side-by-side benchmark, warm-cache
#                                        throughput, SASS and compute-sanitizer
set -u
BUILD=${1:-build-gpu}
PHASE=${2:-tests}
OUT=${OUT:-/tmp/convtune-out}
mkdir -p "$OUT"
# CTest files hold the absolute paths of the machine that configured the
# build; make that path resolve here too.
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt")
if [ -n "$src" ] && [ ! -e "$src" ]; then mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"; fi
export CONVTUNE_CACHE=/tmp/convtune-cache
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv \
  | tee -a "$OUT/device.log"
date -u | tee -a "$OUT/device.log"

if [ "$PHASE" = tests ]; then
  (cd "$BUILD" && ctest -L gpu -V --timeout 900) > "$OUT/ctest_gpu.log" 2>&1
  grep -E "^[0-9]+/[0-9]+ Test|tests passed|SKIPPED|CHECK failed|verified|selftest|killed|resumed|json summary|exact puzzle|GPU fp64|PASS|FAIL" \
    "$OUT/ctest_gpu.log" | tail -40
elif [ "$PHASE" = search ]; then
  # Search quality: an exhaustive run over a space of ~2100 candidates, then
  # the guided search replayed on its measurements for 10 seeds.
  "$BUILD/convtune" --problem conv1d:2e5:2047 --db "$OUT/search.db" --config bench/search_space.ini \
    --strategy exhaustive --no-cache > "$OUT/search_exhaustive.log" 2>&1
  tail -12 "$OUT/search_exhaustive.log"
  "$BUILD/search_quality" --db "$OUT/search.db" --problem conv1d:2e5:2047 --config bench/search_space.ini \
    --fraction 0.2 --seeds 10 | tee "$OUT/SEARCH.md"
else
  mkdir -p /tmp/bench
  PYTHONUNBUFFERED=1 python3 bench/bench_conv1d.py --convtune "$BUILD/convtune" --db "$OUT/bench.db" \
    --out "$OUT/BENCH.md" --workdir /tmp/bench --budget 400 > "$OUT/bench.log" 2>&1
  echo "bench exit $?"
  tail -30 "$OUT/bench.log"
  # Throughput with a warm binary cache: the headline problem measured again.
  "$BUILD/convtune" --problem conv1d:1e6:2047 --db "$OUT/bench.db" --fresh --json > "$OUT/warm.json" 2> "$OUT/warm.log"
  grep -E "tuned|time split|space" "$OUT/warm.log"; cat "$OUT/warm.json"
  # The headline problem's best direct kernel: SASS and sanitizer.
  "$BUILD/convtune" export --problem conv1d:1e6:2047 --db "$OUT/bench.db" -o /tmp/bench/best.cu --force
  "$BUILD/convtune" query --problem conv1d:1e6:2047 --db "$OUT/bench.db" --all --format csv > "$OUT/all_1e6_2047.csv"
  for cu in /tmp/bench/conv1d_1000000_2047_valid.cu; do
    libs=$(grep -o 'link with -l[a-z]*' "$cu" | sed 's/link with //')
    nvcc -arch=sm_90 -DCONVTUNE_SELFTEST "$cu" -o /tmp/win_selftest $libs && \
      compute-sanitizer --tool memcheck /tmp/win_selftest 2>&1 | tail -3 | tee "$OUT/sanitizer.log"
  done
fi
