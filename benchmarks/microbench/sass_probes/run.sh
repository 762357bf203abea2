#!/usr/bin/env bash
# Device run: probes.cu, global_probes.cu and cache_probes.cu built with nvcc, their SASS (cuobjdump)
# and their counters under ncu -> $OUT (ncu.csv, global_ncu.csv, cache_ncu.csv).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
M=$M,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum,dram__sectors_read.sum
M=$M,l1tex__t_sector_hit_rate.pct,launch__registers_per_thread
nvcc -O3 -arch=sm_90 -o /tmp/probes "$HERE/probes.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/probes > "$OUT/sass.txt" 2>&1
/tmp/probes > "$OUT/plain.txt" 2>&1
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/probes > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
nvcc -O3 -arch=sm_90 -o /tmp/global_probes "$HERE/global_probes.cu" >> "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/global_probes > "$OUT/global_sass.txt" 2>&1
/tmp/global_probes >> "$OUT/plain.txt" 2>&1
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/global_probes > "$OUT/global_ncu.csv" 2> "$OUT/global_ncu.err"
nvcc -O3 -arch=sm_90 -o /tmp/cache_probes "$HERE/cache_probes.cu" >> "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/cache_probes > "$OUT/cache_sass.txt" 2>&1
/tmp/cache_probes >> "$OUT/plain.txt" 2>&1
$NCU --csv --page raw --print-units base --metrics "$M,lts__t_sector_hit_rate.pct" /tmp/cache_probes > "$OUT/cache_ncu.csv" 2> "$OUT/cache_ncu.err"
