"""The functional run's clock advances by a lone warp's cycles (timing.isa.clock_steps), so a clock64
spin of D cycles spins about D cycles in the replay, and both engines read the same clock."""
import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import TimingConfig
from simgpu.timing.isa import clock_steps

SPIN = r'''
extern "C" __global__ void spin(long long delay, int rounds, long long* out)
{
    long long total = 0;
    for (int r = 0; r < rounds; ++r) {
        long long t0 = clock64();
        while (clock64() - t0 < delay) { }
        total += clock64() - t0;
    }
    if (threadIdx.x == 0) out[blockIdx.x] = total;
}
'''


def _kernel():
    return sg.RawModule(code=SPIN).get_function("spin")


def test_a_spin_loops_steps_are_its_dependent_latencies():
    """The spin loop `mov %clock64; sub.s64; setp.lt.s64; @p bra`: each instruction feeds the next,
    so each costs its latency (integer ops lat_int, the setp lat_predicate_branch since a branch
    reads it, the back edge lat_branch_taken), not one."""
    rep = _kernel()((1,), (32,), (np.int64(0), np.int32(1), sg.zeros(1, np.int64)))
    lk, cfg = rep.linked, TimingConfig()
    steps = clock_steps(lk)
    texts = [ins.text for ins in lk.instructions]
    loop = next(i for i, t in enumerate(texts) if "%clock64" in t and texts[i + 1].startswith("sub.s64"))
    assert [texts[loop + j].split()[0] for j in range(4)] == ["mov.u64", "sub.s64", "setp.lt.s64", "@"]
    assert list(steps[loop:loop + 4]) == [cfg.lat_int, cfg.lat_int, cfg.lat_predicate_branch,
                                          cfg.lat_branch_taken]
    params = [i for i, t in enumerate(texts) if t.startswith("ld.param")]
    scalars = [i for i in params if ".u64" not in texts[i]]
    pointers = [i for i in params if ".u64" in texts[i]]
    assert scalars and all(steps[i] == 0 for i in scalars)  # folded into constant-bank operands
    assert pointers and all(steps[i] >= 1 for i in pointers)  # LDC.64 (config prologue_reads_issue)


@pytest.mark.parametrize("delay", [800, 3200])
def test_a_clock64_spin_lasts_about_its_delay_when_replayed(delay):
    """Ten spins of `delay` cycles on one warp: the replay's duration grows by about ten delays
    between a delay of 0 and `delay` (counting one per instruction, it grew by 4.75 delays)."""
    k = _kernel()
    base = k((1,), (32,), (np.int64(0), np.int32(10), sg.zeros(1, np.int64)))
    rep = k((1,), (32,), (np.int64(delay), np.int32(10), sg.zeros(1, np.int64)))
    grew = rep.metrics["gpc__cycles_elapsed.max"] - base.metrics["gpc__cycles_elapsed.max"]
    assert 0.95 * 10 * delay <= grew <= 1.1 * 10 * delay


def test_both_engines_read_the_same_clock():
    out = {}
    for engine in ("reference", "fast"):
        st = sg.zeros(4, np.int64)
        _kernel()((4,), (64,), (np.int64(300), np.int32(3), st), engine=engine)
        out[engine] = st.get()
    assert (out["reference"] == out["fast"]).all()
    assert (out["fast"] >= 3 * 300).all() and (out["fast"] < 3 * 300 + 3 * 40).all()
