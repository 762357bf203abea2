#!/usr/bin/env bash
# Device run: windows.cu -> $OUT: the SM-clock gaps between each pair's stores (windows_gaps*.txt)
# and, under ncu, store sectors, store lookup hits and L2 write sectors of every launch
# (windows_ncu*.csv): the spin sweep (gaps of 50-2,150 cycles) and the fine one (IMAD chains).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
nvcc -O3 -arch=sm_90 -o /tmp/windows "$HERE/windows.cu" > "$OUT/windows_build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/windows | grep -E "Function|STG|LDG|CS2R|IMAD" > "$OUT/windows_sass.txt" 2>&1
/tmp/windows gaps > "$OUT/windows_gaps.txt" 2>&1
/tmp/windows gaps fine > "$OUT/windows_gaps_fine.txt" 2>&1
$NCU --csv --page raw --print-units base --kernel-name pair --metrics "$M" /tmp/windows \
    > "$OUT/windows_ncu.csv" 2> "$OUT/windows_ncu.err"
$NCU --csv --page raw --print-units base --kernel-name regex:pair_fine --metrics "$M" /tmp/windows counters fine \
    > "$OUT/windows_ncu_fine.csv" 2> "$OUT/windows_ncu_fine.err"
