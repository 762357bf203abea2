#!/usr/bin/env bash
# Device run: specs.py's five launches through `simgpu compare` (simulated, CuPy, ncu) with the
# stall counters, and nvcc's SASS, into $OUT (default: results/).
#     bash benchmarks/microbench/shfl_guard/run.sh
. "$(dirname "$0")/../device_env.sh"
ROOT=$(cd "$HERE/../../.." && pwd)
nvcc -cubin -arch=sm_90 -O3 -o /tmp/shfl_guard.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/shfl_guard.cubin > "$OUT/sass.txt" 2>&1
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
M=$(python3 -c "
from simgpu.crosscheck.ncu import DEFAULT_METRICS as M
extra = ['sm__cycles_elapsed.max', 'smsp__inst_executed.sum'] + [
         f'smsp__average_warp_latency_issue_stalled_{r}.ratio' for r in
         ('lg_throttle', 'long_scoreboard', 'mio_throttle', 'not_selected', 'selected', 'wait', 'drain',
          'no_instruction', 'short_scoreboard', 'branch_resolving')]
print(','.join(M + extra))")
python3 -m simgpu.crosscheck.command --suite "$HERE/specs.py" --metrics "$M" --runs 10 --warmup 2 \
    --ncu-time-runs 3 --ncu-timeout 240 --json "$OUT/shfl_guard.json" --markdown "$OUT/shfl_guard.md" \
    --ncu-log "$OUT/ncu" -q "$@" > "$OUT/compare.txt" 2>&1
echo "compare rc $?"
tail -12 "$OUT/compare.txt"
