"""Each SM sends its L1-miss lines to L2 at most config l1_miss_lines_per_cycle a cycle
(benchmarks/microbench/l1_inflight), and a line joins or opens its L2 request when it leaves
(simgpu.timing.load_lines)."""

import numpy as np
import pytest

from simgpu.timing.load_lines import answer_opened, load_lines, merge_state

TRIP = 280
W_MIN = 13
LATS = (280, 515, 540, 770, 0)  # near, far, DRAM near, DRAM far, DRAM per extra sector
N_LINES = 256  # line indices; every line is homed on side 0, the SMs' side


class Loads:
    """Warp loads of L2-resident lines, all homed on side 0 (near hits), from SMs 0..3; SMs 0 and 1
    share merge domain 0, SMs 2 and 3 domain 1. Each load is one row, one group per line."""

    def __init__(self, lines_per_cycle: float):
        self.mg = merge_state(True, np.array([0, 0, 1, 1]), 4, W_MIN, np.zeros(N_LINES, np.int64), 1024,
                              N_LINES, 1, miss_lines_per_cycle=lines_per_cycle)
        self.copy_at = np.full((N_LINES, 2), -1, np.int64)
        self.back = np.zeros(N_LINES, np.int64)
        self.dram_left = np.zeros(N_LINES, np.int64)
        self.scratch = [np.zeros(64, np.int64) for _ in range(5)]

    def load(self, t: int, sm: int, lines) -> int:
        """One warp load at cycle t from `sm` missing the given line indices; returns its latency."""
        lines = np.asarray(lines, np.int64)
        n = len(lines)
        g_row = np.zeros(n, np.int64)
        home = np.zeros(n, np.int8)
        info = np.full(n, 1 | (1 << 4), np.int64)  # sector 0 missed and sent
        own, _, _, n_open, _, _ = load_lines(0, 0, t, sm, 0, int(self.mg.sm_dom[sm]), 0, g_row, lines, home, info,
                                             self.copy_at, self.back, self.dram_left, LATS, True, True, self.mg,
                                             *self.scratch, 0.0)
        answer_opened(self.mg, *self.scratch, n_open, t, t + own, TRIP)
        return int(own)

    @property
    def merged(self) -> int:
        return int(round(self.mg.merged_t.sum()))


@pytest.mark.parametrize("rate, n, latency", [(0.0, 32, 280), (1.0, 1, 280), (1.0, 32, 280 + 31),
                                              (0.5, 32, 280 + 62), (0.97, 32, 280 + 31)])
def test_the_last_line_leaves_n_minus_one_gaps_after_the_first(rate, n, latency):
    assert Loads(rate).load(100, 0, range(n)) == latency


def test_a_load_waits_behind_its_sms_earlier_misses_not_another_sms():
    q = Loads(1.0)
    q.load(0, 0, range(40))  # SM 0's queue is busy until cycle 40
    assert q.load(10, 0, [100]) == 280 + 30  # leaves at 40
    assert q.load(10, 2, [101]) == 280  # SM 2 has its own queue


@pytest.mark.parametrize("backlog, merged", [(0, 1), (12, 1), (13, 0), (40, 0)])
def test_a_line_merges_when_it_leaves_not_when_its_load_issues(backlog, merged):
    # SM 0 opens a request for line 200 at cycle 0 (an unloaded near hit: open W_MIN cycles); SM 1 of
    # the same domain issues the same load at 0 behind `backlog` lines of its own
    q = Loads(1.0)
    if backlog:
        q.load(0, 1, range(backlog))
    q.load(0, 0, [200])
    q.load(0, 1, [200])
    assert q.merged == merged


@pytest.mark.parametrize("w_hit_max, join_at, merged", [(0, 1500, 1), (90, 80, 1), (90, 100, 0)])
def test_an_l2_hit_request_stays_open_at_most_w_hit_max(w_hit_max, join_at, merged):
    """config l2_merge_window_hit_max_cycles: a hit request whose data is back 2,000 cycles after it
    opened (a loaded L2) stays open until 280 cycles before that, or at most w_hit_max."""
    q = Loads(0.0)
    q.mg = q.mg._replace(w_hit_max=np.int64(w_hit_max))
    scratch = q.scratch
    one = np.zeros(1, np.int64)
    info = np.full(1, 1 | (1 << 4), np.int64)
    _, _, _, n_open, _, _ = load_lines(0, 0, 0, 0, 0, 0, 0, one, one, np.zeros(1, np.int8), info, q.copy_at,
                                       q.back, q.dram_left, LATS, True, True, q.mg, *scratch, 0.0)
    answer_opened(q.mg, *scratch, n_open, 0, 2000, TRIP)
    q.load(join_at, 1, [0])  # SM 1, same merge domain
    assert q.merged == merged
