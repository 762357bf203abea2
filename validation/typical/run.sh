#!/usr/bin/env bash
# Device run: a suite folder (default: this one; validation/typical2 too) through `simgpu compare`
# (simulated, CuPy, ncu), plus the SASS that nvcc makes of its kernels.cu, into $OUT (default:
# results/ in the suite folder).   bash validation/typical/run.sh [SUITE_FOLDER [COMPARE OPTIONS...]]
# Options after the folder go to `simgpu compare` (e.g. --spec NAME ... to split a long suite over
# two device calls, each into its own $OUT). EXTRA_METRICS=a,b asks ncu for more metrics.
set -u
HERE=$(cd "${1:-$(dirname "$0")}" && pwd)
shift $(( $# > 0 ? 1 : 0 ))
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-$HERE/results}
mkdir -p "$OUT"
nvidia-smi -L > "$OUT/gpu.txt" 2>&1
nvcc -cubin -arch=sm_90 -O3 -o /tmp/typical.cubin "$HERE/kernels.cu" > "$OUT/build.txt" 2>&1 &&
    cuobjdump -sass /tmp/typical.cubin > "$OUT/sass.txt" 2>&1
export PYTHONPATH=$ROOT${PYTHONPATH:+:$PYTHONPATH} PYTHONUNBUFFERED=1
# which NVRTC and nvdisasm simgpu found here: the wheels, or a toolkit's (different PTX, different
# simulated counts: validation/typical23/README.md's note)
python3 -c "
from simgpu.frontend import nvrtc, sass
print('nvrtc', '.'.join(map(str, nvrtc.nvrtc_version())), nvrtc._library()._name)
print('nvdisasm', sass.find_nvdisasm())" > "$OUT/simgpu_env.txt" 2>&1
M=$(python3 -c "
from simgpu.crosscheck.ncu import DEFAULT_METRICS as M
extra = ['smsp__sass_inst_executed_op_ldgsts.sum', 'l1tex__t_requests_pipe_lsu_mem_global_op_ldgsts.sum',
         'l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum',
         'l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum',
         'l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum',
         'l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access.sum',
         'l1tex__t_sectors_pipe_lsu_mem_global_op_ldgsts_cache_access_lookup_hit.sum']
extra += [m for m in '${EXTRA_METRICS:-}'.split(',') if m]  # EXTRA_METRICS=a,b: more ncu metrics
print(','.join(M + extra))")
python3 -m simgpu.crosscheck.command --suite "$HERE/specs.py" --metrics "$M" --runs 10 --warmup 2 \
    --ncu-time-runs 3 --ncu-timeout 240 --json "$OUT/typical.json" --markdown "$OUT/typical.md" \
    --ncu-log "$OUT/ncu" -q "$@" > "$OUT/compare.txt" 2>&1
echo "compare rc $?"
tail -35 "$OUT/compare.txt"
