#!/usr/bin/env bash
# Seed 002 in bf16 (conv1dc:1:1024:4:1024:5:pad=2:bias:bf16): where a call's
# time goes, outside the tuner. Builds, with nvcc for sm_90a, into OUT_DIR
# (default bench/seed002/out):
#   probe  each kernel below and a plain read of the weights timed four ways
#          (an event between launches, batches of back-to-back launches, a
#          CUDA graph of launches, L2 flushed before each launch) and checked
#          against an fp64 CPU reference; `probe --ncu` only launches them,
#          for ncu;
#   tl_*   conv1dc_tc16wb configurations with %globaltimer stamps at their
#          phases (stamp.py).
# Run them with run.sh on the GPU machine (build here, carry OUT_DIR).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT_DIR:-$here/out}
mkdir -p "$out"
T=$here/../../templates/common
# The kernel folders (templates/kernels/*/) hold the kinds' device code.
KI=()
for d in "$here"/../../templates/kernels/*/; do KI+=(-I"$d"); done
K=$here/../../templates/kernels
GEN="-gencode=arch=compute_90a,code=sm_90a"
cfgs=(
  "kwb_w16ch1 kern_wb.cu CO_TILES=1 WARPS_K=16 WSRC=0 CHUNKS=1 CLUSTER_K=1 MIN_BLOCKS=1"
  "kwb_w16ch2 kern_wb.cu CO_TILES=1 WARPS_K=16 WSRC=0 CHUNKS=2 CLUSTER_K=1 MIN_BLOCKS=1"
  "kwb_w32ch2 kern_wb.cu CO_TILES=1 WARPS_K=32 WSRC=0 CHUNKS=2 CLUSTER_K=1 MIN_BLOCKS=1"
  "kwb_w8ch1 kern_wb.cu CO_TILES=1 WARPS_K=8 WSRC=0 CHUNKS=1 CLUSTER_K=1 MIN_BLOCKS=1"
  "kwb_w16reg kern_wb.cu CO_TILES=1 WARPS_K=16 WSRC=1 CHUNKS=1 CLUSTER_K=1 MIN_BLOCKS=1"
  "kwb_w32reg kern_wb.cu CO_TILES=1 WARPS_K=32 WSRC=1 CHUNKS=1 CLUSTER_K=1 MIN_BLOCKS=1"
  "kwb_c2w16k2 kern_wb.cu CO_TILES=2 WARPS_K=16 WSRC=0 CHUNKS=1 CLUSTER_K=2 MIN_BLOCKS=1"
  "kw_win8 kern_w.cu WARPS_M=1 WARPS_K=16 TILE_N=8 UNROLL=2 CLUSTER_K=2 MIN_BLOCKS=1 STAGE_X=0"
  "kw_win6 kern_w.cu WARPS_M=1 WARPS_K=8 TILE_N=8 UNROLL=2 CLUSTER_K=2 MIN_BLOCKS=2 STAGE_X=0"
)
: > "$out/configs.h"
objs=()
for c in "${cfgs[@]}"; do
  set -- $c
  name=$1 src=$2
  shift 2
  nvcc $GEN -O3 -rdc=true -std=c++17 -I"$here" -I"$T" "${KI[@]}" -DTC_NAME=$name "${@/#/-D}" -c "$here/$src" -o "$out/$name.o" &
  objs+=("$out/$name.o")
  echo "X($name)" >> "$out/configs.h"
done
wait
nvcc $GEN -O3 -rdc=true -std=c++17 -I"$out" "$here/main.cu" "${objs[@]}" -o "$out/probe"
python3 "$here/stamp.py" "$K/tc16wb/ct_conv_tc16wb.cuh" "$out/ct_conv_tc16wb_ts.cuh"
for c in "w16ch1 16 0 1" "w16ch2 16 0 2" "w16reg 16 1 1" "w32reg 32 1 1"; do
  set -- $c
  nvcc $GEN -O3 -std=c++17 -I"$out" -I"$here" -I"$T" "${KI[@]}" -DNAMESTR=\"$1\" -DCO_TILES=1 -DWARPS_K=$2 -DWSRC=$3 -DCHUNKS=$4 \
    -DCLUSTER_K=1 -DMIN_BLOCKS=1 "$here/tl.cu" -o "$out/tl_$1" &
done
wait
echo "built into $out"
