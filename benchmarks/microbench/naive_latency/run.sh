#!/usr/bin/env bash
# Device run (2026-12-05): specs.py's shapes of the naive GEMM through `simgpu compare` (simulated,
# CuPy, ncu) with the stall and L1 counters, and the SASS, into $OUT (default: results/).
#     bash benchmarks/microbench/naive_latency/run.sh
. "$(dirname "$0")/../device_env.sh"
ROOT=$(cd "$HERE/../../.." && pwd)
nvcc -cubin -arch=sm_90 -O3 -o /tmp/naive.cubin "$HERE/../l2_split/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass -fun naive_private_ab /tmp/naive.cubin > "$OUT/sass.txt" 2>&1
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
M=$(python3 -c "
from simgpu.crosscheck.ncu import DEFAULT_METRICS as M
extra = ['sm__cycles_elapsed.max', 'sm__warps_active.avg.pct_of_peak_sustained_active',
         'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum',
         'l1tex__m_xbar2l1tex_read_sectors.sum', 'lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum',
         'lts__average_t_sector_hit_rate_realtime.pct'] + [
         f'smsp__average_warp_latency_issue_stalled_{r}.ratio' for r in
         ('lg_throttle', 'long_scoreboard', 'mio_throttle', 'not_selected', 'selected', 'wait', 'drain',
          'no_instruction', 'short_scoreboard', 'branch_resolving')]
print(','.join(M + extra))")
python3 -m simgpu.crosscheck.command --suite "$HERE/specs.py" --metrics "$M" --runs 10 --warmup 2 \
    --ncu-time-runs 3 --ncu-timeout 240 --json "$OUT/naive.json" --markdown "$OUT/naive.md" \
    --ncu-log "$OUT/ncu" -q "$@" > "$OUT/compare.txt" 2>&1
echo "compare rc $?"
tail -40 "$OUT/compare.txt"
