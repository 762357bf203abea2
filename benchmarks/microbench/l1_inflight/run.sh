#!/usr/bin/env bash
# Device run: inflight.cu -> $OUT/inflight.txt (cycles per launch of one CTA, median of 5).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/inflight "$HERE/inflight.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/inflight | grep -E "LDG" > "$OUT/sass.txt" 2>&1
/tmp/inflight > "$OUT/inflight.txt" 2>&1
