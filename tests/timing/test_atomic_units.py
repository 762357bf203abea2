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
