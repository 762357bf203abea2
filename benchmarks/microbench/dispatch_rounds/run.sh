#!/usr/bin/env bash
# Device run: placement of launches with several CTAs per SM, and per-CTA start/end times of two
# GEMMs (rounds.cu), plain.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/rounds "$HERE/rounds.cu" || exit 1
/tmp/rounds > "$OUT/rounds.txt" 2>&1
grep -c RESULT "$OUT/rounds.txt"
