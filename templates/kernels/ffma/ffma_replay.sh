#!/bin/bash
# ffma_replay.sh: replays ct_conv_ffma.cuh on the CPU (ffma_replay.cpp) on
# a battery of odd dense and grouped layers: channels not multiples of the
# tiles (5, 7, 13, 37 and 70 output channels, 3 to 19 input channels),
# batch 1, stride 2 and 3, asymmetric strides and dilations, dilation 2,
# padding (valid, pad, same with an even kernel), 1x1 and 5x5 filters,
# groups 2 and 3, bias, NCHW and NHWC (vector stores and scalar ones),
# reductions not multiples of the chunk, every tile shape of the space
# (4 and 8 outputs a thread each way, chunks of 8 and 16), fp32, bf16,
# f16; conv1dc's layers (height 1). Run from anywhere; needs g++ (C++20)
# and, for bf16/f16, CUDA's include directory ($CUDA_HOME/include). Exit
# status: the number of failed cases. Each case is a compile of the header
# (about a second): CTest runs every sixth case (REPLAY_PART=I/6 picks
# which sixth, default drawn); REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=6
source "$here/../replay_lib.sh"
# [OHW="OH OW"] one DT B CIN COUT G H W KH KW PH PW SY SX DY DX BIAS CL TILE_M TILE_N THREAD_M THREAD_N CHUNK_K
one() {
    replay_pick || return
    replay_pass_layer "$1" 0 "${@:2:16}"
    shift 17
    local t="-DTILE_M=$1 -DTILE_N=$2 -DTHREAD_M=$3 -DTHREAD_N=$4 -DCHUNK_K=$5"
    printf "[%s]: " "$(echo $t | sed 's/-D//g')"
    replay_compile_run "$here/ffma_replay.cpp" $layer $t
}
for dt in 0 1 2; do
    for cl in 0 1; do
        #    dt  B CI CO G H  W  KH KW PH PW SY SX DY DX bias CL  TM  TN  RM RN CK
        one $dt 2 8  13 1 9  11 3  3  1  1  1  1  1  1  1    $cl 32  64  4  8  8
        one $dt 1 19 70 1 13 12 3  3  1  1  2  2  1  1  0    $cl 64  32  8  4  16
        one $dt 2 6  37 1 11 13 3  3  2  2  1  1  2  2  1    $cl 32  32  4  4  8
        one $dt 1 12 16 1 15 14 5  5  2  2  1  1  1  1  0    $cl 64  64  8  8  8
        one $dt 2 6  10 2 10 9  3  3  1  1  1  1  1  1  1    $cl 32  64  8  8  16
        one $dt 1 9  21 3 12 13 3  3  0  0  2  1  1  2  0    $cl 32  128 4  8  8
        one $dt 3 7  5  1 8  9  1  1  0  0  1  1  1  1  1    $cl 128 32  8  4  8
        one $dt 1 16 32 1 17 16 3  3  1  1  3  3  1  1  1    $cl 128 64  8  8  16
        one $dt 2 3  64 1 16 16 3  3  1  1  1  1  1  1  0    $cl 64  128 8  8  8
        one $dt 1 4  8  1 14 14 7  7  3  3  2  2  1  1  1    $cl 64  64  8  8  16
        OHW="10 11" one $dt 2 5 12 1 10 11 4 4 1 1 1 1 1 1 1 $cl 32 64 4 4 16
        # conv1dc's layers (height 1): stride 3 dilation 2, causal K = 4
        one $dt 2 13 19 1 1  37 1  5  0  2  1  3  1  2  1    $cl 32  64  4  8  8
        OHW="1 37" one $dt 1 8 24 2 1 37 1 4 0 3 1 1 1 1 0  $cl 64  32  4  4  8
    done
done
replay_end
