#!/usr/bin/env bash
# Device run: nvcc cubin of kernels.cu and its SASS, then run.py device -> $OUT/gpc_inflight.jsonl.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -cubin -arch=sm_90 -O3 -o /tmp/gpc_inflight.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/gpc_inflight.cubin > "$OUT/sass.txt" 2>&1
cd "$HERE" && python3 run.py device "$OUT" /tmp/gpc_inflight.cubin
