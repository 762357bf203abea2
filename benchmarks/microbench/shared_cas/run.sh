#!/usr/bin/env bash
# Device run: cas.cu built with nvcc, its SASS dumped (which shared atomics are CAS loops) and every
# launch profiled with ncu -> $OUT; analyze.py prints the table.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
M=smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum
M=$M,smsp__inst_executed.sum,gpu__time_duration.sum,sm__cycles_elapsed.avg
nvcc -O3 -arch=sm_90 -o /tmp/cas "$HERE/cas.cu" > "$OUT/build.txt" 2>&1 || exit 1
cuobjdump -sass /tmp/cas > "$OUT/sass.txt" 2>&1
/tmp/cas > "$OUT/plain.txt" 2>&1
for rep in 1 2; do
    $NCU --csv --page raw --print-units base --metrics "$M" /tmp/cas > "$OUT/ncu_$rep.csv" 2> "$OUT/ncu_$rep.err"
done
python3 "$HERE/analyze.py" "$OUT"/ncu_*.csv
nvcc -O3 -arch=sm_90 -o /tmp/latency "$HERE/latency.cu" >> "$OUT/build.txt" 2>&1 || exit 1
/tmp/latency > "$OUT/latency.txt" 2>&1
cat "$OUT/latency.txt"
