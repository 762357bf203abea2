#!/usr/bin/env bash
# Device run (2026-12-04): kernels.cu through `simgpu compare` (simulated, CuPy, ncu) with the L1
# pipeline and stall counters on top of the usual ones, the SASS, and the L1TEX metric names this
# ncu knows, into $OUT (default: results/).   bash benchmarks/microbench/l1_pending_hits/run.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
OUT=${OUT:-$HERE/results}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
nvcc -cubin -arch=sm_90 -O3 -o /tmp/pending.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/pending.cubin > "$OUT/sass.txt" 2>&1
ncu --query-metrics --chip gh100 2>/dev/null | grep -E "^(l1tex__(t_|m_|data_|lsu)|smsp__warp_issue_stalled|lts__t_sectors_srcunit_tex)" \
    | cut -c1-100 > "$OUT/metric_names.txt"
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
M=$(python3 -c "
from simgpu.crosscheck.ncu import DEFAULT_METRICS as M
extra = ['l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum',
         'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum',
         'l1tex__t_output_wavefronts_pipe_lsu_mem_global_op_ld.sum',
         'l1tex__data_pipe_lsu_wavefronts_mem_lg.sum',
         'l1tex__m_xbar2l1tex_read_sectors.sum',
         'l1tex__m_l1tex2xbar_req.sum',
         'l1tex__throughput.avg.pct_of_peak_sustained_elapsed',
         'l1tex__lsu_writeback_active.avg.pct_of_peak_sustained_elapsed',
         'l1tex__f_wavefronts.sum',
         'lts__throughput.avg.pct_of_peak_sustained_elapsed',
         'dram__throughput.avg.pct_of_peak_sustained_elapsed',
         'sm__warps_active.avg.pct_of_peak_sustained_active'] + [
         f'smsp__average_warp_latency_issue_stalled_{r}.ratio' for r in
         ('lg_throttle', 'long_scoreboard', 'mio_throttle', 'not_selected', 'selected', 'wait', 'drain',
          'no_instruction', 'short_scoreboard', 'math_pipe_throttle', 'dispatch_stall', 'branch_resolving')]
print(','.join(M + extra))")
python3 -m simgpu.crosscheck.command --suite "$HERE/specs.py" --metrics "$M" --runs 10 --warmup 2 \
    --ncu-time-runs 3 --ncu-timeout 240 --json "$OUT/pending.json" --markdown "$OUT/pending.md" \
    --ncu-log "$OUT/ncu" -q "$@" > "$OUT/compare.txt" 2>&1
echo "compare rc $?"
tail -30 "$OUT/compare.txt"
