"""Every calibration kernel runs at its measured size, matches its NumPy reference, and its memory
counters match what the H200 measured (issue acceptance: exact requests/sectors/wavefronts, L2 read
sectors within 2%, L1 hit rate within 3 points, DRAM bytes read within 5%)."""

from __future__ import annotations

import pytest

from simgpu.validate import run_suite

# Where the simulator is known to differ from the H200, and why (see README "Fidelity"). None today:
# the last one, gemm_tiled's L2 read sectors (+2.2 % with fixed merge windows), closed when the
# replay started deciding the L1 -> L2 merging at issue with each request's own time in flight
# (simgpu/timing/load_lines.py, l2_merge.py): gemm_naive -1.1 %, gemm_tiled +1.6 % (2026-11-30; the
# H200 itself gave gemm_tiled 154,496-159,142 over twelve launches).
KNOWN_GAPS: set[tuple[str, str]] = set()


@pytest.fixture(scope="module")
def results(calibration_dir):
    return run_suite(str(calibration_dir / "specs.py"), str(calibration_dir / "h200_metrics.json"))


def test_all_outputs_match(results):
    assert len(results) == 10
    bad = [(r.name, r.max_rel_error) for r in results if not r.outputs_ok]
    assert not bad


def test_counters_within_acceptance(results):
    failures = []
    for r in results:
        for row in r.rows:
            if row.passed is False and row.kind != "time" and (r.name, row.metric) not in KNOWN_GAPS:
                failures.append((r.name, row.metric, row.simulated, row.measured))
    assert not failures


def test_known_gaps_are_still_gaps(results):
    """If a known gap closes, this fails so that the list (and the README) gets updated."""
    by = {(r.name, row.metric): row for r in results for row in r.rows}
    for key in KNOWN_GAPS:
        assert by[key].passed is False, f"{key} now matches the H200: remove it from KNOWN_GAPS"


def test_exact_counts_really_are_exact(results):
    for r in results:
        for row in r.rows:
            if row.kind == "exact":
                assert row.simulated == row.measured, (r.name, row.metric)
