#!/usr/bin/env bash
# Device run for hand-written tensor-core PTX (mma_sync.cu): SASS of the mma.sync / ldmatrix /
# stmatrix kernels, the per-lane fragment probes, the dependent-chain timings and the ncu counters of
# the ldmatrix / stmatrix / mma counter kernels (well under a minute on the H200). Everything goes to
# $OUT with an mma_ prefix (copied to results/mma_sync/). The first run (2026-12-01) lost
# mma_sass.txt to the device tool's file-count limit; cat it instead if you need it.
. "$(dirname "$0")/../device_env.sh"  # HERE, OUT, NCU; the chip in $OUT/gpu.txt
NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
CUOBJDUMP=$(command -v cuobjdump || echo /usr/local/cuda/bin/cuobjdump)
$NVCC -arch=sm_90 -cubin -o /tmp/mma_sync.cubin "$HERE/mma_sync.cu" > "$OUT/mma_build.txt" 2>&1 || { cat "$OUT/mma_build.txt"; exit 1; }
$CUOBJDUMP -sass /tmp/mma_sync.cubin > /tmp/mma_sync_sass.txt 2>&1
grep -E "Function :|LDSM|STSM|HMMA|IMMA" /tmp/mma_sync_sass.txt \
    | sed 's@/\*[0-9a-f]*\*/@@; s/ \+/ /g' > "$OUT/mma_sass.txt"
$NVCC -O3 -arch=sm_90 -o /tmp/mma_sync "$HERE/mma_sync.cu" >> "$OUT/mma_build.txt" 2>&1 || { cat "$OUT/mma_build.txt"; exit 1; }
timeout 30 /tmp/mma_sync layouts > "$OUT/mma_layouts.txt" 2>&1; echo "layouts rc $?"; tail -n 2 "$OUT/mma_layouts.txt"
timeout 30 /tmp/mma_sync latency > "$OUT/mma_latency.txt" 2>&1; cat "$OUT/mma_latency.txt"
timeout 20 /tmp/mma_sync counters > "$OUT/mma_launches.txt" 2>&1 || { cat "$OUT/mma_launches.txt"; exit 1; }
M=smsp__sass_inst_executed_op_ldsm.sum,smsp__sass_inst_executed_op_stsm.sum
M=$M,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__inst_executed_pipe_tensor.sum
M=$M,sm__inst_executed_pipe_tensor_op_hmma.sum,sm__inst_executed_pipe_tensor_op_imma.sum
M=$M,smsp__inst_executed.sum
# keep the metrics this ncu knows (one unknown name makes ncu profile nothing); list the others
$NCU --query-metrics > /tmp/ncu_metrics_available.txt 2>&1
# (the list stays on the device: at most 8 files come back from a run, 2026-12-01)
KEEP=""
for m in ${M//,/ }; do
    if grep -qE "^${m%.*}([[:space:]]|$)" /tmp/ncu_metrics_available.txt; then KEEP="$KEEP,$m"; else echo "$m" >> "$OUT/mma_ncu_metrics_missing.txt"; fi
done
KEEP=${KEEP#,}
[ -n "$KEEP" ] || KEEP=$M
timeout 80 $NCU --csv --page raw --metrics "$KEEP" --log-file "$OUT/mma_ncu.csv" /tmp/mma_sync counters > /dev/null 2> "$OUT/mma_ncu.err"
echo "ncu rc $?"; tail -n 3 "$OUT/mma_ncu.err"; wc -l "$OUT"/*
