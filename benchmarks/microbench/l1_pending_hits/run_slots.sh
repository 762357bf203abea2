#!/usr/bin/env bash
# Device run for slots.py: once plain (timings), once under ncu (L1 data-stage counters, no cache
# control so that each launch sees the caches slots.py set up).
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/results}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/slots_gpu.txt" 2>&1
python3 "$HERE/slots.py" "$OUT/slots.jsonl" > "$OUT/slots_stdout.txt" 2>&1; echo "slots rc $?"
REPS=1 ncu --replay-mode application --cache-control none --clock-control none -k regex:chunk --csv --metrics \
sm__cycles_elapsed.avg,l1tex__t_sector_hit_rate.pct,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,\
l1tex__data_bank_conflicts_pipe_lsu_mem_gds_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_read.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_lgds_cmd_write.sum,l1tex__data_bank_reads.sum,l1tex__data_bank_writes.sum,\
l1tex__data_bank_conflicts_pipe_lsu.sum,l1tex__data_bank_conflicts_type_arbitration.sum,\
l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum,l1tex__m_xbar2l1tex_read_sectors.sum,\
smsp__average_warp_latency_issue_stalled_lg_throttle.ratio,smsp__average_warp_latency_issue_stalled_long_scoreboard.ratio \
    python3 "$HERE/slots.py" /tmp/slots_ncu.jsonl > "$OUT/slots_ncu.csv" 2> "$OUT/slots_ncu_err.txt"; echo "ncu rc $?"
tail -3 "$OUT/slots_ncu_err.txt"; wc -l "$OUT/slots_ncu.csv"
