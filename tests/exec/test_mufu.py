"""The H200's MUFU.RCP / RSQ / SQRT / EX2 tables (exec/mufu.py) against what the H200 answered for
16,384 operands per instruction that the tables were not built from
(benchmarks/microbench/math_api/results/probe_h200.npz), through the PTX instructions."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest
from ptxharness import run_op

from simgpu.exec import mufu

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "math_api"


def _probe_inputs():
    spec = importlib.util.spec_from_file_location("math_api_table", HERE / "table.py")
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    return table.probe_inputs()


@pytest.mark.parametrize("probe,instr", [
    ("p_rcp_f32", "rcp.approx.f32"), ("p_rcp_ftz_f32", "rcp.approx.ftz.f32"), ("p_rsqrt_f32", "rsqrt.approx.f32"),
    ("p_sqrt_f32", "sqrt.approx.f32"), ("p_ex2_f32", "ex2.approx.f32"), ("p_ex2_ftz_f32", "ex2.approx.ftz.f32"),
])
def test_mufu_tables_give_the_h200_bits(probe, instr):
    x = _probe_inputs()[probe]
    want = np.load(HERE / "results" / "probe_h200.npz")[probe]
    got = np.asarray(run_op(f"{instr} %d, %a;", [("f32", x)], "f32"), np.float32)
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32)), \
        f"{instr}: {(got.view(np.uint32) != want.view(np.uint32)).sum()} of {x.size} differ"


@pytest.mark.parametrize("op,x,want", [
    ("rcp", [0.0, -0.0, np.inf, 2.0**127, 1e-40], [np.inf, -np.inf, 0.0, 0.0, np.inf]),  # flushes both ways
    ("rsqrt", [0.0, -0.0, np.inf, -1.0, 4.0], [np.inf, -np.inf, 0.0, np.nan, 0.5]),
    ("sqrt", [0.0, -0.0, np.inf, -1.0, 4.0, 1e-40], [0.0, -0.0, np.inf, np.nan, 2.0, 0.0]),
])
def test_mufu_special_operands(op, x, want):
    got = mufu.unit(op, np.array(x, np.float32))
    for g, w in zip(got, want):
        assert (np.isnan(g) and np.isnan(w)) or (g == w and np.signbit(g) == np.signbit(w)), (op, x, got)
    assert all(int(v) == 0x7FFFFFFF for v in got.view(np.uint32)[np.isnan(got)])


def test_ex2_special_operands():
    x = np.array([0.0, -0.0, 1e-45, 1.0, -1.0, 128.0, -200.0, np.inf, -np.inf, np.nan], np.float32)
    got = mufu.ex2_approx(x, ftz=True)
    assert list(got[:5]) == [1.0, 1.0, 1.0, 2.0, 0.5]
    assert got[5] == np.inf and got[6] == 0 and got[7] == np.inf and got[8] == 0 and np.isnan(got[9])
    # without .ftz a result below 2**-126 is the square of 2**(x/2): subnormal, not zero
    assert 0 < mufu.ex2_approx(np.array([-140.0], np.float32), ftz=False)[0] < 2.0**-126
