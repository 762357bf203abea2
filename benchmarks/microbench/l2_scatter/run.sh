#!/usr/bin/env bash
# Device run: scatter_share.cu under ncu -> $OUT/ncu.csv (L1 load sectors and hits, L2 read sectors).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,gpu__time_duration.sum
M=$M,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__sectors_read.sum
nvcc -O3 -arch=sm_90 -o /tmp/scatter_share "$HERE/scatter_share.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/scatter_share | grep -E "Function|LDG" > "$OUT/sass.txt" 2>&1
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/scatter_share > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
nvcc -O3 -arch=sm_90 -o /tmp/waves "$HERE/waves.cu" >> "$OUT/build.txt" 2>&1 || exit 1
/tmp/waves > "$OUT/waves.txt" 2> "$OUT/waves.err"
