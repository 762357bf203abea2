"""The L2's line units (memory/line_units.py, config l2_line_units): every warp's atomic request to
a line queues on that line's unit for its sector passes, one same-address step (1 / 1.343 ns) each,
and a store for one pass on each line it leaves partly written. 256 warps adding 32 lanes to one
word need 256 x 32 steps one after another; with the units off, only each warp's own lanes wait for
each other."""

import numpy as np
import pytest

import simgpu as sg
import simgpu.timing.config as timing_config
from simgpu.arch import get_preset

SRC = r"""
extern "C" __global__ void hammer(unsigned* c, int stride, int words)
{   // every lane adds to word (lane % words) * stride
    asm volatile("red.global.add.u32 [%0], 1;" :: "l"(c + (threadIdx.x % words) * stride) : "memory");
}
"""
WARPS = 256


def _cycles(stride: int, engine: str = "fast", words: int = 32) -> int:
    f = sg.RawModule(code=SRC).get_function("hammer")
    c = sg.zeros(32 * max(stride, 1), np.uint32)
    rep = f((WARPS // 8,), (256,), (c, np.int32(stride), np.int32(words)), engine=engine)
    assert int(c.get().sum()) == WARPS * 32
    return rep.timing.cycles


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_one_word_serialises_every_lane(engine):
    cfg = timing_config.default_config()
    step = get_preset("H200").sm_clock_mhz / 1000.0 / cfg.same_address_atomics_per_ns
    floor = WARPS * 32 * step
    cycles = _cycles(0, engine)
    assert floor <= cycles <= floor * 1.25 + 2000, (cycles, floor)


def test_distinct_sectors_go_side_by_side():
    """32 lanes on 32 lines (one word each, a line apart): one pass per line, lines on many units."""
    assert _cycles(32) < _cycles(0) / 4


def test_lines_apart_in_address_bit_7_or_9_share_a_unit():
    """Two words 128 or 512 B apart take as long as one word; 256 B or 1 KB apart half as long
    (benchmarks/microbench/l2_atomics spacing.py)."""
    one = _cycles(0)
    for stride in (32, 128):  # 128 B, 512 B
        assert _cycles(stride, words=2) >= 0.9 * one
    for stride in (64, 256):  # 256 B, 1 KB
        assert _cycles(stride, words=2) <= 0.65 * one


def test_without_units_one_word_runs_far_faster(timing_override):
    timing_override(l2_line_units=0)
    cfg = timing_config.default_config()
    step = get_preset("H200").sm_clock_mhz / 1000.0 / cfg.same_address_atomics_per_ns
    assert _cycles(0) < WARPS * 32 * step / 4


SCATTER = r"""
extern "C" __global__ void scatter(const int* perm, const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[perm[i]] = in[i];
}
"""


def _scatter_cycles(perm: np.ndarray, engine: str, pad: int = 0) -> int:
    f = sg.RawModule(code=SCATTER).get_function("scatter")
    n = len(perm)
    sg.zeros(pad + 1, np.float32)  # an allocation before `out` must not change the answer
    out = sg.zeros(n, np.float32)
    rep = f((n // 256,), (256,), (sg.asarray(perm), sg.asarray(np.ones(n, np.float32)), out, np.int32(n)),
            engine=engine)
    assert np.array_equal(out.get(), np.ones(n, np.float32))
    return rep.timing.cycles


def test_one_word_stores_queue_on_the_line_units():
    """A random permutation of 65,536 floats: every warp store leaves 32 lines partly written, a pass
    each on their units; the launch takes at least those passes spread over all units, and the same
    on both engines wherever the arrays lie."""
    cfg = timing_config.default_config()
    step = get_preset("H200").sm_clock_mhz / 1000.0 / cfg.same_address_atomics_per_ns
    perm = np.random.default_rng(0).permutation(1 << 16).astype(np.int32)
    fast = _scatter_cycles(perm, "fast")
    assert fast == _scatter_cycles(perm, "reference") == _scatter_cycles(perm, "fast", pad=999)
    assert fast >= (1 << 16) * step / cfg.l2_line_units
    assert _scatter_cycles(np.arange(1 << 16, dtype=np.int32), "fast") < fast / 2  # whole lines: no passes


def test_contiguous_line_groups_take_distinct_units():
    """Groups of lines (lines apart only in address bits 7 and 9) that follow each other take
    consecutive units: up to l2_line_units contiguous groups never share one, as a histogram's bins
    on the H200 (l2_atomics hist.py: 65,536 packed bins ran at 65.9 per ns, 49 units 65.8), where a
    multiplicative hash had put 64 groups on 25 units."""
    from simgpu.timing.replay import line_unit

    n = timing_config.default_config().l2_line_units
    base = (1 << 30) // 128 + 12_345
    lines = np.arange(base, base + 4 * n, dtype=np.int64)
    units = np.array([line_unit(x, np.int64(n)) for x in lines])
    groups = ((lines >> 3) << 1) | ((lines >> 1) & 1)
    for g in np.unique(groups):  # a group's lines share its unit
        assert len(set(units[groups == g])) == 1
    first = {int(g): int(u) for g, u in zip(groups, units)}
    assert len(set(first.values())) == n  # 4n lines = n groups on n units


def test_double_reds_onto_contiguous_bins_spread_over_the_units():
    """2M double-precision atomicAdds onto 4,096 contiguous bins (256 lines, 64 groups): about two
    groups a unit, as validation/typical7's red_double_bins (H200 56.7 us; 98.6 when a hash put four
    groups on the busiest unit)."""
    src = r'''extern "C" __global__ void rd(const int* bin, double* out, int n)
    { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) atomicAdd(&out[bin[i]], 1.0); }'''
    n = 1 << 21
    b = np.random.default_rng(7).integers(0, 4096, n, dtype=np.int32)
    out = sg.zeros(4096, np.float64)
    rep = sg.RawModule(code=src).get_function("rd")((n // 256,), (256,), (sg.asarray(b), out, np.int32(n)))
    np.testing.assert_array_equal(out.get(), np.bincount(b, minlength=4096))
    cfg = timing_config.default_config()
    step_ns = 1.0 / cfg.same_address_atomics_per_ns
    per_group = n / 64 * step_ns  # each group's passes, one after another on its unit
    assert 2 * per_group <= rep.timing.time_ns <= 2.6 * per_group, (rep.timing.time_ns, per_group)
