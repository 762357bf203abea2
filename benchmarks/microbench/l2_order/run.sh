#!/usr/bin/env bash
# Device run: order.cu built with nvcc, its SASS and its counters under ncu (three runs) -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=lts__t_sectors_srcunit_tex_op_read.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,dram__sectors_read.sum,gpu__time_duration.sum
nvcc -O3 -arch=sm_90 -o /tmp/order "$HERE/order.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/order | gzip > "$OUT/sass.txt.gz"
/tmp/order > "$OUT/plain.txt" 2>&1
for rep in 1 2 3; do
    $NCU --csv --page raw --print-units base --metrics "$M" /tmp/order > "$OUT/ncu_$rep.csv" 2> "$OUT/ncu_$rep.err"
done
