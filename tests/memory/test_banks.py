import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simgpu.memory.banks import shared_wavefronts, shared_wavefronts_nb, shared_wavefronts_reference

LANE = np.arange(32, dtype=np.int64)
FULL = np.ones((1, 32), bool)


def wf(addr, size=4, mask=None, op="ld"):
    addr = np.asarray(addr, dtype=np.int64).reshape(1, 32)
    mask = FULL if mask is None else np.asarray(mask, bool).reshape(1, 32)
    w, ideal = shared_wavefronts(addr, mask, size, op)
    w2, i2 = np.zeros(1, np.int64), np.zeros(1, np.int64)
    shared_wavefronts_nb(addr, mask, size, op == "atom", w2, i2)
    assert (w2[0], i2[0]) == (w[0], ideal[0])
    return int(w[0]), int(ideal[0])


@pytest.mark.parametrize("stride_words,expected", [(1, 1), (2, 2), (4, 4), (8, 8), (16, 16),
                                                   (32, 32), (33, 1),
                                                   (3, 1), (64, 32)])
def test_32bit_strides(stride_words, expected):
    assert wf(LANE * 4 * stride_words) == (expected, 1)


def test_broadcast_and_multicast():
    assert wf(np.zeros(32)) == (1, 1)
    assert wf((LANE // 2) * 4) == (1, 1)  # pairs share a word
    assert wf((LANE % 2) * 128) == (2, 1)  # two words in bank 0


def test_8_and_16_bit_share_words():
    assert wf(LANE * 2, size=2) == (1, 1)  # 64 B, 16 words
    assert wf(LANE, size=1) == (1, 1)
    assert wf(LANE * 128, size=2) == (32, 1)


def test_64bit_half_warps():
    assert wf(LANE * 8, size=8) == (2, 2)  # contiguous doubles: 2 wavefronts, no conflict
    assert wf(LANE * 16, size=8) == (4, 2)  # stride 2 doubles: each half-warp 2-way
    assert wf(np.zeros(32), size=8) == (1, 1)  # broadcast: pair-packed, one full-warp phase
    half = np.ones(32, bool)
    half[16:] = False
    assert wf(LANE * 8, size=8, mask=half) == (1, 1)
    assert wf(LANE * 256, size=8) == (32, 2)  # 16 distinct word pairs in banks 0/1 per half


def test_no_active_pair_does_not_pack():
    """A warp none of whose lane pairs (n, n^1 / n^2) has both lanes active is not pair-packed: its
    64-bit accesses keep half-warp phases (the H200: typical's bitonic_sort_1024 STS.64 under a
    data-dependent branch, validation/shared_sass)."""
    every_fourth = LANE % 4 == 0  # lanes 0, 4, 8, ...: no n^1 or n^2 partner active
    assert wf(LANE * 8, size=8, mask=every_fourth) == (2, 2)
    assert wf(LANE * 16, size=16, mask=every_fourth) == (4, 4)
    one_pair = every_fourth | (LANE == 1)  # lanes 0 and 1 both active, different addresses
    assert wf(LANE * 8, size=8, mask=one_pair) == (2, 2)
    same_pair = every_fourth.copy()  # lanes 0 and 1 both active, the same address: packs
    same_pair[1] = True
    addr = (LANE // 4) * 8  # lane 1 shares lane 0's address; the others 8 bytes apart
    assert wf(addr, size=8, mask=same_pair) == (1, 1)


def test_128bit_quarter_warps():
    assert wf(LANE * 16, size=16) == (4, 4)  # float4 contiguous: 4 wavefronts, 0 conflicts
    assert wf(LANE * 32, size=16) == (8, 4)  # stride 2 float4: 2-way inside each quarter
    assert wf(LANE * 128, size=16) == (32, 4)  # all lanes in banks 0-3: 8-way per quarter
    assert wf(np.zeros(32), size=16) == (2, 2)  # pair-packed: half-warp phases
    # gemm_tiled's LDS.128 of As[ty][k..k+3]: lanes 0-15 one address, lanes 16-31 another
    assert wf(np.where(LANE < 16, 0, 64), size=16) == (2, 2)
    assert wf(np.where(LANE < 16, 0, 256), size=16) == (2, 2)  # one address per phase
    assert wf((LANE // 2) * 128, size=16) == (16, 2)  # packed, but 8 addresses in banks 0-3 per phase
    assert wf((LANE // 2) * 16, size=16) == (2, 2)  # pairs Tn/Tn^1 equal


def test_atomics_serialise_same_word():
    assert wf(np.zeros(32), op="atom") == (32, 1)
    assert wf(LANE * 4, op="atom") == (1, 1)


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.lists(st.integers(0, 2047), min_size=32, max_size=32),
                  st.lists(st.booleans(), min_size=32, max_size=32), st.booleans()),
        min_size=1, max_size=5),
    size=st.sampled_from([1, 2, 4, 8, 16]),
    op=st.sampled_from(["ld", "st", "atom"]),
)
def test_vectorised_and_numba_match_bruteforce(rows, size, op):
    # naturally aligned; small ranges so that equal addresses (broadcasts, pair packing) occur often
    addr = np.array([[(a % (64 if r[2] else 2048)) * size for a in r[0]] for r in rows], dtype=np.int64)
    mask = np.array([r[1] for r in rows], dtype=bool)
    ref_wf, ref_ideal = shared_wavefronts_reference(addr, mask, size, op)
    w, ideal = shared_wavefronts(addr, mask, size, op)
    np.testing.assert_array_equal(w, ref_wf)
    np.testing.assert_array_equal(ideal, ref_ideal)
    w2, i2 = np.zeros(len(rows), np.int64), np.zeros(len(rows), np.int64)
    shared_wavefronts_nb(addr, mask, size, op == "atom", w2, i2)
    np.testing.assert_array_equal(w2, ref_wf)
    np.testing.assert_array_equal(i2, ref_ideal)


def test_memory_system_counts_shared_atomics_like_loads():
    """Measured on the H200 (histogram program): same-word atomic lanes share a wavefront in ncu's count."""
    from simgpu.arch import get_preset
    from simgpu.memory.system import MemorySystem

    ms = MemorySystem(get_preset("h200"))
    ms.begin_kernel(1024, 1)
    same = np.zeros((1, 32), np.int64)
    two_per_bank = (np.arange(32) % 2 * 128)[None, :]  # two words in bank 0
    ms.shared_access("atom", 0, same, np.ones((1, 32), bool), 4)
    ms.shared_access("atom", 1, two_per_bank, np.ones((1, 32), bool), 4)
    assert ms.metrics()["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] == 1 + 2


# ---- the lanes a spinning CAS (ATOMS.CAST.SPIN) tries: the first active lane of each bank a phase

def test_spin_lanes_analytic():
    from simgpu.memory.banks import spin_lanes
    assert spin_lanes((4 * LANE)[None], FULL, 4).sum() == 32  # 32 words in 32 banks
    assert spin_lanes((128 * LANE)[None], FULL, 4).sum() == 1  # one bank
    assert spin_lanes(np.zeros((1, 32), np.int64), FULL, 8).sum() == 2  # one double: once a half-warp
    assert spin_lanes((8 * LANE)[None], FULL, 8).sum() == 32  # 16 bank pairs a half-warp
    first = spin_lanes((128 * LANE)[None], LANE[None] >= 5, 4)
    assert np.flatnonzero(first[0]).tolist() == [5]  # the lowest active lane


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 255), min_size=32, max_size=32), st.lists(st.booleans(), min_size=32, max_size=32),
       st.sampled_from([4, 8]))
def test_spin_lanes_against_brute_force(words, active, size):
    from simgpu.memory.banks import spin_lanes
    addr = np.array(words, np.int64)[None] * size
    mask = np.array(active, bool)[None]
    got = spin_lanes(addr, mask, size)[0]
    seen, want = set(), np.zeros(32, bool)
    for lane in range(32):
        if not mask[0, lane]:
            continue
        group = (lane // 16, (addr[0, lane] // 8) % 16) if size == 8 else (addr[0, lane] // 4) % 32
        if group not in seen:
            seen.add(group)
            want[lane] = True
    assert np.array_equal(got, want)


def test_spin_wavefronts_two_a_phase():
    from simgpu.memory.banks import spin_wavefronts
    lanes = np.stack([LANE == 0, LANE < 16, LANE >= 16, np.ones(32, bool), np.zeros(32, bool)])
    assert spin_wavefronts(lanes, 4).tolist() == [2, 2, 2, 2, 0]
    assert spin_wavefronts(lanes, 8).tolist() == [2, 2, 2, 4, 0]
