"""Device run (under ncu): global reductions on random keys, validation/typical12's scatter_red_f32
(2,097,152 lanes, 4,096 bins): how many L2 red sectors does a warp's RED cost when some of its lanes
repeat an address? Launches, each twice: float add, int add, float add with the keys of each warp
sorted. simgpu counts one pass per repeat of an address (2,042,907 sectors for these keys).

    ncu --metrics l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,lts__t_sectors_srcunit_tex_op_red.sum \
        --csv python red_keys.py > OUT.csv
"""

import cupy as cp
import numpy as np

SRC = r'''
extern "C" __global__ void red_f32(const float* v, const int* key, float* bins, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&bins[key[i]], v[i]); }
extern "C" __global__ void red_s32(const int* v, const int* key, int* bins, int n)
{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&bins[key[i]], v[i]); }
'''

n = 1 << 21
mod = cp.RawModule(code=SRC)
keys = np.random.default_rng(16).integers(0, 4096, n, dtype=np.int32)
v = cp.asarray(np.random.default_rng(15).integers(0, 8, n).astype(np.float32))
for k in (keys, np.sort(keys.reshape(-1, 32), axis=1).ravel()):  # random order, then sorted in each warp
    kd = cp.asarray(k)
    for _ in range(2):
        mod.get_function("red_f32")((n // 256,), (256,), (v, kd, cp.zeros(4096, cp.float32), cp.int32(n)))
        mod.get_function("red_s32")((n // 256,), (256,), (v.astype(cp.int32), kd, cp.zeros(4096, cp.int32),
                                                          cp.int32(n)))
cp.cuda.runtime.deviceSynchronize()
