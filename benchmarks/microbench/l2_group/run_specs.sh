#!/usr/bin/env bash
# Device run: which SM pairs of one GPC merge? l2_group.cu with the groups of $SPECS/*.txt (default
# specs/; results named $PREFIX_*, default spec_), all SMs
# starting together (d = 0), medium load (128 sectors per SM; NLD, THR to change), cold and warm.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__sectors_read.sum
nvcc -O3 -arch=sm_90 -DNLD=${NLD:-1} -DTHR=${THR:-128} -o /tmp/l2_group_spec "$HERE/l2_group.cu" || exit 1
for spec in "$HERE"/${SPECS:-specs}/*.txt; do
  name=$(basename "$spec" .txt)
  for mode in cold warm; do
    extra=""; arg=""
    if [ $mode = warm ]; then extra="--cache-control none"; arg=warm; fi
    $NCU --clock-control none $extra --csv --page raw --print-units base -k regex:group_k \
      --metrics $M /tmp/l2_group_spec spec:$spec 0,0,0 $arg > "$OUT/${PREFIX:-spec}_${name}_$mode.csv" 2> "$OUT/${PREFIX:-spec}_${name}_$mode.err"
    echo "$name $mode rc=$?" >> "$OUT/${PREFIX:-spec}_runs.txt"
  done
done
