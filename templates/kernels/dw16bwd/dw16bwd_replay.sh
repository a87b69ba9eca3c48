#!/bin/bash
# dw16bwd_replay.sh: replays ct_dw16_wgrad.cuh on the CPU (dw16bwd_replay.cpp)
# on a battery of odd depthwise layers, bf16 and f16: odd sizes and padding,
# even kernels, dilations, padding wider than the kernel, KH > 8 (two n
# tiles), 16 x 16 filters, height 1, bias, channel groups past the layer,
# one channel a warp (two accumulator sets), 4- and 2-channel loads. Run
# from anywhere; needs g++ (C++20) and CUDA's include directory
# ($CUDA_HOME/include). Exit status: the number of failed cases. CTest runs
# every sixteenth case (a drawn REPLAY_PART=I/16) and, in about half of the parts, one of the seven accuracy cases; REPLAY_PART=all
# runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=16
replay_acc_every=14
source "$here/../replay_lib.sh"
# [PAIR=1] [BATCH=B, default 2] [PREFETCH=1] [CFIRST=1] [RING=1] [ASYNC=1] [WIDE=1] [XSH=1] one DT B C H W KH KW PH PW DY DX BIAS CHANNELS WARPS ROWS ITEMS VEC [OH OW]
one() {
    replay_pick || return
    local dt=$1 B=$2 C=$3 H=$4 W=$5 KH=$6 KW=$7 PH=$8 PW=$9 DY=${10} DX=${11} BIAS=${12}
    local CB=${13} WP=${14} RW=${15} IT=${16} VEC=${17}
    local OH=${18:-$(( H + 2 * PH - DY * (KH - 1) ))} OW=${19:-$(( W + 2 * PW - DX * (KW - 1) ))}
    local d="-DCT_DTYPE=$dt -DLY_B=$B -DLY_C=$C -DLY_H=$H -DLY_W=$W -DLY_KH=$KH -DLY_KW=$KW -DLY_OH=$OH"
    d="$d -DLY_OW=$OW -DLY_PH=$PH -DLY_PW=$PW -DLY_DY=$DY -DLY_DX=$DX -DLY_BIAS=$BIAS"
    d="$d -DCHANNELS=$CB -DWARPS=$WP -DROWS=$RW -DITEMS=$IT -DVEC=$VEC -DPAIR=${PAIR:-0} -DBATCH=${BATCH:-2} -DPREFETCH=${PREFETCH:-0} -DCFIRST=${CFIRST:-0} -DRING=${RING:-0} -DASYNC=${ASYNC:-0} -DWIDE=${WIDE:-0} -DXSH=${XSH:-0}"
    printf "dtype %s B%s C%s %sx%s k%sx%s pad %s,%s dil %s,%s bias %s out %sx%s CH%s W%s R%s I%s V%s P%s B%s F%s C%s R%s A%s W%s S%s: " \
        "$dt" "$B" "$C" "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$DY" "$DX" "$BIAS" "$OH" "$OW" "$CB" "$WP" "$RW" "$IT" "$VEC" \
        "${PAIR:-0}" "${BATCH:-2}" "${PREFETCH:-0}" "${CFIRST:-0}" "${RING:-0}" "${ASYNC:-0}" "${WIDE:-0}" "${XSH:-0}"
    replay_compile_run "$here/dw16bwd_replay.cpp" -I"$here/../dwclbwd" $d
}
for dt in 1 2; do
    #   dt B C  H  W  KH KW PH PW DY DX bias CH W R  I V
    PREFETCH=1 BATCH=1 one $dt 2 16 9  11 3  3  1  1  1  1  0   16 4 4  2 8
    CFIRST=1 PREFETCH=1 BATCH=4 one $dt 3 40 17 23 5  5  2  2  1  1  1   16 2 4  3 8
    BATCH=3 one $dt 2 8  13 14 7  7  3  3  1  1  1   8  8 8  1 8
    one $dt 2 16 10 37 7  7  0  0  1  1  0   16 4 4  2 8
    one $dt 2 8  15 16 3  3  2  2  2  2  1   8  2 4  2 8
    one $dt 2 8  10 11 4  4  1  1  1  1  1   8  4 4  2 4  10 11
    one $dt 1 8  20 19 11 9  5  4  1  1  1   8  4 8  1 8
    one $dt 1 8  18 20 16 16 7  8  1  1  0   8  2 4  2 8
    one $dt 1 8  6  7  3  3  4  4  1  1  1   8  2 2  2 8
    CFIRST=1 one $dt 2 12 9  11 3  3  1  1  1  1  1   4  2 4  2 4
    one $dt 1 6  9  11 3  3  1  1  1  1  1   2  2 4  2 2
    one $dt 2 16 1  37 1  4  0  3  1  1  1   16 4 1  2 8
    one $dt 1 8  12 20 3  5  3  6  3  3  0   8  2 4  2 8
    one $dt 2 24 7  33 2  3  0  1  1  1  1   8  1 16 1 8
    # PAIR: two x rows an mma (odd heights: the tile's last row alone),
    # KH 7 (every column), even and dilated-along-W filters, one channel
    # a warp, bias, padding wider than the filter
    PAIR=1 one $dt 2 8  13 14 7  7  3  3  1  1  1   8  8 8  1 8
    CFIRST=1 PAIR=1 PREFETCH=1 BATCH=4 one $dt 3 40 17 23 5  5  2  2  1  1  1   16 2 4  3 8
    PAIR=1 PREFETCH=1 one $dt 2 8  10 11 4  4  1  1  1  1  1   8  4 4  2 4  10 11
    # PREFETCH over splits of 2 items and a last split of 1, single tasks
    PREFETCH=1 BATCH=1 one $dt 3 8  10 11 3  3  1  1  1  1  1   8  4 4  2 8
    PAIR=1 one $dt 2 8  15 16 3  3  1  2  1  2  1   8  2 2  2 8
    PAIR=1 one $dt 1 8  6  7  3  3  4  4  1  1  1   8  2 2  2 8
    PAIR=1 BATCH=1 one $dt 2 16 9  37 7  8  0  3  1  1  0   16 4 16 1 8
    # RING: the dy rows two row tiles share stay in shared memory (splits
    # across images, padding wider than the filter, valid padding, H
    # dilation, PAIR, prefetching, bias, a partial last tile)
    RING=1 one $dt 3 8  13 11 3  3  1  1  1  1  1   8  4 4  3 8
    RING=1 PREFETCH=1 BATCH=1 one $dt 2 16 9  11 3  3  0  1  1  1  1   16 4 2  3 8
    RING=1 one $dt 1 8  6  7  3  3  4  4  1  1  1   8  2 2  4 8
    RING=1 PAIR=1 PREFETCH=1 BATCH=4 one $dt 3 40 17 23 5  5  2  2  1  1  1   16 2 4  3 8
    RING=1 one $dt 2 8  15 16 3  3  2  2  2  2  1   8  2 4  3 8
    RING=1 PAIR=1 CFIRST=1 one $dt 2 8  13 14 7  7  3  3  1  1  0   8  8 2  5 8
    # ASYNC: the rows copied as they lie (cp.async), then transposed from
    # shared memory (partial channel groups, 4- and 2-channel copies,
    # valid padding, wide padding, dilation, KH > 8, height 1)
    ASYNC=1 one $dt 3 8  13 11 3  3  1  1  1  1  1   8  4 4  3 8
    ASYNC=1 RING=1 one $dt 2 12 9  11 3  3  0  1  1  1  1   8  2 2  3 4
    ASYNC=1 RING=1 BATCH=1 one $dt 1 6  6  7  3  3  4  4  1  1  1   2  2 2  4 2
    ASYNC=1 RING=1 PAIR=1 BATCH=4 one $dt 3 40 17 23 5  5  2  2  1  1  1   16 2 4  3 8
    ASYNC=1 one $dt 2 8  15 16 3  3  2  2  2  2  1   8  2 4  3 8
    ASYNC=1 RING=1 one $dt 1 8  20 19 11 9  5  4  1  1  1   8  4 4  3 8
    ASYNC=1 one $dt 2 16 1  37 1  4  0  3  1  1  1   16 4 1  2 8
    # WIDE: interleaved row pairs and 8-byte fragment loads (odd heights,
    # even and W-dilated filters, padding wider than the filter, one
    # channel a warp, 4-channel loads)
    WIDE=1 PAIR=1 one $dt 2 8  13 14 7  7  3  3  1  1  1   8  8 8  1 8
    WIDE=1 PAIR=1 ASYNC=1 RING=1 one $dt 3 40 17 23 5  5  2  2  1  1  1   16 2 4  3 8
    WIDE=1 PAIR=1 one $dt 2 8  15 16 3  3  1  2  1  2  1   8  2 2  2 8
    WIDE=1 PAIR=1 RING=1 one $dt 1 8  6  7  3  3  4  4  1  1  1   8  2 2  4 8
    WIDE=1 PAIR=1 BATCH=1 one $dt 2 16 9  37 7  8  0  3  1  1  0   16 4 16 1 8
    WIDE=1 PAIR=1 PREFETCH=1 one $dt 2 8  10 11 4  4  1  1  1  1  1   8  4 4  2 4  10 11
    # XSH: the third pixel of an x task from the next task's lane (rows
    # ending inside a warp, odd widths, 4- and 2-channel loads, WIDE's
    # lane order, ASYNC's raw reads, dilation along W)
    XSH=1 one $dt 3 8  13 11 3  3  1  1  1  1  1   8  4 4  3 8
    XSH=1 WIDE=1 PAIR=1 RING=1 one $dt 2 16 9  37 7  8  0  3  1  1  0   16 4 4  3 8
    XSH=1 ASYNC=1 one $dt 2 12 9  11 3  3  0  1  1  1  1   8  2 2  3 4
    XSH=1 BATCH=1 one $dt 1 6  6  7  3  3  4  4  1  1  1   2  2 2  4 2
    XSH=1 WIDE=1 PAIR=1 ASYNC=1 one $dt 2 8  15 16 3  3  1  2  1  2  1   8  2 2  2 8
done
# a long sum: B4 C16 56x56 7x7 same, 4 items of 8 rows a block
ACC=1 one 1 4 16 56 56 7 7 3 3 1 1 1 16 4 8 4 8
ACC=1 PAIR=1 BATCH=4 PREFETCH=1 one 1 4 16 56 56 7 7 3 3 1 1 1 16 4 8 4 8
ACC=1 CFIRST=1 PAIR=1 BATCH=4 one 2 4 32 56 56 7 7 3 3 1 1 1 16 8 8 2 8
ACC=1 RING=1 PAIR=1 BATCH=4 one 1 4 32 56 56 7 7 3 3 1 1 1 16 8 8 4 8
ACC=1 ASYNC=1 RING=1 PAIR=1 CFIRST=1 one 2 4 32 56 56 7 7 3 3 1 1 1 16 8 4 8 8
ACC=1 WIDE=1 ASYNC=1 RING=1 PAIR=1 one 1 4 32 56 56 7 7 3 3 1 1 1 16 8 4 8 8
ACC=1 XSH=1 WIDE=1 RING=1 PAIR=1 CFIRST=1 one 2 4 32 56 56 7 7 3 3 1 1 1 16 8 4 7 8
replay_end
