"""In-time L1 -> L2 read merging (simgpu.timing.l2_merge): exact answers on small cases, the
reduction to the functional walk's rule when every miss issues in one cycle, and the launch path."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.memory.l1 import OP_LD, L1Caches, hierarchy_batch
from simgpu.memory.l2 import C_L2_READ_MERGED, N_COUNTERS, L2Cache
from simgpu.timing.l2_merge import merge_groups, merge_step, merge_tables

HIT, MISS = 75, 800  # windows (cycles) used below


def _info(miss: int, sent: int, hit: int, ask: int | None = None) -> int:
    """A group's g_info (memory.l1.hierarchy_batch): by default it asked for what it missed."""
    return miss | (sent << 4) | (hit << 8) | ((miss if ask is None else ask) << 12)


def _timed(t, dom, line, info, cap=4):
    n = len(t)
    return merge_groups(np.asarray(t), np.asarray(dom), np.asarray(line), np.asarray(info, np.uint16),
                        np.zeros(n, np.int64), cap, HIT, MISS, 1, 16)


def test_same_cycle_same_domain_merges():
    # two SMs of one domain miss sector 0 of line 5 in the same cycle: one L2 request
    r = _timed([100, 100], [3, 3], [5, 5], [_info(1, 1, 0), _info(1, 0, 0)])
    assert r.timed.sum() == 1 and r.functional.sum() == 1 and r.delta().sum() == 0


def test_other_domain_never_merges():
    r = _timed([100, 100], [3, 4], [5, 5], [_info(1, 1, 0), _info(1, 1, 1)])
    assert r.timed.sum() == 0


@pytest.mark.parametrize("gap, merged", [(0, 1), (HIT - 1, 1), (HIT, 0), (400, 0)])
def test_l2_hit_window(gap, merged):
    # the sector is in L2 (the functional walk saw an L2 hit, no DRAM fetch this launch)
    r = _timed([10, 10 + gap], [2, 2], [9, 9], [_info(2, 2, 2), _info(2, 2, 2)])
    assert r.timed.sum() == merged


@pytest.mark.parametrize("gap, merged", [(0, 1), (500, 1), (MISS - 1, 1), (MISS, 0)])
def test_dram_fetch_window(gap, merged):
    # the first request fetches the sector from DRAM: a later miss joins until the data is back
    r = _timed([10, 10 + gap], [2, 2], [9, 9], [_info(8, 8, 0), _info(8, 0, 8)])
    assert r.timed.sum() == merged
    assert r.delta().sum() == 1 - merged  # the functional walk merged the second one


def test_other_domain_waits_for_the_fetch():
    # domain 3 asks while domain 2's DRAM fetch is on its way: its own request stays open until the
    # data is back, so a second SM of domain 3 joins it 300 cycles later (past the hit window)
    r = _timed([0, 100, 400], [2, 3, 3], [1, 1, 1], [_info(1, 1, 0), _info(1, 1, 1), _info(1, 1, 1)])
    assert r.timed.sum() == 1


def test_cap_sms_per_request():
    # six SMs of one domain in one cycle, at most four per request: two requests, four joined
    r = _timed([7] * 6, [2] * 6, [4] * 6, [_info(1, 1, 0)] + [_info(1, 0, 0)] * 5)
    assert r.timed.sum() == 4


def test_lengths_must_agree():
    with pytest.raises(ValueError, match="one per group"):
        _timed([1, 2], [0, 0], [1, 1], [_info(1, 1, 0)])


@pytest.mark.parametrize("second, merged", [(1, 1), (3, 0)])
def test_only_identical_requests_merge(second, merged):
    # an open request for sector 0 of line 3; a second SM of the domain misses sector 0 (an identical
    # request: joins) or sectors 0 and 1 (another request: goes to L2 itself; measured, sass_probes)
    r = _timed([0, 5], [2, 2], [3, 3], [_info(1, 1, 0), _info(second, second, 0)])
    assert r.timed.sum() == merged


@pytest.mark.parametrize("ask1, miss1, ask2, miss2, merged", [
    (3, 2, 3, 2, 1),  # identical requests: the second joins
    (3, 2, 2, 2, 0),  # the same missed sector of a line asked for otherwise (l2_order mask_pair mode 0)
    (3, 2, 3, 3, 0),  # the same ask, other misses (mode 1: never merged on the H200)
])
def test_a_request_is_its_ask_and_its_misses(ask1, miss1, ask2, miss2, merged):
    r = _timed([0, 5], [2, 2], [3, 3], [_info(miss1, miss1, 0, ask1), _info(miss2, miss2, 0, ask2)])
    assert r.timed.sum() == merged


def test_join_weight_falls_with_lines_in_flight():
    """merge_step's weight: 1 / (1 + (q_opener + q_joiner) / (2 q0)), and 1 with q0 = 0."""
    for q0, q_open, q_join, weight in [(1000.0, 1000.0, 3000.0, 1 / 3), (3000.0, 0.0, 0.0, 1.0),
                                       (0.0, 5000.0, 9000.0, 1.0)]:
        tables = merge_tables(2, 1)
        # line 0, domain 0 of 1, sector 0 asked for and missed, in L2 (no DRAM fetch), no cap, windows
        request = (0, 0, 1, 1, 1, 0, 0, 100, 800)
        opened = merge_step(0, *request, *tables[:6], q_open, q0, tables[6], 0)
        assert opened[0] == 0 and opened[-1] == 0.0
        joined = merge_step(10, *request, *tables[:6], q_join, q0, tables[6], 1)
        assert joined[0] == 1 and joined[-1] == pytest.approx(weight)


def test_a_join_of_the_sms_own_request_counts_in_full_and_not_under_the_cap():
    """An SM that asks again for a sector its own request is fetching (a bypass load behind a load
    of the same data) needs no other SM in step: weight 1 whatever is in flight, and the cap of SMs
    per request still leaves room for the others."""
    tables = merge_tables(4, 1)
    request = (0, 0, 1, 1, 1, 0, 2, 100, 800)  # a cap of 2 SMs per request
    assert merge_step(0, *request, *tables[:6], 5000.0, 1000.0, tables[6], 7)[0] == 0  # SM 7 opens
    own = merge_step(5, *request, *tables[:6], 5000.0, 1000.0, tables[6], 7)
    assert own[0] == 1 and own[-1] == 1.0
    other = merge_step(6, *request, *tables[:6], 5000.0, 1000.0, tables[6], 3)
    assert other[0] == 1 and other[-1] == pytest.approx(1 / (1 + 10000 / 2000))
    assert merge_step(7, *request, *tables[:6], 0.0, 1000.0, tables[6], 4)[0] == 0  # the cap: SMs 7 and 3


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 11), st.integers(0, 5), st.integers(0, 15)), min_size=1, max_size=40),
       st.integers(0, 4))
def test_one_cycle_equals_the_functional_walk(accesses, cap):
    """Misses that all issue in one cycle merge in time exactly as the functional walk merged them
    in one engine step (same domains, same cap, same order)."""
    num_sms = 12
    dom = np.arange(num_sms, dtype=np.int64) // 4  # three domains of four SMs
    l1 = L1Caches(num_sms, 256 * 1024, 4)
    l2 = L2Cache(1 << 20, 16)
    k = len(accesses)
    warp_sm = np.array([a[0] for a in accesses], np.int64)
    g_warp = np.arange(k, dtype=np.int64)
    g_line = np.array([a[1] for a in accesses], np.int64)
    g_mask = np.array([a[2] for a in accesses], np.uint8)
    h = 1 << (2 * k).bit_length()
    ctr = np.zeros(N_COUNTERS, np.int64)
    g_info = np.zeros(k, np.uint16)
    hierarchy_batch(OP_LD, warp_sm, np.arange(len(warp_sm)), g_warp, g_line, g_mask, k,
                    l1.tags, l1.valid, l1.lru, l1.wreq, l1.req, l1.nways, l1.victim_rule, l1.stamp,
                    l2.tags, l2.valid, l2.dirty, l2.lru, l2.nsets, l2.fetch_pair, l2.write_hit, l2.stamp,
                    ctr, np.zeros(k, np.int64), np.zeros(k, np.int64), dom, cap,
                    np.full(h, -1, np.int64), np.zeros((h, 4), np.int64), np.zeros(h, np.uint8), g_info,
                    np.zeros(0, np.int8), np.zeros(0, np.int64))
    has = np.flatnonzero(g_info & 15)
    r = merge_groups(np.zeros(len(has), np.int64), dom[warp_sm[has]], g_line[has], g_info[has],
                     np.zeros(len(has), np.int64), cap, HIT, MISS, 1, 3)
    assert r.functional.sum() == ctr[C_L2_READ_MERGED]
    assert r.timed.sum() == r.functional.sum()


SHARED_READ = r"""
extern "C" __global__ void shared_read(const float* a, float* out, int n) {
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_launch_applies_the_timed_merging(engine):
    """Every CTA reads the same 16 KB: the counters after timing are the functional ones moved by
    the timed merge count; without timing they are the functional walk's."""
    f = sg.RawModule(code=SHARED_READ).get_function("shared_read")
    n = 4096
    a = sg.asarray(np.ones(n, np.float32))
    out = sg.zeros(64 * 128, np.float32)
    timed = f((64,), (128,), (a, out, np.int32(n)), engine=engine)
    plain = f((64,), (128,), (a, out, np.int32(n)), engine=engine, timing=False)
    key = "lts__t_sectors_srcunit_tex_op_read.sum"
    mt, mp = timed.metrics, plain.metrics
    assert mt["simgpu__l2_read_merging_in_time"] == 1.0 and mp["simgpu__l2_read_merging_in_time"] == 0.0
    delta = int(timed.timing.l2_merging.delta().sum())
    assert mt[key] == mp[key] + delta
    merged = "simgpu__l1_miss_sectors_merged_before_l2.sum"
    assert mt[key] + mt[merged] == mp[key] + mp[merged]  # every L1 read miss is a lookup or merged
    assert mt["lts__t_sectors_op_read_lookup_hit.sum"] == mp["lts__t_sectors_op_read_lookup_hit.sum"] + delta
    assert mt["dram__bytes_read.sum"] == mp["dram__bytes_read.sum"]
    assert np.allclose(out.get(), n // 128)
    ld = [r for r in timed.per_pc if r.get("l2_hits") is not None and r.get("requests")]
    assert sum(r["l2_hits"] + r["l2_misses"] for r in ld) >= mt[key]


def test_pending_fetch_lookups_counted_as_misses(monkeypatch):
    """With l2_pending_fetch_is_miss, lookups that reached the L2 before their sector's DRAM fetch
    move from read hits to read misses (those that were hits: a far SM's lookup of a sector its side
    has no copy of is a miss already, memory/l2.py); lookups, sectors and DRAM bytes stay as they were."""
    import dataclasses

    import simgpu.timing.config as tc

    f = sg.RawModule(code=SHARED_READ).get_function("shared_read")
    n = 4096
    a = sg.asarray(np.ones(n, np.float32))
    out = sg.zeros(132 * 128, np.float32)
    off = f((132,), (128,), (a, out, np.int32(n)))
    monkeypatch.setattr(tc, "_DEFAULT", dataclasses.replace(tc.default_config(), l2_pending_fetch_is_miss=True))
    on = f((132,), (128,), (a, out, np.int32(n)))
    pending = int(on.timing.l2_merging.pending.sum())
    assert pending > 0  # CTAs of different GPCs ask for the same cold sectors together
    hit, miss = "lts__t_sectors_op_read_lookup_hit.sum", "lts__t_sectors_op_read_lookup_miss.sum"
    moved = off.metrics[hit] - on.metrics[hit]
    assert 0 < moved <= pending
    assert on.metrics[miss] == off.metrics[miss] + moved
    for key in ("lts__t_sectors_srcunit_tex_op_read.sum", "dram__bytes_read.sum"):
        assert on.metrics[key] == off.metrics[key]
    ld = [r for r in on.per_pc if r.get("l2_hits") is not None and r.get("requests")]
    assert sum(r["l2_misses"] for r in ld) >= moved


def test_request_log_records_every_l1_miss_group_and_changes_nothing():
    """l2_request_log_groups records each L1-miss group as it reaches the merging (time, line, SM,
    domain, missed and joined sectors, pc); the counters and times are the same as without it, and
    the joins it shows are the ones the timed merge count was made of."""
    from simgpu.memory.topology import H200_MERGE_DOMAINS, domain_of_sm
    from simgpu.timing.config import overridden
    from simgpu.timing.load_lines import REQUEST_LOG_COLUMNS

    f = sg.RawModule(code=SHARED_READ).get_function("shared_read")
    n = 4096
    a = sg.asarray(np.ones(n, np.float32))
    out = sg.zeros(64 * 128, np.float32)
    plain = f((64,), (128,), (a, out, np.int32(n)))
    assert plain.timing.l2_merging.requests is None
    with overridden(l2_request_log_groups=1 << 20):
        logged = f((64,), (128,), (a, out, np.int32(n)))
    assert logged.metrics == plain.metrics and logged.timing.cycles == plain.timing.cycles
    log = logged.timing.l2_merging.requests
    col = {c: log[:, i] for i, c in enumerate(REQUEST_LOG_COLUMNS)}
    bits = [1, 2, 4, 8]
    missed = sum(int(((col["missed"] & b) != 0).sum()) for b in bits)
    joined = sum(int(((col["joined"] & b) != 0).sum()) for b in bits)
    # every L1 read-miss sector is either its own L2 lookup or joined another SM's request
    key, merged = "lts__t_sectors_srcunit_tex_op_read.sum", "simgpu__l1_miss_sectors_merged_before_l2.sum"
    assert missed == logged.metrics[key] + logged.metrics[merged]
    assert (col["joined"] & ~col["missed"]).sum() == 0 and 0 < joined < missed
    assert np.array_equal(col["domain"], domain_of_sm(H200_MERGE_DOMAINS, 132)[col["sm"]])
    assert (np.diff(col["cycle"]) >= -10_000).all()  # the replay's issue order, roughly in time
    loads = {r["pc"] for r in logged.per_pc if r.get("requests") and r.get("l2_hits") is not None}
    assert set(np.unique(col["pc"]).tolist()) <= loads
    with overridden(l2_request_log_groups=5):
        assert len(f((64,), (128,), (a, out, np.int32(n))).timing.l2_merging.requests) == 5
