#!/usr/bin/env bash
# Device run: lines.cu timed with events -> $OUT/lines.txt; the 128-byte pattern under ncu (L2 hit
# rate, read sectors) -> $OUT/ncu_1.csv, ncu_41.csv.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/lines "$HERE/lines.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/lines | grep -E "LDG" > "$OUT/sass.txt" 2>&1
/tmp/lines > "$OUT/lines.txt" 2>&1
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sector_op_read_hit_rate.pct,gpu__time_duration.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
for skip in 1 41; do  # a timed launch of the 4-byte and of the 128-byte pattern
    $NCU --csv --page raw --print-units base --cache-control none --launch-skip $skip --launch-count 1 \
        --metrics "$M" /tmp/lines > "$OUT/ncu_$skip.csv" 2> "$OUT/ncu_$skip.err"
done
