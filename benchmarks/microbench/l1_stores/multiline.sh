#!/usr/bin/env bash
# Device run (about a minute): multiline.cu under ncu -> $OUT/multiline_ncu.csv (+ the SASS stores).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
nvcc -O3 -arch=sm_90 -o /tmp/multiline "$HERE/multiline.cu" > "$OUT/multiline_build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/multiline | grep -E "Function|STG" > "$OUT/multiline_sass.txt" 2>&1
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/multiline > "$OUT/multiline_ncu.csv" 2> "$OUT/multiline_ncu.err"
echo "rc $?"
