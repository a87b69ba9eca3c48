#!/usr/bin/env bash
# On the GPU machine, after build.sh (OUT_DIR carried): the probe's table,
# the phase stamps, and (NCU=1) ncu's gpu__time_duration of each kernel
# with L2 left warm. Logs under $OUT when set.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT_DIR:-$here/out}
log=${OUT:-$out}/seed002.txt
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv | tee "$log"
"$out/probe" | tee -a "$log"
for t in "$out"/tl_*; do "$t" | tail -1 | tee -a "$log"; done
if [ "${NCU:-0}" = 1 ]; then
  ncu --cache-control none --clock-control none --metrics gpu__time_duration.sum "$out/probe" --ncu \
    | grep -E "Context|gpu__time_duration" | tee -a "$log"
fi
