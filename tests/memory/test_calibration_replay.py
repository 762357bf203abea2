"""Replay analytic address streams of the calibration kernels and compare with ncu on a real H200.

Tolerances (from the brief): requests, sectors, shared wavefronts and bank conflicts exact;
lts__t_sectors_srcunit_tex_op_read within 2 %; l1tex__t_sector_hit_rate within 3 points;
dram__bytes_read within 5 %. L2 hit rate and DRAM writes are reported, not asserted (see
simgpu/memory/config.py: the two-partition L2 is not modelled).
"""

import json
from pathlib import Path

import pytest
from calib_streams import CASES, gemm_naive, gemm_tiled

from simgpu.memory import MemorySystem

CALIB = Path(__file__).resolve().parents[3] / "shared" / "calibration" / "h200_metrics.json"
if not CALIB.exists():
    CALIB = Path("/work/shared/calibration/h200_metrics.json")

EXACT = [
    f"l1tex__t_{kind}_pipe_lsu_mem_global_op_{op}.sum"
    for kind in ("requests", "sectors")
    for op in ("ld", "st", "atom", "red")
] + [
    f"l1tex__data_{kind}_mem_shared_op_{op}.sum"
    for kind in ("pipe_lsu_wavefronts", "bank_conflicts_pipe_lsu")
    for op in ("ld", "st")
] + ["lts__t_sectors_srcunit_tex_op_write.sum"]


@pytest.fixture(scope="module")
def measured():
    if not CALIB.exists():
        pytest.skip("calibration data not found")
    entries = json.loads(CALIB.read_text())
    return {e["name"]: {k: float(v) for k, v in e["metrics"].items() if _num(v)} for e in entries}


def _num(v):
    try:
        float(v)
        return True
    except ValueError:
        return False


@pytest.mark.parametrize("name", list(CASES))
def test_replay_matches_h200(name, measured, h200):
    ms = MemorySystem(h200)
    CASES[name](ms)
    sim, real = ms.metrics(), measured[name]
    for key in EXACT:
        if key in real:  # ncu did not collect the atom/red sector counts
            assert sim[key] == real[key], key
    rd_s, rd_r = sim["lts__t_sectors_srcunit_tex_op_read.sum"], real["lts__t_sectors_srcunit_tex_op_read.sum"]
    assert abs(rd_s - rd_r) <= 0.02 * rd_r
    assert abs(sim["l1tex__t_sector_hit_rate.pct"] - real["l1tex__t_sector_hit_rate.pct"]) <= 3.0
    dr_s, dr_r = sim["dram__bytes_read.sum"], real["dram__bytes_read.sum"]
    assert abs(dr_s - dr_r) <= 0.05 * dr_r


@pytest.mark.parametrize("name,fn", [("gemm_naive", gemm_naive), ("gemm_tiled", gemm_tiled)])
def test_gemm_counts_independent_of_timing(name, fn, measured, h200):
    """Requests, sectors, shared wavefronts and L2 write sectors do not depend on timing: exact.
    L1/L2 hit rates of the gemms do (in-flight misses to one sector count as misses on the real GPU,
    see the report), so they are not asserted here."""
    ms = MemorySystem(h200)
    fn(ms)
    sim, real = ms.metrics(), measured[name]
    for key in EXACT:
        if key in real:
            assert sim[key] == real[key], key
    key = "smsp__sass_inst_executed_op_shared_ld.sum"
    assert sim[key] == real[key]
