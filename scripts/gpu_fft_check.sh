#!/usr/bin/env bash
# Quick check of the FFT executor on a GPU: tune only conv1d_fft on a few
# problems (modes and sizes) with every candidate listed.
set -u
B=${1:-build-gpu}/convtune
export CONVTUNE_DB=/tmp/fft.db
for p in conv1d:1e6:2047 conv1d:1e7:2047 conv1d:100000:513:same conv1d:50000:4097:right conv1d:3000:1000; do
  $B --problem $p --template conv1d_fft --verbose 2>&1 | grep -v "^\s*rank\|^\s\+[0-9]\+ " | tail -14
done
$B --problem conv1d:1e6:2047 --template conv1d_tiled --max-candidates 60 --seed 3 | grep winner
