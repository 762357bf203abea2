"""Warp-level executions of ptxas's unrolled loops (simgpu/timing/sass_counts.py): lanes that leave
the loop at different trips make the SASS issue its instructions more often than the PTX."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.stats.trace import ExecutionTrace
from simgpu.timing.sass_counts import loop_trips

ROW_SUM = r"""
extern "C" __global__ void row_sums(const float* x, float* out, int n)
{
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    const float* r = x + (size_t)warp * n;
    float s = 0;
    for (int c = lane; c < n; c += 32) s += r[c];
    for (int o = 16; o; o >>= 1) s += __shfl_xor_sync(0xffffffff, s, o);
    if (lane == 0) out[warp] = s;
}
"""


def _trace(per_lane: list[list[int]], loop=(10, 13)) -> ExecutionTrace:
    """A trace of warps that each visit the loop pcs loop[0]..loop[1]-1 once, lane l for
    per_lane[w][l] iterations, between a pc before and one after the loop."""
    a, b = loop
    tr = ExecutionTrace()
    n = len(per_lane)
    tr.add_wave(0, np.arange(n), np.zeros(n, np.int64))
    for w, counts in enumerate(per_lane):
        c = np.asarray(counts)
        tr.add_step(a - 1, np.asarray([w]), np.asarray([0xFFFFFFFF], np.uint32))
        for it in range(int(c.max(initial=0))):
            mask = int(sum(1 << lane for lane in range(32) if c[lane] > it))
            for pc in range(a, b):
                tr.add_step(pc, np.asarray([w]), np.asarray([mask], np.uint32))
        tr.add_step(b, np.asarray([w]), np.asarray([0xFFFFFFFF], np.uint32))
    return tr


def _sass_trips(counts: list[int], factor: int = 4) -> int:
    """Brute force: the unrolled loop runs a trip while any lane has `factor` iterations left (those
    lanes take them), then a step of factor/2, factor/4, ..., 1 iterations for the lanes that have
    that many left, if any."""
    left = list(counts)
    trips = 0
    while any(x >= factor for x in left):
        left = [x - factor if x >= factor else x for x in left]
        trips += factor
    step = factor // 2
    while step:
        if any(x >= step for x in left):
            left = [x - step if x >= step else x for x in left]
            trips += step
        step //= 2
    assert not any(left)
    return trips


def test_lanes_one_group_short_take_the_remainder_steps():
    """8 lanes with 8 iterations, 24 with 7: the PTX issues the loop 8 times, the SASS 2 trips of 4
    (the second for the 8 lanes only) and the 2- and 1-iteration steps: 11."""
    instances, extra = loop_trips(_trace([[8] * 8 + [7] * 24]), [(10, 13)], 20, 4)
    assert instances.tolist() == [8] and extra.tolist() == [3]


def test_remainders_one_and_two_take_both_steps():
    """Lanes of 5 and 6 iterations: one trip of 4, then the 2-step (the 6s) and the 1-step (the 5s):
    7 where the PTX issues 6."""
    instances, extra = loop_trips(_trace([[5] * 16 + [6] * 16]), [(10, 13)], 20, 4)
    assert instances.tolist() == [6] and extra.tolist() == [1]


def test_equal_lanes_add_nothing():
    instances, extra = loop_trips(_trace([[9] * 32, [4] * 32]), [(10, 13)], 20, 4)
    assert instances.tolist() == [13] and extra.tolist() == [0]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.integers(0, 13), min_size=32, max_size=32), min_size=1, max_size=4))
def test_trips_match_a_lane_by_lane_walk(per_lane):
    instances, extra = loop_trips(_trace(per_lane), [(10, 13)], 20, 4)
    assert int(instances[0]) == sum(max(c) for c in per_lane)
    assert int(extra[0]) == sum(_sass_trips(c) - max(c) for c in per_lane)


def _row_sums(n: int, warps: int = 64):
    kernel = sg.RawModule(code=ROW_SUM).get_function("row_sums")
    x = np.random.default_rng(3).standard_normal(warps * n, dtype=np.float32)
    out = sg.zeros(warps, np.float32)
    report = kernel((warps // 8,), (256,), (sg.asarray(x), out, np.int32(n)))
    np.testing.assert_allclose(out.get(), x.reshape(warps, n).sum(1), rtol=1e-4)
    return report.metrics


def test_row_of_1000_floats_issues_47_loads_a_warp():
    """NVRTC peels n mod 4 iterations of each lane's 31 or 32 (lanes 8-31: 3, a 3-load prologue),
    then a 4-load main loop of 7 or 8 trips: 35 loads a warp in the PTX. ptxas unrolls that loop by
    4 more: 2 trips of 16 loads (the second for lanes 0-7) then steps of 8 and 4 loads: 3 + 44 = 47
    (as typical13's cross_entropy_rows on the H200: 47 a pass). Sectors do not change: lanes 0-7
    and 8-31 read different sectors of each 128 B line."""
    m = _row_sums(1000)
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 47 * 64
    assert m["smsp__sass_inst_executed_op_global_ld.sum"] == 47 * 64
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 64 * 1000 // 8


def test_row_of_1024_floats_is_unchanged():
    """Every lane runs 32 iterations (8 main-loop trips, 2 of the unrolled loop): 32 loads a warp
    both ways."""
    m = _row_sums(1024)
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 32 * 64
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 64 * 1024 // 8
