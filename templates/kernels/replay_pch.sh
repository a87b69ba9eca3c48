#!/bin/bash
# replay_pch.sh DIR: makes DIR/replay_std.h.gch and DIR/replay_cuda.h.gch,
# the library headers every replay includes (and CUDA's, for bf16 and f16)
# precompiled once for all the replay tests: CTest runs it first (the
# fixture ct_replay_pch, tests/CMakeLists.txt) and gives the replays DIR as
# REPLAY_PCH_DIR (replay_lib.sh, and tests/lib/tc16_replay.h for the replay
# tests in C). Needs g++ and CUDA's include directory ($CUDA_HOME/include).
here=$(cd "$(dirname "$0")" && pwd)
source "$here/replay_lib.sh"
[ -n "${1:-}" ] || { echo "usage: replay_pch.sh DIR" >&2; exit 2; }
replay_pch_make replay_std.h "$1" && replay_pch_make replay_cuda.h "$1" && echo "made $1/replay_std.h.gch, $1/replay_cuda.h.gch"
