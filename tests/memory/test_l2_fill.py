"""Sectors a store writes in part (memory/l2.py, line_units.mark_partial_sectors): the L2 reads them
from DRAM before it writes them back, when a read or an atomic needs them, or at once for a write
from the far side; an atomic's miss fetches the sector pair from the home side and the sector alone
from the far side (benchmarks/microbench/l2_fill)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.memory.coalescer import coalesce_nb
from simgpu.memory.l2 import (
    C_DRAM_READ_SECTORS,
    C_DRAM_WRITE_SECTORS,
    C_L2_READ_HIT,
    C_L2_WRITE_FILL,
    C_L2_WRITE_HIT,
    L2_ATOM,
    L2_READ,
    L2_WRITE,
    N_COUNTERS,
    L2Cache,
)
from simgpu.memory.line_units import mark_partial_sectors

LANE = np.arange(32, dtype=np.int64)


def fresh(parts=1):
    return L2Cache(1 << 20, 16, partitions=parts), np.zeros(N_COUNTERS, np.int64)


def evict_all(l2, c):
    """Read 4x the cache's lines elsewhere: every line written before is evicted (LRU)."""
    for line in range(1 << 20, (1 << 20) + 4 * l2.nsets * l2.ways):
        l2.access(L2_READ, line, 0b1111, c)


def test_a_write_fills_the_sectors_the_l2_did_not_hold():
    """C_L2_WRITE_FILL (the timing model's L2 fill bandwidth): the written sectors that were not
    valid, whether ncu counts the write as a hit (it does: all four) or not."""
    l2, c = fresh()
    l2.access(L2_WRITE, 9, 0b0011, c)
    assert c[C_L2_WRITE_FILL] == 2 and c[C_L2_WRITE_HIT] == 2
    l2.access(L2_WRITE, 9, 0b1111, c)  # sectors 0 and 1 are held now: two new ones
    assert c[C_L2_WRITE_FILL] == 4 and c[C_L2_WRITE_HIT] == 6
    l2.access(L2_READ, 10, 0b0001, c)  # a read miss fetches the pair from DRAM ...
    l2.access(L2_WRITE, 10, 0b0111, c, part=0b0100)  # ... so only sector 2 is new, written in part
    assert c[C_L2_WRITE_FILL] == 5
    evict_all(l2, c)
    l2.access(L2_WRITE, 9, 0b1000, c)  # evicted: a fill again
    assert c[C_L2_WRITE_FILL] == 6


def test_a_partial_sector_is_read_before_it_is_written_back():
    l2, c = fresh()
    l2.access(L2_WRITE, 9, 0b0111, c, part=0b0101)  # sectors 0 and 2 in part, 1 in full
    assert c[C_DRAM_READ_SECTORS] == 0  # nothing read at the write
    before = c[C_DRAM_READ_SECTORS]
    evict_all(l2, c)
    reads = c[C_DRAM_READ_SECTORS] - before - 4 * 4 * l2.nsets * l2.ways  # the streaming reads' own
    assert reads == 2 and c[C_DRAM_WRITE_SECTORS] == 3


def test_whole_sector_stores_read_nothing():
    l2, c = fresh()
    l2.access(L2_WRITE, 9, 0b1111, c)
    evict_all(l2, c)
    assert c[C_DRAM_READ_SECTORS] == 4 * 4 * l2.nsets * l2.ways and c[C_DRAM_WRITE_SECTORS] == 4


def test_a_later_whole_write_or_a_fill_ends_the_partial_state():
    l2, c = fresh()
    l2.access(L2_WRITE, 9, 0b0011, c, part=0b0011)
    l2.access(L2_WRITE, 9, 0b0001, c)  # sector 0 now written in full
    assert l2.access(L2_READ, 9, 0b0010, c) == 0  # sector 1 is not all there: a miss, fetched
    assert c[C_DRAM_READ_SECTORS] == 1  # (its pair's other half, sector 0, is whole)
    assert l2.access(L2_READ, 9, 0b0011, c) == 0b0011
    base = c[C_DRAM_READ_SECTORS]
    evict_all(l2, c)
    assert c[C_DRAM_READ_SECTORS] - base == 4 * 4 * l2.nsets * l2.ways  # no fill left to do
    assert c[C_DRAM_WRITE_SECTORS] == 2


def test_a_partial_write_to_a_whole_sector_stays_whole():
    l2, c = fresh()
    l2.access(L2_READ, 9, 0b0001, c)  # fetched: sectors 0 and 1
    l2.access(L2_WRITE, 9, 0b0001, c, part=0b0001)
    hits = c[C_L2_READ_HIT]
    assert l2.access(L2_READ, 9, 0b0001, c) == 0b0001 and c[C_L2_READ_HIT] == hits + 1


def test_a_far_write_of_part_of_a_word_is_filled_at_once():
    l2, c = fresh(parts=2)
    l2.access(L2_WRITE, 9, 0b0011, c, far=True, part=0b0001 | 0b0001 << 4)  # a byte of sector 0
    assert c[C_DRAM_READ_SECTORS] == 1  # home fills the sector
    l2.access(L2_WRITE, 9, 0b0001, c, far=True, part=0b0001 | 0b0001 << 4)
    assert c[C_DRAM_READ_SECTORS] == 1  # whole now
    l2.access(L2_WRITE, 10, 0b0001, c, far=True, part=0b0001)  # whole words of sector 0: later
    l2.access(L2_WRITE, 11, 0b0001, c, far=False, part=0b0001 | 0b0001 << 4)  # from home: later
    assert c[C_DRAM_READ_SECTORS] == 1


def test_an_atomics_miss_fetches_the_pair_at_home_the_sector_from_far():
    l2, c = fresh(parts=2)
    l2.access(L2_ATOM, 9, 0b0001, c)
    assert c[C_DRAM_READ_SECTORS] == 2
    l2.access(L2_ATOM, 10, 0b0001, c, far=True)
    assert c[C_DRAM_READ_SECTORS] == 3


def _groups(addr, mask, nbytes):
    addr = np.ascontiguousarray(addr, np.int64)
    mask = np.ascontiguousarray(mask, np.bool_)
    cap = 2 * addr.size
    g_warp, g_line, g_mask = np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.uint16)
    n = coalesce_nb(addr, mask, nbytes, np.zeros(len(addr), np.int64), np.zeros(len(addr), np.int64),
                    g_warp, g_line, g_mask)
    mark_partial_sectors(addr, mask, nbytes, g_warp, g_line, g_mask, n)
    return [(int(w), int(ln), int(m) & 15, int(m) >> 4 & 15, int(m) >> 8)
            for w, ln, m in zip(g_warp[:n], g_line[:n], g_mask[:n])]


def test_partial_sectors_of_common_stores():
    full = np.ones((1, 32), bool)
    assert _groups((LANE * 4)[None], full, 4) == [(0, 0, 15, 0, 0)]  # 32 floats: one line, whole
    # stride 2: half of each sector, in whole words
    assert _groups((LANE * 8)[None], full, 4) == [(0, 0, 15, 15, 0), (0, 1, 15, 15, 0)]
    assert _groups((LANE * 32)[None], full, 1) == [(0, k, 15, 15, 15) for k in range(8)]  # a byte a sector
    assert _groups(LANE[None], full, 1) == [(0, 0, 1, 0, 0)]  # 32 bytes: one whole sector
    half = LANE < 16
    assert _groups((LANE * 4)[None], half[None], 4) == [(0, 0, 3, 0, 0)]  # 16 lanes: two whole sectors
    assert _groups((LANE * 2)[None], half[None], 1) == [(0, 0, 1, 1, 1)]  # every other byte


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([1, 2, 4, 8, 16]), st.integers(1, 3),
       st.lists(st.integers(0, 511), min_size=96, max_size=96), st.lists(st.booleans(), min_size=96, max_size=96))
def test_partial_sectors_match_a_byte_count(nbytes, rows, slots, active):
    """Against a brute force: a sector is partial where the row's active lanes write fewer than its
    32 distinct bytes, and one of its words is written in part where that word has 1 to 3 of its
    4 bytes written."""
    addr = (np.array(slots[:32 * rows], np.int64) * nbytes).reshape(rows, 32)
    mask = np.array(active[:32 * rows], bool).reshape(rows, 32)
    got = {(w, ln): (m, p, q) for w, ln, m, p, q in _groups(addr, mask, nbytes)}
    want: dict = {}
    for w in range(rows):
        written: dict = {}
        for a, on in zip(addr[w], mask[w]):
            if on:
                for b in range(int(a), int(a) + nbytes):
                    written.setdefault(b >> 5, set()).add(b)
        for sec, bs in written.items():
            m, p, q = want.get((w, sec >> 2), (0, 0, 0))
            bit = 1 << (sec & 3)
            words = [len([b for b in bs if b >> 2 == word]) for word in {b >> 2 for b in bs}]
            sub = len(bs) < 32 and any(k < 4 for k in words)
            want[(w, sec >> 2)] = (m | bit, p | (bit if len(bs) < 32 else 0), q | (bit if sub else 0))
    assert got == want


BYTES = r"""
extern "C" __global__ void one_byte_a_sector(unsigned char* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[32 * i] = 1;
}
extern "C" __global__ void one_word_a_sector(unsigned char* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) reinterpret_cast<float*>(p)[8 * i] = 1.0f;
}
extern "C" __global__ void whole_sectors(unsigned char* p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = 1;
}
"""


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_both_engines_fill_the_far_sides_partial_sectors(engine):
    """1 MB that stays in L2, a byte into each of its 32,768 sectors: the writes from the side away
    from a line's home are filled from DRAM (about half); a whole word into each, or whole sectors,
    read nothing; both engines give the same count."""
    mod = sg.RawModule(code=BYTES)
    n = 32768

    def dram(kernel, count):
        buf = sg.zeros(32 * n, np.uint8)
        rep = mod.get_function(kernel)((count // 256,), (256,), (buf, np.int32(count)), timing=False,
                                       engine=engine)
        return rep.metrics["dram__sectors_read.sum"]

    base = dram("whole_sectors", 32 * n)
    part = dram("one_byte_a_sector", n)
    assert 0.35 * n < part - base < 0.65 * n
    assert abs(dram("one_word_a_sector", n) - base) < 32  # (the kernels' code differs in size)
    if engine == "fast":
        ref = mod.get_function("one_byte_a_sector")((n // 256,), (256,), (sg.zeros(32 * n, np.uint8), np.int32(n)),
                                                    timing=False, engine="reference")
        assert ref.metrics["dram__sectors_read.sum"] == part
