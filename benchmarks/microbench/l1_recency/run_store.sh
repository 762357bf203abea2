#!/usr/bin/env bash
# Device run (~15 s): main.cu's store launches (`main store`) under ncu (cold caches each launch) -> $OUT
# (results_store/ by default).
OUT=${OUT:-$(cd "$(dirname "$0")" && pwd)/results_store}
. "$(dirname "$0")/../device_env.sh"
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
nvcc -O3 -arch=sm_90 -o /tmp/l1_recency_store "$HERE/main.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
cuobjdump -sass /tmp/l1_recency_store | grep -E "Function|LDG|STG" > "$OUT/sass_ldg.txt" 2>&1
/tmp/l1_recency_store store > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
$NCU --csv --page raw --print-units base --cache-control all --metrics "$M" /tmp/l1_recency_store store > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
tail -2 "$OUT/ncu.err"; wc -l "$OUT/ncu.csv" "$OUT/launches.txt"
