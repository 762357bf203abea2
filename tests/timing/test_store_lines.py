"""Global stores that meet on their CTA's write path (timing/store_lines.py): a store of at most
max_lines lines that reaches L1 while, for each of its lines, a store of that line is still on the
path joins them (its sectors are L1 hits and reach L2 once); everything else keeps the functional
walk's answer."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.timing.store_lines import store_arrives, store_leaves, store_rings

ST_HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"
ST_SECTORS = "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"
L2_WRITE = "lts__t_sectors_srcunit_tex_op_write.sum"


def _stores(*stores):
    """(st_off, st_line, st_info) for stores given as lists of (line, sectors, resident, hit)."""
    off = np.zeros(len(stores) + 1, np.int64)
    lines, infos = [], []
    for i, groups in enumerate(stores):
        off[i + 1] = off[i] + len(groups)
        for line, mask, resident, hit in groups:
            lines.append(line)
            infos.append(mask | resident << 4 | hit << 5)
    return off, np.array(lines, np.int64), np.array(infos, np.uint16)


def _run(stores, arrivals, write_cycles=2.0, max_lines=1):
    """Feed stores (one CTA slot) in order, store i reaching L1 at arrivals[i]; the path is
    serial, write_cycles each (a joined store takes none). Returns (functional hits,
    timed hits, merged sectors, joined)."""
    off, line, info = _stores(*stores)
    ring = store_rings(1, True, max_lines)
    f, t, m = np.zeros(1, np.int64), np.zeros(1, np.int64), np.zeros(1, np.int64)
    free, joined = 0.0, []
    for i, t1 in enumerate(arrivals):
        j = store_arrives(off, line, info, i, 0, float(t1), ring, 0, f, t, m)
        joined.append(bool(j))
        if not j:
            free = max(free, float(t1)) + write_cycles
            store_leaves(off, line, info, i, 0, free, ring)
    return int(f[0]), int(t[0]), int(m[0]), joined


def test_stores_of_several_lines_right_behind_each_other_join_line_by_line():
    """multiline.cu (l1_stores): a warp's stores to the same 2-16 lines back to back reach L2 once
    per sector on the H200; one whose lines are not all on the path, or of more lines than
    max_lines (32 lines: written every time), does not join."""
    three = [(10, 0b1111, 0, 0), (11, 0b1111, 0, 0), (12, 0b1111, 0, 0)]
    again = [(ln, mask, 1, 1) for ln, mask, _, _ in three]
    f, t, m, joined = _run([three, again, again], [0, 1, 2], write_cycles=12.0, max_lines=16)
    assert joined == [False, True, True] and (t, m) == (24, 24)
    other = [(10, 0b1111, 1, 1), (11, 0b1111, 1, 1), (13, 0b1111, 0, 0)]
    assert _run([three, other], [0, 1], write_cycles=12.0, max_lines=16)[3] == [False, False]
    assert _run([three, again], [0, 1], write_cycles=12.0, max_lines=2)[3] == [False, False]
    # 13 cycles on, the first store has left the path
    assert _run([three, again], [0, 13], write_cycles=12.0, max_lines=16)[3] == [False, False]


def test_a_store_right_behind_one_to_its_line_joins_it():
    # st [L] (sector 0, line absent: a miss), then st [L] sectors 0 and 1 a cycle later
    f, t, m, joined = _run([[(7, 0b0001, 0, 0)], [(7, 0b0011, 1, 1)]], [0, 1])
    assert joined == [False, True]
    assert (f, t, m) == (2, 2, 1)  # both sectors of the second hit; sector 0 reaches L2 once


def test_a_store_after_the_first_left_the_path_does_not_join():
    f, t, m, joined = _run([[(7, 0b0001, 0, 0)], [(7, 0b0001, 1, 1)]], [0, 15])  # windows.cu: 15 cycles
    assert joined == [False, False]
    assert (f, t, m) == (1, 1, 0)


def test_other_lines_and_stores_of_several_lines_do_not_join():
    stores = [[(7, 0b1111, 0, 0)], [(8, 0b1111, 0, 0)], [(7, 0b1111, 1, 0), (9, 0b1111, 0, 0)]]
    f, t, m, joined = _run(stores, [0, 0, 1])
    assert joined == [False, False, False]
    assert (f, t, m) == (0, 0, 0)  # the two-line store keeps the walk's answer (here: busy misses)


def test_a_chain_of_stores_to_one_sector_writes_it_once():
    # eight warps' one-word stores to one sector, each arriving while the first is still queued
    f, t, m, joined = _run([[(3, 0b0100, 0, 0)]] + [[(3, 0b0100, 1, 1)]] * 7, [0] * 8, write_cycles=2.0)
    assert joined == [False] + [True] * 7
    assert (t, m) == (7, 7)


ONE_SECTOR = r"""
extern "C" __global__ void one_sector(int* out, int warps)
{   // warps 0..warps-1 of each CTA store one word each into the CTA's sector, at once
    int w = threadIdx.x >> 5;
    if (w < warps && (threadIdx.x & 31) == 0) out[blockIdx.x * 8 + w] = w;
}
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_warps_storing_into_one_sector_together_reach_l2_fewer_times(engine, timing_override):
    kernel = sg.RawModule(code=ONE_SECTOR).get_function("one_sector")
    out = sg.zeros(132 * 8, np.int32)
    timed = kernel((132,), (256,), (out, np.int32(8)), engine=engine).metrics
    functional = kernel((132,), (256,), (out, np.int32(8)), engine=engine, timing=False).metrics
    assert functional[L2_WRITE] == 132 * 8  # the walk writes every store's sector
    assert 132 <= timed[L2_WRITE] < 132 * 8  # the H200: 132 (burst.cu together, one CTA per SM)
    assert timed[ST_SECTORS] == functional[ST_SECTORS]
    assert timed[ST_HIT] >= functional[ST_HIT]
    timing_override(store_sequencer=False)
    assert kernel((132,), (256,), (out, np.int32(8)), engine=engine).metrics[L2_WRITE] == 132 * 8


ROWS = r"""
extern "C" __global__ void rows(float* out)
{   // every thread its own row of 64 floats: each store touches 32 lines, the same as the last
    float* row = out + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * 64;
    for (int d = 0; d < 64; ++d) row[d] = (float)d;
}
"""


def test_stores_of_many_lines_keep_the_walks_answer():
    # one warp's stores to its own 32 rows back to back all miss on the H200 (memory/l1.py)
    kernel = sg.RawModule(code=ROWS).get_function("rows")
    out = sg.zeros(8 * 32 * 64, np.float32)
    timed = kernel((8,), (32,), (out,)).metrics
    functional = kernel((8,), (32,), (out,), timing=False).metrics
    for metric in (ST_HIT, L2_WRITE):
        assert timed[metric] == functional[metric]


@settings(max_examples=12, deadline=None)
@given(st.lists(st.integers(0, 63), min_size=1, max_size=64), st.integers(1, 4))
def test_merging_never_drops_a_sector_the_kernel_wrote(words, ctas):
    """Whatever the pattern, L2 write sectors stay between the distinct sectors written per CTA and
    the walk's count, and store hits + misses stay the store sectors."""
    src = r"""extern "C" __global__ void scatter(int* out, const int* where, int n)
    { int w = threadIdx.x >> 5; if (w < n && (threadIdx.x & 31) == 0) out[blockIdx.x * 64 + where[w]] = w; }"""
    kernel = sg.RawModule(code=src).get_function("scatter")
    n = min(len(words), 32)
    where = sg.asarray(np.array(words[:n], np.int32))
    out = sg.zeros(ctas * 64, np.int32)
    timed = kernel((ctas,), (32 * n,), (out, where, np.int32(n))).metrics
    functional = kernel((ctas,), (32 * n,), (out, where, np.int32(n)), timing=False).metrics
    distinct = ctas * len({w // 8 for w in words[:n]})
    assert distinct <= timed[L2_WRITE] <= functional[L2_WRITE]
    miss = "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum"
    assert timed[ST_HIT] + timed[miss] == timed[ST_SECTORS] == functional[ST_SECTORS]


def test_pending_fill_takes_back_the_hits_of_stores_that_arrive_before_the_data():
    """store_hits_lost: a store's functional hits on sectors whose fill (fills_requested) is back
    after the store reaches L1 are lost; once the data is back, or on another line, they stay;
    misses stay misses."""
    from simgpu.timing.store_lines import fills_requested, pending_fills, store_hits_lost

    pend = pending_fills(2, True, np.array([100, 101, 900], np.int64), np.full(3, 0b1111, np.int64))
    fills_requested(pend, 0, 0, 2, 500, 7)  # SM 0, warp 7's load of lines 100 and 101: data back at 500
    fills_requested(pend, 1, 2, 3, 700, 9)  # SM 1, warp 9's of line 900
    off, line, info = _stores([(100, 0b0011, 1, 1), (101, 0b1100, 1, 1)], [(900, 0b1111, 1, 1)],
                              [(100, 0b0001, 1, 0)])
    assert store_hits_lost(pend, 0, off, line, info, 0, 499.0, 7) == 4  # both lines still on their way
    assert store_hits_lost(pend, 0, off, line, info, 0, 500.0, 7) == 0  # the data is back
    assert store_hits_lost(pend, 0, off, line, info, 1, 10.0, 7) == 0  # line 900 is pending on SM 1 only
    assert store_hits_lost(pend, 1, off, line, info, 1, 10.0, 9) == 4
    assert store_hits_lost(pend, 0, off, line, info, 2, 10.0, 7) == 0  # a miss loses nothing
    off_pend = pending_fills(2, False, line, np.full(len(line), 0b1111, np.int64))
    assert store_hits_lost(off_pend, 0, off, line, info, 0, 0.0, 7) == 0  # rule off


def test_a_store_into_present_sectors_misses_only_while_another_warps_fill_of_its_line_is_pending():
    """benchmarks/microbench/l1_pending/sectors.cu (sm_90, 2026-12-06): a warp that stores into
    sectors 0-1 of a line right behind its own load of sectors 2-3 hits (modes 1 and 3); while
    another warp's load of sectors 2-3 is on its way the store misses (mode 4 at 100-400 cycles)."""
    from simgpu.timing.store_lines import fills_requested, pending_fills, store_hits_lost

    pend = pending_fills(1, True, np.array([100], np.int64), np.array([0b1100], np.int64))
    off, line, info = _stores([(100, 0b0011, 1, 1)], [(100, 0b0100, 1, 1)])
    fills_requested(pend, 0, 0, 1, 500, 3)  # warp 3 asked for sectors 2-3, back at 500
    assert store_hits_lost(pend, 0, off, line, info, 0, 100.0, 3) == 0  # its own fill: a hit
    assert store_hits_lost(pend, 0, off, line, info, 0, 100.0, 4) == 2  # another warp's: both sectors miss
    assert store_hits_lost(pend, 0, off, line, info, 0, 500.0, 4) == 0  # the fill is back
    assert store_hits_lost(pend, 0, off, line, info, 1, 100.0, 3) == 1  # into a pending sector: a miss


SECTORS_CU = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "l1_pending" / "sectors.cu"


@pytest.mark.parametrize("mode, hits", [(0, 8 * 64 * 2), (1, 8 * 64 * 2), (2, 8 * 64 * 2)])
def test_a_warps_own_fill_of_other_sectors_leaves_its_store_a_hit(mode, hits):
    """sectors.cu on 8 CTAs: a warp's store into sectors 0-1 right behind its own load of sectors 2-3
    of the line hits, as with the load in another line or none (sm_90: 16,896 of 16,896 on 132
    CTAs in all three modes); a line-wide rule made mode 1 miss them all."""
    kernel = sg.RawModule(code=SECTORS_CU.read_text()).get_function("sectors")
    a, b = sg.zeros(8 * 64 * 32, np.float32), sg.zeros(8 * 64 * 32, np.float32)
    r = kernel((8,), (64,), (a, b, np.int32(mode), np.int64(0), np.int32(0), sg.zeros(8 * 64, np.float32)))
    assert r.metrics[ST_SECTORS] == 8 * 64 * 2 + 8 * 8
    assert r.metrics[ST_HIT] == hits


PENDING_CU = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "l1_pending" / "pending.cu"


@pytest.mark.parametrize("mode, hits", [(0, 0), (1, 8 * 64 * 4), (3, 0)])
def test_a_store_into_a_line_still_being_filled_misses(mode, hits):
    """benchmarks/microbench/l1_pending (H200, 132 CTAs): a store right behind its line's load, not
    waiting for the data, counts no L1 hit (0 of 33,792 sectors); one that waits for the data hits
    them all (33,792); a store into an absent line misses (0). Here on 8 CTAs."""
    kernel = sg.RawModule(code=PENDING_CU.read_text()).get_function("pending")
    r = kernel((8,), (32,), (sg.zeros(8 * 64 * 32, np.float32), np.int32(mode), np.int64(0),
                            sg.zeros(8 * 32, np.float32)))
    assert r.metrics[ST_SECTORS] == 8 * 64 * 4 + 8 * 4
    assert r.metrics[ST_HIT] == hits


def test_two_back_takes_the_hits_of_a_store_one_other_store_behind_its_line():
    """store_two_back: a single-line store whose line the SM's store before last wrote, another
    line's store between, loses its functional hits; none between (it joins, or follows) or two
    between, it keeps them; a store of several lines counts as a store between; per SM."""
    from simgpu.timing.store_lines import store_history, store_two_back

    off, line, info = _stores([(7, 0b0001, 1, 1)], [(9, 0b0001, 1, 1)], [(7, 0b0010, 1, 1)],
                              [(9, 0b0001, 1, 0)], [(3, 0b0001, 1, 1), (4, 0b0001, 1, 1)])
    hist = store_history(2, 15)
    seq = [(0, 0), (0, 1), (0, 2)]  # SM 0: 7, 9, 7 -> the third loses its hit
    assert [store_two_back(hist, sm, off, line, info, row, False, 0.0) for sm, row in seq] == [0, 0, 1]
    assert store_two_back(hist, 0, off, line, info, 3, False, 0.0) == 0  # 9, 7, 9: a miss has no hit to lose
    assert store_two_back(hist, 1, off, line, info, 0, False, 0.0) == 0  # SM 1 has its own record
    assert store_two_back(hist, 1, off, line, info, 4, False, 0.0) == 0  # two lines
    assert store_two_back(hist, 1, off, line, info, 0, False, 0.0) == 1  # 7, (3, 4), 7: one store between
    assert store_two_back(hist, 1, off, line, info, 1, False, 0.0) == 0
    assert store_two_back(hist, 1, off, line, info, 2, True, 0.0) == 0  # 7, 9, 7 that joined a store: kept
    for row in (0, 1, 1):  # 7, 9, 9, 7: two between
        store_two_back(hist, 0, off, line, info, row, False, 0.0)
    assert store_two_back(hist, 0, off, line, info, 2, False, 0.0) == 0
    late = [store_two_back(hist, 0, off, line, info, row, False, t) for row, t in ((0, 100.0), (1, 105.0), (2, 115.0))]
    assert late == [0, 0, 0]  # 7, 9, 7 with the second 7 15 cycles after the first: a hit again
    soon = [store_two_back(hist, 0, off, line, info, row, False, t) for row, t in ((0, 200.0), (1, 205.0), (2, 214.0))]
    assert soon == [0, 0, 1]  # 14 cycles: still one store behind
    no_hist = store_history(2, 0)
    assert [store_two_back(no_hist, 0, off, line, info, r, False, 0.0) for r in (0, 1, 2)] == [0, 0, 0]  # rule off


BURST_CU = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "l1_stores" / "burst.cu"


@pytest.mark.parametrize("n, hits", [(1, (0, 0, 1, 1)), (2, (1, 1, 2, 2))])
def test_a_store_one_store_behind_its_line_misses(n, hits):
    """benchmarks/microbench/l1_stores burst.cu back_to_back<N> (H200, 132 CTAs x 64 rounds): a warp
    stores into line L, then into N other lines, then into L again. N = 1: the third store misses,
    L resident or not (0 hits a round absent, 1 resident: the first store's); N = 2: it hits (1 a
    round absent, 2 resident). Modes: bit 0 the other sector, bit 1 L loaded first. Here 4 CTAs."""
    mod = sg.RawModule(code=BURST_CU.read_text(), name_expressions=[f"back_to_back<{n}>"])
    kernel = mod.get_function(f"back_to_back<{n}>")
    rounds = 4 * 64
    for mode, per_round in zip(range(4), hits):
        r = kernel((4,), (32,), (sg.zeros(4 * 64 * 32, np.int32), sg.zeros(4 * 64 * 8 * 32, np.int32), np.int32(mode)))
        assert r.metrics[ST_SECTORS] == rounds * (n + 2)
        assert r.metrics[ST_HIT] == rounds * per_round, mode


def test_a_joined_store_saves_its_l2_write_not_its_write_path_cycles():
    # benchmarks/microbench/fences store_only: each warp stores its own line again and again; on an
    # H100 8 warps took 16.7 cycles a store each, as if none joined (config store_join_path_share)
    from simgpu.timing.config import overridden

    src = (Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "fences" / "kernels.cu").read_text()
    f = sg.RawModule(code=src).get_function("store_only")
    iters, warps = 64, 8

    def run(**changes):
        with overridden(**changes):
            rep = f((1,), (32 * warps,), (sg.zeros(warps, np.int64), sg.zeros(32 * warps, np.int32), np.int32(iters)))
        cycles = np.median([r[1] - r[0] for r in rep.timing.clock_reads()]) / iters
        return cycles, rep.metrics[L2_WRITE]

    joined, joined_writes = run()
    alone, alone_writes = run(store_sequencer=False)
    free, free_writes = run(store_join_path_share=0.0)
    assert joined == pytest.approx(alone, rel=0.05)
    assert free < 0.7 * joined  # the old rule: joined stores cost no path time
    # still written to L2 once (how many meet depends on how long each stays on the path)
    assert max(joined_writes, free_writes) < alone_writes
