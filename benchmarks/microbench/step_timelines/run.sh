#!/usr/bin/env bash
# Device run: nvcc cubins (kernels.cu and the two suites' kernels.cu), then run.py -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
ROOT=$(cd "$HERE/../../.." && pwd)
mkdir -p /tmp/cubins
nvcc -cubin -arch=sm_90 -O3 -o /tmp/cubins/step_timelines.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 || exit 1
for s in typical3 typical5; do
    nvcc -cubin -arch=sm_90 -O3 -o /tmp/cubins/$s.cubin "$ROOT/validation/$s/kernels.cu" >> "$OUT/build.txt" 2>&1 || exit 1
done
cuobjdump -sass /tmp/cubins/step_timelines.cubin > "$OUT/sass.txt" 2>&1
cd "$HERE" && PYTHONPATH=$ROOT python3 run.py "$OUT" /tmp/cubins
