"""simgpu's L1 against the H100's line-by-line hits (benchmarks/microbench/l1_sets, results_h100:
clock64 around each load of one thread an SM, plain loads, the 64 KB carveout: 1,480 lines).

Every pattern the H100 kept whole from the second round on, simgpu keeps whole too: its capacity
and set index hold contiguous sweeps, rows of 1-16 lines 2 KB-512 KB apart and rows 255-520 lines
apart that fit. What it does not reproduce is pinned as a strict xfail: rows 32 KB apart with 1 KB
of each, which the H100's index crowds into about 3/4 of its L1."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "l1_sets"
_spec = importlib.util.spec_from_file_location("l1_sets_analyze", HERE / "analyze.py")
analyze = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(analyze)

TESTS = analyze.load(HERE / "results_h100")


def test_recorded_bits_are_the_launches():
    """132 tests, one hit bit per access: no hit on a first touch, and the contiguous 1,280 lines
    hit fully from the second round (the threshold tells hits from L2 answers)."""
    assert len(TESTS) == 132
    for t in TESTS:
        assert not t["hits"][:analyze.round_length(t)].any(), t["index"]
    contiguous = next(t for t in TESTS if t["kind"] == 0 and t["R"] == 1 and t["nr"] == 1280)
    assert contiguous["hits"][1280:4 * 1280].all()


KEPT = [t for t in TESTS if t["kind"] == 0 and analyze.last_round(t, t["hits"]) >= 99.5]


@pytest.mark.parametrize("t", KEPT, ids=[f"R{t['R']}_nj{t['nj']}_nr{t['nr']}_off{t['off']}" for t in KEPT])
def test_simgpu_keeps_what_the_h100_kept(t):
    assert len(KEPT) == 21
    assert analyze.last_round(t, analyze.simulate(t)) >= 99.5


ROWS_32KB = [t for t in TESTS if t["kind"] == 0 and t["R"] == 256 and t["nj"] == 8 and 152 <= t["nr"] <= 192]


@pytest.mark.xfail(strict=True, reason="the H100's set index crowds rows 32 KB apart into ~3/4 of the L1 "
                                       "(l1_sets README); simgpu's XOR fold spreads them over all of it")
def test_rows_32kb_apart_lose_as_on_the_h100():
    assert len(ROWS_32KB) >= 10
    for t in ROWS_32KB:
        hw = analyze.last_round(t, t["hits"])
        assert 33.0 <= hw <= 42.2
        assert abs(analyze.last_round(t, analyze.simulate(t)) - hw) <= 5.0, t["index"]
