#!/usr/bin/env bash
# Device run: every kernel of kernels.cu on the GPU (CuPy, NVRTC as simgpu), nvcc's SASS, into $OUT.
#     bash benchmarks/microbench/sync_pairing/run.sh
. "$(dirname "$0")/../device_env.sh"
nvcc -cubin -arch=sm_90 -O3 -o /tmp/sync_pairing.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/sync_pairing.cubin > "$OUT/sass.txt" 2>&1
python3 "$HERE/run.py" gpu "$OUT/gpu.json"
cat "$OUT/gpu.json"
