#!/usr/bin/env bash
# Device run: chains.cu built twice (default, and -ftz=true), each run, with its SASS; and the CuPy /
# NVRTC versions simgpu's crosscheck compiles the recorded suites with.
. "$(dirname "$0")/../device_env.sh"
nvcc --version > "$OUT/nvcc.txt" 2>&1
for v in default ftz; do
    flags=""; [ $v = ftz ] && flags="-ftz=true"
    nvcc -O3 -arch=sm_90 $flags -o /tmp/chains_$v "$HERE/chains.cu" > "$OUT/build_$v.txt" 2>&1 &&
        cuobjdump -sass /tmp/chains_$v > "$OUT/sass_$v.txt" 2>&1
    /tmp/chains_$v > "$OUT/run_$v.txt" 2>&1
    echo "== $v"; cat "$OUT/run_$v.txt"
done
python3 -c "import cupy; print('cupy', cupy.__version__, 'nvrtc', cupy.cuda.nvrtc.getVersion(), 'driver', cupy.cuda.runtime.driverGetVersion())" \
    > "$OUT/cupy_versions.txt" 2>&1
