"""The CUDA math API against the H200, function by function (benchmarks/microbench/math_api).

433 kernels (every float, double, half and bf16 math function, the rounded intrinsics, conversions,
integer intrinsics, a fast-math module), 512 inputs each with the special values first, run on the
H200 through CuPy on the very PTX simgpu runs here (results/*.ptx.gz). A kernel whose PTX holds no
approximate instruction must give the H200's bits exactly (NaN payloads aside: any NaN for any
NaN). One that uses the MUFU approximations simgpu does not reproduce bit for bit (lg2, sin, cos,
tanh.approx.f32, div.full) is held to the relative error those approximations leave.
"""

from __future__ import annotations

import functools
import gzip
import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "math_api"
RESULTS = HERE / "results"
# the approximations simgpu does not reproduce bit for bit (rcp / rsqrt / sqrt / ex2 .approx.f32 and
# div.approx it does: exec/mufu.py)
APPROX = re.compile(r"\b(lg2|sin|cos|tanh)\.approx\.(ftz\.)?f32|\bdiv\.full")


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"math_api_{name}", HERE / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.cache
def _run():
    table, compare = _load("table"), _load("compare")
    ref = dict(np.load(RESULTS / "h200.npz"))
    sim = compare.simulate(str(RESULTS))
    ptx = "".join(gzip.open(RESULTS / f"{m}.ptx.gz", "rt").read() for m in ("plain", "fast"))
    bodies = dict(re.findall(r"\.entry (\w+)\((.*?)\n}\n", ptx, re.S))
    return table, compare, ref, sim, bodies


def _as_float(r: str, a: np.ndarray) -> np.ndarray:
    if r not in "fdhb":  # integer results: compared bit for bit only
        return np.zeros(a.shape)
    if r == "h":
        return a.view(np.float16).astype(np.float64)
    if r == "b":
        return (a.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
    with np.errstate(invalid="ignore"):  # float32 NaN to float64
        return a.astype(np.float64)


def test_every_function_matches_the_h200():
    table, compare, ref, sim, bodies = _run()
    exact_fail, approx_fail, n_exact, n_approx = [], [], 0, 0
    for name, _, r, _ in table.FUNCTIONS:
        a, b = sim[name], ref[name]
        same = compare.raw_bits(a) == compare.raw_bits(b)
        if r in "fdhb":
            fa, fb = _as_float(r, a), _as_float(r, b)
            same |= np.isnan(fa) & np.isnan(fb)
        if not APPROX.search(bodies[name]):
            n_exact += 1
            if not same.all():
                i = int(np.argmin(same))
                exact_fail.append(f"{name}: {int((~same).sum())} of {table.N} differ, e.g. #{i}: {a[i]!r} vs {b[i]!r}")
            continue
        n_approx += 1
        with np.errstate(all="ignore"):
            fin = np.isfinite(fa) & np.isfinite(fb)
            scale = np.maximum(1.0, np.abs(fb))
            if "tan" in name and "tanh" not in name:  # sin / cos's absolute error, times d tan = (1 + tan^2) d angle
                fin &= np.abs(fb) < 1e3
                same |= np.abs(fb) >= 1e3
                scale = 10 * (1 + fb * fb)
            rel = np.where(fin, np.abs(fa - fb) / scale, 0.0)
        bad = (~fin & ~same) | (rel > 1e-5)
        if bad.any():
            i = int(np.argmax(bad))
            approx_fail.append(f"{name}: {int(bad.sum())} beyond 1e-5, e.g. #{i}: {a[i]!r} vs {b[i]!r}")
    assert n_exact > 380 and n_approx > 20, (n_exact, n_approx)
    assert not exact_fail, "\n".join(exact_fail)
    assert not approx_fail, "\n".join(approx_fail)


@pytest.mark.parametrize("name", ["f___sinf", "f___cosf"])
def test_mufu_sincos_whole_turns(name):
    """A huge argument is a whole number of float32 turns: the H200 gives sin 0 and cos 1 there, and
    so does simgpu (libm would not)."""
    table, _, ref, sim, _ = _run()
    x = table.inputs()["f"][0]
    big = np.isfinite(x) & (np.abs(x) >= 2.0**30)
    assert big.sum() > 50
    np.testing.assert_array_equal(np.abs(sim[name][big]), np.abs(ref[name][big]))
