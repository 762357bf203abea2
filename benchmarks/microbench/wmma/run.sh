#!/usr/bin/env bash
# Device run: how ptxas lowers nvcuda::wmma (SASS), the fragment layouts, one numerics check, and
# the counters of every wmma load / store / mma kernel of wmma.cu under ncu (about a minute).
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$NVCC -arch=sm_90 -cubin -o /tmp/wmma.cubin "$HERE/wmma.cu" > "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
$CUOBJDUMP -sass /tmp/wmma.cubin > /tmp/wmma_sass.txt 2>&1
# the memory, tensor and transpose instructions of every kernel (the full dump is ~9,400 lines)
grep -E "Function :|LDG|LDS|STG|STS|HMMA|MOVM|SHFL|PRMT|LDSM" /tmp/wmma_sass.txt | grep -v "Function : _Z" \
    | sed 's@/\*[0-9a-f]*\*/@@; s/ \+/ /g' > "$OUT/sass.txt"
$NVCC -O3 -arch=sm_90 -o /tmp/wmma "$HERE/wmma.cu" >> "$OUT/build.txt" 2>&1 || { cat "$OUT/build.txt"; exit 1; }
/tmp/wmma layouts > "$OUT/layouts.txt" 2>&1 || { tail "$OUT/layouts.txt"; exit 1; }
/tmp/wmma check > "$OUT/check.txt" 2>&1; cat "$OUT/check.txt"
/tmp/wmma latency > "$OUT/latency.txt" 2>&1; cat "$OUT/latency.txt"
/tmp/wmma counters > "$OUT/launches.txt" 2>&1 || { cat "$OUT/launches.txt"; exit 1; }
M=smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum
M=$M,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
M=$M,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,smsp__inst_executed_pipe_tensor.sum
M=$M,sm__inst_executed_pipe_tensor_op_hmma.sum,gpu__time_duration.sum
# keep the metrics this ncu knows (one unknown name makes ncu profile nothing); list the others
$NCU --query-metrics > "$OUT/ncu_metrics_available.txt" 2>&1
KEEP=""
for m in ${M//,/ }; do
    if grep -qE "^${m%.*}([[:space:]]|$)" "$OUT/ncu_metrics_available.txt"; then KEEP="$KEEP,$m"; else echo "$m" >> "$OUT/ncu_metrics_missing.txt"; fi
done
KEEP=${KEEP#,}
[ -n "$KEEP" ] || KEEP=$M
timeout 150 $NCU --csv --page raw --metrics "$KEEP" --log-file "$OUT/ncu.csv" /tmp/wmma counters > /dev/null 2> "$OUT/ncu.err"
tail -n 3 "$OUT/ncu.err"; wc -l "$OUT"/*
