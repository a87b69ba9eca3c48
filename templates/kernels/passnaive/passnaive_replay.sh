#!/bin/bash
# passnaive_replay.sh: replays ct_pass_naive.cuh on the CPU
# (passnaive_replay.cpp) on a battery of odd layers, both passes: strides 2
# and 3, dilation 2, padding (valid, pad, same with an even kernel,
# asymmetric, causal conv1dc layers of height 1), groups 1, 2 and
# depthwise, bias (wgrad), NCHW and NHWC, fp32, bf16, f16. Run from
# anywhere; needs g++ (C++20) and, for bf16/f16, CUDA's include directory
# ($CUDA_HOME/include). Exit status: the number of failed cases. Each case
# is a compile of the header (about a second): CTest runs every fourth case
# (REPLAY_PART=I/4 picks which fourth, default 1/4); REPLAY_PART=all runs
# everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=4
source "$here/../replay_lib.sh"
# one DT PASS B CIN COUT G H W KH KW PH PW SY SX DY DX BIAS CL BLOCK [OH OW]
one() {
    replay_pick || return
    local dt=$1 pass=$2 B=$3 CI=$4 CO=$5 G=$6 H=$7 W=$8 KH=$9 KW=${10} PH=${11} PW=${12} SY=${13} SX=${14}
    local DY=${15} DX=${16} BIAS=${17} CL=${18} BS=${19}
    local OH=${20:-$(( (H + 2 * PH - DY * (KH - 1) - 1) / SY + 1 ))}
    local OW=${21:-$(( (W + 2 * PW - DX * (KW - 1) - 1) / SX + 1 ))}
    local d="-DCT_DTYPE=$dt -DLY_PASS=$pass -DLY_B=$B -DLY_CIN=$CI -DLY_COUT=$CO -DLY_GROUPS=$G -DLY_H=$H -DLY_W=$W"
    d="$d -DLY_KH=$KH -DLY_KW=$KW -DLY_OH=$OH -DLY_OW=$OW -DLY_PH=$PH -DLY_PW=$PW -DLY_SY=$SY -DLY_SX=$SX"
    d="$d -DLY_DY=$DY -DLY_DX=$DX -DLY_BIAS=$BIAS -DLY_CL=$CL -DBLOCK_SIZE=$BS"
    printf "dtype %s pass %s B%s %s->%s g%s %sx%s k%sx%s pad %s,%s stride %s,%s dil %s,%s bias %s cl %s out %sx%s: " \
        "$dt" "$pass" "$B" "$CI" "$CO" "$G" "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$SY" "$SX" "$DY" "$DX" "$BIAS" "$CL" "$OH" "$OW"
    replay_compile_run "$here/passnaive_replay.cpp" $d
}
for dt in 0 1 2; do
    for pass in 1 2; do
        #            B CI CO G H  W  KH KW PH PW SY SX DY DX bias CL BLOCK
        one $dt $pass 2 6  5  1 9  11 3  3  1  1  1  1  1  1  1    0  64
        one $dt $pass 2 4  6  2 11 13 3  3  1  1  2  2  1  1  0    1  32
        one $dt $pass 1 6  6  6 13 12 5  3  2  1  3  2  1  1  1    0  128
        one $dt $pass 2 8  8  8 12 13 3  3  2  2  1  1  2  2  1    1  64
        one $dt $pass 1 4  6  2 10 11 4  4  1  1  1  1  1  1  1    0  64  10 11
        one $dt $pass 2 3  5  1 9  10 3  5  0  0  2  3  1  2  0    1  96
        one $dt $pass 2 6  4  2 1  37 1  4  0  3  1  1  1  1  1    1  64  1  37
        one $dt $pass 2 5  5  5 1  41 1  3  0  2  1  2  1  2  1    0  32
    done
done
# fp32 accuracy over a long wgrad sum (B4 40x40: 6,400 terms a weight)
FORCE=1 one 0 2 4 4 4 2 40 40 3 3 1 1 1 1 1 1 1 1 256
replay_end
