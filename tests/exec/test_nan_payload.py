"""binary32 NaN results and min/max as the H200 returned them, on both engines: the same kernels
(benchmarks/microbench/nan/*.cu) against what the hardware wrote (*results_h200.json)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import simgpu

HERE = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "microbench", "nan")
NAN_OPS = ["add", "sub", "mul", "fma", "neg", "abs", "fmax", "add_swapped"]  # the order nan_payload.cu writes


def _run(cu: str, cases: list[dict], inputs: str, n_out: int, engine: str) -> np.ndarray:
    src = open(os.path.join(HERE, cu)).read()
    args = [simgpu.asarray(np.array([int(c[k], 16) for c in cases], np.uint32).view(np.float32)) for k in inputs]
    n = len(cases)
    out = simgpu.zeros(n_out * n, dtype=np.uint32)
    simgpu.RawKernel(src, "k")((4,), (32,), (*args, out, np.int32(n)), engine=engine, timing=False)
    return out.get().reshape(n, n_out)


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_nan_results_match_the_h200(engine):
    cases = json.load(open(os.path.join(HERE, "results_h200.json")))["cases"]
    got = _run("nan_payload.cu", cases, "abc", len(NAN_OPS), engine)
    for row, case in zip(got, cases):
        for op, v in zip(NAN_OPS, row):
            assert int(v) == int(case[op], 16), f"{op}({case['a']}, {case['b']}, {case['c']}) on {engine}"


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_min_max_match_the_h200(engine):
    # cases with a subnormal operand are left out: the H200 run flushed 0x00000001 to zero, which
    # depends on how CuPy compiled fmaxf (flush-to-zero), not on max.f32 itself
    cases = [c for c in json.load(open(os.path.join(HERE, "minmax_results_h200.json")))["cases"]
             if "0x00000001" not in (c["a"], c["b"])]
    got = _run("minmax.cu", cases, "ab", 2, engine)
    for (mx, mn), case in zip(got, cases):
        assert (int(mx), int(mn)) == (int(case["max"], 16), int(case["min"], 16)), (case, hex(mx), hex(mn))
