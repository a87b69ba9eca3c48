#!/bin/bash
# dwcl_replay.sh: replays conv1dc_dwcl's template file on the CPU
# (dwcl_replay.cpp) on a battery of odd NLC depthwise layers, fp32, bf16
# and f16 (conv1dc_dwclh): strides 2 and 3, dilations 2 and 3, pad, causal,
# bias, VEC 1, 2, 4, idle channel threads and runs past the output, CHUNK
# from 1 to POS_PER_THREAD (the carried window rows). Run from anywhere;
# needs g++ (C++20) and, for bf16/f16, CUDA's include directory
# ($CUDA_HOME/include). Exit status: the number of failed cases. Each case
# is a compile (about a second): CTest runs every fourth case
# (REPLAY_PART=I/4 picks which fourth, default drawn); REPLAY_PART=all runs
# everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=4
source "$here/../replay_lib.sh"
# [CAUSAL=1] one DT B C L K PAD STRIDE DIL BIAS VEC CT PT PPT CHUNK: an NLC
# layer (replay_dw1_layer) and conv1dc_dwcl's parameters.
one() {
    replay_pick || return
    replay_dw1_layer "${@:1:9}"
    printf "[%s %s %s %s %s]: " "${10}" "${11}" "${12}" "${13}" "${14}"
    replay_compile_run "$here/dwcl_replay.cpp" -I"$root/templates/conv1dc" $layer -DCONV_CHANNELS_LAST=1 \
        -DVEC=${10} -DCHANNEL_THREADS=${11} -DPOS_THREADS=${12} -DPOS_PER_THREAD=${13} -DCHUNK=${14}
}
for dt in 0 1 2; do
    #             dt  B C  L   K  PAD S D bias VEC CT PT PPT CHUNK
    CAUSAL=1  one $dt 2 16 37  4  3   1 1 1    4   4  2  8   4
              one $dt 2 12 40  3  1   1 1 0    2   8  4  4   2
              one $dt 1 10 33  5  2   2 1 1    2   4  3  4   1
    CAUSAL=1  one $dt 3 8  29  3  4   1 2 0    4   4  2  16  8
              one $dt 2 6  50  7  3   3 1 1    1   8  2  5   5
              one $dt 1 7  31  3  3   1 3 1    1   4  4  3   1
    CAUSAL=1  one $dt 2 24 64  2  1   1 1 1    4   2  8  8   8
done
replay_end
