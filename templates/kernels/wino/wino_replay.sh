#!/bin/bash
# wino_replay.sh: replays ct_conv_wino.cuh on the CPU (wino_replay.cpp) on a
# battery of odd 3x3 layers of stride 1: odd output sizes (the last 2x2
# tiles reaching past the output), padding 0, 1, 2 and asymmetric, batch 1,
# channel counts not multiples of the tiles or the chunk (3 to 70), groups
# 2 and 3, bias, NCHW and NHWC, every tile shape of the space, one and two
# stages (several chunks each), blocks of over 48 KiB of shared memory
# (dynamic) and of 512 threads, fp32 (the
# Winograd transforms within relative L2 1e-5 of fp64), bf16, f16; and
# FPRE=1 (the prep kernel's filter transforms, then the main kernel on its
# workspace) on a second battery of the same variety. Run from
# anywhere; needs g++ (C++20) and, for bf16/f16, CUDA's include directory
# ($CUDA_HOME/include). Exit status: the number of failed cases. Each case
# is a compile of the header (about a second): CTest runs every tenth case
# (REPLAY_PART=I/10 picks which tenth, default drawn); REPLAY_PART=all runs
# everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=10
source "$here/../replay_lib.sh"
# [ST=2] [MB=2] [FP=1] one DT B CIN COUT G H W PH PW BIAS CL TILE_M TILE_N THREAD_M THREAD_N CHUNK_K
# (ST: STAGES, MB: MIN_BLOCKS, 1 unless set; FP: FPRE, 0 unless set; cases
# of over 48 KiB of shared memory run the kernel's dynamic array)
one() {
    replay_pick || return
    replay_pass_layer "$1" 0 "$2" "$3" "$4" "$5" "$6" "$7" 3 3 "$8" "$9" 1 1 1 1 "${10}" "${11}"
    shift 11
    local t="-DTILE_M=$1 -DTILE_N=$2 -DTHREAD_M=$3 -DTHREAD_N=$4 -DCHUNK_K=$5 -DSTAGES=${ST:-1} -DMIN_BLOCKS=${MB:-1}"
    t="$t -DFPRE=${FP:-0}"
    printf "[%s]: " "$(echo $t | sed 's/-D//g')"
    replay_compile_run "$here/wino_replay.cpp" $layer $t
}
for dt in 0 1 2; do
    for cl in 0 1; do
        #   dt  B CI CO G H  W  PH PW bias CL  TM TN RM RN CK
        one $dt 2 8  13 1 9  11 1  1  1    $cl 16 32 4  4  8
   ST=2 one $dt 1 19 70 1 13 12 1  1  0    $cl 32 32 8  8  8
        one $dt 2 6  37 1 11 13 0  0  1    $cl 32 16 8  4  4
        one $dt 1 12 16 1 15 14 2  2  0    $cl 16 16 4  4  4
   ST=2 one $dt 2 6  10 2 10 9  1  1  1    $cl 16 32 4  8  8
        one $dt 1 9  21 3 12 13 0  1  0    $cl 32 32 8  4  16
   ST=2 one $dt 3 7  5  1 8  9  1  0  1    $cl 16 16 4  4  8
   MB=2 one $dt 1 16 32 1 17 16 1  1  1    $cl 32 64 8  8  8
   ST=2 one $dt 2 3  64 1 6  7  2  1  0    $cl 64 32 8  8  4
   ST=2 one $dt 1 33 8  1 5  5  1  1  1    $cl 16 64 4  8  16
   ST=2 one $dt 1 40 24 1 7  9  1  1  1    $cl 32 16 8  4  4
   ST=2 one $dt 1 20 40 1 9  10 1  1  1    $cl 32 16 8  4  8
        one $dt 2 33 24 1 7  8  1  1  0    $cl 32 16 8  4  16
        one $dt 1 20 70 1 9  10 1  1  1    $cl 64 32 8  8  8
    done
done
# FPRE=1: groups of 2 and 3, channels past the block's and the chunk's,
# planes of fewer float4 than a position's threads (16 x 32 blocks of 4 x
# 4 sums, chunks of 4: 16 of 32), blocks of 512 threads and of dynamic
# shared memory.
for dt in 0 1 2; do
    for cl in 0 1; do
        #        dt  B CI CO G H  W  PH PW bias CL  TM TN RM RN CK
   FP=1      one $dt 2 8  13 1 9  11 1  1  1    $cl 16 32 4  4  8
FP=1 ST=2    one $dt 1 19 70 1 13 12 1  1  0    $cl 32 32 8  8  8
FP=1 ST=2    one $dt 2 6  10 2 10 9  1  1  1    $cl 16 32 4  8  8
   FP=1      one $dt 1 9  21 3 12 13 0  1  0    $cl 32 32 8  4  16
FP=1 MB=2    one $dt 1 16 32 1 17 16 1  1  1    $cl 32 64 8  8  8
   FP=1      one $dt 1 12 16 1 15 14 2  2  0    $cl 16 32 4  4  4
FP=1 ST=2    one $dt 1 33 8  1 5  5  1  1  1    $cl 16 64 4  8  16
   FP=1      one $dt 1 20 70 1 9  10 1  1  1    $cl 64 32 8  8  8
    done
done
replay_end
