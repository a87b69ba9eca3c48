#!/usr/bin/env bash
# Quick GPU check of the tensor-core templates on odd shapes (every
# candidate verified) and a first look at their speed. Logs: $OUT/tc_logs.tgz.
set -u
B=${1:-build}
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
L=/tmp/tc_logs; mkdir -p $L
export CONVTUNE_CACHE=/tmp/cc
nvidia-smi --query-gpu=name,driver_version,clocks.sm --format=csv,noheader
run() { # problem template budget
  local log="$L/$(echo "$1_$2" | tr ':=' '__').log"
  "$B/convtune" --problem "$1" --template "$2" --strategy random --budget "$3" --db $L/smoke.db --seed 7 \
    --verbose > "$log" 2>&1
  echo "== rc=$? $1 $2"; tail -n 4 "$log" | cut -c1-220
}
for t in conv2dc_tc conv2dc_tcsplit; do
  run conv2dc:3:5:11:13:7:3:3:same $t 20
  run conv2dc:2:3:17:9:33:5:3:valid:bias $t 20
  run conv2dc:1:19:7:7:20:1:1:valid $t 20
done
for t in conv1dc_tc conv1dc_tcsplit; do
  run conv1dc:3:17:101:29:5:pad=2:bias $t 20
  run conv1dc:2:40:33:5:1 $t 20
done
if [ "${BIG:-60}" != 0 ]; then
  run conv2dc:32:64:56:56:64:3:3:same conv2dc_tc ${BIG:-60}
  run conv2dc:8:256:14:14:256:3:3:same conv2dc_tcsplit ${BIG:-60}
  run conv1dc:4:512:2048:512:7:pad=3:bias conv1dc_tc ${BIG:-60}
fi
tar czf "$OUT/tc_logs.tgz" -C /tmp tc_logs
