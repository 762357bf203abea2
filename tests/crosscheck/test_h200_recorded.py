"""The committed validation run (validation/h200_<date>.json, made on a real H200 by
`simgpu compare all --suite calibration/specs.py`) replayed against the current simulator: the
counters that follow from addresses alone must still match the hardware exactly."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from simgpu.crosscheck import crosscheck
from simgpu.crosscheck.compare import CrosscheckReport

ROOT = Path(__file__).resolve().parents[2]
RUNS = sorted((ROOT / "validation").glob("h200_*.json"))


@pytest.fixture(scope="module")
def recorded():
    if not RUNS:
        pytest.skip("no validation/h200_*.json")
    return RUNS[-1]


def test_recorded_run_is_complete(recorded):
    data = json.loads(recorded.read_text())
    assert data["device"]["name"] == "NVIDIA H200" and data["device"]["multiprocessor_count"] == 132
    assert data["property_warnings"] == []
    cases = data["cases"]
    assert {c["kind"] for c in cases} == {"program", "spec"}
    assert all(c["real_ran"] for c in cases)
    assert all(o["ok"] for c in cases for o in c["outputs"])
    for c in cases:
        for lr in c["launches"]:
            assert len(lr["timing"]["ncu_ns_runs"]) == 7
            assert lr["timing"]["event_runs"] > 0
    again = CrosscheckReport.read_json(recorded).rescore()
    assert again.ok


@pytest.mark.parametrize("spec", ["transpose_naive", "transpose_padded", "gemm_tiled"])
def test_simulator_still_matches_recorded_h200(recorded, calib_dir, spec):
    report = crosscheck(suite=calib_dir / "specs.py", specs=[spec], recorded=recorded, echo=None)
    case = report.cases[0]
    assert case.real_ran and case.outputs_ok, case.errors
    exact = [r for lr in case.launches for r in lr.metrics if r.expect == "exact" and r.status != "n/a"]
    assert len(exact) >= 20
    off = [(r.metric, r.simulated, r.real) for r in exact if r.status != "match"]
    assert not off, off
    assert case.launches[0].timing.ncu_ns_median > 0


def test_readme_table_is_generated(recorded):
    out = subprocess.run([sys.executable, str(ROOT / "validation" / "make_readme_table.py"), str(recorded),
                          "--by-metric"], capture_output=True, text=True, check=True).stdout
    assert "| case | outputs |" in out and "| metric | expect |" in out
    assert "spec vector_add" in out and "NVIDIA H200" in out
