"""Global loads' L1 hits walked again after the replay (timing/l1_order.py): the same L1 walked row
by row in runs, in issue order or in the functional order on the replay's SMs; where nothing is
evicted between uses the order cannot matter, where the lines overflow the L1 it decides what is
still there."""

import numpy as np
import pytest
from chunk_kernel import THREADS, ChunkSum, lru_l1
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.timing import default_config, overridden
from simgpu.timing.l1_order import (
    POLICY_BYPASS,
    POLICY_LAST_USE,
    POLICY_PLAIN,
    own_run_waits,
    run_order,
    timed_l1_hits,
)

L1_HIT_RATE = "l1tex__t_sector_hit_rate.pct"
LD_HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
L2_READ = "lts__t_sectors_srcunit_tex_op_read.sum"
MOVED = "simgpu__l1_hit_sectors_moved_by_timed_l1.sum"


def _walk(loads, issue, warp_sm, *, sets=1, ways=4, policy=None, stores=None):
    """loads: per memory row (all of pc 0) a list of (line, sectors asked, sectors the functional walk
    missed); row i is issued at issue[i] by warp warp_sm[i][0] on SM warp_sm[i][1]; stores: per row a
    list of (line, sectors written). Returns the L1Counts."""
    n = len(loads)
    off = np.zeros(n + 1, np.int64)
    lines, infos = [], []
    for i, groups in enumerate(loads):
        off[i + 1] = off[i] + len(groups)
        for line, asked, missed in groups:
            lines.append(line)
            infos.append(missed | asked << 12)
    s_off = np.zeros(n + 1, np.int64)
    s_lines, s_infos = [], []
    for i, groups in enumerate(stores or [[] for _ in range(n)]):
        s_off[i + 1] = s_off[i] + len(groups)
        for line, mask in groups:
            s_lines.append(line)
            s_infos.append(mask)
    row_warp = np.array([w for w, _ in warp_sm], np.int64)
    sm_of_warp = np.zeros(max(row_warp) + 1, np.int64)
    for w, sm in warp_sm:
        sm_of_warp[w] = sm
    return timed_l1_hits(np.asarray(issue, np.int64), np.arange(n), np.zeros(n, np.int64), row_warp, sm_of_warp,
                         np.array([POLICY_PLAIN if policy is None else policy], np.int64),
                         (off, np.array(lines, np.int64), np.array(infos, np.uint16)),
                         (s_off, np.array(s_lines, np.int64), np.array(s_infos, np.uint16)),
                         num_sms=int(sm_of_warp.max()) + 1, sets=sets, ways=ways, heap_lines=np.zeros(0, np.int64))


def _two_warps_two_passes(issue):
    """Two warps of one SM each read their own 4 lines (all 4 sectors) twice, through a 4-way L1 of
    one set; in the lock-step order the functional walk missed everything."""
    rows, who = [], []
    for w in range(2):
        for _ in range(2):
            for k in range(4):
                rows.append([(4 * w + k, 15, 15)])
                who.append((w, 0))
    return _walk(rows, issue, who)


def test_lock_step_order_loses_every_reread_issue_order_keeps_them():
    # rows in the order warp, pass, line (8w + 4p + k); lock step issues both warps' first passes
    # (8 lines) before either's second: LRU has evicted them all
    lock_step = [8 * p + 4 * w + k for w in range(2) for p in range(2) for k in range(4)]
    c = _two_warps_two_passes(lock_step)
    assert c.functional_hits[0] == 0 and c.timed_hits[0] == 0
    # one warp after the other: each second pass finds its 4 lines, 16 sectors a warp
    c = _two_warps_two_passes(list(range(16)))
    assert c.timed_hits[0] == 32 and c.hit_delta()[0] == 32


def test_each_sm_has_its_own_l1():
    # the same line read by warps on two SMs misses on each; a third read on the first SM hits
    c = _walk([[(7, 15, 15)], [(7, 15, 15)], [(7, 3, 0)]], [0, 1, 2], [(0, 0), (1, 1), (0, 0)])
    assert c.functional_hits[0] == 2 and c.timed_hits[0] == 2


def test_a_store_makes_its_sectors_valid_for_a_later_load():
    c = _walk([[], [(5, 15, 15)]], [0, 1], [(0, 0), (0, 0)], stores=[[(5, 0b0110)], []])
    assert c.timed_hits[0] == 2
    c = _walk([[], [(5, 15, 15)]], [1, 0], [(0, 0), (0, 0)], stores=[[(5, 0b0110)], []])
    assert c.timed_hits[0] == 0  # the store came after


def test_last_use_drops_and_bypass_never_hits():
    rows = [[(3, 15, 15)], [(3, 15, 0)], [(3, 15, 15)]]
    order = [0, 1, 2]
    warps = [(0, 0)] * 3
    plain = _walk(rows, order, warps)
    assert plain.timed_hits[0] == 8  # sectors: miss 4, hit 4, hit 4
    lu = _walk(rows, order, warps, policy=POLICY_LAST_USE)
    assert lu.timed_hits[0] == 0  # .lu allocates nothing: nothing to hit, ever
    by = _walk(rows, order, warps, policy=POLICY_BYPASS)
    assert by.timed_hits[0] == 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 7), st.integers(1, 15)), min_size=1, max_size=40),
       st.randoms(use_true_random=False))
def test_without_evictions_the_order_does_not_matter(accesses, rnd):
    """At most 8 lines in 8 ways of one set: nothing is evicted, so in any issue order every
    (SM, line, sector) misses once and hits on every later touch."""
    rows = [[(line, asked, asked)] for _, line, asked in accesses]
    warps = [(i, sm) for i, (sm, _, _) in enumerate(accesses)]
    issue = list(range(len(rows)))
    rnd.shuffle(issue)
    c = _walk(rows, issue, warps, ways=8)
    touches = sum(bin(a).count("1") for _, _, a in accesses)
    first = len({(sm, line, b) for sm, line, a in accesses for b in range(4) if a >> b & 1})
    assert c.timed_hits[0] == touches - first


REREAD = r"""
extern "C" __global__ void reread_rows(const float* x, float* out, int row_floats) {
    int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32, lane = threadIdx.x % 32;
    const float* row = x + (size_t)warp * row_floats;
    float s = 0.f;
    for (int pass = 0; pass < 2; ++pass)
        for (int i = lane; i < row_floats; i += 32) s += row[i];
    if (lane == 0) out[warp] = s;
}
"""


def test_rows_read_twice_past_the_l1_keep_hits_in_issue_order():
    """Each warp reads its own 4 KB row twice; 8 CTAs of 8 warps an SM put 256 KB between a line's
    two reads, more than the 216 KB L1. Walked in step (the functional engines' order) LRU has
    evicted nearly every line before its second read (only sets the SM's rows fill below their
    ways keep theirs); in issue order the warps drift apart and more second reads hit. The walk
    moves sectors from misses to hits and no line is shared between SMs, so the L2 reads drop by
    exactly the sectors that moved."""
    kernel = sg.RawModule(code=REREAD).get_function("reread_rows")
    warps = 132 * 8 * 8
    x = sg.asarray(np.ones(warps * 1024, np.float32))

    def run():
        out = sg.zeros(warps, np.float32)
        rep = kernel((warps // 8,), (256,), (x, out, np.int32(1024)))
        assert np.all(out.get() == 64.0)  # lane 0: 32 of each pass's 1,024 ones, twice
        return rep.metrics

    with overridden(l1_loads_in_runs=False), lru_l1():  # the functional walk's hits
        off = run()
    with overridden(l1_loads_in_issue_order=True) as cfg, lru_l1():
        assert cfg.l1_loads_in_issue_order
        on = run()
    assert not default_config().l1_loads_in_issue_order
    assert MOVED not in off
    assert off[LD_HIT] < 0.05 * off["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
    assert on[MOVED] > 0 and on[LD_HIT] == off[LD_HIT] + on[MOVED]
    assert on[L1_HIT_RATE] <= 50.0  # at most the whole second pass
    assert on[L2_READ] == off[L2_READ] - on[MOVED]


def test_overriding_a_field_that_does_not_exist_is_an_error():
    with pytest.raises(TypeError, match="l1_loads_in_issue_orders"):
        with overridden(l1_loads_in_issue_orders=True):
            pass


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_the_trace_keeps_the_loads_hit_groups_only_for_the_timed_walk(engine):
    """The in-time L2 merging reads a load's (warp, line) groups with an L1 miss; the groups that
    hit are recorded only when the timed L1 walk will read them (the switch on), and the misses
    are the same either way."""
    kernel = sg.RawModule(code=REREAD).get_function("reread_rows")
    x = sg.asarray(np.ones(16 * 1024, np.float32))

    def groups():
        rep = kernel((2,), (256,), (x, sg.zeros(16, np.float32), np.int32(1024)), trace=True, engine=engine)
        loads = [ev for ev in rep.trace.memory if ev.space == "global" and ev.op == "ld"]
        return [(ev.step, w, line, info) for ev in loads
                for w, line, info in zip(ev.ld_warp.tolist(), ev.ld_line.tolist(), ev.ld_info.tolist())]

    with overridden(l1_loads_in_runs=False):
        off = groups()
    with overridden(l1_loads_in_issue_order=True):
        on = groups()
    hits = [g for g in on if g[3] & 15 == 0]
    assert off and all(g[3] & 15 for g in off)
    assert len(hits) >= len(off)  # the second pass hits: one row of 4 KB per warp fits the L1
    assert [g for g in on if g[3] & 15] == off


GROUPS = r"""
extern "C" __global__ void group_table(const float* table, float* out, int spin) {
    // CTA b reads 4 KB of the table, group b % 4 (128 sectors), and spins longer the higher its group
    int g = blockIdx.x & 3;
    float s = 0.0f;
    for (int r = 0; r < 4; ++r) s += table[(g * 4 + r) * 256 + threadIdx.x];
    for (int k = 0; k < g * spin; ++k) s = s * 0.999f + 1.0f;
    out[blockIdx.x * 256 + threadIdx.x] = s;
}
"""


def test_replay_sms_decide_which_ctas_share_an_l1():
    """Past the first wave the replay starts a CTA on the SM where a slot frees first (as the H200
    does), the functional engines on the same SM as the CTA one wave earlier. With 132 SMs and CTA b
    reading table group b % 4, the functional walk gives each SM one group: 128 table sectors miss
    per SM. Walked on the replay's SMs (l1_loads_on_replay_sms), an SM misses 128 sectors for each
    group it ran, which the replay's own CTA placement (timeline cta_sm) says exactly; the table
    (16 KB) never leaves an L1. The walk is the default for launches of more than one wave."""
    kernel = sg.RawModule(code=GROUPS).get_function("group_table")
    ctas = 132 * 8 * 4  # four waves of 8 CTAs an SM
    table = sg.asarray(np.ones(16 * 256, np.float32))

    def run():
        return kernel((ctas,), (256,), (table, sg.zeros(ctas * 256, np.float32), np.int32(40)))

    with overridden(l1_loads_on_replay_sms=False, l1_loads_in_runs=False):
        off = run()
    with overridden(l1_loads_in_runs=False, l1_walk_retime_min_share=1.0):
        on = run()  # no second replay: its timeline is the one the walk's SMs came from
    runs = run()  # the default: in runs, also on the replay's SMs; the table never leaves an L1,
    assert runs.metrics[LD_HIT] == on.metrics[LD_HIT]  # so the order cannot matter
    assert default_config().l1_loads_on_replay_sms and default_config().l1_loads_in_runs
    sectors = off.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
    assert sectors == ctas * 8 * 4 * 4  # 8 warps, 4 loads, 4 sectors each
    assert sectors - off.metrics[LD_HIT] == 132 * 128
    cta_sm = np.asarray(on.timing.timeline["cta_sm"])
    groups_per_sm = sum(len(set(np.flatnonzero(cta_sm == sm) % 4)) for sm in range(132))
    assert groups_per_sm > 132  # the replay mixes the groups
    assert sectors - on.metrics[LD_HIT] == 128 * groups_per_sm
    assert on.metrics[MOVED] == on.metrics[LD_HIT] - off.metrics[LD_HIT]


def test_the_replay_uses_the_config_the_launch_was_prepared_under():
    """A launch records the loads' hit groups for the config in force when it is prepared; a
    stepper started inside an `overridden` block and run to the end outside it replays under the
    same config, so its counters are those of a launch run wholly inside the block."""
    from simgpu.core import stepper

    kernel = sg.RawModule(code=GROUPS).get_function("group_table")
    ctas = 132 * 8 * 2  # two waves: the default walks them
    table = sg.asarray(np.ones(16 * 256, np.float32))

    def args():
        return (table, sg.zeros(ctas * 256, np.float32), np.int32(40))

    with overridden(l1_loads_on_replay_sms=False, l1_loads_in_runs=False):
        inside = kernel((ctas,), (256,), args())
        s = stepper.start(kernel, (ctas,), (256,), args(), trace=False)
    late = s.run()
    walked = kernel((ctas,), (256,), args())
    assert MOVED not in inside.metrics and MOVED not in late.metrics
    assert late.metrics[LD_HIT] == inside.metrics[LD_HIT]
    assert walked.metrics[LD_HIT] != inside.metrics[LD_HIT]  # the walk moves hits here


def test_walking_a_trace_recorded_without_the_hit_groups_is_an_error():
    """simulate_timing called with a config that walks the L1 hits, on a trace whose launch did not
    record the hit groups, would count every hit as gone; it says so instead."""
    from simgpu.timing.model import simulate_timing

    kernel = sg.RawModule(code=GROUPS).get_function("group_table")
    ctas = 132 * 8 * 2
    table = sg.asarray(np.ones(16 * 256, np.float32))
    with overridden(l1_loads_on_replay_sms=False, l1_loads_in_runs=False):
        rep = kernel((ctas,), (256,), (table, sg.zeros(ctas * 256, np.float32), np.int32(0)), trace=True)
    assert not rep.trace.load_hit_groups
    with pytest.raises(ValueError, match="group_table.*without the loads' hit groups"):
        simulate_timing(rep.linked, rep.trace, sg.current_gpu(), grid=rep.grid, block=rep.block,
                        ctas_per_sm=rep.ctas_per_sm, registers_per_thread=rep.registers_per_thread,
                        l1_geometry=(256, 4, np.zeros(1, np.int64), 1))


def test_run_order_keeps_a_warps_run_together_and_the_runs_in_step():
    """Two warps, each: two loads, a wait on the first load, one more load (entries 0-3 and 4-7,
    rows at the loads). The walk key groups each warp's rows between waits (its run), orders the
    runs by the functional step of their first row and, inside a step, by issue cycle. Warp 1's
    first run issues after warp 0's second (cycles 100-101 against 50-51): in issue order warp 0's
    second run would come first, in step order (lock step) the rows would alternate."""
    warp_off, row_step = np.array([0, 4, 8]), np.array([0, 1, 3, 0, 1, 3])
    row_entry = np.array([0, 1, 3, 4, 5, 7])
    e_issue = np.array([0, 1, 50, 51, 100, 101, 160, 161])
    waited = np.array([0, 0, 1, 0, 0, 0, 1, 0], np.int8)
    key = run_order(warp_off, row_step, e_issue, waited, row_entry)
    assert list(row_entry[np.argsort(key[row_entry], kind="stable")]) == [0, 1, 4, 5, 3, 7]
    # no wait at all: each warp one run from step 0, warp by warp in issue order
    key = run_order(warp_off, row_step, e_issue, np.zeros(8, np.int8), row_entry)
    assert list(row_entry[np.argsort(key[row_entry], kind="stable")]) == [0, 1, 3, 4, 5, 7]
    # a wait before every row: each run one row, so the order is the step order (ties: issue)
    key = run_order(warp_off, row_step, e_issue, np.ones(8, np.int8), row_entry)
    assert list(row_entry[np.argsort(key[row_entry], kind="stable")]) == [0, 4, 1, 5, 3, 7]


def test_only_waits_on_the_runs_own_loads_end_a_run():
    """pc 0-1 load r1, r2; pc 2 reads r1; pc 3 loads r3; pc 4 reads r2; pc 5 is a barrier; pc 6
    reads r3; pc 7 overwrites r3 with an add; pc 8 reads r3. Warp 0 runs pc 0-8 and waits before
    pc 2, 4, 5, 6 and 8. pc 2 waits on r1, loaded in its run: the run ends. pc 4 waits on r2,
    loaded before that run began (a software pipeline): it goes on. The barrier always ends one.
    pc 6 waits on r3, loaded before the barrier: it goes on. pc 8 waits on the add's r3, no load's.
    Warp 1 runs pc 6 and 2 only, waiting at both: warp 0's loads are not its own, so neither ends
    a run (its first entry begins one in run_order whatever e_waited says)."""
    n_regs = 4
    src = np.full((9, 2), -1)
    dst = np.full((9, 2), -1)
    for pc, r in ((0, 1), (1, 2), (3, 3), (7, 3)):
        dst[pc, 0] = r
    for pc, r in ((2, 1), (4, 2), (6, 3), (8, 3)):
        src[pc, 0] = r
    long_pc = np.isin(np.arange(9), (0, 1, 3))
    bar_pc = np.arange(9) == 5
    e_pc = np.array([0, 1, 2, 3, 4, 5, 6, 7, 8, 6, 2])
    waited = np.array([0, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1], np.int8)
    warp_off = np.array([0, 9, 11])
    ends = own_run_waits(waited, e_pc, warp_off, src, dst, long_pc, bar_pc, n_regs)
    assert list(ends) == [0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0]
    # without any wait nothing ends
    assert not own_run_waits(np.zeros(11, np.int8), e_pc, warp_off, src, dst, long_pc, bar_pc, n_regs).any()


def test_run_order_lets_each_warp_reread_its_lines_before_the_others_evict_them():
    """64 warps an SM (one wave) each read 32 lines 4 loads at a time (unrolled, loads before the
    adds that wait for them): 2,048 lines (256 KB) an SM, more than the 216 KB L1. In the functional
    order the SM's warps take each load in step, so between a lane's two reads of its sector the
    other 63 warps bring in 2,016 lines and LRU has evicted it: almost nothing hits. In runs
    (l1_loads_in_runs) a warp's four loads go through the L1 together, so at least 3 of each
    4 reads of a sector hit (75 %); a line's 4 sectors miss once each, so at most 7 of 8 hit. The
    L2 reads drop by at most the sectors moved (MemorySystem.apply_timed_l1 takes away a moved
    sector's share of L2 lookups: misses merged on a sector already asked for looked up nothing)."""
    run = ChunkSum()
    with overridden(l1_loads_in_runs=False) as cfg, lru_l1():
        assert not cfg.l1_loads_in_runs
        off = run().metrics
    with lru_l1():
        on = run().metrics  # the default order
    sectors = off["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]
    assert sectors == THREADS * 32
    assert off[LD_HIT] < 0.05 * sectors
    assert 0.75 * sectors <= on[LD_HIT] <= 0.875 * sectors
    assert on[MOVED] == on[LD_HIT] - off[LD_HIT]
    assert 0 < off[L2_READ] - on[L2_READ] <= on[MOVED]
