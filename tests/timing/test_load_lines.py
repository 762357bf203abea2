"""A global load's L1-miss lines at issue (simgpu.timing.load_lines): the merge window is the opening
load's own time in flight minus one SM -> L2 -> SM trip, never shorter than the least window."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from simgpu.timing.l2_sides import home_partition
from simgpu.timing.load_lines import answer_opened, load_lines, merge_state

TRIP = 280  # lat_l2_near
W_MIN = 13  # least window
LATS = (280, 515, 540, 770, 0)  # near, far, DRAM near, DRAM far, DRAM per extra sector


class Lines:
    """One line, loads issued one after another (each its own row with one group), each from an SM of
    its own (load i from SM i) in the domain it names."""

    def __init__(self, dram: bool, together: bool = False, n_loads: int = 8, pend_short: bool = False):
        self.line = next(x for x in range(1000) if home_partition(x) == 0)
        self.mg = merge_state(True, np.arange(n_loads) % 4, 4, W_MIN, np.array([15 if dram else 0], np.int64), 16, 1,
                              1, together=together, pend_short=pend_short)
        self.g_row = np.arange(n_loads, dtype=np.int64)
        self.g_li = np.zeros(n_loads, np.int64)
        self.dram = dram
        self.copy_at = np.full((1, 2), -1, np.int64)
        self.back = np.zeros(1, np.int64)
        self.dram_left = np.array([15 if dram else 0], np.int64)  # the launch read the line from DRAM
        self.scratch = [np.zeros(64, np.int64) for _ in range(5)]
        self.row = 0

    def load(self, t: int, dom: int, done: int | None = None):
        """Issue the next load at cycle t from domain dom; its data is back at `done` (as the replay
        would compute it; default t + its line latency). Returns load_lines' result."""
        home = np.full(len(self.g_row), home_partition(self.line), np.int8)
        info = np.full(len(self.g_row), 1 | (1 << 4), np.int64)  # sector 0 missed and sent
        sm = self.row
        own, jret, sent_any, n_open, _, _ = load_lines(self.row, self.row, t, sm, 0, dom, 0, self.g_row, self.g_li,
                                                       home, info, self.copy_at, self.back, self.dram_left, LATS,
                                                       True, True, self.mg, *self.scratch, 0.0)  # DRAM fetch in time
        end = done if done is not None else t + own
        answer_opened(self.mg, *self.scratch, n_open, t, end, TRIP)
        self.row += 1
        return own, jret, sent_any, n_open

    @property
    def merged(self) -> int:
        return int(round(self.mg.merged_t.sum()))

    @property
    def pending(self) -> int:
        return int(self.mg.pend.sum())


@pytest.mark.parametrize("gap, merged", [(0, 1), (719, 1), (720, 0), (900, 0)])
def test_dram_fetch_window_is_its_time_in_flight(gap, merged):
    # the fetch is back at 1000 (queueing included): joiners until 1000 - TRIP
    ln = Lines(dram=True)
    ln.load(0, dom=2, done=1000)
    ln.load(gap, dom=2)
    assert ln.merged == merged


@pytest.mark.parametrize("done, gap, merged", [(280, 12, 1), (280, 13, 0), (400, 119, 1), (400, 120, 0)])
def test_hit_window_grows_with_the_queueing(done, gap, merged):
    # an unloaded near hit merges only within the least window; 120 cycles of queueing add 120
    ln = Lines(dram=False)
    ln.load(0, dom=1, done=done)
    ln.load(gap, dom=1)
    assert ln.merged == merged


def test_other_domain_does_not_join():
    ln = Lines(dram=True)
    ln.load(0, dom=1, done=1000)
    ln.load(5, dom=2)
    assert ln.merged == 0


def test_cap_then_a_new_request():
    ln = Lines(dram=False)
    for _ in range(5):
        ln.load(0, dom=3, done=600)
    assert ln.merged == 3  # four SMs per request: the fifth opens a second one


@pytest.mark.parametrize("together", [False, True])
def test_joined_line_released_with_its_request(together):
    ln = Lines(dram=True, together=together)
    ln.load(0, dom=2, done=1000)
    own, jret, sent_any, n_open = ln.load(100, dom=2)
    assert n_open == 0 and ln.merged == 1
    if together:  # answered with the leader's data, no latency of its own
        assert (own, jret, sent_any) == (-1, 1000, False)
    else:  # its own near latency, waiting for the fetch in flight
        assert jret == -1 and sent_any and own == LATS[2] - 100  # the near DRAM fetch is back at 540


@pytest.mark.parametrize("gap, pending", [(5, 1), (719, 1), (720, 0)])
def test_lookup_before_the_fetch_arrives_is_pending(gap, pending):
    # another domain asks while domain 1's fetch (back at 1000) has not reached the L2 (1000 - TRIP)
    ln = Lines(dram=True)
    ln.load(0, dom=1, done=1000)
    ln.load(gap, dom=2)
    assert ln.merged == 0 and ln.pending == pending


@pytest.mark.parametrize("pend_short, gap, merged", [(False, 12, 1), (False, 600, 1), (True, 12, 1), (True, 13, 0)])
def test_request_waiting_on_another_domains_fetch(pend_short, gap, merged):
    # domain 1 fetches (back at 1000); domain 2's request at 5 waits for that fetch, so it is back at
    # 1000 too: open to domain 2's joiners until 1000 - TRIP, or (config l2_merge_pending_window_hit,
    # benchmarks/microbench/l2_split) only the least window, as an L2 hit's
    ln = Lines(dram=True, pend_short=pend_short)
    ln.load(0, dom=1, done=1000)
    ln.load(5, dom=2, done=1000)
    ln.load(5 + gap, dom=2)
    assert ln.merged == merged


def test_hit_lookups_are_never_pending():
    ln = Lines(dram=False)
    ln.load(0, dom=1, done=300)
    ln.load(1, dom=2)
    assert ln.pending == 0


L2_GROUP = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "l2_group"


@pytest.mark.skipif(not (L2_GROUP / "results").exists(), reason="the l2_group measurements are not in this checkout")
@pytest.mark.parametrize("k", [2, 4, 8])
def test_cold_merging_matches_the_h200(k):
    """K SMs of one GPC reading a cold sector, member j j*d cycles late (benchmarks/microbench/l2_group,
    H200): the rule's requests are within one of the measured copies at every d, under the light and
    medium loads (model.py gives the fetch no queueing; under the burst the H200's window is longer,
    which the replay's queues add)."""
    analyze = _module(L2_GROUP / "analyze.py")
    model = _module(L2_GROUP / "model.py")
    for tag in ("1_32", "1_128"):
        for d, measured in analyze.load(tag, k, "cold"):
            assert abs(model.copies(k, d, True) - measured) <= 1.0, (tag, k, d, measured)


def _module(path):
    spec = importlib.util.spec_from_file_location(path.stem + "_l2_group", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
