#!/usr/bin/env bash
# Device run: l1_launch.cu under ncu without cache control (the caches as the program leaves them).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/l1_launch "$HERE/l1_launch.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
/tmp/l1_launch > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
M=l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__bytes_read.sum
$NCU --csv --page raw --cache-control none --metrics "$M" /tmp/l1_launch > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
# the same, each launch its own ncu pass only (--replay-mode application: one run of the program per pass)
$NCU --csv --page raw --cache-control none --replay-mode application --metrics "$M" /tmp/l1_launch > "$OUT/ncu_app.csv" 2> "$OUT/ncu_app.err"
tail -n 3 "$OUT/ncu.err" "$OUT/ncu_app.err"; wc -l "$OUT"/*
