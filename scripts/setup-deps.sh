#!/usr/bin/env bash
# Install the Debian packages convtune builds and tests with. Safe to run
# again: installs only what is missing. The CUDA Toolkit is expected at
# /usr/local/cuda (or nvcc on PATH).
#
#   scripts/setup-deps.sh               what the build and the tests need
#   scripts/setup-deps.sh --build-only  what the build needs, nothing more
#
# The build needs cmake, a C compiler, pkg-config, SQLite and inih. The
# tests add a C++ compiler (the export consumers), python3 (the report and
# PyTorch tests), Chromium (the report's browser test), slurm-wlm (the
# job-array scripts' test) and strace (the signal tests, which hold
# convtune between renames); .ci/run uses the full set.
set -euo pipefail
build=(cmake make gcc pkg-config libsqlite3-dev libinih-dev)
tests=(g++ python3 chromium slurm-wlm strace)
case "${1:-}" in
  "") pkgs=("${build[@]}" "${tests[@]}") ;;
  --build-only) pkgs=("${build[@]}") ;;
  *) echo "setup-deps: unknown option '$1' (use --build-only or nothing)" >&2; exit 2 ;;
esac
need=()
for pkg in "${pkgs[@]}"; do
  dpkg -s "$pkg" >/dev/null 2>&1 || need+=("$pkg")
done
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
if ! command -v nvcc >/dev/null && [ ! -x /usr/local/cuda/bin/nvcc ]; then
  echo "setup-deps: the CUDA Toolkit (nvcc, NVRTC, cuda.h) is required; install it from NVIDIA" >&2
  exit 1
fi
