#!/usr/bin/env bash
# Device run: stores.cu under ncu (store sectors, store lookup hits, L2 write sectors) -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sector_hit_rate.pct
nvcc -O3 -arch=sm_90 -o /tmp/stores "$HERE/stores.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/stores | grep -E "Function|STG|LDG" > "$OUT/sass.txt" 2>&1
/tmp/stores > "$OUT/plain.txt" 2>&1
for rep in 1 2; do
    $NCU --csv --page raw --print-units base --metrics "$M" /tmp/stores > "$OUT/ncu_$rep.csv" 2> "$OUT/ncu_$rep.err"
done
