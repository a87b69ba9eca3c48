#!/usr/bin/env bash
# Everything that needs a GPU, in one call of the device machine: the GPU
# tests (ctest -L gpu), the side-by-side benchmark, a SASS dump and a
# compute-sanitizer pass over the headline winner. Logs go to $OUT.
#   usage: scripts/gpu_all.sh BUILD_DIR
set -u
BUILD=${1:-build-gpu}
shift || true
OUT=${OUT:-/tmp/convtune-out}
mkdir -p "$OUT"
# CTest files hold the absolute paths of the machine that configured the
# build; make that path resolve here too.
src=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$BUILD/CMakeCache.txt")
if [ -n "$src" ] && [ ! -e "$src" ]; then mkdir -p "$(dirname "$src")" && ln -s "$PWD" "$src"; fi
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv | tee "$OUT/device.log"
date -u | tee -a "$OUT/device.log"

(cd "$BUILD" && ctest -L gpu --output-on-failure --timeout 900) > "$OUT/ctest_gpu.log" 2>&1
tail -8 "$OUT/ctest_gpu.log"

mkdir -p /tmp/bench
PYTHONUNBUFFERED=1 python3 bench/bench_conv1d.py --convtune "$BUILD/convtune" --db "$OUT/bench.db" \
  --out "$OUT/BENCH.md" --workdir /tmp/bench "$@" > "$OUT/bench.log" 2>&1
echo "bench exit $?"
tail -25 "$OUT/bench.log"

cu=/tmp/bench/conv1d_1000000_2047_valid.cu
if [ -f "$cu" ]; then
  nvcc -arch=sm_90 -cubin -o /tmp/win.cubin "$cu" && cuobjdump --dump-sass /tmp/win.cubin > "$OUT/winner.sass"
  nvcc -arch=sm_90 -DCONVTUNE_SELFTEST "$cu" -o /tmp/win_selftest && \
    compute-sanitizer --tool memcheck /tmp/win_selftest 2>&1 | tail -3 | tee "$OUT/sanitizer.log"
fi
