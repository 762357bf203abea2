#!/usr/bin/env bash
# Device run of sweep.py: nvcc cubin of kernels.cu, the sweep (OUT/sweep.jsonl), then ncu's details
# page of col_pitch_f_1 and _16 on 64 CTAs x 128 threads from DRAM (OUT/sweep_details.txt).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
mkdir -p /tmp/cubins
nvcc -cubin -arch=sm_90 -O3 -o /tmp/cubins/lif.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 || exit 1
cd "$HERE" && python3 sweep.py run "$OUT" /tmp/cubins/lif.cubin || exit 1
cat > /tmp/one.py <<'PY'
import sys, cupy as cp, numpy as np
from cases import sweep_shape
u = int(sys.argv[1])
rows, cols, pitch = sweep_shape(64, 128, 0)
a, y = cp.ones(rows * pitch, cp.float32), cp.zeros(cols, cp.float32)
cp.RawModule(path="/tmp/cubins/lif.cubin").get_function(f"col_pitch_f_{u}")((64,), (128,), (a, y, np.int32(rows), np.int32(cols), np.int32(pitch)))
cp.cuda.Device().synchronize()
PY
for u in 1 16; do
    PYTHONPATH="$HERE" timeout 120 $NCU --set full -k "regex:col_pitch" -c 1 python3 /tmp/one.py $u >> "$OUT/sweep_details.txt" 2>&1
done
