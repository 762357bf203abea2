"""Which SM runs which CTA (simgpu.core.dispatch) against the placements the H200 showed under ncu
(benchmarks/microbench/l2_drift/results/results.json)."""

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simgpu.core.dispatch import round_sms, sm_of_cta, sm_order, wave_sms
from simgpu.memory.topology import H200_GPCS

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench"
RESULTS = BENCH / "l2_drift" / "results" / "results.json"
SMALL = BENCH / "dispatch" / "results"
SWAP = {s: (s + 4 if s < 128 else s - 4) for s in range(124, 132)}  # 124-127 / 128-131 swap between launches


def test_second_round_of_256_ctas_skips_the_odd_sms_of_the_last_tpcs():
    # GPCs 2-5 give up one SM, GPCs 6-7 two: the odd SM of their last TPCs
    skipped = sorted(set(range(132)) - set(round_sms(124, 132).tolist()))
    assert skipped == [109, 111, 113, 115, 117, 119, 121, 123]


def test_last_round_of_512_ctas():
    r = round_sms(116, 132)
    per_gpc = [sum(s in g for s in r.tolist()) for g in H200_GPCS]
    assert per_gpc == [8, 14, 14, 14, 14, 14, 15, 15]
    assert set(range(124, 132)) <= set(r.tolist())


@given(st.integers(1, 132))
def test_a_round_is_m_distinct_sms_in_walk_order(m):
    r = round_sms(m, 132)
    assert len(r) == m == len(set(r.tolist()))
    pos = {s: i for i, s in enumerate(sm_order(132).tolist())}
    assert [pos[s] for s in r.tolist()] == sorted(pos[s] for s in r.tolist())


def test_a_small_launch_takes_one_sm_per_tpc_in_every_gpc():
    # 64 CTAs: SMs 124-131, then the even SM of TPCs dealt out over the GPCs in turn
    r = round_sms(64, 132).tolist()
    assert r[:8] == list(range(124, 132))
    assert [sum(s in g for s in r) for g in H200_GPCS] == [4, 8, 8, 8, 7, 7, 7, 7]
    assert all(s % 2 == 0 for s in r[8:])


@pytest.mark.skipif(not SMALL.exists(), reason="the dispatch measurements are not in this checkout")
def test_matches_every_measured_launch_size():
    """8 to 256 CTAs (benchmarks/microbench/dispatch, 3 plain runs and one under ncu): every CTA on
    the SM the H200 used, up to the swap of SMs 124-127 and 128-131."""
    seen = 0
    for path in SMALL.glob("*.txt"):
        for line in path.read_text().splitlines():
            if line.startswith("RESULT "):
                r = json.loads(line[7:])
                sim = wave_sms(r["n"], 132).tolist()
                assert r["smid"] in (sim, [SWAP.get(s, s) for s in sim]), (path.name, r["n"])
                seen += 1
    assert seen >= 4 * 13


def test_waves():
    order = sm_order(132)
    assert np.array_equal(wave_sms(64, 132), round_sms(64, 132))  # one partial round
    w = wave_sms(256, 132)
    assert np.array_equal(w[:132], order) and np.array_equal(w[132:], round_sms(124, 132))
    assert np.array_equal(wave_sms(264, 132), np.tile(order, 2))
    assert np.array_equal(wave_sms(10, 40), np.arange(10))  # other GPUs: round robin over SM ids
    # a launch of 3 waves of 264 and a last one of 100: each wave placed by itself
    ids = np.arange(3 * 264 + 100)
    sms = sm_of_cta(ids, 264, 132, len(ids))
    assert np.array_equal(sms[792:], round_sms(100, 132)) and np.array_equal(sms[264:528], np.tile(order, 2))


@pytest.mark.skipif(not RESULTS.exists(), reason="the l2_drift measurements are not in this checkout")
def test_matches_every_ncu_launch_of_two_rounds_up_to_the_first_groups():
    """Every calibration-shaped launch (256 CTAs, 2 per SM) the H200 ran under ncu put its CTAs
    exactly where wave_sms does, up to the swap of SMs 124-127 and 128-131 between launches."""
    runs = json.loads(RESULTS.read_text())["ncu"]
    sim = wave_sms(256, 132).tolist()
    seen = 0
    for r in runs:
        if r["name"].split("_")[1] in ("calib", "gensplit") and "smid" in r:
            real = r["smid"]
            assert real == sim or real == [SWAP.get(s, s) for s in sim], r["name"]
            seen += 1
    assert seen >= 8
