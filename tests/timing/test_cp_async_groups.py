"""cp.async in the timing replay (timing/isa.py, replay.py): a copy is a global load that no
register waits for, and cp.async.wait_group N waits for all but the N newest committed groups."""

import numpy as np
import pytest

import simgpu as sg

SRC = r"""
template <int N>
__device__ void pipeline(const float* in, float* out)
{   // each trip: copy the next float, commit, wait (all but N groups), then use the one before
    __shared__ float buf[2][32];
    const int t = threadIdx.x;
    float acc = 0.f;
    for (int i = 0; i < 16; ++i) {
        unsigned dst = (unsigned)__cvta_generic_to_shared(&buf[i & 1][t]);
        asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" :: "r"(dst), "l"(in + i * 4096 + t));
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group %0;\n" :: "n"(N));
        __syncwarp();
        if (i > 0) acc += buf[(i - 1) & 1][t];
    }
    asm volatile("cp.async.wait_all;\n" ::);
    __syncwarp();
    out[t] = acc + buf[1][t];
}
extern "C" __global__ void wait0(const float* in, float* out) { pipeline<0>(in, out); }
extern "C" __global__ void wait1(const float* in, float* out) { pipeline<1>(in, out); }
"""


@pytest.fixture(scope="module")
def cycles():
    mod = sg.RawModule(code=SRC)
    x = np.arange(16 * 4096, dtype=np.float32)
    out = {}
    for name in ("wait0", "wait1"):
        o = sg.zeros(32, dtype=np.float32)
        rep = mod.get_function(name)((1,), (32,), (sg.asarray(x), o))
        t = np.arange(32)
        np.testing.assert_array_equal(o.get(), sum(x[i * 4096 + t] for i in range(16)))
        out[name] = rep.timing.cycles
        assert rep.metrics["smsp__sass_inst_executed_op_ldgsts.sum"] == 16
        assert rep.metrics["smsp__sass_inst_executed_op_global_ld.sum"] == 0
        assert rep.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] == 0
    return out


def test_waiting_for_all_but_the_newest_group_overlaps_the_copies(cycles):
    # wait_group 0 waits a whole memory round trip every trip; wait_group 1 lets one copy run on
    assert cycles["wait1"] < 0.75 * cycles["wait0"]
    assert cycles["wait0"] > 16 * 300  # 16 trips of at least an L2 round trip each
