#!/usr/bin/env bash
# Device run: every case of run.py on the GPU (CuPy), nvcc's SASS, into $OUT.
#     bash benchmarks/microbench/alu_pipe/run.sh
. "$(dirname "$0")/../device_env.sh"
nvcc -cubin -arch=sm_90 -O3 -o /tmp/alu_pipe.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/alu_pipe.cubin > "$OUT/sass.txt" 2>&1
python3 "$HERE/run.py" gpu "$OUT/gpu.json"
cat "$OUT/gpu.json"
