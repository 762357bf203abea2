#!/usr/bin/env bash
# Device run (about a minute): arb.cu built with nvcc, its SASS, the launch list, and every launch's
# shared data-pipe counters under ncu -> $OUT (results/ by default).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_misc.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum
M=$M,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_lgds.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_read.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_cmd_write.sum,gpu__time_duration.sum,launch__grid_size
nvcc -O3 -arch=sm_90 -o /tmp/arb "$HERE/arb.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
cuobjdump -sass /tmp/arb | grep -E "Function|LDS|STS|S2R|SHFL|ATOMS|BAR|LDGSTS|LDG|STG|RED|BRA" > "$OUT/sass.txt" 2>&1
timeout 400 $NCU --csv --page raw --print-units base --metrics "$M" /tmp/arb > "$OUT/ncu.csv" 2> "$OUT/ncu.err"
grep "^launch" "$OUT/ncu.csv" > "$OUT/launches.txt"
tail -3 "$OUT/ncu.err"; wc -l "$OUT"/*.csv "$OUT/launches.txt"
