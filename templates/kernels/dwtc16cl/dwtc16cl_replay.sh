#!/bin/bash
# dwtc16cl_replay.sh: replays ct_dwtc16_fwd.cuh on the CPU
# (dwtc16cl_replay.cpp) on a battery of odd depthwise layers, bf16 and f16:
# odd sizes, tiles past the output in rows and columns, valid, same with
# an even kernel, padding wider than the kernel, strides and dilations
# along H, dilation along W, filters of two k-steps (KW 11, 17), 1x1,
# bias, channel groups past the layer, one to four channels a warp, 4-
# and 2-channel vectors, several items a block, height 1 (conv1dc). Run
# from anywhere; needs g++ (C++20) and CUDA's include directory
# ($CUDA_HOME/include). Exit status: the number of failed cases. CTest
# runs every sixteenth case (a drawn REPLAY_PART=I/16) and, in half of the parts, one of the eleven
# 56x56 accuracy cases (ACC);
# REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=16
replay_acc_every=22
source "$here/../replay_lib.sh"
# [BATCH=B, default 2] [TILES=T, default 2] [SHIFT=1] [PREFETCH=1] [RING=1] [PIPE=1|2 [PWARPS=P, default 2]] [OUTV=1] one DT B C H W KH KW PH PW SY DY DX BIAS CHANNELS WARPS ROWS COLS ITEMS VEC [OH OW]
one() {
    replay_pick || return
    local dt=$1 B=$2 C=$3 H=$4 W=$5 KH=$6 KW=$7 PH=$8 PW=$9 SY=${10} DY=${11} DX=${12} BIAS=${13}
    local CB=${14} WP=${15} RW=${16} CL=${17} IT=${18} VEC=${19}
    local OH=${20:-$(( (H + 2 * PH - DY * (KH - 1) - 1) / SY + 1 ))} OW=${21:-$(( W + 2 * PW - DX * (KW - 1) ))}
    local d="-DCT_DTYPE=$dt -DLY_B=$B -DLY_C=$C -DLY_H=$H -DLY_W=$W -DLY_KH=$KH -DLY_KW=$KW -DLY_OH=$OH"
    d="$d -DLY_OW=$OW -DLY_PH=$PH -DLY_PW=$PW -DLY_SY=$SY -DLY_DY=$DY -DLY_DX=$DX -DLY_BIAS=$BIAS"
    d="$d -DCHANNELS=$CB -DWARPS=$WP -DROWS=$RW -DCOLS=$CL -DITEMS=$IT -DVEC=$VEC -DBATCH=${BATCH:-2} -DTILES=${TILES:-2} -DSHIFT=${SHIFT:-0} -DPREFETCH=${PREFETCH:-0} -DRING=${RING:-0}"
    d="$d -DPIPE=${PIPE:-0} -DPWARPS=${PWARPS:-2} -DOUTV=${OUTV:-0} -DMINB=${MINB:-0}"
    printf "dtype %s B%s C%s %sx%s k%sx%s pad %s,%s sy %s dil %s,%s bias %s out %sx%s CH%s W%s R%s C%s I%s V%s B%s T%s S%s P%s R%s Q%s/%s O%s: " \
        "$dt" "$B" "$C" "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$SY" "$DY" "$DX" "$BIAS" "$OH" "$OW" "$CB" "$WP" "$RW" "$CL" \
        "$IT" "$VEC" "${BATCH:-2}" "${TILES:-2}" "${SHIFT:-0}" "${PREFETCH:-0}" "${RING:-0}" "${PIPE:-0}" "${PWARPS:-2}" "${OUTV:-0}"
    replay_compile_run "$here/dwtc16cl_replay.cpp" $d
}
for dt in 1 2; do
    #   dt B C  H  W  KH KW PH PW SY DY DX bias CH W R  CL I V
    one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 8  16 1 8
    one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 16 24 2 8
    TILES=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 4  8  3 4  9 10
    TILES=3 one $dt 1 12 9  19 3  3  0  0  1  1  1  0   4  2 5  16 2 4
    one $dt 2 6  11 12 3  3  4  4  1  1  1  1   2  1 7  8  2 2
    one $dt 2 16 15 16 3  3  1  1  2  1  1  1   16 4 4  16 1 8
    one $dt 1 8  15 16 3  3  2  2  3  2  2  0   8  2 3  8  2 8
    one $dt 1 8  12 20 3  5  3  6  1  3  2  1   8  2 4  16 1 8
    one $dt 1 8  9  30 3  11 1  5  1  1  1  1   8  4 4  16 2 8
    BATCH=1 one $dt 1 8  5  40 2  17 0  8  1  1  1  0   8  8 2  32 1 8
    one $dt 2 24 7  9  1  1  0  0  1  1  1  1   8  2 4  8  2 8
    BATCH=4 TILES=4 one $dt 2 32 9  23 7  7  3  3  1  1  1  0   32 8 8  24 2 8
    # conv1dc's layers (height 1): causal K = 4, one channel a warp, dilation 2
    one $dt 2 16 1  37 1  4  0  3  1  1  1  1   16 8 1  32 2 8  1  37
    one $dt 3 8  1  45 1  9  0  4  1  1  2  0   8  4 1  16 2 4
    # SHIFT: pairs of rows, half 0 reusing half 1's fragments of the last
    # kh (odd heights: a pair's odd row past the item; two k-steps; 4- and
    # 2-channel vectors; one channel a warp; even kernels)
    SHIFT=1 one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 8  16 1 8
    SHIFT=1 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 16 24 2 8
    SHIFT=1 TILES=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 4  8  3 4  9 10
    SHIFT=1 TILES=3 one $dt 1 12 9  19 3  3  0  0  1  1  1  0   4  2 6  16 2 4
    SHIFT=1 one $dt 2 6  11 12 3  3  4  4  1  1  1  1   2  1 6  8  2 2
    SHIFT=1 one $dt 1 8  9  30 3  11 1  5  1  1  1  1   8  4 4  16 2 8
    SHIFT=1 BATCH=4 TILES=4 one $dt 2 32 9  23 7  7  3  3  1  1  1  0   32 8 8  24 2 8
    SHIFT=1 one $dt 1 8  12 20 3  5  1  4  1  1  2  1   8  8 2  16 3 8
    # PREFETCH: the next item's first batch loaded during the mma (items
    # across images and column tiles, a last range of one item, one task
    # a batch, batches covering every task)
    PREFETCH=1 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 16 16 3 8
    PREFETCH=1 BATCH=1 SHIFT=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 4  8  3 4  9 10
    PREFETCH=1 BATCH=8 one $dt 2 16 15 16 3  3  1  1  2  1  1  1   16 4 4  16 3 8
    PREFETCH=1 BATCH=3 SHIFT=1 one $dt 2 32 9  23 7  7  3  3  1  1  1  0   32 8 8  24 2 8
    # RING: the input rows consecutive row tiles share stay in shared
    # memory (ranges across images, odd and even ring sizes with SHIFT,
    # strides and dilations along H, prefetching, a partial last tile)
    RING=1 one $dt 3 8  13 11 3  3  1  1  1  1  1  1   8  4 4  16 3 8
    RING=1 SHIFT=1 one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 4  16 3 8
    RING=1 SHIFT=1 PREFETCH=1 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 6  24 4 8
    RING=1 SHIFT=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 2  16 5 4  9 10
    RING=1 one $dt 1 8  15 16 3  3  2  2  2  2  2  0   8  2 2  16 4 8
    RING=1 PREFETCH=1 BATCH=1 one $dt 1 8  12 20 3  5  3  6  1  3  2  1   8  2 4  24 3 8
    RING=1 one $dt 2 16 15 16 3  3  1  1  2  1  1  1   16 4 2  16 5 8
    # three 8-channel groups a block (their offset 16-byte aligned), three
    # channels a warp
    one $dt 2 24 9  11 3  3  1  1  1  1  1  1   24 8 8  16 1 8
    SHIFT=1 RING=1 one $dt 2 48 12 13 5  5  2  2  1  1  1  0   24 8 4  16 3 8
    # SHIFT=2: A-rows are runs, ROWS / 2 tiles hold an item's rows (odd
    # heights: a partial last row tile; more than 8 runs: two tile groups;
    # two k-steps; even kernels; 4- and 2-channel vectors; one to three
    # channels a warp; the ring; producer warps)
    SHIFT=2 TILES=1 one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 8  16 1 8
    SHIFT=2 TILES=1 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 16 24 2 8
    SHIFT=2 TILES=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 4  8  3 4  9 10
    SHIFT=2 TILES=1 one $dt 1 12 9  75 3  3  1  1  1  1  1  0   4  2 6  80 2 4
    SHIFT=2 TILES=1 one $dt 2 6  11 12 3  3  4  4  1  1  1  1   2  1 2  8  2 2
    SHIFT=2 TILES=1 one $dt 1 8  9  30 3  11 1  5  1  1  1  1   8  4 4  16 2 8
    SHIFT=2 TILES=1 one $dt 2 24 9  23 7  7  3  3  1  1  1  0   24 8 8  24 2 8
    SHIFT=2 TILES=1 RING=1 one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 4  16 3 8
    SHIFT=2 TILES=1 RING=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 2  16 5 4  9 10
    SHIFT=2 TILES=1 PIPE=1 PWARPS=3 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 6  24 4 8
    # PIPE: producer warps stage item i + 1 and copy out item i - 1 while
    # the consumer warps compute item i (double buffers; one to five items
    # a block, ranges across images and column tiles, a last range of one
    # item, strides and dilations, partial channel groups, odd warps)
    PIPE=1 OUTV=1 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 16 16 3 8
    PIPE=1 PWARPS=1 SHIFT=1 TILES=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 4  8  5 4  9 10
    PIPE=1 PWARPS=3 BATCH=8 one $dt 2 16 15 16 3  3  1  1  2  1  1  1   16 4 4  16 4 8
    PIPE=1 OUTV=1 PWARPS=4 SHIFT=1 BATCH=3 one $dt 2 32 9  23 7  7  3  3  1  1  1  0   32 8 8  24 2 8
    PIPE=1 one $dt 1 8  12 20 3  5  3  6  1  3  2  1   8  2 4  24 1 8
    PIPE=1 PWARPS=1 one $dt 2 6  11 12 3  3  4  4  1  1  1  1   2  1 7  8  3 2
    PIPE=1 SHIFT=1 one $dt 2 48 12 13 5  5  2  2  1  1  1  0   24 8 4  16 3 8
    PIPE=1 one $dt 3 8  1  45 1  9  0  4  1  1  2  0   8  4 1  16 4 4
    # PIPE=2: the consumers copy out (16-byte chunks, words where a pixel
    # has fewer than 8 channels of the block)
    PIPE=2 OUTV=1 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 16 16 3 8
    PIPE=2 PWARPS=1 SHIFT=2 TILES=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 4  8  5 4  9 10
    PIPE=2 PWARPS=3 SHIFT=1 one $dt 2 6  11 12 3  3  4  4  1  1  1  1   2  1 6  8  4 2
    PIPE=2 OUTV=1 SHIFT=2 TILES=1 one $dt 2 48 12 13 5  5  2  2  1  1  1  0   24 8 4  16 3 8
    # OUTV without PIPE (16-byte chunks, words where the chunks are not
    # whole), the ring, partial channel groups
    OUTV=1 SHIFT=2 TILES=1 one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 8  16 1 8
    OUTV=1 SHIFT=2 TILES=1 RING=1 one $dt 2 24 13 14 7  7  3  3  1  1  1  1   16 8 4  16 3 8
    OUTV=1 one $dt 2 8  10 11 4  4  1  1  1  1  1  1   8  4 4  8  3 4  9 10
    OUTV=1 SHIFT=1 one $dt 2 6  11 12 3  3  4  4  1  1  1  1   2  1 6  8  2 2
    # SHIFT=2 with PREFETCH (the whole staging prefetched: BATCH covers a
    # thread's tasks), with the ring
    OUTV=1 SHIFT=2 TILES=1 PREFETCH=1 BATCH=4 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 6  24 4 8
    SHIFT=2 TILES=1 PREFETCH=1 RING=1 BATCH=8 one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 4  16 3 8
    # PREFETCH=2: the next item's first batch loaded before the copy-out
    # (ranges across images and column tiles, the ring, one task a batch)
    OUTV=1 SHIFT=2 TILES=1 PREFETCH=2 BATCH=4 one $dt 3 40 17 23 5  5  2  2  1  1  1  1   16 4 6  16 4 8
    SHIFT=2 TILES=1 PREFETCH=2 RING=1 BATCH=8 one $dt 2 16 13 14 7  7  3  3  1  1  1  1   16 8 4  16 3 8
    PREFETCH=2 BATCH=1 one $dt 1 8  12 20 3  5  3  6  1  3  2  1   8  2 4  16 3 8
done
# the target's shape on a smaller batch: 56x56 7x7 same, several items a block
ACC=1 one 1 2 32 56 56 7 7 3 3 1 1 1 0 16 8 16 56 2 8
ACC=1 TILES=1 one 2 1 16 56 56 7 7 3 3 1 1 1 1 8 8 32 32 3 8
ACC=1 SHIFT=1 one 1 2 32 56 56 7 7 3 3 1 1 1 1 16 8 16 56 2 8
ACC=1 SHIFT=1 PREFETCH=1 BATCH=3 one 2 2 16 56 56 7 7 3 3 1 1 1 0 8 8 16 56 4 8
ACC=1 RING=1 SHIFT=1 PREFETCH=1 one 1 2 16 56 56 7 7 3 3 1 1 1 1 16 8 16 56 4 8
ACC=1 PIPE=1 PWARPS=4 SHIFT=1 TILES=1 one 1 2 16 56 56 7 7 3 3 1 1 1 0 16 8 8 56 5 8
ACC=1 PIPE=1 PWARPS=4 SHIFT=2 TILES=1 one 2 2 32 56 56 7 7 3 3 1 1 1 1 16 8 8 56 5 8
ACC=1 PIPE=2 OUTV=1 PWARPS=4 SHIFT=2 TILES=1 one 1 2 32 56 56 7 7 3 3 1 1 1 0 32 16 8 56 3 8
ACC=1 OUTV=1 SHIFT=2 TILES=1 one 2 2 32 56 56 7 7 3 3 1 1 1 1 16 8 8 56 2 8
ACC=1 OUTV=1 SHIFT=2 TILES=1 PREFETCH=1 RING=1 BATCH=4 one 1 2 16 56 56 7 7 3 3 1 1 1 0 16 8 8 56 7 8
ACC=1 OUTV=1 SHIFT=2 TILES=1 PREFETCH=2 BATCH=4 one 2 2 32 56 56 7 7 3 3 1 1 1 1 16 8 8 56 4 8
replay_end
