"""Sector passes of a warp's global atomic per line (memory/line_units.py, for the timing replay's
atomic units): for each sector, the most lanes on one of its addresses, summed over the line's
sectors."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simgpu.memory.line_units import atomic_line_groups, partial_store_groups

LANE = np.arange(32)


def _one(addr, mask=None):
    addr = np.asarray(addr, np.int64)[None, :]
    mask = np.ones((1, 32), bool) if mask is None else np.asarray(mask, bool)[None, :]
    return [tuple(int(x) for x in t) for t in zip(*atomic_line_groups(addr, mask))]


def test_one_word_takes_a_pass_per_lane():
    assert _one(np.full(32, 4096)) == [(0, 32, 32)]


def test_distinct_words_of_a_line_take_a_pass_per_sector():
    assert _one(4096 + LANE * 4) == [(0, 32, 4)]


def test_eight_words_of_one_sector_four_lanes_each():
    assert _one(LANE % 8 * 4) == [(0, 0, 4)]


def test_lines_apart_and_inactive_lanes_left_out():
    mask = LANE % 2 == 0
    got = _one(LANE * 128, mask)  # 16 active lanes, a line each
    assert got == [(0, line, 1) for line in range(0, 32, 2)]


def _brute(addr, mask):
    out = []
    for r in range(addr.shape[0]):
        lines: dict[int, dict[int, list[int]]] = {}
        for lane in range(32):
            if mask[r, lane]:
                a = int(addr[r, lane])
                lines.setdefault(a // 128, {}).setdefault(a // 32, []).append(a)
        for line in sorted(lines):
            passes = sum(max(words.count(w) for w in words) for words in lines[line].values())
            out.append((r, line, passes))
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4).flatmap(lambda k: st.tuples(
    st.lists(st.lists(st.integers(0, 300), min_size=32, max_size=32), min_size=k, max_size=k),
    st.lists(st.lists(st.booleans(), min_size=32, max_size=32), min_size=k, max_size=k),
    st.sampled_from([4, 8, 32]))))
def test_matches_brute_force(case):
    words, on, size = case
    addr = np.asarray(words, np.int64) * size
    mask = np.asarray(on, bool)
    got = [tuple(int(x) for x in t) for t in zip(*atomic_line_groups(addr, mask))]
    assert got == _brute(addr, mask)


# ---------------------------------------------------------------- stores that leave part of a sector


def _partial(addr, mask=None, nbytes=4):
    addr = np.asarray(addr, np.int64).reshape(-1, 32)
    mask = np.ones(addr.shape, bool) if mask is None else np.asarray(mask, bool).reshape(-1, 32)
    row, line, passes = partial_store_groups(addr, mask, nbytes)
    assert (passes == 1).all()
    return list(zip(row.tolist(), line.tolist()))


def test_whole_sectors_take_no_pass():
    assert _partial(LANE * 4) == []  # a coalesced float store: one whole line
    assert _partial(LANE * 16, nbytes=16) == []  # float4: four whole lines


def test_partial_lines_take_a_pass_each():
    assert _partial(LANE * 8) == [(0, 0), (0, 1)]  # every other word: 2 lines, half of each sector
    assert _partial(LANE * 128) == [(0, line) for line in range(32)]  # a word per line
    mask = LANE < 31  # the last word of the line left out
    assert _partial(LANE * 4, mask) == [(0, 0)]


def _brute_partial(addr, mask, nbytes):
    out = []
    for r in range(addr.shape[0]):
        cov: dict[int, set[int]] = {}
        order: list[int] = []
        for lane in range(32):
            if mask[r, lane]:
                a = int(addr[r, lane])
                if a // 32 not in cov:
                    order.append(a // 32)
                cov.setdefault(a // 32, set()).update(range(a % 32, a % 32 + nbytes))
        lines = []
        for s in order:
            if len(cov[s]) < 32 and s // 4 not in lines:
                lines.append(s // 4)
        out += [(r, line) for line in lines]
    return out


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 4).flatmap(lambda k: st.tuples(
    st.lists(st.lists(st.integers(0, 200), min_size=32, max_size=32), min_size=k, max_size=k),
    st.lists(st.lists(st.booleans(), min_size=32, max_size=32), min_size=k, max_size=k),
    st.sampled_from([1, 2, 4, 8, 16]))))
def test_partial_lines_match_brute_force(case):
    words, on, nbytes = case
    addr = np.asarray(words, np.int64) * nbytes
    mask = np.asarray(on, bool)
    assert _partial(addr, mask, nbytes) == _brute_partial(addr, mask, nbytes)
