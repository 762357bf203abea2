#!/usr/bin/env bash
# Device run for probe.py: once plain (cycles), once under ncu (data-stage counters per launch).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/results}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/probe_gpu.txt" 2>&1
python3 "$HERE/probe.py" "$OUT/probe.jsonl" > "$OUT/probe_stdout.txt" 2>&1; echo "probe rc $?"
ncu --cache-control none -k regex:probe --csv --metrics \
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct,\
l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum,\
l1tex__data_bank_reads.sum,l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum \
    python3 "$HERE/probe.py" /tmp/probe_ncu.jsonl > "$OUT/probe_ncu.csv" 2> "$OUT/probe_ncu_err.txt"; echo "ncu rc $?"
tail -2 "$OUT/probe_ncu_err.txt"
