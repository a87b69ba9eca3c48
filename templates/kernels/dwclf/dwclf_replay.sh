#!/bin/bash
# dwclf_replay.sh: replays ct_dwcl_fwd.cuh on the CPU (dwclf_replay.cpp) on
# a battery of odd depthwise layers: strides 2 and 3, dilations 2 and 3,
# asymmetric strides and dilations, pad, valid, same with an even kernel,
# bias, 1 to 24 channels (vectors of 1 to 8), idle channel threads, tiles
# past the output, several tile groups a block, conv1dc's layers (height 1,
# causal), fp32, bf16, f16. Run from anywhere; needs g++ (C++20) and, for
# bf16/f16, CUDA's include directory ($CUDA_HOME/include). Exit status: the
# number of failed cases. Each case is a compile of the header (about a
# second): CTest runs every sixth case (REPLAY_PART=I/6 picks which sixth,
# default drawn: 15 cases a type, so each type gets other layers);
# REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../replay_lib.sh"
# [PF=1] one DT B C H W KH KW PH PW SY SX DY DX BIAS VEC CT PT OUT_X OUT_Y ITEMS [OH OW]
# (PF: PREFETCH, 0 unless set)
one() {
    replay_pick || return
    local dt=$1 B=$2 C=$3 H=$4 W=$5 KH=$6 KW=$7 PH=$8 PW=$9 SY=${10} SX=${11} DY=${12} DX=${13}
    local BIAS=${14} VEC=${15} CT=${16} PT=${17} OX=${18} OY=${19} IT=${20}
    local OH=${21:-$(( (H + 2 * PH - DY * (KH - 1) - 1) / SY + 1 ))}
    local OW=${22:-$(( (W + 2 * PW - DX * (KW - 1) - 1) / SX + 1 ))}
    local d="-DCT_DTYPE=$dt -DLY_B=$B -DLY_C=$C -DLY_H=$H -DLY_W=$W -DLY_KH=$KH -DLY_KW=$KW"
    d="$d -DLY_OH=$OH -DLY_OW=$OW -DLY_PH=$PH -DLY_PW=$PW -DLY_SY=$SY -DLY_SX=$SX -DLY_DY=$DY -DLY_DX=$DX"
    d="$d -DLY_BIAS=$BIAS -DVEC=$VEC -DCHANNEL_THREADS=$CT -DPOS_THREADS=$PT -DOUT_X=$OX -DOUT_Y=$OY -DITEMS=$IT -DPREFETCH=${PF:-0}"
    printf "pf %s dtype %s B%s C%s %sx%s k%sx%s pad %s,%s stride %s,%s dil %s,%s bias %s out %sx%s: " \
        "${PF:-0}" "$dt" "$B" "$C" "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$SY" "$SX" "$DY" "$DX" "$BIAS" "$OH" "$OW"
    replay_compile_run "$here/dwclf_replay.cpp" $d
}
for dt in 0 1 2; do
    v8=8; [ $dt = 0 ] && v8=4
    #        dt  B C  H  W  KH KW PH PW SY SX DY DX bias VEC CT PT OX OY IT
         one $dt 2 12 13 14 7  7  3  3  1  1  1  1  0    4   3  4  4  2  1
    PF=1 one $dt 2 3  13 14 7  7  3  3  1  1  1  1  1    1   3  4  3  2  1
         one $dt 1 13 11 9  3  3  1  1  1  1  1  1  1    1   8  4  4  2  2
    PF=1 one $dt 2 16 15 16 3  3  1  1  2  2  1  1  1    $v8 2  4  4  2  1
         one $dt 2 12 13 17 3  5  2  1  3  3  1  1  0    2   3  6  3  2  1
         one $dt 1 8  15 16 3  3  2  2  1  1  2  2  0    4   2  8  4  3  2
    PF=1 one $dt 1 8  15 16 3  3  1  0  2  2  2  3  1    2   4  4  2  2  1
         one $dt 2 6  11 12 5  3  0  0  2  1  1  2  0    2   3  4  4  4  1
    PF=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1  1    4   2  4  4  2  1  10 11
         one $dt 2 16 9  11 3  3  1  1  1  1  1  1  1    $v8 2  4  2  2  3
         one $dt 1 12 13 14 7  7  0  0  1  1  1  1  1    4   3  4  2  4  1
    PF=1 one $dt 2 24 12 12 3  3  1  1  2  2  1  1  0    $v8 1  8  6  3  2
    # conv1dc's layers (height 1): causal K = 4, one channel, stride 3 and
    # dilation 2
    PF=1 one $dt 2 16 1  37 1  4  0  3  1  1  1  1  1    $v8 2  8  8  1  1  1  37
         one $dt 3 1  1  45 1  11 0  5  1  1  1  1  0    1   1  16 4  1  1
    PF=1 one $dt 2 6  1  61 1  5  0  2  1  3  1  2  1    2   3  4  4  1  1
done
replay_end
