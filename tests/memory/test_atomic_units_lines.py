"""Sector passes of a warp's global atomic per line (memory/atomics.py, for the timing replay's
atomic units): for each sector, the most lanes on one of its addresses, summed over the line's
sectors."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simgpu.memory.atomics import atomic_line_groups

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
