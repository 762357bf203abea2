#!/usr/bin/env bash
# Device run (~2 minutes): main.cu's launches under ncu -> $OUT (results/ by default).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,l1tex__t_sector_hit_rate.pct,launch__shared_mem_config_size,gpu__time_duration.sum
nvcc -O3 -arch=sm_90 -o /tmp/l1_replacement "$HERE/main.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
cuobjdump -sass /tmp/l1_replacement | grep -E "Function|LDG" > "$OUT/sass_ldg.txt" 2>&1
/tmp/l1_replacement > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
$NCU --csv --page raw --print-units base --cache-control all --metrics "$M" /tmp/l1_replacement > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
tail -2 "$OUT/ncu.err"; wc -l "$OUT/ncu.csv" "$OUT/launches.txt"
