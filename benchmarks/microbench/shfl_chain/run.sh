#!/usr/bin/env bash
# Device run: every case of run.py on the GPU (CuPy), nvcc's SASS, into $OUT.
#     bash benchmarks/microbench/shfl_chain/run.sh
. "$(dirname "$0")/../device_env.sh"
nvcc -cubin -arch=sm_90 -O3 -o /tmp/shfl_chain.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/shfl_chain.cubin > "$OUT/sass.txt" 2>&1
python3 "$HERE/run.py" gpu "$OUT/gpu.json"
cat "$OUT/gpu.json"
