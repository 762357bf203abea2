#!/usr/bin/env bash
# Device run: cas.cu's launches under ncu for the SASS-attributed shared wavefronts (what ncu's
# source view charges each LDS / ATOMS instruction) beside the hardware counters -> $OUT/ncu_sass.csv.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum
nvcc -O3 -arch=sm_90 -o /tmp/cas "$HERE/cas.cu" > "$OUT/build_sass.txt" 2>&1 || exit 1
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/cas > "$OUT/ncu_sass.csv" 2> "$OUT/ncu_sass.err"
python3 "$HERE/analyze.py" --sass "$OUT/ncu_sass.csv"
