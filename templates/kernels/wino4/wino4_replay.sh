#!/bin/bash
# wino4_replay.sh: replays ct_conv_wino4.cuh on the CPU (wino4_replay.cpp)
# on a battery of odd 3x3 layers of stride 1: odd output sizes (the last
# 4x4 tiles reaching past the output, rows and columns), padding 0, 1, 2
# and asymmetric, batch 1, channel counts not multiples of the tiles or the
# chunk (3 to 70), groups 2 and 3, bias, NCHW and NHWC (NCHW outputs a
# multiple of 4 wide take the vector stores), every thread shape of the
# space (8 and 16 threads a position), chunks of 2 to 16 channels, with and
# without the prefetch, one and two stages, fp32 (the F(4x4,3x3)
# transforms within relative L2 1e-5 of fp64), bf16, f16; in every part
# two NCHW fp32 layers of the vector patch loads and two ResNet-like
# accuracy layers of 64 and 256 channels; and FPRE=1 (the prep kernel's
# filter transforms, then the main kernel on its workspace) on a second
# battery of the same variety, a block's copy of U' fewer float4 than its
# threads in some, and an accuracy layer. Run from anywhere; needs g++
# (C++20) and, for bf16/f16, CUDA's include directory ($CUDA_HOME/include).
# Exit status: the number of failed cases. Each case is a compile of the
# header (about a second): CTest runs every sixth case and every other accuracy case (REPLAY_PART=I/6
# picks which sixth, default drawn); REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=6
replay_acc_every=2
source "$here/../replay_lib.sh"
# [PF=1] [ST=2] [MB=2] [FP=1] one DT B CIN COUT G H W PH PW BIAS CL TILE_M TILE_N THREAD_M THREAD_N CHUNK_K
# (PF: PREFETCH, FP: FPRE, 0 unless set; ST: STAGES, MB: MIN_BLOCKS, 1 unless set)
one() {
    replay_pick || return
    replay_pass_layer "$1" 0 "$2" "$3" "$4" "$5" "$6" "$7" 3 3 "$8" "$9" 1 1 1 1 "${10}" "${11}"
    shift 11
    local t="-DTILE_M=$1 -DTILE_N=$2 -DTHREAD_M=$3 -DTHREAD_N=$4 -DCHUNK_K=$5 -DPREFETCH=${PF:-0}"
    t="$t -DSTAGES=${ST:-1} -DMIN_BLOCKS=${MB:-1} -DFPRE=${FP:-0}"
    printf "[%s]: " "$(echo $t | sed 's/-D//g')"
    replay_compile_run "$here/wino4_replay.cpp" $layer $t
}
for dt in 0 1 2; do
    for cl in 0 1; do
        #   dt  B CI CO G H  W  PH PW bias CL  TM TN RM RN CK
        one $dt 2 8  13 1 9  11 1  1  1    $cl 32 16 8  4  4
   PF=1 one $dt 1 19 70 1 13 12 1  1  0    $cl 32 16 8  8  4
   ST=2 one $dt 2 6  37 1 11 13 0  0  1    $cl 16 16 4  4  4
   PF=1 one $dt 1 12 16 1 15 14 2  2  0    $cl 16 32 4  8  8
        one $dt 2 6  10 2 10 9  1  1  1    $cl 16 16 4  8  4
PF=1 ST=2 one $dt 1 9  21 3 12 13 0  1  0    $cl 32 32 8  8  2
   MB=2 one $dt 3 7  5  1 8  9  1  0  1    $cl 32 8  8  4  4
        one $dt 1 16 32 1 17 16 1  1  1    $cl 64 8  8  4  8
   PF=1 one $dt 2 3  64 1 6  7  2  1  0    $cl 64 16 8  8  4
   ST=2 one $dt 1 33 8  1 5  5  1  1  1    $cl 16 32 4  8  4
   PF=1 one $dt 1 40 24 1 7  9  1  1  1    $cl 32 32 8  8  8
PF=1 ST=2 one $dt 2 37 19 1 9  14 1  1  1    $cl 32 16 8  4  2
        one $dt 1 35 12 1 6  8  1  1  0    $cl 16 8  4  4  16
    done
done
# FPRE=1: the filters transformed by the prep kernel. Groups of 2 and 3,
# channels past the block's (13 of 32, 70 of 32 x 3) and the chunk's,
# copies of fewer float4 than threads (16 x 16 and 16 x 32 blocks, chunks
# of 2: 288 of 576).
for dt in 0 1 2; do
    for cl in 0 1; do
        #        dt  B CI CO G H  W  PH PW bias CL  TM TN RM RN CK
   FP=1      one $dt 2 8  13 1 9  11 1  1  1    $cl 32 16 8  4  4
   FP=1 PF=1 one $dt 1 19 70 1 13 12 1  1  0    $cl 32 16 8  8  4
FP=1 ST=2    one $dt 2 6  10 2 10 9  1  1  1    $cl 16 16 4  8  4
FP=1 PF=1 ST=2 one $dt 1 9 21 3 12 13 0  1  0    $cl 32 32 8  8  2
FP=1 MB=2    one $dt 3 7  5  1 8  9  1  0  1    $cl 32 8  8  4  4
   FP=1 PF=1 one $dt 1 40 24 1 7  9  1  1  1    $cl 32 32 8  8  8
   FP=1      one $dt 1 35 12 1 6  8  1  1  0    $cl 16 8  4  4  16
FP=1 ST=2    one $dt 1 33 8  1 5  5  1  1  1    $cl 16 32 4  8  2
FP=1 PF=1 ST=2 one $dt 2 12 20 1 15 14 2 2 1    $cl 16 16 4  4  2
   FP=1      one $dt 1 16 96 1 17 16 1  1  1    $cl 64 8  8  4  8
    done
done
# The vector loads of NCHW fp32 patches (rows a multiple of 4 wide, padding
# 1 or 5 columns): the right edge inside and past the output, every part.
FORCE=1 PF=1 one 0 2 12 20 1 10 16 1 1 1 0 32 16 8 8 8
FORCE=1      one 0 1 5  9  1 7  8  5 5 0 0 16 16 4 8 8
# Accuracy: ResNet-like fp32 layers (many input channels summed), one of
# them a part (replay_acc_every).
ACC=1 PF=1 ST=2 one 0 1 64 16 1 12 12 1 1 0 0 32 16 8 4 2
ACC=1      one 0 1 256 8 1 8 8 1 1 1 1 32 8 8 4 8
ACC=1 FP=1 PF=1 one 0 1 64 32 1 12 12 1 1 1 0 32 16 8 8 8
replay_end
