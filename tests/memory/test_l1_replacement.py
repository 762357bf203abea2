"""The L1's victim choice (memory/l1.py _l1_alloc, config l1_victim_pool): an empty way first, else
a way drawn among the pool least recently used, the same one for the same walk; pool 1 is LRU."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.memory.config import MemoryConfig, overridden
from simgpu.memory.l1 import _l1_alloc


def _set(stamps: list[int], empty: int = -1):
    """One SM's one set whose ways hold lines 0.. with these last-use stamps (way `empty` free)."""
    ways = len(stamps)
    tags = np.arange(ways, dtype=np.int64).reshape(1, 1, ways)
    if empty >= 0:
        tags[0, 0, empty] = -1
    lru = np.asarray(stamps, np.int64).reshape(1, 1, ways)
    return tags, np.full((1, 1, ways), 15, np.uint8), lru, np.zeros((1, 1, ways), np.int64)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=64, unique=True), st.integers(1, 70),
       st.integers(1000, 10**6))
def test_victim_is_among_the_pool_oldest(stamps, pool, line):
    """Whatever the stamps, the victim's stamp is among the `pool` smallest; the new line takes its
    way with no valid sectors."""
    tags, valid, lru, wreq = _set(stamps)
    w = _l1_alloc(tags, valid, lru, wreq, 0, 0, line, line, len(stamps), pool)
    assert sorted(stamps).index(stamps[w]) < pool
    assert tags[0, 0, w] == line and valid[0, 0, w] == 0 and wreq[0, 0, w] == -1


@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=64, unique=True))
def test_pool_of_one_is_lru(stamps):
    tags, valid, lru, wreq = _set(stamps)
    assert _l1_alloc(tags, valid, lru, wreq, 0, 0, 99999, 99999, len(stamps), 1) == int(np.argmin(stamps))


@given(st.lists(st.integers(1, 10**9), min_size=2, max_size=64, unique=True), st.data())
def test_an_empty_way_is_taken_first(stamps, data):
    empty = data.draw(st.integers(0, len(stamps) - 1))
    tags, valid, lru, wreq = _set(stamps, empty)
    assert _l1_alloc(tags, valid, lru, wreq, 0, 0, 99999, 99999, len(stamps), 16) == empty


def test_victims_are_spread_over_the_pool():
    """Over many allocations into a full set every one of the 16 oldest ways is picked, none other
    (a draw, not a fixed rank)."""
    picked = set()
    stamps = list(range(100, 164))
    for line in range(1000, 1400):
        tags, valid, lru, wreq = _set(stamps)
        picked.add(int(_l1_alloc(tags, valid, lru, wreq, 0, 0, line, line, 64, 16)))
    assert picked == set(range(16))


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
    every re-read), simgpu 68.2 % with a pool of 16; LRU loses nearly all (lock step, 2.4 %)."""
    import dataclasses

    gpu = dataclasses.replace(sg.get_preset("h200"), num_sms=1)
    fn = sg.RawModule(code=EACH_OWN_LINE).get_function("chunk")
    hits = {}
    for pool in (1, 16):
        buf = sg.asarray(np.ones(7 * 256 * 32, np.int32))
        with overridden(l1_victim_pool=pool):
            r = fn((7,), (256,), (buf, sg.zeros(7 * 256, np.int32)), gpu=gpu)
        hits[pool] = r.metrics["l1tex__t_sector_hit_rate.pct"]
    assert hits[16] == pytest.approx(69.67, abs=3.0)
    assert hits[1] < 5.0


@given(st.integers(0, 1 << 40), st.integers(1, 64))
def test_the_draw_follows_the_place_in_the_allocation_not_the_address(rel, shift):
    """The same line number in its allocation draws the same victim wherever the allocation sits
    (the address moved by `shift` lines); the draw is the hash of `rel` and the stamps."""
    stamps = list(range(100, 164))
    tags, valid, lru, wreq = _set(stamps)
    a = _l1_alloc(tags, valid, lru, wreq, 0, 0, 10**6, rel, 64, 16)
    tags, valid, lru, wreq = _set(stamps)
    assert _l1_alloc(tags, valid, lru, wreq, 0, 0, 10**6 + shift, rel, 64, 16) == a


def test_a_launch_hits_the_same_whatever_was_allocated_before_it():
    """The own-line re-reads above, launched again after other arrays were allocated (so its buffer
    sits elsewhere): the same L1 hits, sector for sector (the victim draw hashed the address before,
    68.22 % then 68.29 %)."""
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
