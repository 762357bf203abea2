#!/usr/bin/env bash
# Device run (2-3 minutes): window_pairs.cu's merge window for TPC partners and for two SMs of one
# GPC in different TPCs, one light request per SM (32 threads x 1 sector) and the burst (256 x 4),
# cold (ncu flushes the caches) and warm (L2 hits). Copies reaching L2 = L2 read sectors / (pairs x
# sectors per SM); analyze_pairs.py prints the table.
. "$(dirname "$0")/../device_env.sh"
D=0,10,25,50,75,100,150,200,300,400,600,800,1200,3200
for cfg in "1 32" "4 256"; do
  set -- $cfg
  nvcc -O3 -arch=sm_90 -DNLD=$1 -DTHR=$2 -o /tmp/window_pairs_$1_$2 "$HERE/window_pairs.cu" || exit 1
  for pairing in tpc gpc; do
    for mode in cold warm; do
      extra=""; arg=""
      if [ $mode = warm ]; then extra="--cache-control none"; arg=warm; fi
      f="$OUT/window_pairs_$1_$2_${pairing}_$mode"
      timeout 200 $NCU --clock-control none $extra --csv --page raw --print-units base -k regex:window_pairs_k \
        --metrics lts__t_sectors_srcunit_tex_op_read.sum /tmp/window_pairs_$1_$2 $D $pairing $arg > "$f.csv" 2> "$f.err"
      echo "nld=$1 thr=$2 $pairing $mode rc=$?" >> "$OUT/window_pairs_runs.txt"
    done
  done
done
cat "$OUT/window_pairs_runs.txt"
