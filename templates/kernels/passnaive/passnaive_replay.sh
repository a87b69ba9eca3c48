#!/bin/bash
# passnaive_replay.sh: replays ct_pass_naive.cuh on the CPU
# (passnaive_replay.cpp) on a battery of odd layers, both passes: strides 2
# and 3, dilation 2, padding (valid, pad, same with an even kernel,
# asymmetric, causal conv1dc layers of height 1), groups 1, 2 and
# depthwise, bias (wgrad), NCHW and NHWC, fp32, bf16, f16. Run from
# anywhere; needs g++ (C++20) and, for bf16/f16, CUDA's include directory
# ($CUDA_HOME/include). Exit status: the number of failed cases. Each case
# is a compile of the header (about a second): CTest runs every fourth case
# (REPLAY_PART=I/4 picks which fourth, default drawn); REPLAY_PART=all runs
# everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=4
source "$here/../replay_lib.sh"
# [OHW="OH OW"] one DT PASS B CIN COUT G H W KH KW PH PW SY SX DY DX BIAS CL BLOCK
one() {
    replay_pick || return
    replay_pass_layer "${@:1:18}"
    printf "[BLOCK_SIZE=%s]: " "${19}"
    replay_compile_run "$here/passnaive_replay.cpp" $layer -DBLOCK_SIZE=${19}
}
for dt in 0 1 2; do
    for pass in 1 2; do
        #                         B CI CO G H  W  KH KW PH PW SY SX DY DX bias CL BLOCK
                     one $dt $pass 2 6  5  1 9  11 3  3  1  1  1  1  1  1  1    0  64
                     one $dt $pass 2 4  6  2 11 13 3  3  1  1  2  2  1  1  0    1  32
                     one $dt $pass 1 6  6  6 13 12 5  3  2  1  3  2  1  1  1    0  128
                     one $dt $pass 2 8  8  8 12 13 3  3  2  2  1  1  2  2  1    1  64
        OHW="10 11"  one $dt $pass 1 4  6  2 10 11 4  4  1  1  1  1  1  1  1    0  64
                     one $dt $pass 2 3  5  1 9  10 3  5  0  0  2  3  1  2  0    1  96
        OHW="1 37"   one $dt $pass 2 6  4  2 1  37 1  4  0  3  1  1  1  1  1    1  64
                     one $dt $pass 2 5  5  5 1  41 1  3  0  2  1  2  1  2  1    0  32
    done
done
# fp32 accuracy over a long wgrad sum (B4 40x40: 6,400 terms a weight)
FORCE=1 one 0 2 4 4 4 2 40 40 3 3 1 1 1 1 1 1 1 1 256
replay_end
