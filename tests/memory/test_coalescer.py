import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgpu.memory.banks import shared_wavefronts_reference
from simgpu.memory.coalescer import (
    coalesce,
    coalesce_nb,
    coalesce_reference,
    load_wavefronts,
    load_wavefronts_of,
    store_write_cycles,
    store_write_cycles_of,
)

LANE = np.arange(32, dtype=np.int64)
BASE = 1 << 32


def _one(addr, mask=None, size=4):
    addr = np.asarray(addr, dtype=np.int64).reshape(1, -1)
    mask = np.ones(addr.shape, bool) if mask is None else np.asarray(mask, bool).reshape(1, -1)
    return coalesce(addr.astype(np.uint64), mask, size)


def _nb(addr, mask, size):
    addr = np.ascontiguousarray(addr, dtype=np.int64)
    mask = np.ascontiguousarray(mask, dtype=np.bool_)
    k, L = addr.shape
    sec, lines = np.zeros(k, np.int64), np.zeros(k, np.int64)
    gw, gl, gm = np.empty(2 * k * L, np.int64), np.empty(2 * k * L, np.int64), np.empty(2 * k * L, np.uint8)
    n = coalesce_nb(addr, mask, size, sec, lines, gw, gl, gm)
    return sec, lines, gw[:n], gl[:n], gm[:n]


@pytest.mark.parametrize("stride,sectors", [(1, 4), (2, 8), (4, 16), (8, 32), (16, 32), (32, 32), (1000, 32)])
def test_strided_floats(stride, sectors):
    assert _one(BASE + LANE * 4 * stride).sectors[0] == sectors


def test_contiguous_float4_is_16_sectors_4_lines():
    c = _one(BASE + LANE * 16, size=16)
    assert c.sectors[0] == 16 and c.lines[0] == 4 and c.requests[0] == 1


def test_broadcast_is_one_sector():
    c = _one(np.full(32, BASE + 12))
    assert c.sectors[0] == 1 and c.lines[0] == 1


def test_masked_lanes_ignored_and_empty_warp_counts_nothing():
    mask = LANE < 8
    c = _one(BASE + LANE * 128, mask)
    assert c.sectors[0] == 8
    c = _one(BASE + LANE * 4, np.zeros(32, bool))
    assert c.requests[0] == 0 and c.sectors[0] == 0 and c.lines[0] == 0 and c.g_line.size == 0


def test_misaligned_access_spans_two_sectors():
    assert _one([BASE + 30], [True], size=4).sectors[0] == 2  # bytes 30..33


def test_unaligned_line_offset():
    # 32 floats starting 16 bytes into a line: 5 sectors over 2 lines
    c = _one(BASE + 16 + LANE * 4)
    assert c.sectors[0] == 5 and c.lines[0] == 2
    np.testing.assert_array_equal(c.g_mask, [0b1111, 0b0001])


addr_rows = st.lists(
    st.tuples(
        st.integers(0, 4096),  # base offset
        st.sampled_from([0, 1, 2, 3, 4, 8, 17, 32, 33, 128, 1000]),  # lane stride (elements)
        st.lists(st.integers(0, 1 << 14), min_size=32, max_size=32),  # random jitter
        st.lists(st.booleans(), min_size=32, max_size=32),
        st.booleans(),  # use jitter (random addresses) instead of stride
    ),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(rows=addr_rows, size=st.sampled_from([1, 2, 4, 8, 16]))
def test_vectorised_and_numba_match_bruteforce(rows, size):
    addr = np.zeros((len(rows), 32), np.int64)
    mask = np.zeros((len(rows), 32), bool)
    for r, (base, stride, jitter, m, rnd) in enumerate(rows):
        a = np.array(jitter) if rnd else base + LANE * stride
        addr[r] = BASE + (a * size if not rnd else a)  # random rows may be unaligned
        mask[r] = m
    ref_sec, ref_lines, ref_lists = coalesce_reference(addr, mask, size)
    c = coalesce(addr.astype(np.uint64), mask, size)
    np.testing.assert_array_equal(c.sectors, ref_sec)
    np.testing.assert_array_equal(c.lines, ref_lines)
    for r in range(len(rows)):
        np.testing.assert_array_equal(c.sector_id[c.sector_warp == r], ref_lists[r])
    sec, lines, gw, gl, gm = _nb(addr, mask, size)
    np.testing.assert_array_equal(sec, ref_sec)
    np.testing.assert_array_equal(lines, ref_lines)
    np.testing.assert_array_equal(gw, c.g_warp)
    np.testing.assert_array_equal(gl, c.g_line)
    np.testing.assert_array_equal(gm, c.g_mask)


# L1TEX cycles of a load request (benchmarks/microbench/l1_pending_hits, H200 2026-12-04: 4.02, 8.02,
# 16.02, 32.01 and 32 cycles per warp load of floats 4, 8, 16, 32 and 64 words apart, 4 to 32 lanes a
# bank; 8.66 / 8.86 / 8.72 / 9.80 for rows 132 / 136 / 144 / 160 bytes apart, whose 32 lines the tag
# stage takes 4 a cycle)
@pytest.mark.parametrize("pitch,cycles", [(4, 1), (8, 2), (16, 4), (32, 8), (64, 16), (128, 32), (256, 32),
                                          (132, 8), (136, 8), (144, 8), (160, 8)])
def test_load_wavefronts_bank_conflicts_or_four_lines_a_cycle(pitch, cycles):
    addr = BASE + LANE * pitch
    c = _one(addr)
    mask = np.ones((1, 32), bool)
    assert load_wavefronts_of(addr[None, :], mask, 4, c.lines)[0] == cycles
    words, cnt = np.empty(64, np.int64), np.zeros(32, np.int64)
    assert load_wavefronts(addr, mask[0], 4, int(c.lines[0]), words, cnt) == cycles


def test_load_wavefronts_of_wide_loads_and_broadcasts():
    """A coalesced float4 load reads 512 B: four quarter-warp phases; float4s 128 B apart put every
    lane of a phase in the same four banks (8 wavefronts a phase); lanes on one word share it; one
    active lane takes a cycle."""
    mask = np.ones((1, 32), bool)
    coalesced = BASE + LANE * 16
    assert load_wavefronts_of(coalesced[None, :], mask, 16, _one(coalesced, size=16).lines)[0] == 4
    apart = BASE + LANE * 128
    assert load_wavefronts_of(apart[None, :], mask, 16, _one(apart, size=16).lines)[0] == 32
    same = np.full(32, BASE + 20)
    assert load_wavefronts_of(same[None, :], mask, 4, np.array([1]))[0] == 1
    one = np.zeros((1, 32), bool)
    one[0, 5] = True
    assert load_wavefronts_of(coalesced[None, :], one, 4, np.array([1]))[0] == 1


def _requests(rows, size):
    """addr_rows drawn as warp requests: (addresses, active-lane mask, sectors and lines per warp)."""
    addr = np.zeros((len(rows), 32), np.int64)
    mask = np.zeros((len(rows), 32), bool)
    for r, (base, stride, jitter, m, rnd) in enumerate(rows):
        addr[r] = BASE + (np.array(jitter) if rnd else (base + LANE * stride) * size)
        mask[r] = m
    sectors, lines, *_ = _nb(addr, mask, size)
    return addr, mask, sectors, lines


@settings(max_examples=100, deadline=None)
@given(rows=addr_rows, size=st.sampled_from([1, 2, 4, 8, 16]))
def test_load_wavefronts_against_the_bank_reference(rows, size):
    """Per warp: the shared-memory bank reference's wavefronts or a quarter of the lines (at least 1)."""
    addr, mask, _, lines = _requests(rows, size)
    vec = load_wavefronts_of(addr, mask, size, lines)
    ref, _ = shared_wavefronts_reference(addr, mask, size)
    words, cnt = np.empty(64, np.int64), np.zeros(32, np.int64)
    for r in range(len(rows)):
        expect = max(1, ref[r], -(-int(lines[r]) // 4))
        assert vec[r] == expect == load_wavefronts(addr[r], mask[r], size, int(lines[r]), words, cnt)


# A store's cycles on its CTA's write path (benchmarks/microbench/l2_writes: one CTA took 4.0, 7.3, 16,
# 40 and 63 cycles per warp store of floats spread over 1, 2, 4, 8 and 32 lines)
@pytest.mark.parametrize("stride,cycles", [(1, 4), (2, 8), (4, 16), (8, 32), (16, 32), (32, 64), (64, 64)])
def test_store_write_cycles_a_sector_a_cycle_two_a_line(stride, cycles):
    c = _one(BASE + LANE * 4 * stride)
    assert store_write_cycles_of(c.sectors, c.lines)[0] == cycles
    assert store_write_cycles(int(c.sectors[0]), int(c.lines[0])) == cycles


@settings(max_examples=100, deadline=None)
@given(rows=addr_rows, size=st.sampled_from([1, 2, 4, 8, 16]))
def test_store_write_cycles_vectorised_and_numba_agree(rows, size):
    _, _, sectors, lines = _requests(rows, size)
    vec = store_write_cycles_of(sectors, lines)
    for r in range(len(rows)):
        expect = max(int(sectors[r]), 2 * int(lines[r]))
        assert vec[r] == expect == store_write_cycles(int(sectors[r]), int(lines[r]))
