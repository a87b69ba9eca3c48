#!/usr/bin/env bash
# Everything that needs a GPU, one phase per call of the device machine, logs in $OUT.
#   scripts/gpu_all.sh BUILD_DIR tests   GPU tests (ctest -L gpu, verbose)
#   scripts/gpu_all.sh BUILD_DIR grid    the same on every GPU of the host at once:
#                                        gpu_families in two halves, gpu_torch and
#                                        the others as four jobs, one process per GPU
#                                        (CUDA_VISIBLE_DEVICES), run i on GPU i mod N
#   scripts/gpu_all.sh BUILD_DIR search      the search-quality experiment (conv2d)
#   scripts/gpu_all.sh BUILD_DIR throughput  cold and warm binary cache, conv1d:1e6:2047
#   scripts/gpu_all.sh BUILD_DIR bench       side-by-side benchmark of the 2D and
#                                            multi-channel families (the conv1d
#                                            benchmark is bench/bench_conv1d.py)
#   scripts/gpu_all.sh BUILD_DIR passes      the training passes against PyTorch's
#                                            backward (issue 29): passes.md, passes.json;
#                                            PASSES_PROBLEMS a subset (PROBLEM[@N], no
#                                            pass token: both), PASSES_TIME/_BUDGET per
#                                            problem, PASSES_ARGS more (--dense)
#   scripts/gpu_all.sh BUILD_DIR sanitize    memcheck, racecheck and synccheck on the
#                                            exported seed winners of BENCH_DB (or
#                                            SANITIZE_PROBLEMS' winners), compiled for
#                                            sm_90a (wgmma) unless SANITIZE_ARCH says
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
  (cd "$BUILD" && ctest -L gpu ${CTEST_ARGS:-} -V --timeout 900) > "$OUT/ctest_gpu.log" 2>&1
  grep -E "^[0-9]+/[0-9]+ Test|tests passed|SKIPPED|CHECK failed|verified|selftest|killed|resumed|json summary|exact puzzle|GPU fp64|PASS|FAIL|faults survived|compute-sanitizer|=========.*(ERROR|Invalid|SUMMARY)" \
    "$OUT/ctest_gpu.log" | tail -60
elif [ "$PHASE" = grid ]; then
  # Four independent jobs; on N GPUs, GPU g runs jobs g, g + N, ... in turn,
  # so four GPUs take the time of the longest job (about 6 minutes on H200s).
  ngpu=$(nvidia-smi -L | grep -c '^GPU')
  [ "$ngpu" -ge 1 ] || { echo "no GPU" >&2; exit 4; }
  jobs=("fam1:CONVTUNE_GPU_PART=1/2:-R gpu_families" "fam2:CONVTUNE_GPU_PART=2/2:-R gpu_families"
        "other::-L gpu -E gpu_families|gpu_torch" "torch::-R gpu_torch")
  for g in $(seq 0 $((ngpu - 1))); do
    (for j in $(seq "$g" "$ngpu" $((${#jobs[@]} - 1))); do
       IFS=: read -r name env sel <<< "${jobs[$j]}"
       (cd "$BUILD" && env CUDA_VISIBLE_DEVICES="$g" $env ctest $sel -V --timeout 900) > "$OUT/$name.log" 2>&1
       echo "$name (GPU $g): exit $?" >> "$OUT/grid.log"
     done) &
  done
  wait
  cat "$OUT/grid.log"
  grep -h -E "tests passed|checks,|CHECK failed|FAIL" "$OUT"/fam1.log "$OUT"/fam2.log "$OUT"/other.log "$OUT"/torch.log | tail -30
elif [ "$PHASE" = search ]; then
  # Search quality on the largest space: an exhaustive run of a conv2d space,
  # then the guided search replayed on its measurements for 10 seeds.
  P=${SEARCH_PROBLEM:-conv2d:4:1024:1024:11:11:same}
  CFG=${SEARCH_CONFIG:-bench/search_space_conv2d.ini}
  "$BUILD/convtune" --problem "$P" --db "$OUT/search.db" --config "$CFG" \
    --strategy exhaustive --no-cache > "$OUT/search_exhaustive.log" 2>&1
  tail -14 "$OUT/search_exhaustive.log"
  "$BUILD/search_quality" --db "$OUT/search.db" --problem "$P" --config "$CFG" \
    --fraction 0.2 --seeds 10 | tee "$OUT/SEARCH.md"
elif [ "$PHASE" = throughput ]; then
  # Cold then warm binary cache, same seed: the second run compiles nothing.
  for run in cold warm; do
    "$BUILD/convtune" --problem conv1d:1e6:2047 --db "$OUT/tp.db" --fresh --seed 4242 --json \
      > "$OUT/tp_$run.json" 2> "$OUT/tp_$run.log"
    echo "== $run"; grep -E "tuned|time split|measurement|winner" "$OUT/tp_$run.log"
  done
elif [ "$PHASE" = bench ]; then
  mkdir -p /tmp/bench
  PYTHONUNBUFFERED=1 python3 bench/bench_families.py --convtune "$BUILD/convtune" --db "$OUT/bench.db" \
    --out "$OUT/BENCH_FAMILIES.md" --workdir /tmp/bench --budget "${BUDGET:-300}" --time "${TUNE_TIME:-0}" ${BENCH_ARGS:-} ${BENCH_PROBLEMS:-} > "$OUT/bench.log" 2>&1
  echo "bench exit $?"
  tail -25 "$OUT/bench.log"
elif [ "$PHASE" = passes ]; then
  # The layout self-check first (PyTorch on the CPU against the passes'
  # definitions), then tune, export and time each pass. 12 s of tuning a
  # problem (about 20 s with its measurements) and --max-wall keep the
  # default list (20 problem-passes) within one device call; what is not
  # reached is reported as not run.
  work=$(mktemp -d)   # the exported winners and their builds
  python3 bench/bench_passes.py --selfcheck --convtune "$BUILD/convtune" > "$OUT/passes_selfcheck.log" 2>&1
  echo "passes selfcheck exit $?: $(tail -1 "$OUT/passes_selfcheck.log")"
  PYTHONUNBUFFERED=1 python3 bench/bench_passes.py --convtune "$BUILD/convtune" --db "${PASSES_DB:-$OUT/passes.db}" \
    --out "$OUT/passes.md" --json "$OUT/passes.json" --workdir "$work" --budget "${PASSES_BUDGET:-300}" \
    --time "${PASSES_TIME:-12}" --max-wall "${PASSES_MAX_WALL:-420}" ${PASSES_ARGS:-} ${PASSES_PROBLEMS:-} \
    > "$OUT/passes.log" 2>&1
  echo "passes exit $?"
  grep -E "^(FAILED|Traceback)|Error" "$OUT/passes.log" | tail -10
  grep -E "^\| |^Training|^Tuning" "$OUT/passes.md" 2>/dev/null | head -60
else
  # compute-sanitizer over the exported self-test of each seed problem's
  # winner (or SANITIZE_PROBLEMS') in a benchmark database (BENCH_DB), two
  # timed runs instead of 200.
  DB=${BENCH_DB:-$OUT/bench.db}
  mkdir -p /tmp/san
  for p in ${SANITIZE_PROBLEMS:-conv1dc:1:1024:4:1024:5:pad=2:bias conv2d:16:2048:2048:11:11:same \
           conv2dc:10000:1:28:28:12:7:7 conv2dc:10000:12:22:22:12:3:3}; do
    n=$(echo "$p" | tr ':=' '__')
    "$BUILD/convtune" export --problem "$p" --db "$DB" -o "/tmp/san/$n.cu" --force > /dev/null &&
      nvcc -O3 ${SANITIZE_ARCH:--gencode=arch=compute_90a,code=sm_90a} -DCONVTUNE_SELFTEST -DCT_SELFTEST_REPS=2 "/tmp/san/$n.cu" -o "/tmp/san/$n" || continue
    for tool in memcheck racecheck synccheck; do
      compute-sanitizer --tool $tool --print-limit 10 "/tmp/san/$n" > "/tmp/san/$n.$tool" 2>&1
      echo "$p $tool: exit $? | $(grep -E "selftest" "/tmp/san/$n.$tool" | cut -c1-90) | $(grep -E "SUMMARY" "/tmp/san/$n.$tool")"
    done
  done | tee "$OUT/sanitizer.log"
fi
