#!/usr/bin/env bash
# Device run: the merge window of window.cu for one light request per SM (32 threads x 1 sector,
# -DNLD=1 -DTHR=32) and for the original burst (256 x 4), cold (ncu flushes) and warm L2.
# Copies reaching L2 = lts__t_sectors_srcunit_tex_op_read.sum / (66 pairs x sectors per SM).
set -u
OUT=${OUT:-$(dirname "$0")/results}
mkdir -p "$OUT"
HERE=$(dirname "$0")
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
D=0,25,50,75,100,150,200,300,400,500,600,800,1200,3200
for cfg in "1 32" "4 256"; do
  set -- $cfg
  nvcc -O3 -arch=sm_90 -DNLD=$1 -DTHR=$2 -o /tmp/window_$1_$2 "$HERE/window.cu"
  for mode in cold warm; do
    extra=""; arg=""
    if [ $mode = warm ]; then extra="--cache-control none"; arg=warm; fi
    $NCU --clock-control none $extra --csv --page raw --print-units base -k regex:window_k \
      --metrics lts__t_sectors_srcunit_tex_op_read.sum /tmp/window_$1_$2 $D $arg > "$OUT/window_light_$1_$2_$mode.csv" 2> "$OUT/window_light_$1_$2_$mode.err"
    echo "nld=$1 thr=$2 $mode rc=$?" >> "$OUT/window_light_runs.txt"
  done
done
