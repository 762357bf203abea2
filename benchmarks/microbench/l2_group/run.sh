#!/usr/bin/env bash
# Device run: l2_group.cu under ncu for K = 2, 4, 8, 16 SMs per buffer, member j delayed by j*d cycles,
# three loads per SM (light 32 x 1 sector, medium 128 x 1, burst 256 x 4), cold (ncu flushes) and warm.
set -u
OUT=${OUT:-$(dirname "$0")/results}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/gpu.txt" 2>&1  # which chip: floorsweeping (and so the SM topology) differs between chips
HERE=$(dirname "$0")
NCU=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
D=0,10,25,50,75,100,150,200,300,400,800
M=lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum,dram__sectors_read.sum
for cfg in "1 32" "1 128" "4 256"; do
  set -- $cfg
  nvcc -O3 -arch=sm_90 -DNLD=$1 -DTHR=$2 -o /tmp/l2_group_$1_$2 "$HERE/l2_group.cu" || { echo "nvcc failed $cfg" >> "$OUT/runs.txt"; continue; }
  for K in 2 4 8 16; do
    for mode in cold warm; do
      extra=""; arg=""
      if [ $mode = warm ]; then extra="--cache-control none"; arg=warm; fi
      $NCU --clock-control none $extra --csv --page raw --print-units base -k regex:group_k \
        --metrics $M /tmp/l2_group_$1_$2 $K $D $arg > "$OUT/group_$1_$2_K${K}_$mode.csv" 2> "$OUT/group_$1_$2_K${K}_$mode.err"
      echo "nld=$1 thr=$2 K=$K $mode rc=$?" >> "$OUT/runs.txt"
    done
  done
done
