# replay_lib.sh: the frame of a kernel folder's CPU replay script
# (K_replay.sh, sourced after it sets here=its folder): a scratch folder,
# the count of failed cases (the exit status, replay_end), and which cases
# of the battery run: REPLAY_PART=I/N runs every Nth case from the Ith
# (default: I drawn, N = $replay_every, set by the script before
# sourcing), all runs everything; FORCE=1 runs a case whatever the part.
# Accuracy cases (ACC=1: long sums on large layers, seconds each) are a
# battery of their own, every Mth from the part's (M = $replay_acc_every,
# default 1: all of them in every part).
# replay_dw1_layer and replay_dw2_layer give a depthwise forward layer.
# replay_compile_run SRC FLAGS... compiles K_replay.cpp with the device
# header's folder, templates/common and this folder (replay_shim.h) on the
# include path, runs it and counts a failure (the library headers
# precompiled: replay_pch). Needs g++ (C++20) and, for bf16/f16, CUDA's
# include directory ($CUDA_HOME/include).
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
# Unset, the part is drawn (from $CONVTUNE_TEST_SEED when set), so that
# CTest's runs go through the whole battery over time, and printed.
if [ -z "${REPLAY_PART:-}" ]; then
    seed=${CONVTUNE_TEST_SEED:-$(( (RANDOM << 15) | RANDOM ))}
    part=$(( seed % ${replay_every:-6} + 1 ))/${replay_every:-6}
    echo "replay: part $part of the battery, drawn (REPLAY_PART=$part repeats it; all runs every case)"
else
    part=$REPLAY_PART
fi
ncase=0
nacc=0
acc_every=${replay_acc_every:-1}
[ "$part" = all ] || acc_part=$(( (${part%/*} - 1) % acc_every + 1 ))

# Counts a case; true where it is to run.
replay_pick() {
    if [ "${ACC:-0}" != 0 ]; then
        nacc=$((nacc + 1))
        [ "$part" = all ] || [ $(( (nacc - 1) % acc_every + 1 )) = "$acc_part" ]
        return
    fi
    ncase=$((ncase + 1))
    [ "$part" = all ] || [ "${FORCE:-0}" != 0 ] || [ $(( (ncase - 1) % ${part#*/} + 1 )) = "${part%/*}" ]
}

# The flags of every replay compile, and of the precompiled headers, which
# GCC uses only with the flags they were made with.
replay_flags=(-std=c++20 -O1 -w -pthread)

# replay_pch_make HEADER DIR makes DIR/HEADER.gch, HEADER (replay_std.h or
# replay_cuda.h) precompiled with the replays' flags (written aside, then
# renamed: the replays running beside it see a whole one or none).
replay_pch_make() {
    mkdir -p "$2" && g++ "${replay_flags[@]}" -I"$cuda/include" -x c++-header "$root/templates/kernels/$1" \
        -o "$2/$1.gch.$$" && mv -f "$2/$1.gch.$$" "$2/$1.gch"
}

# replay_pch HEADER prints the folder holding HEADER.gch: $REPLAY_PCH_DIR,
# where CTest's set-up of the replays (replay_pch.sh, fixture ct_replay_pch
# in tests/CMakeLists.txt) made it, else the scratch folder, made there on
# first use. That folder comes first on the include path and -include
# HEADER reads the .gch from it: the library headers (and CUDA's), half of
# a case's compile or more, are parsed once for the battery. GCC checks
# that a .gch fits the compile (compiler, flags, every macro it depends on)
# and else reads the header itself, from templates/kernels: a stale or
# missing one costs time, never a different compile.
replay_pch() {
    local dir=${REPLAY_PCH_DIR:-}
    if [ -z "$dir" ] || [ ! -f "$dir/$1.gch" ]; then
        dir=$work/pch
        [ -f "$dir/$1.gch" ] || replay_pch_make "$1" "$dir" >&2
    fi
    echo "$dir"
}

replay_compile_run() {
    local src=$1 h=replay_std.h pch
    shift
    # A half type's replay includes CUDA's headers too (replay_shim.h).
    case " $* " in *" -DCT_DTYPE=1 "* | *" -DCT_DTYPE=2 "*) h=replay_cuda.h ;; esac
    pch=$(replay_pch $h)
    if ! g++ "${replay_flags[@]}" -I"$pch" -include $h -I"$here" -I"$root/templates/common" -I"$here/.." \
        -I"$cuda/include" "$@" "$src" -o "$work/replay" || ! "$work/replay"; then
        echo "FAIL ($*)"
        fails=$((fails + 1))
    fi
}

# replay_pass_layer DT PASS B CIN COUT G H W KH KW PH PW SY SX DY DX BIAS CL
# sets $layer, the -D flags of a training pass's layer (replay_pass.h), and
# prints the case's head; OHW="OH OW" overrides the output size (same with
# an even kernel, causal), which is otherwise PyTorch's.
replay_pass_layer() {
    local dt=$1 pass=$2 B=$3 CI=$4 CO=$5 G=$6 H=$7 W=$8 KH=$9 KW=${10} PH=${11} PW=${12} SY=${13} SX=${14}
    local DY=${15} DX=${16} BIAS=${17} CL=${18} OH OW
    read -r OH OW <<< "${OHW:-}"
    OH=${OH:-$(( (H + 2 * PH - DY * (KH - 1) - 1) / SY + 1 ))}
    OW=${OW:-$(( (W + 2 * PW - DX * (KW - 1) - 1) / SX + 1 ))}
    layer="-DCT_DTYPE=$dt -DLY_PASS=$pass -DLY_B=$B -DLY_CIN=$CI -DLY_COUT=$CO -DLY_GROUPS=$G -DLY_H=$H -DLY_W=$W"
    layer="$layer -DLY_KH=$KH -DLY_KW=$KW -DLY_OH=$OH -DLY_OW=$OW -DLY_PH=$PH -DLY_PW=$PW -DLY_SY=$SY -DLY_SX=$SX"
    layer="$layer -DLY_DY=$DY -DLY_DX=$DX -DLY_BIAS=$BIAS -DLY_CL=$CL"
    printf "dtype %s pass %s B%s %s->%s g%s %sx%s k%sx%s pad %s,%s stride %s,%s dil %s,%s bias %s cl %s out %sx%s " \
        "$dt" "$pass" "$B" "$CI" "$CO" "$G" "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$SY" "$SX" "$DY" "$DX" "$BIAS" "$CL" \
        "$OH" "$OW"
}

# replay_dw1_layer DT B C L K PAD STRIDE DIL BIAS sets $layer, the -D flags
# of a depthwise conv1dc layer as the family defines them (CONV_*, stride
# and dilation only where not 1), and prints the case's head: PAD zeros
# before, and after unless CAUSAL=1; PyTorch's output length.
replay_dw1_layer() {
    local dt=$1 B=$2 C=$3 L=$4 K=$5 PAD=$6 S=$7 D=$8 BIAS=$9 zeros=$((2 * $6))
    [ "${CAUSAL:-0}" = 1 ] && zeros=$PAD
    local LOUT=$(( (L + zeros - D * (K - 1) - 1) / S + 1 ))
    layer="-DCT_DTYPE=$dt -DCONV_B=$B -DCONV_CIN=$C -DCONV_COUT=$C -DCONV_GROUPS=$C -DCONV_L=$L -DCONV_K=$K"
    layer="$layer -DCONV_PAD=$PAD -DCONV_LOUT=$LOUT -DCONV_BIAS=$BIAS"
    [ "$S" != 1 ] && layer="$layer -DCONV_STRIDE=$S"
    [ "$D" != 1 ] && layer="$layer -DCONV_DIL=$D"
    printf "dtype %s B%s C%s L%s K%s pad %s stride %s dil %s bias %s lout %s " "$dt" "$B" "$C" "$L" "$K" "$PAD" \
        "$S" "$D" "$BIAS" "$LOUT"
}

# replay_dw2_layer DT B C H W KH KW PH PW SY SX DY DX BIAS: the same for a
# depthwise conv2dc layer, PyTorch's output size.
replay_dw2_layer() {
    local dt=$1 B=$2 C=$3 H=$4 W=$5 KH=$6 KW=$7 PH=$8 PW=$9 SY=${10} SX=${11} DY=${12} DX=${13} BIAS=${14}
    local OH=$(( (H + 2 * PH - DY * (KH - 1) - 1) / SY + 1 )) OW=$(( (W + 2 * PW - DX * (KW - 1) - 1) / SX + 1 ))
    layer="-DCT_DTYPE=$dt -DCONV_B=$B -DCONV_CIN=$C -DCONV_COUT=$C -DCONV_GROUPS=$C -DCONV_H=$H -DCONV_W=$W"
    layer="$layer -DCONV_KH=$KH -DCONV_KW=$KW -DCONV_OH=$OH -DCONV_OW=$OW -DCONV_PH=$PH -DCONV_PW=$PW"
    layer="$layer -DCONV_BIAS=$BIAS"
    [ "$SY" != 1 ] && layer="$layer -DCONV_SH=$SY"
    [ "$SX" != 1 ] && layer="$layer -DCONV_SW=$SX"
    [ "$DY" != 1 ] && layer="$layer -DCONV_DH=$DY"
    [ "$DX" != 1 ] && layer="$layer -DCONV_DW=$DX"
    printf "dtype %s B%s C%s %sx%s k%sx%s pad %s,%s stride %s,%s dil %s,%s bias %s out %sx%s " "$dt" "$B" "$C" \
        "$H" "$W" "$KH" "$KW" "$PH" "$PW" "$SY" "$SX" "$DY" "$DX" "$BIAS" "$OH" "$OW"
}

replay_end() {
    echo "$fails failed"
    exit $fails
}
