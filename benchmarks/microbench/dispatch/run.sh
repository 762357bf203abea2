#!/usr/bin/env bash
# Device run: CTA -> SM placement of small launches, plain (3 times) and under ncu (as the
# calibration and crosscheck runs are measured).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
N=8,16,32,-64,64,66,96,100,128,130,132,-256,200
nvcc -O3 -arch=sm_90 -o /tmp/smid_map "$HERE/smid_map.cu" || exit 1
for r in 1 2 3; do /tmp/smid_map $N > "$OUT/plain_$r.txt" 2>&1; done
$NCU --clock-control none --csv --page raw --print-units base -k regex:where --metrics gpu__time_duration.sum \
  /tmp/smid_map $N > "$OUT/ncu.txt" 2> "$OUT/ncu.err"
echo done >> "$OUT/runs.txt"
