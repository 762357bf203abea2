#!/usr/bin/env bash
# Device run: capacity.cu under ncu (cold caches: ncu's default cache control) -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/capacity "$HERE/capacity.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
/tmp/capacity > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
M=dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
for op in read write; do
  for u in tex ltcfabric; do M=$M,lts__t_sectors_srcunit_${u}_op_$op.sum,lts__t_sectors_srcunit_${u}_op_${op}_lookup_hit.sum; done
done
$NCU --csv --page raw --metrics "$M" /tmp/capacity > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
tail -3 "$OUT/ncu.err"; wc -l "$OUT"/*
