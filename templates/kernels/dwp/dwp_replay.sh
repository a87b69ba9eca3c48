#!/bin/bash
# dwp_replay.sh: replays conv2dc_dwph, the bf16/f16 branch of conv2dc_dwp's
# template file, on the CPU (dwp_replay.cpp) on a battery of odd depthwise
# layers: strides 2 and 3, dilations 2 and 3, padding, bias, odd planes,
# items past the plane, VEC 1 and 4, several planes a warp and warps with
# fewer planes than the others. Run from anywhere; needs g++ (C++20) and
# CUDA's include directory ($CUDA_HOME/include). Exit status: the number of
# failed cases. Each case is a compile (about a second): CTest runs every
# third case (REPLAY_PART=I/3 picks which third, default drawn);
# REPLAY_PART=all runs everything.
here=$(cd "$(dirname "$0")" && pwd)
replay_every=3
source "$here/../replay_lib.sh"
# one DT B C H W KH KW PH PW SY SX DY DX BIAS OUT_X OUT_Y WARPS PLANES VEC: a
# layer (replay_dw2_layer) and conv2dc_dwp's parameters.
one() {
    replay_pick || return
    replay_dw2_layer "${@:1:14}"
    printf "[%s %s %s %s %s]: " "${15}" "${16}" "${17}" "${18}" "${19}"
    replay_compile_run "$here/dwp_replay.cpp" -I"$root/templates/conv2dc" $layer -DOUT_X=${15} -DOUT_Y=${16} \
        -DWARPS=${17} -DPLANES=${18} -DVEC=${19}
}
for dt in 1 2; do
    #       dt  B C  H  W  KH KW PH PW SY SX DY DX bias OX OY WARPS PLANES VEC
    one     $dt 2 3  13 16 3  3  1  1  1  1  1  1  1    4  2  2     1      4
    one     $dt 1 5  17 15 5  5  2  2  1  1  1  1  0    2  4  2     2      1
    one     $dt 2 3  16 16 7  7  3  3  2  2  1  1  1    4  1  2     4      4
    one     $dt 1 7  19 21 3  5  1  2  3  2  1  1  1    8  2  4     1      1
    one     $dt 2 2  15 16 3  3  2  2  1  1  2  2  0    2  4  2     3      4
    one     $dt 1 9  9  11 4  4  1  1  1  1  1  1  1    2  1  2     2      1
    one     $dt 2 2  20 20 3  3  0  0  1  1  1  3  1    8  8  2     1      4
    one     $dt 1 3  31 33 11 11 5  5  1  1  1  1  0    4  2  2     1      1
done
replay_end
