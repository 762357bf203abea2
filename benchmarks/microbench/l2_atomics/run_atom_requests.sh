#!/usr/bin/env bash
# Device run: atom_requests.py under ncu (requests and sectors of every kind of warp atomic), and, for
# validation/typical7's wmma_gemm_f16 and red_double_bins (simgpu -53 % and +55 % in time), ncu's
# full set of sections (warp stalls, L1/L2 throughput), into $OUT.
. "$(dirname "$0")/../device_env.sh"
ROOT=$(cd "$HERE/../../.." && pwd)
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH}
M=l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum
M=$M,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum
M=$M,lts__t_sectors_srcunit_tex_op_atom.sum,lts__t_sectors_srcunit_tex_op_red.sum
M=$M,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum
M=$M,lts__t_requests_srcunit_tex_op_atom.sum,lts__t_requests_srcunit_tex_op_red.sum,gpu__time_duration.sum
"$NCU" -k 'regex:^(add32|cas32|exch32|addf32|add64|cas64|red32|redf64)$' --metrics "$M" --csv \
    --log-file "$OUT/atom_requests_ncu.csv" python3 "$HERE/atom_requests.py" "$OUT/atom_requests_cases.json" > "$OUT/atom_requests_run.txt" 2>&1
echo "requests rc $?"
cat > /tmp/typical7_one.py <<'PY'
import sys
import cupy as cp
import numpy as np
from simgpu.crosscheck.cases import load_suite
from simgpu.frontend.nvrtc import nvcc_like_options
for c in load_suite(sys.argv[1], sys.argv[2:]):
    k = cp.RawModule(code=c.source, options=nvcc_like_options()).get_function(c.kernel)
    args = tuple(cp.asarray(a) if isinstance(a, np.ndarray) else a for a in c.args)
    k(c.grid, c.block, args)
cp.cuda.runtime.deviceSynchronize()
PY
"$NCU" --set full -k 'regex:^(wmma_gemm_f16|red_double_bins)$' --csv --page details \
    --log-file "$OUT/typical7_full.csv" python3 /tmp/typical7_one.py "$ROOT/validation/typical7/specs.py" \
    wmma_gemm_f16 red_double_bins > "$OUT/typical7_full_run.txt" 2>&1
echo "full rc $?"
wc -l "$OUT"/*.csv
