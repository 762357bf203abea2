#!/usr/bin/env bash
# Device run: col_major.cu's per-CTA records (records.txt) and its counters under ncu (col_ncu.csv).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/col_major "$HERE/col_major.cu" > "$OUT/col_build.txt" 2>&1 || exit 1
/tmp/col_major > "$OUT/records.txt" 2>&1
/tmp/col_major > "$OUT/records2.txt" 2>&1
M=lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,gpu__time_duration.sum
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/col_major > "$OUT/col_ncu.csv" 2> "$OUT/col_ncu.err"
