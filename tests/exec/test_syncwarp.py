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


QUIET = r"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry quiet(.param .u64 out, .param .u32 n)
{
    .reg .pred %p<3>;
    .reg .b32 %r<4>;
    .reg .b64 %rd<3>;
    mov.u32 %r1, %tid.x;
    ld.param.u32 %r2, [n];
    setp.ge.u32 %p1, %r1, %r2;
    @%p1 bra DONE;
    ld.param.u64 %rd1, [out];
    add.u32 %r3, %r1, 1;
    setp.eq.u32 %p2, %r3, 5;
    @%p2 bra STORE;
    bra.uni DONE;
STORE:
    st.global.u32 [%rd1], %r3;
    bar.warp.sync -1;
    bra.uni DONE;
DONE:
    add.u32 %r3, %r3, 2;
    ret;
}
"""


def test_quiet_exit_marks_the_code_that_only_runs_on_to_exit():
    """LinkedKernel.quiet_exit (a .sync op does not wait for lanes there: exec/ops.py): straight-line
    code through unconditional branches to the entry's ret, with no store, .sync op or barrier on
    the way; a conditional branch, a store or a bar.warp.sync makes the pc not quiet."""
    lk = sg.RawModule(code=QUIET).get_function("quiet").linked
    ops = [ins.opcode for ins in lk.instructions]
    quiet = dict(enumerate(lk.quiet_exit.tolist()))
    done = max(pc for pc, op in enumerate(ops) if op == "add")  # DONE: add, ret
    assert quiet[done] and quiet[done + 1]
    assert quiet[ops.index("bra", ops.index("setp", ops.index("setp") + 1) + 1) + 1]  # bra.uni DONE
    assert not quiet[ops.index("st")] and not quiet[ops.index("bar")]
    assert quiet[ops.index("bar") + 1]  # the bra.uni DONE after the barrier
    assert not quiet[0]  # the path from the top branches on %p1
    for pc, op in enumerate(ops):
        if op == "setp":
            assert not quiet[pc]
