"""Near and far L2 hits (simgpu.timing.l2_sides) against what the H200 measured."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from simgpu.memory.topology import H200_GPCS, H200_L2_SIDE
from simgpu.timing.l2_sides import home_partition, line_latency

ANALYZE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "l2_partition" / "analyze.py"


def _analyze():
    spec = importlib.util.spec_from_file_location("l2_partition_analyze", ANALYZE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.skipif(not ANALYZE.exists(), reason="the l2_partition measurements are not in this checkout")
def test_home_partition_matches_the_h200_run():
    """Up to the per-2 MB-page constant (physical bits), home_partition gives every line's partition
    exactly as the first-touch run showed it, and the SM sides are the measured ones."""
    a = _analyze()
    base, nl, rounds = a.load()
    side, home = a.sides_and_homes(rounds, nl)
    assert side.tolist() == list(H200_L2_SIDE)
    lines = (base >> 7) + np.arange(nl, dtype=np.int64)
    known = home >= 0
    assert known.mean() > 0.95
    sim = np.array([home_partition(x) for x in lines])
    for page in np.unique(lines >> 14):
        m = known & ((lines >> 14) == page)
        flip = (sim[m] != home[m])
        assert flip.all() or not flip.any(), f"page {page:#x}: {flip.mean():.3f} of lines disagree"


def test_sides_are_whole_gpcs():
    for gpc in H200_GPCS:
        assert len({H200_L2_SIDE[s] for s in gpc}) == 1


def test_home_partition_splits_strided_lines_evenly():
    for stride in (1, 2, 32, 64, 4096):
        lines = np.arange(8192, dtype=np.int64) * stride + 77
        assert abs(np.mean([home_partition(x) for x in lines]) - 0.5) <= 0.02


NEAR, FAR, DNEAR, DFAR = 280, 515, 540, 770


def _run(loads, in_time=False):
    """Latencies of a sequence of one-line global loads, in issue order: loads = [(cycle, side,
    line, fetched from DRAM)] (in_time: the DRAM flag only says the launch read the line from
    DRAM; the first load in time fetches it)."""
    lines = np.array([x[2] for x in loads], np.int64)
    u, li = np.unique(lines, return_inverse=True)
    copy_at = np.full((len(u), 2), -1, np.int64)
    back = np.zeros(len(u), np.int64)
    dram_left = np.zeros(len(u), np.int64)
    for i, (_, _, _, dram) in enumerate(loads):
        if dram:
            dram_left[li[i]] = 1
    out = []
    for i, (t, side, line, dram) in enumerate(loads):
        fetch = -1 if in_time else (1 if dram else 0)
        out.append(int(line_latency(int(li[i]), home_partition(line), 1, t, side, copy_at, back, dram_left,
                                    NEAR, FAR, DNEAR, DFAR, fetch)))
    return out


def test_far_first_then_near():
    """An L2 hit on a line homed on the other side is far the first time that side loads it, near
    after; the home side is always near."""
    line = next(x for x in range(1000) if home_partition(x) == 0)
    assert _run([(0, 1, line, False), (1000, 1, line, False), (2000, 0, line, False)]) == [FAR, NEAR, NEAR]


def test_dram_fetch_by_home_then_hits_wait_for_it():
    line = next(x for x in range(1000) if home_partition(x) == 1)
    # fetched from DRAM by side 0 (far: homed on 1); a hit 100 cycles later waits for the data
    assert _run([(0, 0, line, True), (100, 1, line, False), (5000, 0, line, False)]) == [DFAR, DFAR - 100, NEAR]
    assert _run([(0, 1, line, True)]) == [DNEAR]


def test_near_copy_is_there_only_once_it_arrived():
    """A second load from the far side while the first one's far trip is on its way waits for the
    copy it brings, rather than overtaking it."""
    line = next(x for x in range(1000) if home_partition(x) == 0)
    assert _run([(0, 1, line, False), (100, 1, line, False), (FAR - 10, 1, line, False)]) == [FAR, FAR - 100, NEAR]


def test_dram_fetch_by_the_first_load_in_time():
    """With the fetch decided in time, the first load of a line the launch read from DRAM fetches it,
    whichever load the functional walk had fetch it; with the walk's choice, an earlier load is an
    L2 hit and the later, fetching one pays the DRAM trip."""
    line = next(x for x in range(1000) if home_partition(x) == 0)
    loads = [(0, 0, line, False), (100, 0, line, True)]
    assert _run(loads, in_time=True) == [DNEAR, DNEAR - 100]
    assert _run(loads, in_time=False) == [NEAR, DNEAR]


def test_side_copies_round_trip():
    """What a launch leaves (side_copies_after) is what the next warm launch starts from
    (side_copies_before): per line the union of the sides that held a copy, lines it did not touch
    kept, lines the state does not know absent (-1)."""
    from simgpu.timing.l2_sides import side_copies_after, side_copies_before
    line_of = np.array([40, 7, 99], np.int64)
    copy_at = np.array([[120, -1], [-1, -1], [300, 88]], np.int64)
    state = side_copies_after(line_of, copy_at, (np.array([5, 40], np.int64), np.array([2, 2], np.int8)))
    assert state[0].tolist() == [5, 40, 99] and state[1].tolist() == [2, 3, 3]
    start = side_copies_before(np.array([99, 40, 6, 5], np.int64), state)
    assert start.tolist() == [[0, 0], [0, 0], [-1, -1], [-1, 0]]
    assert (side_copies_before(line_of, None) == -1).all()


WALK = r'''
extern "C" __global__ void walk(const float* a, float* y, long long* st, int rows, int pitch)
{
    float s = 0.f;
    long long t0 = clock64();
#pragma unroll 1
    for (int r = 0; r < rows; ++r) s += a[(size_t)r * pitch + threadIdx.x];
    long long t1 = clock64();
    y[threadIdx.x] = s;
    if (threadIdx.x == 0) st[0] = t0, st[1] = t1;
}
'''


def test_a_warm_launch_finds_the_copies_the_launch_before_left(monkeypatch):
    """One warp walks 64 rows 4 KB apart (half the lines homed on the far partition) once cold and
    again warm: the warm walk's loads are all near, as on the H200 (308 cycles a trip, the
    loads_in_flight sweep; without the copies 403); a cold launch after it starts without."""
    import simgpu as sg
    import simgpu.timing.model as timing_model
    from simgpu.timing.config import default_config
    monkeypatch.setattr(timing_model, "RECORD_AUTO_LIMIT", 10**9)
    rows, pitch = 64, 1024
    k = sg.RawModule(code=WALK).get_function("walk")
    a, y, st = sg.asarray(np.ones(rows * pitch, np.float32)), sg.zeros(32, np.float32), sg.zeros(2, np.int64)

    def trip(warm):
        t = k((1,), (32,), (a, y, st, np.int32(rows), np.int32(pitch)), warm_caches=warm).timing.clock_reads()[0]
        return (t[1] - t[0]) / rows

    cold = trip(False)
    warm = trip(True)
    cold_again = trip(False)
    cfg = default_config()
    assert cold > cfg.lat_dram * 0.9 and abs(cold_again - cold) < 1
    assert cfg.lat_l2_near <= warm < cfg.lat_l2_near + 30  # near, not the near / far mean (~400)
