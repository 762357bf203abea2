#!/usr/bin/env bash
# Device run: build l2_partition.cu, run it for two ring sizes, keep the SASS (to check the timing
# pattern) and the raw outputs in $OUT (or ./results).
set -u
OUT=${OUT:-$(dirname "$0")/results}
mkdir -p "$OUT"
HERE=$(dirname "$0")
nvcc -O3 -arch=sm_90 -o /tmp/l2_partition "$HERE/l2_partition.cu" 2>&1 | tee "$OUT/build.txt"
cuobjdump -sass /tmp/l2_partition > "$OUT/l2_partition.sass" 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv > "$OUT/gpu.txt" 2>&1
for nl in 8192 12288; do
  /tmp/l2_partition $nl > "$OUT/lat_$nl.bin" 2> "$OUT/log_$nl.txt"; echo "nl=$nl rc=$?" >> "$OUT/runs.txt"
done
ls -la "$OUT"
nvcc -O3 -arch=sm_90 -o /tmp/first_touch "$HERE/first_touch.cu" 2>&1 | tee -a "$OUT/build.txt"
cuobjdump -sass /tmp/first_touch > "$OUT/first_touch.sass" 2>&1
/tmp/first_touch 65536 8 > "$OUT/first_touch.bin" 2> "$OUT/log_first_touch.txt"; echo "first_touch rc=$?" >> "$OUT/runs.txt"
