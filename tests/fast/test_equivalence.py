"""Two engines, one answer: the fast (numba) engine must give bit-identical outputs, counters and
cycles to the reference (NumPy) engine on every program, every calibration kernel and random kernels."""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import simgpu
from simgpu.errors import KernelRuntimeError, LaunchError
from simgpu.programs import PROGRAMS

CALIBRATION = os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "calibration", "specs.py")


def _same_number(a, b) -> bool:
    return a == b or (a != a and b != b)


def assert_same_report(ref, fast, where: str) -> None:
    keys = set(ref.metrics) | set(fast.metrics)
    bad = [(k, ref.metrics.get(k), fast.metrics.get(k)) for k in sorted(keys)
           if not _same_number(ref.metrics.get(k), fast.metrics.get(k))]
    assert not bad, f"{where}: metrics differ (reference, fast): {bad[:5]}"
    assert ref.per_pc == fast.per_pc, f"{where}: per-instruction counters differ"
    if ref.timing is not None:
        assert np.array_equal(ref.timing.stalls, fast.timing.stalls), f"{where}: stall reasons differ"


def _run_both(fn):
    with simgpu.use_engine("reference"):
        ref = fn()
    with simgpu.use_engine("fast"):
        fast = fn()
    return ref, fast


PROGRAM_CASES = [(name, i) for name, prog in PROGRAMS.items() for i in range(min(2, len(prog.test_sizes)))]


@pytest.mark.parametrize("name,i", PROGRAM_CASES, ids=[f"{n}-{i}" for n, i in PROGRAM_CASES])
def test_programs_identical(name, i):
    prog = PROGRAMS[name]
    size = dict(prog.test_sizes[i])
    ref, fast = _run_both(lambda: prog.run(size=size, seed=3))
    assert ref.ok and fast.ok
    for key in ref.outputs:
        assert np.array_equal(ref.outputs[key].view(np.uint8), fast.outputs[key].view(np.uint8)), key
    assert len(ref.launches) == len(fast.launches)
    for (ka, a), (_, b) in zip(ref.launches, fast.launches):
        assert_same_report(a, b, f"{name} {size} {ka}")


@pytest.mark.skipif(not os.path.exists(CALIBRATION), reason="calibration specs not present")
def test_calibration_kernels_identical():
    from simgpu.validate import run_suite

    ref, fast = _run_both(lambda: run_suite(CALIBRATION))
    assert [r.name for r in ref] == [r.name for r in fast]
    for a, b in zip(ref, fast):
        assert a.outputs_ok and b.outputs_ok, a.name
        assert a.warp_instructions == b.warp_instructions, a.name
        assert a.rows, a.name
        bad = [(x.metric, x.simulated, y.simulated) for x, y in zip(a.rows, b.rows)
               if x.metric != y.metric or not _same_number(x.simulated, y.simulated)]
        assert not bad, f"{a.name}: {bad[:5]}"


# ------------------------------------------------------------------------------ random kernels
_INT_OPS = ["a = a + ({c});", "a = a * ({c}) + (int)b;", "b = b ^ (a << ({c} & 7));", "a = a >> ({c} & 15);",
            "b = b >> ({c} & 15);", "a = min(a, {c}) - max((int)b, -({c}));", "a = (a < ({c})) ? (int)b : a - 1;",
            "b = b + (unsigned)a * (unsigned)({c});", "a = a & (({c}) | 255);", "b = ~b | (unsigned)({c});",
            "a = (int)(short)a;",
            "a = a - (a / 3);", "b = b % 7u + 1u;"]
_FLOAT_OPS = ["f = f * {x}f + g;", "g = fmaf(f, {x}f, g);", "f = f - g * {x}f;", "g = fabsf(f) + 1.0f;",
              "f = -f;", "g = (f > {x}f) ? f : g;", "f = fmaxf(f, g);", "f = f / ({x}f + 2.0f);",
              "g = (float)a * {x}f;", "a = a + (int)(g * 8.0f);", "g = exp2f(f * 0.01f);"]
_CONTROL = ["if ((threadIdx.x & {m}) < {c2}) {{ {body} }}",
            "for (int i = 0; i < (threadIdx.x & 3) + {c2}; ++i) {{ {body} }}",
            "if (a > b) {{ {body} }} else {{ {body2} }}",
            "a = a + x[(threadIdx.x * {m} + blockIdx.x) % n];", "atomicAdd(&out[{c2} % n], 1);"]
# barriers only outside divergent code
_SYNC = "s[threadIdx.x] = a; __syncthreads(); a = a + s[(threadIdx.x + {c2}) % blockDim.x]; __syncthreads();"


@st.composite
def random_kernel(draw):
    def stmt(depth: int) -> str:
        kind = draw(st.integers(0, 9))
        if kind < 4:
            return draw(st.sampled_from(_INT_OPS)).format(c=draw(st.integers(-40, 40)))
        if kind < 8:
            return draw(st.sampled_from(_FLOAT_OPS)).format(x=draw(st.sampled_from(["0.5", "1.25", "-3.0", "0.1"])))
        if depth >= 2:
            return "a = a + 1;"
        t = draw(st.sampled_from(_CONTROL + ([_SYNC] if depth == 0 else [])))
        return t.format(m=draw(st.sampled_from([1, 3, 7, 31])), c2=draw(st.integers(0, 5)),
                        body=" ".join(stmt(depth + 1) for _ in range(draw(st.integers(1, 3)))),
                        body2=" ".join(stmt(depth + 1) for _ in range(draw(st.integers(1, 2)))))

    body = "\n    ".join(stmt(0) for _ in range(draw(st.integers(3, 12))))
    src = f"""
extern "C" __global__ void rk(const int* x, int* out, float* fout, int n) {{
    __shared__ int s[256];
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int a = x[t % n];
    unsigned b = (unsigned)t * 2654435761u;
    float f = (float)a * 0.25f, g = 1.0f;
    {body}
    if (t < n) {{ out[t] = a ^ (int)b; fout[t] = f + g; }}
}}
"""
    block = draw(st.sampled_from([32, 48, 64, 96]))
    grid = draw(st.integers(1, 5))
    return src, grid, block


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(random_kernel(), st.integers(0, 2**31 - 1))
def test_random_kernels_identical(case, seed):
    src, grid, block = case
    mod = simgpu.RawModule(code=src)
    kernel = mod.get_function("rk")
    n = grid * block
    x = np.random.default_rng(seed).integers(-1000, 1000, n, dtype=np.int32)

    def run():
        d_x = simgpu.asarray(x)
        out = simgpu.zeros(n + 8, dtype=np.int32)
        fout = simgpu.zeros(n, dtype=np.float32)
        rep = kernel((grid,), (block,), (d_x, out, fout, np.int32(n)), progress=False)
        return rep, out.get(), fout.get()

    (r1, o1, f1), (r2, o2, f2) = _run_both(run)
    assert np.array_equal(o1, o2)
    assert np.array_equal(f1.view(np.uint32), f2.view(np.uint32))
    assert_same_report(r1, r2, src)


# ------------------------------------------------------------------------------ errors and options
def test_fault_message_identical():
    src = r'''extern "C" __global__ void oob(float* y, int n) { y[threadIdx.x + n] = 1.0f; }'''
    kernel = simgpu.RawModule(code=src).get_function("oob")
    y = simgpu.zeros(32, dtype=np.float32)
    msgs = []
    for eng in ("reference", "fast"):
        with pytest.raises(KernelRuntimeError) as e:
            kernel((1,), (32,), (y, np.int32(16)), engine=eng)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]
    assert "out-of-bounds global address" in msgs[1] and "thread (16, 0, 0)" in msgs[1]


def test_engine_choice_is_checked():
    kernel = simgpu.RawModule(code='extern "C" __global__ void k(int* p) { p[0] = 1; }').get_function("k")
    p = simgpu.zeros(1, dtype=np.int32)
    with pytest.raises(LaunchError, match="engine must be"):
        kernel((1,), (1,), (p,), engine="turbo")
    with pytest.raises(ValueError, match="engine must be"):
        simgpu.set_engine("turbo")
    assert simgpu.get_engine() in ("fast", "reference")
    assert kernel((1,), (1,), (p,), engine="reference").engine == "reference"
    assert kernel((1,), (1,), (p,), engine="fast").engine == "fast"
