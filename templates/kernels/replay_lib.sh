# replay_lib.sh: the frame of a kernel folder's CPU replay script
# (K_replay.sh, sourced after it sets here=its folder): a scratch folder,
# the count of failed cases (the exit status, replay_end), and which cases
# of the battery run: REPLAY_PART=I/N runs every Nth case from the Ith
# (default 1/$replay_every, set by the script before sourcing), all runs
# everything; FORCE=1 runs a case whatever the part (accuracy cases).
# replay_compile_run SRC FLAGS... compiles K_replay.cpp with the device
# header's folder, templates/common and this folder (replay_shim.h) on the
# include path, runs it and counts a failure. Needs g++ (C++20) and, for
# bf16/f16, CUDA's include directory ($CUDA_HOME/include).
root=$(cd "$here/../../.." && pwd)
cuda=${CUDA_HOME:-/usr/local/cuda}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fails=0
part=${REPLAY_PART:-1/${replay_every:-6}}
ncase=0

# Counts a case; true where it is to run.
replay_pick() {
    ncase=$((ncase + 1))
    [ "$part" = all ] || [ "${FORCE:-0}" != 0 ] || [ $(( (ncase - 1) % ${part#*/} + 1 )) = "${part%/*}" ]
}

replay_compile_run() {
    local src=$1
    shift
    if ! g++ -std=c++20 -O1 -w -pthread -I"$here" -I"$root/templates/common" -I"$here/.." -I"$cuda/include" "$@" \
        "$src" -o "$work/replay" || ! "$work/replay"; then
        echo "FAIL ($*)"
        fails=$((fails + 1))
    fi
}

replay_end() {
    echo "$fails failed"
    exit $fails
}
