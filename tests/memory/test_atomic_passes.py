"""memory/system.atomic_passes: a warp's atomic split into passes with no address twice in a pass
(measured: a float atomicAdd of 32 lanes to one word counts 32 sectors on the H200)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simgpu.memory.system import atomic_passes


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.lists(st.integers(0, 5), min_size=32, max_size=32),
                          st.lists(st.booleans(), min_size=32, max_size=32)), min_size=1, max_size=6))
def test_passes_partition_the_lanes_without_repeats(rows):
    addr = np.array([[4 * a for a in r[0]] for r in rows], np.int64)
    mask = np.array([r[1] for r in rows], bool)
    row_of, p_addr, p_mask = atomic_passes(addr, mask)
    for i in range(len(rows)):
        mine = np.flatnonzero(row_of == i)
        # every active lane in exactly one pass, no inactive lane anywhere
        assert np.array_equal(p_mask[mine].sum(axis=0), mask[i].astype(int))
        # as many passes as the most repeated address (at least one), none repeats an address
        counts = np.bincount(addr[i][mask[i]] // 4, minlength=6)
        assert len(mine) == max(1, counts.max())
        for j in mine:
            on = p_addr[j][p_mask[j]]
            assert len(set(on.tolist())) == len(on)


def test_one_address_is_one_pass_per_lane():
    addr = np.zeros((1, 32), np.int64)
    mask = np.ones((1, 32), bool)
    row_of, _, p_mask = atomic_passes(addr, mask)
    assert len(row_of) == 32 and (p_mask.sum(axis=1) == 1).all()
