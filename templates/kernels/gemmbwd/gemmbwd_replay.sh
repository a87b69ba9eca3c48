#!/bin/bash
# gemmbwd_replay.sh: replays ct_gemmbwd.cuh on the CPU (gemmbwd_replay.cpp)
# on a battery of odd dense and grouped layers, both passes: strides 2 and
# 3, asymmetric strides and dilations, dilation 2, padding (valid, pad,
# same with an even kernel, causal conv1dc layers of height 1), groups 1, 2
# and 3, bias (wgrad), NCHW and NHWC, fp32, bf16, f16; tiles past the
# layer, channel tiles and slices past a group, output-channel chunks, and
# SPLIT > 1 (the main kernel's partials added by the fp64 reduce kernel,
# warp per element and, on the large cases, thread per element). Run from
# anywhere; needs g++ (C++20) and, for bf16/f16, CUDA's include directory
# ($CUDA_HOME/include). Exit status: the number of failed cases. Each case
# is a compile of the header (about a second): CTest runs every eighth case
# (REPLAY_PART=I/8 picks which eighth, default drawn) and every eighth accuracy case (one a part);
# REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=8
replay_acc_every=8
source "$here/../replay_lib.sh"
# [OHW="OH OW"] one DT PASS B CIN COUT G H W KH KW PH PW SY SX DY DX BIAS CL TUNING...
#   dgrad TUNING: OUT_X OUT_Y CIN_PER_THREAD CIN_SLICES TILE_H TILE_W COUT_CHUNK SPLIT
#   wgrad TUNING: CO_PER_THREAD CO_TILE CIN_TILE GROUPS_PER_BLOCK RED_SLICES TILE_OH TILE_OW OUT_X SPLIT [STAGES]
one() {
    replay_pick || return
    replay_pass_layer "${@:1:18}"
    local pass=$2 t
    shift 18
    if [ "$pass" = 1 ]; then
        t="-DOUT_X=$1 -DOUT_Y=$2 -DCIN_PER_THREAD=$3 -DCIN_SLICES=$4 -DTILE_H=$5 -DTILE_W=$6 -DCOUT_CHUNK=$7 -DSPLIT=$8"
    else
        t="-DCO_PER_THREAD=$1 -DCO_TILE=$2 -DCIN_TILE=$3 -DGROUPS_PER_BLOCK=$4 -DRED_SLICES=$5 -DTILE_OH=$6"
        t="$t -DTILE_OW=$7 -DOUT_X=$8 -DSPLIT=$9 -DSTAGES=${10:-1}"
    fi
    printf "[%s]: " "$(echo $t | sed 's/-D//g')"
    replay_compile_run "$here/gemmbwd_replay.cpp" $layer $t
}
for dt in 0 1 2; do
    #                dt  pass B CI CO G H  W  KH KW PH PW SY SX DY DX bias CL  OX OY CPT NSL TH TW CC SPLIT
                 one $dt 1    2 6  5  1 9  11 3  3  1  1  1  1  1  1  0    0   4  1  2   3   0  0  0  1
                 one $dt 1    2 4  6  2 11 13 3  3  1  1  2  2  1  1  0    1   2  2  2   2   4  6  2  1
                 one $dt 1    1 6  9  3 13 12 5  3  2  1  3  2  1  1  0    0   2  3  1   1   6  0  1  3
                 one $dt 1    2 8  8  2 12 13 3  3  2  2  1  1  2  2  0    1   3  2  4   1   0  5  3  2
    OHW="10 11"  one $dt 1    1 4  6  1 10 11 4  4  1  1  1  1  1  1  0    0   4  2  3   2   0  0  0  1
                 one $dt 1    2 3  5  1 9  10 3  5  0  0  2  3  1  2  0    1   3  2  3   1   0  0  2  3
    OHW="1 37"   one $dt 1    2 6  4  2 1  37 1  4  0  3  1  1  1  1  0    1   4  1  3   2   1  16 0  1
                 one $dt 1    2 5  5  1 1  41 1  3  0  2  1  2  1  2  0    0   2  1  5   1   1  0  1  5
    #                dt  pass B CI CO G H  W  KH KW PH PW SY SX DY DX bias CL  MR COT CIT GPB RS TOH TOW OX SPLIT
                 one $dt 2    2 6  5  1 9  11 3  3  1  1  1  1  1  1  1    0   2  0   0   1   2  0   0   4  1
                 one $dt 2    2 4  6  2 11 13 3  3  1  1  2  2  1  1  0    1   3  0   0   2   1  3   4   2  2
                 one $dt 2    1 6  9  3 13 12 5  3  2  1  3  2  1  1  1    0   2  2   1   1   3  2   3   1  3
                 one $dt 2    2 8  8  2 12 13 3  3  2  2  1  1  2  2  1    1   4  0   2   1   4  0   0   3  1
    OHW="10 11"  one $dt 2    1 4  6  1 10 11 4  4  1  1  1  1  1  1  1    0   4  4   3   1   2  4   6   3  2
                 one $dt 2    2 3  5  1 9  10 3  5  0  0  2  3  1  2  0    1   5  0   0   1   1  1   0   1  4
    OHW="1 37"   one $dt 2    2 6  4  2 1  37 1  4  0  3  1  1  1  1  1    1   2  0   0   2   2  1   12  4  3
                 one $dt 2    2 5  5  1 1  41 1  3  0  2  1  2  1  2  1    0   3  0   2   1   4  1   0   2  1
done
# The reduce kernel's thread-per-element form (65,536 elements or more)
#       dt pass B CI  CO G H  W  KH KW PH PW SY SX DY DX bias CL  tuning
one     0  2    1 128 64 1 8  8  3  3  1  1  1  1  1  1  1    1   4 16 16 1 1 0 0 4 2
one     0 1 2 32  16 1 32 32 3  3  1  1  1  1  1  1  0    0   4 2 4 8 8 16 4 2
# fp32 accuracy over long sums: wgrad B4 40x40 (6,400 terms a weight),
# split and not; dgrad over 288 terms in chunks
ACC=1 one 0 2 4 8   8  1 40 40 3  3  1  1  1  1  1  1  1    1   4 0 2 1 4 0 0 4 1
ACC=1 one 0 2 4 8   8  2 40 40 3  3  1  1  1  1  1  1  0    0   2 0 0 2 2 10 0 4 4
ACC=1 one 0 2 3 6   9  3 13 12 5  3  2  1  3  2  1  1  1    1   2 2 1 1 3 2 3 1 5 2
ACC=1 one 0 1 2 16  64 2 12 12 3  3  1  1  1  1  1  1  0    1   2 2 4 2 0 0 8 2
# Seed 003's layers at B = 2 and 3: all 12 output channels per thread
# (CO_PER_THREAD 16 taken as 12), 8 and 32 lanes, the padded x rows and
# channel pitch of odd windows (OUT_X 4 and 2), split, two stages (the
# stage alternation; the copies are synchronous on the CPU)
ACC=1 one 0 2 3 12  12 1 22 22 3  3  0  0  1  1  1  1  0    0   16 0 0 1 8 0 0 4 3
ACC=1 one 0 2 3 12  12 1 22 22 3  3  0  0  1  1  1  1  0    0   16 0 0 1 8 0 0 4 1 2
ACC=1 one 0 2 2 1   12 1 28 28 7  7  0  0  1  1  1  1  0    0   16 0 0 1 32 0 0 4 2 2
ACC=1 one 0 2 2 1   12 1 28 28 7  7  0  0  1  1  1  1  1    1   12 0 0 1 16 0 0 2 1
replay_end
