#!/usr/bin/env bash
# Device run (seconds): a probe's launches under ncu -> $OUT, and its SASS.
#   bash run.sh            pending.cu -> results/
#   bash run.sh sectors    sectors.cu -> results_sectors/
PROBE=${1:-pending}
[ "$PROBE" = pending ] || OUT=${OUT:-$(cd "$(dirname "$0")" && pwd)/results_$PROBE}
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum
M=$M,lts__t_sectors_srcunit_tex_op_write.sum,gpu__time_duration.sum
nvcc -O3 -arch=sm_90 -o /tmp/l1_$PROBE "$HERE/$PROBE.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
cuobjdump -sass /tmp/l1_$PROBE | grep -E "LDG|STG|CS2R|BRA|LDS|STS" > "$OUT/sass.txt" 2>&1
/tmp/l1_$PROBE > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
$NCU --csv --page raw --print-units base --cache-control all --metrics "$M" /tmp/l1_$PROBE > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
tail -2 "$OUT/ncu.err"; wc -l "$OUT/ncu.csv" "$OUT/launches.txt"
