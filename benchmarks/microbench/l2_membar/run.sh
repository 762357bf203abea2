#!/usr/bin/env bash
# Device run: membar.cu under ncu with the L2 sectors by op, source unit and aperture -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
nvcc -O3 -arch=sm_90 -o /tmp/membar "$HERE/membar.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
/tmp/membar > "$OUT/launches.txt" 2>&1
M=lts__t_sectors.sum,lts__t_sectors_lookup_hit.sum,lts__t_sector_hit_rate.pct,gpu__time_duration.sum
for u in tex ltcfabric gcc; do M=$M,lts__t_sectors_srcunit_$u.sum,lts__t_sectors_srcunit_${u}_lookup_hit.sum; done
for op in read write atom red membar; do M=$M,lts__t_sectors_op_$op.sum,lts__t_sectors_op_${op}_lookup_hit.sum; done
M=$M,lts__t_sectors_srcunit_ltcfabric_op_membar.sum,lts__t_sectors_srcunit_ltcfabric_op_read.sum
M=$M,lts__t_sectors_srcunit_ltcfabric_op_write.sum,lts__t_requests_op_membar.sum
M=$M,lts__t_sectors_aperture_device.sum,lts__t_sectors_aperture_sysmem.sum,lts__t_sectors_aperture_peer.sum
M=$M,dram__sectors_read.sum,dram__sectors_write.sum,sm__cycles_elapsed.max
$NCU --csv --page raw --metrics "$M" /tmp/membar > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
# every op_ name the chip knows for lts__t_sectors, for the record
$NCU --query-metrics --chip gh100 2> /dev/null | grep -E "^lts__t_(sectors|requests)_(op|srcunit)_[a-z]+ " > "$OUT/names.txt"
tail -3 "$OUT/ncu.err"; wc -l "$OUT"/*
