"""The L2's two partitions (memory/l2.py "Partitions"): tex lookups in the partition beside the SM,
fabric lookups in the line's home partition, and what ncu's L2 counters make of them."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgpu.memory import MemorySystem
from simgpu.memory.l2 import (
    C_DRAM_READ_SECTORS,
    C_DRAM_WRITE_SECTORS,
    C_FAB_ATOM,
    C_FAB_READ,
    C_FAB_READ_HIT,
    C_FAB_WRITE,
    C_L2_READ_HIT,
    C_L2_READ_MISS,
    L2_ATOM,
    L2_READ,
    L2_WRITE,
    N_COUNTERS,
    L2Cache,
    home_partition,
    line_in_allocation,
    lines_in_allocation,
)

LANE = np.arange(32, dtype=np.int64)
FULL = np.ones((1, 32), bool)


def fresh():
    return L2Cache(1 << 20, 16, partitions=2), np.zeros(N_COUNTERS, np.int64)


def test_far_read_misses_near_copy_then_hits_it():
    l2, c = fresh()
    assert l2.access(L2_READ, 9, 0b0011, c, far=True) == 0  # cold: tex miss, fabric miss, DRAM
    assert (c[C_L2_READ_MISS], c[C_FAB_READ], c[C_FAB_READ_HIT], c[C_DRAM_READ_SECTORS]) == (2, 2, 0, 2)
    assert l2.access(L2_READ, 9, 0b0011, c, far=True) == 0b0011  # the side's copy
    assert (c[C_L2_READ_HIT], c[C_FAB_READ]) == (2, 2)
    assert l2.access(L2_READ, 9, 0b0011, c, far=False) == 0b0011  # the home side: a tex hit
    assert (c[C_L2_READ_HIT], c[C_FAB_READ], c[C_DRAM_READ_SECTORS]) == (4, 2, 2)


def test_home_first_then_far_is_a_fabric_hit():
    l2, c = fresh()
    l2.access(L2_READ, 9, 0b1111, c, far=False)  # DRAM, home only
    assert l2.access(L2_READ, 9, 0b0001, c, far=True) == 0b0001  # served from L2 ...
    assert (c[C_L2_READ_HIT], c[C_L2_READ_MISS]) == (0, 5)  # ... but a miss of the near copy
    assert (c[C_FAB_READ], c[C_FAB_READ_HIT], c[C_DRAM_READ_SECTORS]) == (1, 1, 4)


def test_home_write_and_atomic_drop_the_far_copy():
    l2, c = fresh()
    l2.access(L2_READ, 9, 0b1111, c, far=True)  # copy of all four on the far side
    l2.access(L2_WRITE, 9, 0b0001, c, far=False)
    l2.access(L2_ATOM, 9, 0b0010, c, far=False)
    before = c[C_FAB_READ]
    l2.access(L2_READ, 9, 0b1111, c, far=True)
    assert c[C_FAB_READ] - before == 2  # sectors 0 and 1 again from home, 2 and 3 from the copy
    l2.access(L2_WRITE, 9, 0b0100, c, far=True)
    l2.access(L2_ATOM, 9, 0b1000, c, far=True)
    assert (c[C_FAB_WRITE], c[C_FAB_ATOM]) == (1, 1)  # forwarded to the home partition


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([L2_READ, L2_WRITE, L2_ATOM]), st.integers(0, 7),
                          st.integers(1, 15), st.booleans()), min_size=1, max_size=60))
def test_partitions_change_no_dram_traffic_nor_served_sectors(ops):
    """While nothing is evicted (8 lines in 1 MB), which sectors come from DRAM, and what each access
    is served, is the single cache's answer: the partitions only split the lookups between tex and
    fabric (past the room they differ: test_copies_take_room_in_the_near_partition). Atomics from the
    far side fetch less (test_l2_fill), so here they come from the home side."""
    one, c1 = fresh()
    two, c2 = fresh()
    for kind, line, m, far in ops:
        far = far and kind != L2_ATOM
        assert one.access(kind, line, m, c1) == two.access(kind, line, m, c2, far=far)
    assert c1[C_DRAM_READ_SECTORS] == c2[C_DRAM_READ_SECTORS]
    assert c2[C_FAB_READ_HIT] <= c2[C_FAB_READ] <= c2[C_L2_READ_MISS]


def test_home_partition_is_taken_in_the_allocation():
    heap = np.array([1000, 5000], np.int64)
    assert line_in_allocation(np.int64(5003), heap) == 3 and line_in_allocation(np.int64(7), heap) == 7
    # bits 12 and 13 of the byte address are bits 5 and 6 of the line number
    assert [home_partition(np.int64(x)) for x in (0, 32, 64, 96)] == [0, 1, 1, 0]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 1 << 20), min_size=0, max_size=5, unique=True),
       st.lists(st.integers(0, 1 << 14), min_size=1, max_size=40))
def test_vectorised_and_scalar_offsets_agree(starts, lines):
    """The timing replay's lines_in_allocation (from byte addresses) and the memory walk's
    line_in_allocation (from first lines) place every line alike."""
    heap = np.array(sorted(starts), np.int64)
    got = lines_in_allocation(np.array(lines), [x << 7 for x in starts])
    assert list(got) == [line_in_allocation(np.int64(x), heap) for x in lines]


def test_memory_system_counts_fabric_lookups_in_the_l2_counters(h200):
    ms = MemorySystem(h200)
    base = 1 << 30
    ms.begin_kernel(0, 8, heap_bases=[base])  # line offsets 0..3 in the allocation: home partition 0
    near = int(np.flatnonzero(ms.sm_side == 0)[0])
    far = int(np.flatnonzero(ms.sm_side == 1)[0])
    addr = (base + LANE * 4).reshape(1, 32).astype(np.uint64)
    ms.global_access("ld", 0, np.array([far]), addr, FULL, 4)  # 4 tex misses, 4 fabric misses
    ms.global_access("ld", 1, np.array([near]), addr, FULL, 4)  # 4 tex hits at home
    ms.global_access("st", 2, np.array([far]), addr, FULL, 4)  # 4 tex writes, forwarded: 4 fabric writes
    m = ms.metrics()
    assert m["lts__t_sectors_srcunit_tex.sum"] == 12
    assert m["lts__t_sectors_srcunit_ltcfabric.sum"] == 8
    assert m["lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum"] == 4  # the writes
    assert m["lts__t_sectors.sum"] == 20
    assert m["lts__t_sector_op_read_hit_rate.pct"] == pytest.approx(100 * 4 / 12)
    assert m["lts__t_sector_hit_rate.pct"] == pytest.approx(100 * (4 + 4 + 4) / 20)
    assert m["dram__bytes_read.sum"] == 128


# --------------------------------------------------------------- room: copies, cold-start leftovers
A_NEAR, B_FAR, C_FAR = 0, 32, 64  # home partitions 0, 1, 1 (above): for an SM beside partition 0


def one_set_per_partition(ways: int = 2) -> L2Cache:
    return L2Cache(2 * ways * 128, ways, partitions=2)


def test_far_write_leaves_a_copy_on_the_writers_side():
    """l2_capacity write_reread: an SM that wrote a line homed far reads it back from its own side."""
    l2, c = fresh()
    l2.access(L2_WRITE, B_FAR, 0b1111, c, far=True)
    assert (c[C_FAB_WRITE], c[C_DRAM_READ_SECTORS]) == (4, 0)
    assert l2.access(L2_READ, B_FAR, 0b1111, c, far=True) == 0b1111
    assert (c[C_L2_READ_HIT], c[C_FAB_READ]) == (4, 0)  # the copy answers: no fabric lookup


def test_copies_take_room_in_the_near_partition():
    """Two ways per partition: the far lines B and C an SM reads leave copies beside it that evict its
    own near-homed line A, while their home entries sit in the other partition (l2_capacity: one SM
    reading 40 MB twice misses its near-homed half, the far half hits at home)."""
    l2, c = one_set_per_partition(), np.zeros(N_COUNTERS, np.int64)
    l2.access(L2_READ, A_NEAR, 0b1111, c)
    l2.access(L2_READ, B_FAR, 0b1111, c, far=True)
    l2.access(L2_READ, C_FAR, 0b1111, c, far=True)  # its copy evicts A, the oldest beside the SM
    assert c[C_DRAM_READ_SECTORS] == 12
    assert l2.access(L2_READ, A_NEAR, 0b1111, c) == 0  # from DRAM again (its copy evicts B's)
    assert c[C_DRAM_READ_SECTORS] == 16
    fab = c[C_FAB_READ]
    assert l2.access(L2_READ, B_FAR, 0b1111, c, far=True) == 0b1111  # no copy left: found at home
    assert c[C_FAB_READ] - fab == 4 and c[C_FAB_READ_HIT] == 4 and c[C_DRAM_READ_SECTORS] == 16


def test_one_partition_keeps_what_two_would_evict():
    """The same three lines in one partition of the same total room (four ways) all stay."""
    l2, c = L2Cache(4 * 128, 4), np.zeros(N_COUNTERS, np.int64)
    for line in (A_NEAR, B_FAR, C_FAR, A_NEAR):
        l2.access(L2_READ, line, 0b1111, c)
    assert c[C_DRAM_READ_SECTORS] == 12


def test_cold_start_dirty_lines_are_the_first_evicted():
    l2, c = L2Cache(8 * 2 * 128, 2, partitions=2), np.zeros(N_COUNTERS, np.int64)  # 8 sets of 2 ways
    l2.seed_dirty(4 * 128)
    assert l2.dirty_sectors() == 16 and int((l2.tags >= 0).sum()) == 4
    for line in range(0, 4096, 7):  # every set of both partitions overflows: the seeded lines go first
        l2.access(L2_READ, line, 0b1111, c)
    assert c[C_DRAM_WRITE_SECTORS] == 16 and l2.dirty_sectors() == 0


def test_memory_system_seeds_cold_launches_only(h200):
    ms = MemorySystem(h200)
    nbytes = ms.cfg.l2_dirty_bytes_at_cold_start
    ms.begin_kernel(0, 8)
    assert ms.l2.dirty_sectors() == nbytes // 32 > 0
    ms.begin_kernel(0, 8, warm=True)
    assert ms.l2.dirty_sectors() == nbytes // 32  # kept, not added again


def test_l2_set_is_taken_in_the_allocation():
    """Two lines of different allocations at the same offset share a set (set_line), so a kernel's
    evictions do not depend on where earlier allocations put its arrays."""
    from simgpu.memory.l2 import l2_access

    l2, c = L2Cache(4 * 128, 1), np.zeros(N_COUNTERS, np.int64)  # 4 sets of one way
    for line in (1000, 2001):
        l2_access(L2_WRITE, np.int64(line), np.int64(15), l2.tags, l2.valid, l2.dirty, l2.lru, l2.nsets,
                  l2.fetch_pair, l2.write_hit, l2.stamp, c, 0, 0, 1, 3)
    assert c[C_DRAM_WRITE_SECTORS] == 4  # the second evicted the first


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 4000), st.integers(1, 4000))
def test_counters_do_not_depend_on_where_the_arrays_are(shift_a, shift_b):
    """A 64 KB L2 and a 96 KB stream of loads and stores over two arrays: the same counters wherever
    the heap put the arrays."""
    from dataclasses import replace

    from simgpu.arch import get_preset

    gpu = get_preset("h200")
    results = []
    for base_a, base_b in ((1 << 32, 1 << 33), ((1 << 32) + shift_a * 4096, (1 << 34) + shift_b * 4096)):
        ms = MemorySystem(gpu, mem=replace(MemorySystem(gpu).cfg, l2_bytes=64 * 1024,
                                           l2_dirty_bytes_at_cold_start=4096))
        ms.begin_kernel(0, 8, heap_bases=[base_a, base_b])
        for i in range(0, 48 * 1024, 128):
            sm = np.array([(i // 128) % 132])
            ms.global_access("ld", 0, sm, (base_a + i + LANE * 4).reshape(1, 32).astype(np.uint64), FULL, 4)
            ms.global_access("st", 1, sm, (base_b + i + LANE * 4).reshape(1, 32).astype(np.uint64), FULL, 4)
        m = ms.metrics()
        results.append({k: m[k] for k in m if k.startswith(("dram__", "lts__"))})
    assert results[0] == results[1]
    assert results[0]["dram__bytes_write.sum"] > 0  # it did evict


def test_cold_start_lines_written_back_are_reported_apart(h200):
    """simgpu__dram_bytes_write_cold_start_lines.sum: the part of dram__bytes_write that ncu's
    leftover dirty lines account for (all of it for a kernel that only reads)."""
    from dataclasses import replace

    from simgpu.arch import get_preset

    gpu = get_preset("h200")
    ms = MemorySystem(gpu, mem=replace(MemorySystem(gpu).cfg, l2_bytes=64 * 1024,
                                       l2_dirty_bytes_at_cold_start=4096))
    ms.begin_kernel(0, 8, heap_bases=[1 << 32])
    assert ms.metrics()["simgpu__dram_bytes_write_cold_start_lines.sum"] == 0
    for i in range(0, 256 * 1024, 128):  # 4x the L2, loads only
        addr = ((1 << 32) + i + LANE * 4).reshape(1, 32).astype(np.uint64)
        ms.global_access("ld", 0, np.array([(i // 128) % 132]), addr, FULL, 4)
    m = ms.metrics()
    assert m["simgpu__dram_bytes_write_cold_start_lines.sum"] == m["dram__bytes_write.sum"] == 4096
