"""What a branch costs a warp in the replay: lat_branch when it falls through, lat_branch_taken when
it goes elsewhere (a loop's back edge), lat_predicate_branch from the predicate's producer to the
branch, and convergence_barrier_cycles once a region (ptxas's BSSY / BSYNC). One warp on a
dependent chain, so every cycle a branch adds shows in the kernel's duration."""

from dataclasses import replace

import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import TimingConfig, overridden
from simgpu.timing.isa import K_ALU, build_static, scheduled_blocks

# one warp, `n` trips of a loop NVVM marks nounroll (so ptxas, and the model, keep one copy): each
# trip a dependent FFMA chain, then the counter's setp and the back edge
LOOP = r'''
extern "C" __global__ void loop(float* io, int n)
{
    float v = io[threadIdx.x];
    #pragma unroll 1
    for (int s = 0; s < n; ++s) { v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; }
    io[threadIdx.x] = v;
}
'''
# a lane-strided loop before a barrier: every warp enters the BSSY / BSYNC region once
STRIDED = r'''
extern "C" __global__ void strided(const float* x, float* y, int n)
{
    __shared__ float sm[256];
    for (int c = threadIdx.x; c < n; c += blockDim.x) sm[c & 255] = x[c];
    __syncthreads();
    y[threadIdx.x] = sm[threadIdx.x & 255];
}
'''


def _cycles(src: str, name: str, args, block: int = 32, **config) -> int:
    with overridden(**config):
        rep = sg.RawModule(code=src).get_function(name)((1,), (block,), args)
    return int(rep.metrics["gpc__cycles_elapsed.max"])


def _loop_cycles(n: int, **config) -> int:
    io = sg.asarray(np.ones(32, np.float32))
    return _cycles(LOOP, "loop", (io, np.int32(n)), **config)


@pytest.mark.parametrize("n", [9, 40])
def test_each_taken_back_edge_costs_lat_branch_taken(n):
    """n trips take the back edge n - 1 times; nothing else in the loop waits on it."""
    grew = _loop_cycles(n, lat_branch_taken=34) - _loop_cycles(n, lat_branch_taken=24)
    assert grew == 10 * (n - 1)


def test_the_loop_exit_falls_through_at_lat_branch():
    """Raising lat_branch moves only the branches that fall through: the loop's exit once, and
    the guard `n < 1` before the loop once."""
    grew = _loop_cycles(20, lat_branch=15) - _loop_cycles(20, lat_branch=5)
    assert 10 <= grew <= 20


def test_a_predicate_a_branch_reads_takes_lat_predicate_branch():
    lk = sg.RawModule(code=LOOP).linked("loop")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    texts = [ins.text for ins in lk.instructions]
    setps = [pc for pc, t in enumerate(texts) if t.startswith("setp")]
    assert setps and all(st.kind[pc] == K_ALU and st.lat[pc] == cfg.lat_predicate_branch for pc in setps)
    st0 = build_static(lk, replace(cfg, lat_predicate_branch=0))  # off: the ALU latency
    assert all(st0.lat[pc] == cfg.lat_int for pc in setps)


def test_a_predicate_read_only_by_a_select_keeps_the_alu_latency():
    src = r'''extern "C" __global__ void sel(const float* x, float* y)
    { float a = x[threadIdx.x]; y[threadIdx.x] = a > 0.5f ? a * 3.f : a; }'''
    lk = sg.RawModule(code=src).linked("sel")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    setps = [pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "setp"]
    assert setps and all(st.lat[pc] == cfg.lat_fp32 for pc in setps)


def test_a_convergence_region_holds_the_warp_once():
    """The strided loop's region: its entry pc carries convergence_barrier_cycles in the static
    table, and one warp's duration grows by exactly the change (it enters once)."""
    lk = sg.RawModule(code=STRIDED).linked("strided")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    scheduled_blocks(lk, st, cfg)
    assert sorted(int(d) for d in st.delay if d) == [cfg.convergence_barrier_cycles]
    x = sg.asarray(np.arange(300, dtype=np.float32))

    def cycles(d):
        return _cycles(STRIDED, "strided", (x, sg.zeros(32, np.float32), np.int32(300)),
                       convergence_barrier_cycles=d)

    assert cycles(40) - cycles(15) == 25
    assert cycles(15) - cycles(0) == 15
