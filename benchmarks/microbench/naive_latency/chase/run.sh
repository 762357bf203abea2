#!/usr/bin/env bash
# Device run (2026-12-05): specs.py's dependent column walks through `simgpu compare` (simulated,
# CuPy, ncu: gpu__time_duration over 3 launches, caches flushed), into $OUT (default: results/).
#     bash benchmarks/microbench/naive_latency/chase/run.sh
. "$(dirname "$0")/../../device_env.sh"
ROOT=$(cd "$HERE/../../../.." && pwd)
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
nvcc -cubin -arch=sm_90 -O3 -o /tmp/chase.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/chase.cubin > "$OUT/sass.txt" 2>&1
python3 -m simgpu.crosscheck.command --suite "$HERE/specs.py" --runs 5 --warmup 1 --ncu-time-runs 3 \
    --ncu-timeout 240 --json "$OUT/chase.json" -q "$@" > "$OUT/compare.txt" 2>&1
echo "compare rc $?"
cat "$OUT/compare.txt"
