#!/bin/bash
# dwclbwd_replay.sh: replays ct_dwcl_bwd.cuh on the CPU (dwclbwd_replay.cpp)
# on a battery of odd depthwise layers: strides 2 and 3, dilations 2 and 3,
# pad, same with an even kernel, causal, bias, 3 to 16 channels, idle
# channel threads, fp32, bf16, f16. Run from anywhere; needs g++ (C++20)
# and, for bf16/f16, CUDA's include directory ($CUDA_HOME/include).
# Exit status: the number of failed cases. Each case is a compile of the
# header (about a second): CTest runs every tenth case of the battery
# (REPLAY_PART=I/10 picks which tenth, default drawn) and, in about half of the parts, one of the four accuracy cases;
# REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_acc_every=8
replay_every=10
source "$here/../replay_lib.sh"
# [ROWS=R] [RY=D] one DT PASS B C H W KH KW PH PW SY SX DY DX BIAS VEC CT P CHUNK (PT | WORKERS ITEMS) [OH OW]
# (ROWS: wgrad's ROWS_PER_THREAD, RY: its DY_ROWS, 1 unless set; with RY > 1,
# ITEMS a multiple of RY and P whole periods of the x window or under one)
one() {
    replay_pick || return
    local dt=$1 pass=$2 B=$3 C=$4 H=$5 W=$6 KH=$7 KW=$8 PH=$9 PW=${10} SY=${11} SX=${12} DY=${13} DX=${14}
    local BIAS=${15} VEC=${16} CT=${17} P=${18} CH=${19}
    shift 19
    local tune OH OW
    if [ "$pass" = 1 ]; then tune="-DPOS_THREADS=$1"; shift; else tune="-DWORKERS=$1 -DITEMS=$2 -DROWS_PER_THREAD=${ROWS:-1} -DDY_ROWS=${RY:-1}"; shift 2; fi
    OH=${1:-$(( (H + 2 * PH - DY * (KH - 1) - 1) / SY + 1 ))}
    OW=${2:-$(( (W + 2 * PW - DX * (KW - 1) - 1) / SX + 1 ))}
    local d="-DCT_DTYPE=$dt -DLY_PASS=$pass -DLY_B=$B -DLY_C=$C -DLY_H=$H -DLY_W=$W -DLY_KH=$KH -DLY_KW=$KW"
    d="$d -DLY_OH=$OH -DLY_OW=$OW -DLY_PH=$PH -DLY_PW=$PW -DLY_SY=$SY -DLY_SX=$SX -DLY_DY=$DY -DLY_DX=$DX"
    d="$d -DLY_BIAS=$BIAS -DVEC=$VEC -DCHANNEL_THREADS=$CT -DPOS_PER_THREAD=$P -DCHUNK=$CH $tune"
    printf "dtype %s pass %s B%s C%s %sx%s k%sx%s pad %s,%s stride %s,%s dil %s,%s bias %s out %sx%s: " \
        "$dt" "$pass" "$B" "$C" "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$SY" "$SX" "$DY" "$DX" "$BIAS" "$OH" "$OW"
    replay_compile_run "$here/dwclbwd_replay.cpp" $d
}
for dt in 0 1 2; do
    v8=8; [ $dt = 0 ] && v8=4
    #   dt  pass B C  H  W  KH KW PH PW SY SX DY DX bias VEC CT P  CH tuning
    one $dt 1 2 16 9  11 3  3  1  1  1  1  1  1  0  $v8 2  4  2  3
    one $dt 1 2 12 13 14 7  7  3  3  1  1  1  1  0  4   3  8  4  4
    one $dt 1 2 3  13 14 7  7  3  3  1  1  1  1  0  1   3  8  4  4
    one $dt 1 2 12 13 14 3  3  1  1  2  2  1  1  0  4   2  4  2  4
    one $dt 1 2 12 13 17 3  5  2  1  3  3  1  1  0  2   3  6  3  4
    one $dt 1 1 8  15 16 3  3  2  2  1  1  2  2  0  4   2  8  4  2
    one $dt 1 1 8  15 16 3  3  1  0  2  2  2  3  0  2   4  4  2  2
    one $dt 1 2 6  11 12 5  3  0  0  2  1  1  2  0  2   3  4  4  4
    one $dt 1 2 8  10 11 4  4  1  1  1  1  1  1  0  4   2  4  2  4  10 11
    one $dt 1 2 16 1  37 1  4  0  3  1  1  1  1  0  $v8 2  16 4  2  1  37
    one $dt 1 2 16 1  37 1  4  0  6  1  1  1  2  0  4   4  8  2  2  1  37
    one $dt 1 2 8  1  37 1  3  0  1  1  2  1  1  0  2   4  4  2  4
    one $dt 2 2 16 9  11 3  3  1  1  1  1  1  1  1  $v8 2  4  2  2 3
    one $dt 2 2 12 13 14 7  7  3  3  1  1  1  1  1  4   3  8  4  2 5
    one $dt 2 2 3  13 14 7  7  3  3  1  1  1  1  1  1   3  8  4  1 7
    one $dt 2 2 12 13 14 3  3  1  1  2  2  1  1  1  4   2  4  2  4 2
    one $dt 2 2 12 13 17 3  5  2  1  3  3  1  1  1  2   3  6  3  2 2
    one $dt 2 1 8  15 16 3  3  2  2  1  1  2  2  1  4   2  8  4  2 3
    one $dt 2 1 8  15 16 3  3  1  0  2  2  2  3  1  2   4  4  2  2 2
    one $dt 2 2 8  10 11 4  4  1  1  1  1  1  1  1  4   2  4  2  2 3  10 11
    one $dt 2 2 16 1  37 1  4  0  3  1  1  1  1  1  $v8 4  16 4  2 2  1  37
    one $dt 2 2 16 1  37 1  4  0  6  1  1  1  2  0  4   4  8  2  3 1  1  37
    one $dt 2 2 8  1  37 1  3  0  1  1  2  1  1  1  2   4  4  2  2 2
    # wgrad with several filter rows per thread: every row (7), groups
    # past KH (4 and 3 of 7, 2 of 3 and 5), strides, dilations, even kernels
    ROWS=7 one $dt 2 2 12 13 14 7  7  3  3  1  1  1  1  1  4   3  8  4  2 5
    ROWS=4 one $dt 2 2 12 13 14 7  7  3  3  1  1  1  1  1  4   2  8  2  3 3
    ROWS=3 one $dt 2 2 3  13 14 7  7  3  3  1  1  1  1  0  1   3  4  4  2 4
    ROWS=2 one $dt 2 2 12 13 14 3  3  1  1  2  2  1  1  1  4   2  4  2  4 2
    ROWS=3 one $dt 2 2 12 13 17 3  5  2  1  3  3  1  1  1  2   3  6  3  2 2
    ROWS=2 one $dt 2 1 8  15 16 3  3  1  0  2  2  2  3  1  2   4  4  2  2 2
    ROWS=3 one $dt 2 1 8  15 16 3  3  2  2  1  1  2  2  0  $v8 1  8  4  2 3
    ROWS=4 one $dt 2 2 8  10 11 4  4  1  1  1  1  1  1  1  4   2  4  2  2 3  10 11
    ROWS=2 one $dt 2 2 6  11 12 5  3  0  0  2  1  1  2  1  2   3  4  4  3 2
    # wgrad's 2D blocking (DY_ROWS): dy row tiles past OH, row groups past
    # KH, strides (periods of 2 to 4 positions), dilations, runs of several
    # periods and under one, even kernels, single channels, idle threads
    RY=2 ROWS=7 one $dt 2 2 12 13 14 7  7  3  3  1  1  1  1  1  4   3  7  1  2 4
    RY=4 ROWS=4 one $dt 2 2 12 13 14 7  7  3  3  1  1  1  1  1  4   2  14 2  2 8
    RY=3 ROWS=7 one $dt 2 2 3  13 14 7  7  3  3  1  1  1  1  0  1   4  7  1  2 3
    RY=2 ROWS=2 one $dt 2 2 12 13 14 3  3  1  1  2  2  1  1  1  4   2  4  2  3 4
    RY=2 ROWS=3 one $dt 2 1 8  15 16 3  3  2  2  1  1  2  2  1  2   4  10 2  2 4
    RY=3 ROWS=3 one $dt 2 2 12 13 17 3  5  2  1  3  3  1  1  1  2   3  4  2  2 3
    RY=2 ROWS=2 one $dt 2 1 8  15 16 3  3  1  0  2  2  2  3  0  2   4  4  1  2 2
    RY=2 ROWS=4 one $dt 2 2 8  10 11 4  4  1  1  1  1  1  1  1  4   2  4  2  2 4  10 11
    RY=4 ROWS=7 one $dt 2 2 4  10 10 7  7  0  0  1  1  1  1  1  1   4  4  1  2 4
    RY=2 ROWS=3 one $dt 2 2 6  11 12 5  3  0  0  2  1  1  2  1  2   3  5  1  2 2
done
# fp32 accuracy over a 25,088-term sum (B8 56x56 7x7): many splits, block sums
ACC=1 one 0 2 8 8 56 56 7 7 3 3 1 1 1 1 1 4 2 8 4 4 8
ACC=1 ROWS=7 one 0 2 8 8 56 56 7 7 3 3 1 1 1 1 1 2 4 16 4 4 8
ACC=1 RY=4 ROWS=7 one 0 2 8 8 56 56 7 7 3 3 1 1 1 1 1 1 8 21 1 4 96
ACC=1 one 0 1 8 8 56 56 7 7 3 3 1 1 1 1 0 4 2 8 4 8
replay_end
