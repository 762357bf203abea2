#!/usr/bin/env bash
# Device run: burst.cu -> $OUT: each `together` CTA's spread of store clocks (burst_times.txt) and,
# under ncu, store sectors, store lookup hits and L2 write sectors of every launch (burst_ncu.csv).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
nvcc -O3 -arch=sm_90 -o /tmp/burst "$HERE/burst.cu" > "$OUT/burst_build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/burst | grep -E "Function|STG" > "$OUT/burst_sass.txt" 2>&1
/tmp/burst times > "$OUT/burst_times.txt" 2>&1
$NCU --csv --page raw --print-units base --kernel-name regex:"back_to_back|together" --metrics "$M" /tmp/burst \
    > "$OUT/burst_ncu.csv" 2> "$OUT/burst_ncu.err"
