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
# one1 DT B C L K PAD STRIDE DIL BIAS BLOCK CPB OPT VEC: a conv1dc layer,
# PAD zeros before (causal: (K-1) x DIL), PyTorch's output length with PAD
# on both sides unless CAUSAL=1.
one1() {
    replay_pick || return
    local dt=$1 B=$2 C=$3 L=$4 K=$5 PAD=$6 S=$7 D=$8 BIAS=$9
    local zeros=$((2 * PAD))
    [ "${CAUSAL:-0}" = 1 ] && zeros=$PAD
    local LOUT=$(( (L + zeros - D * (K - 1) - 1) / S + 1 ))
    local d="-DREPLAY_2D=0 -DCT_DTYPE=$dt -DCONV_B=$B -DCONV_CIN=$C -DCONV_COUT=$C -DCONV_GROUPS=$C -DCONV_L=$L"
    d="$d -DCONV_K=$K -DCONV_PAD=$PAD -DCONV_LOUT=$LOUT -DCONV_BIAS=$BIAS -DBLOCK_SIZE=${10}"
    d="$d -DCHANNELS_PER_BLOCK=${11} -DOUT_PER_THREAD=${12} -DVEC=${13}"
    [ "$S" != 1 ] && d="$d -DCONV_STRIDE=$S"
    [ "$D" != 1 ] && d="$d -DCONV_DIL=$D"
    printf "conv1dc dtype %s B%s C%s L%s K%s pad %s stride %s dil %s bias %s lout %s [%s %s %s %s]: " \
        "$dt" "$B" "$C" "$L" "$K" "$PAD" "$S" "$D" "$BIAS" "$LOUT" "${10}" "${11}" "${12}" "${13}"
    replay_compile_run "$here/dw_replay.cpp" -I"$root/templates/conv1dc" $d
}
# one2 B C H W KH KW PH PW SY SX DY DX BIAS OUT_X OUT_Y TILE_OH TILE_OW: a
# conv2dc layer (fp32), PyTorch's output size.
one2() {
    replay_pick || return
    local B=$1 C=$2 H=$3 W=$4 KH=$5 KW=$6 PH=$7 PW=$8 SY=$9 SX=${10} DY=${11} DX=${12} BIAS=${13}
    local OH=$(( (H + 2 * PH - DY * (KH - 1) - 1) / SY + 1 )) OW=$(( (W + 2 * PW - DX * (KW - 1) - 1) / SX + 1 ))
    local d="-DREPLAY_2D=1 -DCT_DTYPE=0 -DCONV_B=$B -DCONV_CIN=$C -DCONV_COUT=$C -DCONV_GROUPS=$C -DCONV_H=$H"
    d="$d -DCONV_W=$W -DCONV_KH=$KH -DCONV_KW=$KW -DCONV_OH=$OH -DCONV_OW=$OW -DCONV_PH=$PH -DCONV_PW=$PW"
    d="$d -DCONV_BIAS=$BIAS -DOUT_X=${14} -DOUT_Y=${15} -DTILE_OH=${16} -DTILE_OW=${17}"
    [ "$SY" != 1 ] && d="$d -DCONV_SH=$SY"
    [ "$SX" != 1 ] && d="$d -DCONV_SW=$SX"
    [ "$DY" != 1 ] && d="$d -DCONV_DH=$DY"
    [ "$DX" != 1 ] && d="$d -DCONV_DW=$DX"
    printf "conv2dc B%s C%s %sx%s k%sx%s pad %s,%s stride %s,%s dil %s,%s bias %s out %sx%s [%s %s %s %s]: " \
        "$B" "$C" "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$SY" "$SX" "$DY" "$DX" "$BIAS" "$OH" "$OW" "${14}" "${15}" \
        "${16}" "${17}"
    replay_compile_run "$here/dw_replay.cpp" -I"$root/templates/conv2dc" $d
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
