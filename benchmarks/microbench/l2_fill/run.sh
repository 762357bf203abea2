#!/usr/bin/env bash
# Device run: fill.cu built with nvcc and profiled with ncu (every launch, caches flushed) -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum
M=$M,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum
M=$M,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum,gpu__time_duration.sum
nvcc -O3 -arch=sm_90 -o /tmp/fill "$HERE/fill.cu" > "$OUT/build.txt" 2>&1 || exit 1
/tmp/fill > "$OUT/plain.txt" 2>&1
for rep in 1 2; do
    $NCU --csv --page raw --print-units base --metrics "$M" /tmp/fill > "$OUT/ncu_$rep.csv" 2> "$OUT/ncu_$rep.err"
done
python3 "$HERE/analyze.py" "$OUT"/ncu_*.csv
