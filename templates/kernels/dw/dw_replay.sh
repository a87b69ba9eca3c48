#!/bin/bash
# dw_replay.sh: replays the dw kind's template files on the CPU
# (dw_replay.cpp) on a battery of odd depthwise layers. conv1dc_dw in fp32,
# bf16 and f16 (conv1dc_dwh): strides 2 and 3, dilation 2, pad, causal,
# bias, VEC 1, 2, 4, several rows a block, idle threads past the output;
# conv2dc_dw (fp32): strides, dilations, padding, odd planes, tiles and
# OUT_Y x OUT_X past the plane. Run from anywhere; needs g++ (C++20) and,
# for bf16/f16, CUDA's include directory ($CUDA_HOME/include). Exit status:
# the number of failed cases. Each case is a compile (about a second):
# CTest runs every fourth case (REPLAY_PART=I/4 picks which fourth, default
# 1/4); REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=4
source "$here/../replay_lib.sh"
# [CAUSAL=1] one1 DT B C L K PAD STRIDE DIL BIAS BLOCK CPB OPT VEC: a
# conv1dc layer (replay_dw1_layer) and conv1dc_dw's parameters.
one1() {
    replay_pick || return
    replay_dw1_layer "${@:1:9}"
    printf "conv1dc [%s %s %s %s]: " "${10}" "${11}" "${12}" "${13}"
    replay_compile_run "$here/dw_replay.cpp" -I"$root/templates/conv1dc" -DREPLAY_2D=0 $layer \
        -DBLOCK_SIZE=${10} -DCHANNELS_PER_BLOCK=${11} -DOUT_PER_THREAD=${12} -DVEC=${13}
}
# one2 B C H W KH KW PH PW SY SX DY DX BIAS OUT_X OUT_Y TILE_OH TILE_OW: a
# conv2dc layer in fp32 (replay_dw2_layer) and conv2dc_dw's parameters.
one2() {
    replay_pick || return
    replay_dw2_layer 0 "${@:1:13}"
    printf "conv2dc [%s %s %s %s]: " "${14}" "${15}" "${16}" "${17}"
    replay_compile_run "$here/dw_replay.cpp" -I"$root/templates/conv2dc" -DREPLAY_2D=1 $layer \
        -DOUT_X=${14} -DOUT_Y=${15} -DTILE_OH=${16} -DTILE_OW=${17}
}
for dt in 0 1 2; do
    #              dt  B C  L   K  PAD S D bias BLOCK CPB OPT VEC
    CAUSAL=1  one1 $dt 2 6  64  4  3   1 1 1    64    2   4   4
              one1 $dt 2 5  40  3  1   1 1 0    32    1   8   2
              one1 $dt 1 7  37  5  2   2 1 1    64    4   3   1
    CAUSAL=1  one1 $dt 3 4  33  3  4   1 2 0    32    2   5   1
              one1 $dt 2 3  50  7  3   3 1 1    128   8   2   1
              one1 $dt 1 9  96  5  2   1 1 1    64    1   16  4
done
#    B C  H  W  KH KW PH PW SY SX DY DX bias OX OY TOH TOW
one2 2 3  13 14 3  3  1  1  1  1  1  1  1    4  2  0   0
one2 1 4  17 15 5  5  2  2  1  1  1  1  0    2  1  8   16
one2 2 2  16 16 7  7  3  3  2  2  1  1  1    4  4  0   0
one2 1 3  19 21 3  5  1  2  3  2  1  1  1    8  2  4   8
one2 2 2  15 16 3  3  2  2  1  1  2  2  0    2  4  8   0
one2 1 5  9  11 4  4  1  1  1  1  1  1  1    2  1  0   0
one2 2 2  20 20 3  3  0  0  1  1  1  3  1    8  8  0   16
one2 1 3  31 33 11 11 5  5  1  1  1  1  0    4  2  16  16
replay_end
