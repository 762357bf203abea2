#!/usr/bin/env bash
# Device run (~20 s): main.cu's launches under ncu (cold caches each launch) -> $OUT (results/ by default).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,launch__shared_mem_config_size
nvcc -O3 -arch=sm_90 -o /tmp/l1_recency "$HERE/main.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
cuobjdump -sass /tmp/l1_recency | grep -E "Function|LDG" > "$OUT/sass_ldg.txt" 2>&1
/tmp/l1_recency > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
$NCU --csv --page raw --print-units base --cache-control all --metrics "$M" /tmp/l1_recency > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
tail -2 "$OUT/ncu.err"; wc -l "$OUT/ncu.csv" "$OUT/launches.txt"
