#!/usr/bin/env bash
# Device run: every kernel of table.py on the H200 through CuPy (device.py), the approximate
# instructions on their probe inputs, their SASS, and the MUFU tables (mufu_tables.py), into $OUT
# (default results/).
. "$(dirname "$0")/../device_env.sh"
export PYTHONPATH=$(cd "$HERE/../../.." && pwd)${PYTHONPATH:+:$PYTHONPATH}
python3 "$HERE/device.py" --out "$OUT/h200.npz" --probe "$OUT/probe_h200.npz" 2>&1 | tail -5
nvcc -cubin -arch=sm_90 -O3 -o /tmp/primitives.cubin "$HERE/primitives.cu" && cuobjdump -sass /tmp/primitives.cubin > "$OUT/primitives_sass.txt"
python3 -c "import sys; sys.path.insert(0, '$HERE'); import table; print(table.cuda_source())" > /tmp/math_api.cu
# the table's SASS stays on the device (8 files come back at most): /tmp/math_api_sass.txt
nvcc -cubin -arch=sm_90 -O3 -o /tmp/math_api.cubin /tmp/math_api.cu > /tmp/math_api_build.txt 2>&1 &&
    cuobjdump -sass /tmp/math_api.cubin > /tmp/math_api_sass.txt
python3 "$HERE/mufu_tables.py" "$OUT/mufu_h200.npz"
ls -la "$OUT"
