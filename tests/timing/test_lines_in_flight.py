"""Each SM's L1-miss lines in flight, as the replay keeps them (replay._lines_in_flight /
_lines_sent), and the merge weight they give (timing/l2_merge.py, config l2_merge_inflight_half_lines):
against a brute-force count, and on a launch whose SMs share data with few or many lines in flight."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
import simgpu.timing.config as tc
from simgpu.timing.replay import _Q_BIN, _Q_BINS, _lines_in_flight, _lines_sent


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 2000), st.integers(0, 5000), st.integers(1, 40)),
                min_size=1, max_size=60))
def test_calendar_matches_a_brute_force_count(events):
    """Loads of SMs 0-3 issued at non-decreasing cycles, each with n lines back at t + delay: the
    count at each issue equals the lines still out, in bins of _Q_BIN cycles: a line counts through
    the bin it is back in, and one back in the bin it was sent in counts through the next."""
    num_sms = 4
    cal = np.zeros((num_sms, _Q_BINS), np.int64)
    tot = np.zeros(num_sms, np.int64)
    head = np.zeros(num_sms, np.int64)
    sent = []  # (sm, the last bin it counts in, lines)
    t = 0
    for sm, step, delay, n in events:
        t += step
        brute = sum(k for s, b, k in sent if s == sm and b >= t // _Q_BIN)
        assert _lines_in_flight(cal, tot, head, sm, t) == brute
        done = t + delay
        _lines_sent(cal, tot, head, sm, done, n)
        sent.append((sm, max(done // _Q_BIN, t // _Q_BIN + 1), n))


def test_an_idle_sm_past_the_horizon_has_nothing_in_flight():
    cal = np.zeros((1, _Q_BINS), np.int64)
    tot, head = np.zeros(1, np.int64), np.zeros(1, np.int64)
    _lines_sent(cal, tot, head, 0, 10 * _Q_BIN * _Q_BINS, 7)  # held inside the horizon
    assert _lines_in_flight(cal, tot, head, 0, 0) == 7
    assert _lines_in_flight(cal, tot, head, 0, 2 * _Q_BIN * _Q_BINS) == 0


PAIRS = r"""
extern "C" __global__ void block_pair(const float* buf, float* out) {
    // blocks 2m and 2m+1 (two SMs of a TPC, one dispatch round) read the same 2,048 sectors
    const float* r = buf + (size_t)(blockIdx.x >> 1) * 2048 * 8;
    float acc = 0.f;
#pragma unroll
    for (int i = 0; i < 8; ++i) acc += r[(i * 256 + threadIdx.x) * 8];
    out[blockIdx.x * 256 + threadIdx.x] = acc;
}
"""


def _reads_per_shared_sector(k: int) -> float:
    f = sg.RawModule(code=PAIRS).get_function("block_pair")
    ctas = 132 * k
    buf = sg.zeros(ctas // 2 * 2048 * 8, np.float32)
    out = sg.zeros(ctas * 256, np.float32)
    m = f((ctas,), (256,), (buf, out)).metrics
    return 2 * m["lts__t_sectors_srcunit_tex_op_read.sum"] / (ctas * 2048)


def test_merging_fades_with_lines_in_flight(monkeypatch):
    """With the weight, CTAs that share data merge less the more lines each SM has in flight (k CTAs
    per SM, 512 lines each: the H200 gave 1.05 / 1.25 reads per shared sector for k = 1 / 4,
    benchmarks/microbench/l2_order); without it every pair merges."""
    one, four = _reads_per_shared_sector(1), _reads_per_shared_sector(4)
    assert 1.0 < one < four < 1.5
    monkeypatch.setattr(tc, "_DEFAULT", dataclasses.replace(tc.default_config(), l2_merge_inflight_half_lines=0.0))
    assert _reads_per_shared_sector(4) == pytest.approx(1.0, abs=0.01)
