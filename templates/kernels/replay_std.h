// replay_std.h: the C++ library headers the replays include (those of
// replay_shim.h, replay_hopper.h and the replays themselves), apart so that
// replay_lib.sh and the replay tests in C can parse them once, as a GCC
// precompiled header, for all the compiles of a battery instead of once a
// case: they are half of a case's compile or more. Nothing here depends on
// a layer, a tuning parameter or the element type.
#ifndef REPLAY_STD_H
#define REPLAY_STD_H
#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>
#include <thread>
#include <utility>
#include <vector>
#endif
