"""The L1's victim choice (memory/l1.py _l1_alloc, config l1_victim_pool, l1_second_chance): an empty
way first, else a way drawn among the pool least recently used, the same one for the same walk (pool
1 is LRU), passed over once if a load hit it, or a store found it resident, since its fill."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from line_sweeps import LOAD_HITS, one_sm, read_lines, store_lines

import simgpu as sg
from simgpu.memory.config import MemoryConfig, overridden
from simgpu.memory.l1 import REREAD, _l1_alloc


def _set(stamps: list[int], empty: int = -1, marked: list[bool] | None = None):
    """One SM's one set whose ways hold lines 0.. with these last-use stamps (way `empty` free; the
    `marked` ways hit since their fill), and the walk's stamp counter."""
    ways = len(stamps)
    tags = np.arange(ways, dtype=np.int64).reshape(1, 1, ways)
    if empty >= 0:
        tags[0, 0, empty] = -1
    lru = np.asarray(stamps, np.int64).reshape(1, 1, ways)
    valid = np.full((1, 1, ways), 15, np.uint8)
    if marked is not None:
        valid[0, 0, np.asarray(marked, bool)] |= REREAD
    return tags, valid, lru, np.zeros((1, 1, ways), np.int64), np.array([max(stamps)], np.int64)


def _alloc(state, line: int, rule: int, rel: int | None = None) -> int:
    tags, valid, lru, wreq, stamp = state
    return int(_l1_alloc(tags, valid, lru, wreq, stamp, 0, 0, line, line if rel is None else rel, tags.shape[2], rule))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=64, unique=True), st.integers(1, 70),
       st.integers(1000, 10**6))
def test_victim_is_among_the_pool_oldest(stamps, pool, line):
    """Whatever the stamps, the victim's stamp is among the `pool` smallest; the new line takes its
    way with no valid sectors."""
    state = _set(stamps)
    w = _alloc(state, line, pool)
    tags, valid, _, wreq, _ = state
    assert sorted(stamps).index(stamps[w]) < pool
    assert tags[0, 0, w] == line and valid[0, 0, w] == 0 and wreq[0, 0, w] == -1


@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=64, unique=True))
def test_pool_of_one_is_lru(stamps):
    assert _alloc(_set(stamps), 99999, 1) == int(np.argmin(stamps))


@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=64, unique=True), st.data())
def test_an_empty_way_is_taken_first(stamps, data):
    empty = data.draw(st.integers(0, len(stamps) - 1))
    assert _alloc(_set(stamps, empty), 99999, -11) == empty


def test_victims_are_spread_over_the_pool():
    """Over many allocations into a full set every one of the 16 oldest ways is picked, none other
    (a draw, not a fixed rank)."""
    stamps = list(range(100, 164))
    picked = {_alloc(_set(stamps), line, 16) for line in range(1000, 1400)}
    assert picked == set(range(16))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 10**9), st.booleans()), min_size=2, max_size=64,
                unique_by=lambda t: t[0]), st.integers(1, 70), st.integers(1000, 10**6))
def test_second_chance_passes_over_ways_a_load_hit(ways, pool, line):
    """With the second chance (rule -pool) a drawn way hit since its fill is not evicted: it is
    unmarked and made the newest, and the draw repeats. So the victim was unmarked or was passed
    over once already; every way whose stamp moved was marked and is now unmarked, newer than any
    stamp before; the others keep their marks and stamps; with no marked way the victim is the plain
    draw's."""
    stamps = [t[0] for t in ways]
    marked = [t[1] for t in ways]
    state = _set(stamps, marked=marked)
    w = _alloc(state, line, -pool)
    _, valid, lru, _, stamp = state
    moved = [i for i in range(len(stamps)) if lru[0, 0, i] != stamps[i]]
    assert not marked[w] or w in moved
    for i in moved:
        assert marked[i] and lru[0, 0, i] > max(stamps) and (i == w or valid[0, 0, i] == 15)
    for i in set(range(len(stamps))) - set(moved) - {w}:
        assert valid[0, 0, i] == (15 | REREAD if marked[i] else 15)
    assert stamp[0] == max(stamps) + len(moved)
    if not any(marked):
        assert w == _alloc(_set(stamps), line, pool)


def _phases(h200, a_reps: int, last: str, a_stores: int = 0, **rule) -> float:
    """l1_recency's `phases` on one SM: A (64 KB) read a_reps times and stored a_stores times
    (`phases_stored`), B (64 KB) read once, 96 KB of new lines, then A or B again (224 KB in all
    through a 217 KB L1); the share of the last re-read that hits, in percent."""
    a, b, s = 512, 512, 768
    with overridden(**rule):
        ms = one_sm(h200)
    for _ in range(a_reps):
        read_lines(ms, np.arange(a))
    for _ in range(a_stores):
        store_lines(ms, np.arange(a))
    for lines in [a + np.arange(b), a + b + np.arange(s)]:
        read_lines(ms, lines)
    before = ms.metrics()[LOAD_HITS]
    read_lines(ms, np.arange(a) if last == "A" else a + np.arange(b))
    return 100.0 * (ms.metrics()[LOAD_HITS] - before) / a


def test_lines_a_load_hit_outlive_a_stream(h200):
    """A read 4 times keeps every line against 96 KB of new lines (an H100: 100 %, l1_recency),
    the overflow coming out of B, read once (the H100 kept 85.9 % of B); without the second chance
    the draw takes A's lines too (the plain draw among 16: 84 % of A kept)."""
    assert _phases(h200, 4, "A") == pytest.approx(100.0)
    assert _phases(h200, 4, "B") < 95.0
    assert _phases(h200, 4, "A", l1_victim_pool=16, l1_second_chance=False) < 90.0
    # read once, A is the older and loses the overflow (H100: 85.1 % of A kept, 99.5 % of B)
    assert _phases(h200, 1, "A") < 95.0
    assert _phases(h200, 1, "B") > 99.0


def test_a_store_to_a_resident_line_protects_it_as_a_second_read(h200):
    """l1_recency's store variant (H100): A read once and stored once keeps 100 % of its lines
    against 96 KB of new lines, and B loses the overflow (86.1 % kept), as after A read 4 times;
    unstored, A read once loses it (85.1 % kept)."""
    assert _phases(h200, 1, "A", a_stores=1) == pytest.approx(100.0)
    assert _phases(h200, 1, "B", a_stores=1) < 95.0
    assert _phases(h200, 1, "A") < 95.0


EACH_OWN_LINE = r"""
extern "C" __global__ void chunk(const int* buf, int* out) {
    size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    const int* p = buf + t * 32;
    int acc = 0;
#pragma unroll 1
    for (int k = 0; k < 32; ++k) acc += p[k] * (k + 1);
    out[t] = acc;
}
"""


def test_own_line_rereads_past_capacity_keep_part_of_their_hits():
    """7 CTAs of 256 threads on one SM, each thread re-reading its own line 32 times (224 KB of lines
    live in a 217 KB L1): an H100 hit 69.67 % of the sectors (l1_replacement's chunk; 87.5 % is
    every re-read), simgpu 74.2 % with the default rule (a plain draw among 16: 68.2 %; at 256 KB
    the H100 47.4 %, simgpu 40.6, the plain draw 29.4); LRU loses nearly all (lock step, 2.4 %)."""
    import dataclasses

    gpu = dataclasses.replace(sg.get_preset("h200"), num_sms=1)
    fn = sg.RawModule(code=EACH_OWN_LINE).get_function("chunk")
    hits = {}
    for lru in (True, False):
        buf = sg.asarray(np.ones(7 * 256 * 32, np.int32))
        with overridden(**({"l1_victim_pool": 1, "l1_second_chance": False} if lru else {})):
            r = fn((7,), (256,), (buf, sg.zeros(7 * 256, np.int32)), gpu=gpu)
        hits[lru] = r.metrics["l1tex__t_sector_hit_rate.pct"]
    assert hits[False] == pytest.approx(69.67, abs=5.0)
    assert hits[True] < 5.0


@given(st.integers(0, 1 << 40), st.integers(1, 64))
def test_the_draw_follows_the_place_in_the_allocation_not_the_address(rel, shift):
    """The same line number in its allocation draws the same victim wherever the allocation sits
    (the address moved by `shift` lines); the draw is the hash of `rel` and the stamps."""
    stamps = list(range(100, 164))
    assert _alloc(_set(stamps), 10**6 + shift, -16, rel) == _alloc(_set(stamps), 10**6, -16, rel)


def test_a_launch_hits_the_same_whatever_was_allocated_before_it():
    """The own-line re-reads above, launched again after other arrays were allocated (so its buffer
    sits elsewhere): the same L1 hits, sector for sector (when the victim draw hashed the address, a
    plain draw among 16 hit 68.22 % here, then 68.29 %)."""
    import dataclasses

    gpu = dataclasses.replace(sg.get_preset("h200"), num_sms=1)
    fn = sg.RawModule(code=EACH_OWN_LINE).get_function("chunk")
    hits = []
    keep = []
    for pad in (0, 12345, 1 << 20):
        keep.append(sg.asarray(np.ones(pad + 1, np.float32)))
        buf = sg.asarray(np.ones(7 * 256 * 32, np.int32))
        r = fn((7,), (256,), (buf, sg.zeros(7 * 256, np.int32)), gpu=gpu)
        hits.append(r.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"])
    assert hits[0] == hits[1] == hits[2]


def test_memory_config_override_is_scoped_and_checked():
    from simgpu.memory.config import memory_config_for

    h200 = sg.get_preset("h200")
    assert memory_config_for(h200).l1_victim_pool == MemoryConfig().l1_victim_pool
    with overridden(l1_victim_pool=3):
        assert memory_config_for(h200).l1_victim_pool == 3
    assert memory_config_for(h200).l1_victim_pool == MemoryConfig().l1_victim_pool
    with pytest.raises(TypeError, match="no field 'l1_victim_poll'"):
        with overridden(l1_victim_poll=3):
            pass
