"""__syncwarp (bar.warp.sync): a warp-level sync, not a CTA barrier (it once decoded as barrier
number 0xFFFFFFFF and crashed the fast engine). Warp-synchronous code with it must run, also in a
branch that only some warps or lanes take."""

import numpy as np
import pytest

import simgpu as sg

SRC = r"""
extern "C" __global__ void warp_tree(const int* in, int* out)
{   // a shared-memory tree sum per warp, __syncwarp between the steps; only warp 1 of 4 does it
    __shared__ int s[128];
    int t = threadIdx.x, lane = t & 31;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    if ((t >> 5) == 1) {
        for (int o = 16; o > 0; o >>= 1) {
            int v = lane < o ? s[t + o] : 0;
            __syncwarp();
            if (lane < o) s[t] += v;
            __syncwarp();
        }
        if (lane < 16) {
            s[t] *= 2;
            __syncwarp(0x0000ffffu);
        }
        if (lane == 0) out[blockIdx.x] = s[t];
    }
}
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_syncwarp_in_warp_synchronous_code(engine):
    x = np.arange(4 * 128, dtype=np.int32)
    out = sg.zeros(4, dtype=np.int32)
    rep = sg.RawModule(code=SRC).get_function("warp_tree")((4,), (128,), (sg.asarray(x), out), engine=engine)
    want = 2 * x.reshape(4, 128)[:, 32:64].sum(1)
    np.testing.assert_array_equal(out.get(), want)
    assert rep.metrics["smsp__inst_executed_op_barrier.sum"] == 4 * 4  # only the __syncthreads
