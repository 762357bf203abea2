#!/usr/bin/env bash
# Device run: carveout.cu under ncu (the carveout, occupancy limits and registers of each launch) -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/carveout "$HERE/carveout.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
/tmp/carveout > "$OUT/carveout_launches.txt" 2>&1
M=launch__shared_mem_config_size,launch__shared_mem_per_block_dynamic,launch__block_size
M=$M,launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_warps
M=$M,launch__occupancy_limit_blocks,launch__occupancy_limit_shared_mem
$NCU --csv --page raw --metrics "$M" /tmp/carveout > "$OUT/carveout_ncu.csv" 2> "$OUT/carveout_ncu.err"
tail -2 "$OUT/carveout_ncu.err"; wc -l "$OUT"/carveout*
