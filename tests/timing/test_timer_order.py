"""clock64 stamps time the code between them: the block scheduler moves nothing across a timer read
(ptxas keeps CS2R in place), so loads between two stamps issue between them in the replay."""
import numpy as np
import pytest

import simgpu as sg
import simgpu.timing.model as timing_model

SRC = r'''
extern "C" __global__ void stamped(const float* a, float* out, long long* st)
{
    long long t0 = clock64();
    float x = a[threadIdx.x], y = a[threadIdx.x + 32], z = a[threadIdx.x + 64];
    long long t1 = clock64();
    float s = x + y + z;
    if (s == -1.f) out[0] = s;
    long long t2 = clock64();
    if (threadIdx.x == 0) st[0] = t0, st[1] = t1, st[2] = t2;
}
'''


def test_loads_and_their_use_stay_between_the_stamps(monkeypatch):
    monkeypatch.setattr(timing_model, "RECORD_AUTO_LIMIT", 10**9)
    rep = sg.RawModule(code=SRC).get_function("stamped")(
        (1,), (32,), (sg.asarray(np.ones(96, np.float32)), sg.zeros(1, np.float32), sg.zeros(3, np.int64)))
    rec, lk = rep.timing.record, rep.linked
    cycles = rep.timing.issue_cycle[: rec.warp_off[1]]
    texts = [lk.instructions[pc].text for pc in rec.pc[: rec.warp_off[1]]]
    stamps = [c for c, t in zip(cycles, texts) if "%clock64" in t]
    loads = [c for c, t in zip(cycles, texts) if t.startswith("ld.global")]
    sums = [c for c, t in zip(cycles, texts) if t.startswith("add.f32")]
    assert len(stamps) == 3 and len(loads) == 3 and len(sums) == 2
    assert stamps[0] < min(loads) and max(loads) < stamps[1] < min(sums) and max(sums) < stamps[2]
    assert stamps[2] - stamps[1] > 100  # the second interval waits for the loads' data


def test_clock_reads_are_each_warps_stamps_in_replay_cycles(monkeypatch):
    """TimingResult.clock_reads(): per warp its three timer reads, at the cycles the replay issued
    them (the stamps the kernel stored are the functional run's clock: a lone warp's cycles with no
    wait for memory, timing.isa.clock_steps)."""
    monkeypatch.setattr(timing_model, "RECORD_AUTO_LIMIT", 10**9)
    st = sg.zeros(3, np.int64)
    rep = sg.RawModule(code=SRC).get_function("stamped")(
        (4,), (32,), (sg.asarray(np.ones(96, np.float32)), sg.zeros(1, np.float32), st))
    reads = rep.timing.clock_reads()
    rec = rep.timing.record
    assert len(reads) == 4 and all(len(t) == 3 for t in reads)
    for w, t in enumerate(reads):
        assert rec.warp_start[w] <= t[0] < t[1] < t[2] <= rec.warp_end[w]
        assert t[2] - t[1] > 250  # the loads' data from the L2 or the DRAM
    functional = st.get()
    assert functional[2] - functional[1] < 100  # no wait for the loads' data in the functional clock


def test_clock_reads_need_the_record(monkeypatch):
    monkeypatch.setattr(timing_model, "RECORD_AUTO_LIMIT", 0)
    rep = sg.RawModule(code=SRC).get_function("stamped")(
        (1,), (32,), (sg.asarray(np.ones(96, np.float32)), sg.zeros(1, np.float32), sg.zeros(3, np.int64)))
    with pytest.raises(ValueError, match="record=True"):
        rep.timing.clock_reads()
