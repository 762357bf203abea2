#!/usr/bin/env bash
# Device run: pipe.cu built with nvcc, its SASS, and the shared data pipe's counters under ncu -> $OUT.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_ldgsts.sum
M=$M,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__inst_executed.sum
M=$M,l1tex__data_pipe_lsu_wavefronts.sum,launch__shared_mem_config_size
nvcc -O3 -arch=sm_90 -o /tmp/pipe "$HERE/pipe.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
cuobjdump -sass /tmp/pipe > "$OUT/sass.txt" 2>&1
/tmp/pipe > "$OUT/plain.txt" 2>&1
$NCU --csv --page raw --print-units base --metrics "$M" /tmp/pipe > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
# every name the chip knows with "lsu_wavefronts" or "data_pipe" in it, for the record
$NCU --query-metrics --chip gh100 2> /dev/null | grep -E "data_pipe|lsu_wavefronts" > "$OUT/metric_names.txt"
# the per-command split of the shared pipe, where the chip has it
$NCU --csv --page raw --print-units base --metrics \
  "regex:l1tex__data_pipe_lsu_wavefronts_mem_shared_(cmd|op)_.*\.sum$" /tmp/pipe > "$OUT/ncu_split.csv" 2> "$OUT/ncu_split.err"
tail -3 "$OUT/ncu.err" "$OUT/ncu_split.err"; wc -l "$OUT"/*.csv "$OUT/metric_names.txt"
