#!/usr/bin/env bash
# Install the Debian packages convtune builds and tests with (Chromium for
# the report's browser test, slurm-wlm for the job-array scripts' test,
# strace for the signal tests, which hold convtune between renames; the
# CUDA Toolkit is expected at /usr/local/cuda). Safe to run again: installs
# only what is missing.
set -euo pipefail
need=()
for pkg in cmake make gcc g++ pkg-config libsqlite3-dev libinih-dev python3 chromium slurm-wlm strace; do
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
