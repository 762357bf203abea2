"""validation/score.py and acceptance.py on hand-made snapshots: the scores and the moved launches
are what the numbers give."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

VALIDATION = Path(__file__).resolve().parents[1] / "validation"
TIME = "gpu__time_duration.sum"
READ = "lts__t_sectors_srcunit_tex_op_read.sum"
HIT = "l1tex__t_sector_hit_rate.pct"
REQ = "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"


@pytest.fixture(scope="module")
def score():
    sys.path.insert(0, str(VALIDATION))
    try:
        import score as mod
        yield mod
    finally:
        sys.path.remove(str(VALIDATION))


def _snapshot(times: list[float], reads: list[float], reqs: list[float]) -> dict:
    return {f"s:k{i}#0": {TIME: [t, 100.0], READ: [r, 1000.0], HIT: [50.0, 51.0], REQ: [q, 64.0]}
            for i, (t, r, q) in enumerate(zip(times, reads, reqs))}


def test_summary_counts_what_the_errors_give(score):
    snap = _snapshot([95.0, 115.0, 130.0, 70.0], [1000.0, 1010.0, 1030.0, 990.0], [64.0, 64.0, 63.0, 64.0])
    s = score.summary(snap)
    assert s["time: mean |error|"] == "20.00 %"  # (5 + 15 + 30 + 30) / 4
    assert s["time: within 10 %"] == "1" and s["time: within 20 %"] == "2"
    assert s["time: median error"] == "+5.00 %"  # median of -5, +15, +30, -30
    assert s["L2 reads: mean |error|"] == "1.25 %"
    # launch 2 misses the exact request count and the 2 % L2 reads, the others pass every check
    assert s["checks: pass all"] == "3"
    assert s[f"  {REQ}"] == "3 of 4" and s[f"  {READ}"] == "3 of 4" and s[f"  {HIT}"] == "4 of 4"


def test_moved_lists_time_changes_past_the_threshold_and_changed_checks(score):
    old = _snapshot([95.0, 115.0], [1000.0, 1030.0], [64.0, 64.0])
    new = _snapshot([95.5, 101.0], [1000.0, 1010.0], [64.0, 63.0])
    lines = score.moved(new, old, 1.0)
    assert len(lines) == 3
    assert lines[0].startswith("time  s:k1#0") and "+15.0 % ->" in lines[0] and "+1.0 %" in lines[0]
    assert any(READ in x and "now passes" in x for x in lines)
    assert any(REQ in x and "now fails" in x for x in lines)
