#!/usr/bin/env bash
# Device run: every case of run.py on the GPU (CuPy), nvcc's SASS, into $OUT.
#     bash benchmarks/microbench/branch_regions/run.sh
. "$(dirname "$0")/../device_env.sh"
nvcc -cubin -arch=sm_90 -O3 -o /tmp/branch_regions.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/branch_regions.cubin > "$OUT/sass.txt" 2>&1
python3 "$HERE/run.py" gpu "$OUT/gpu.json"
cat "$OUT/gpu.json"
