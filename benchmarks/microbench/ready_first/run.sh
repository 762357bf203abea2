#!/usr/bin/env bash
# Device run: specs.py's launches through `simgpu compare` (simulated, CuPy, ncu), and the nvcc SASS
# of kernels.cu, into $OUT (default: results/). Compare the times with predictions.txt (simgpu with
# the ready_first rule on and off, written before this ran).
#     bash benchmarks/microbench/ready_first/run.sh
. "$(dirname "$0")/../device_env.sh"
ROOT=$(cd "$HERE/../../.." && pwd)
nvcc -cubin -arch=sm_90 -O3 -o /tmp/ready_first.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/ready_first.cubin > "$OUT/sass.txt" 2>&1
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
python3 -m simgpu.crosscheck.command --suite "$HERE/specs.py" --runs 10 --warmup 2 --ncu-time-runs 3 \
    --ncu-timeout 240 --json "$OUT/ready_first.json" --markdown "$OUT/ready_first.md" \
    --ncu-log "$OUT/ncu" -q "$@" > "$OUT/compare.txt" 2>&1
echo "compare rc $?"
tail -30 "$OUT/compare.txt"
