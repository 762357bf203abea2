#!/bin/bash
# Loaded-latency sweep + ncu of flash_attn on the device machine; results under $OUT.
cd "$(dirname "$0")"
R=../..
nvcc -O3 -arch=sm_90 -o /tmp/ll loaded_latency.cu || exit 1
cuobjdump -sass /tmp/ll | grep -E "LDG|CS2R|CLOCK" > "$OUT/ll_sass.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv > "$OUT/smi.txt"
/tmp/ll 2000 | tee "$OUT/loaded_latency.txt"
nvidia-smi --query-gpu=clocks.sm,clocks.mem,power.draw --format=csv >> "$OUT/smi.txt"
export SIMGPU_PROGRAMS_BACKEND=cupy PYTHONPATH=$PWD/$R
timeout 200 ncu --clock-control none --set full --warp-sampling-interval 0 --import-source no \
  -k flash_attn_fwd -c 1 -o /tmp/fa -f python3 flash_attn_ncu.py 2>&1 | tail -5
ncu -i /tmp/fa.ncu-rep --page raw --csv > "$OUT/fa_raw.csv"
ncu -i /tmp/fa.ncu-rep --page details > "$OUT/fa_details.txt"
ncu -i /tmp/fa.ncu-rep --page source --csv --print-source sass > "$OUT/fa_sass.csv" 2>&1
ls -la "$OUT"
