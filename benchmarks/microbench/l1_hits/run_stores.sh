#!/usr/bin/env bash
# Device run: store_hits.cu under ncu (L1 lookup hits/misses of loads and stores), results under $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum
# launch statistics in a run of their own: an unknown name would abort the counter run
L=launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__registers_per_thread
nvcc -O3 -arch=sm_90 -o /tmp/store_hits "$HERE/store_hits.cu" || exit 1
cuobjdump -sass /tmp/store_hits | grep -E "STG|LDG" > "$OUT/store_hits_sass.txt"
/tmp/store_hits > "$OUT/store_hits_plain.txt" 2>&1
$NCU --clock-control none --csv --page raw --print-units base --metrics "$M" /tmp/store_hits \
  > "$OUT/store_hits.csv" 2> "$OUT/store_hits.err"
$NCU --csv --page raw --print-units base --metrics "$L" /tmp/store_hits > "$OUT/store_hits_launch.csv" 2> "$OUT/store_hits_launch.err"
