"""Every built-in program runs on the simulator at every test size and matches its NumPy reference."""

from __future__ import annotations

import numpy as np
import pytest

from simgpu.frontend.nvrtc import compile_to_ptx
from simgpu.programs import PROGRAMS, Program, ProgramRun, get_program

REQUIRED = {
    "gemm_naive", "gemm_tiled", "gemm_regblock", "flash_attn", "flash_attn_splitkv",
    "paged_gather", "paged_decode", "transpose_naive", "transpose_padded",
    "reduce_shared", "reduce_shuffle", "reduce_atomic",
}

CASES = [
    pytest.param(name, size, id=f"{name}-" + "-".join(f"{k}{v}" for k, v in size.items()))
    for name, program in PROGRAMS.items()
    for size in program.test_sizes
]


# --- the registry ---------------------------------------------------------------------------

def test_registry_has_the_required_programs():
    assert REQUIRED <= set(PROGRAMS)
    for name, program in PROGRAMS.items():
        assert isinstance(program, Program)
        assert program.name == name
        assert program.description and "\n" not in program.description


def test_unknown_program_lists_the_names():
    with pytest.raises(KeyError) as info:
        get_program("no_such_program")
    message = str(info.value)
    assert "no_such_program" in message
    for name in PROGRAMS:
        assert name in message


def test_get_program_returns_the_registered_one():
    assert get_program("gemm_tiled") is PROGRAMS["gemm_tiled"]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_sizes_use_only_known_parameters(name):
    program = PROGRAMS[name]
    assert len(program.test_sizes) >= 2
    for size in (*program.test_sizes, program.large_size):
        assert set(size) <= set(program.default_size), size
    with pytest.raises(ValueError, match="no size parameter"):
        program.full_size({"not_a_parameter": 1})
    assert program.full_size(program.test_sizes[0]) == {**program.default_size, **program.test_sizes[0]}


@pytest.mark.parametrize("source_file", sorted({p.source_file for p in PROGRAMS.values()}))
def test_sources_compile(source_file):
    program = next(p for p in PROGRAMS.values() if p.source_file == source_file)
    src = program.source()
    assert 'extern "C" __global__' in src
    ptx = compile_to_ptx(src, name=source_file)
    assert ".entry" in ptx


# --- ProgramRun.verify ------------------------------------------------------------------------

def _fake_run(got: np.ndarray, expected: np.ndarray, **tol) -> ProgramRun:
    return ProgramRun("fake", {"n": got.size}, [], {"x": got}, {"x": expected}, **tol)


def test_verify_passes_within_tolerance():
    exp = np.linspace(1, 2, 12, dtype=np.float32).reshape(3, 4)
    run = _fake_run(exp * (1 + 1e-6), exp, rtol=1e-5, atol=0.0)
    run.verify()
    assert run.ok


def test_verify_names_output_error_and_first_bad_index():
    exp = np.zeros((3, 4), dtype=np.float32)
    got = exp.copy()
    got[1, 2] = 0.5
    got[2, 3] = np.nan
    run = _fake_run(got, exp, rtol=1e-5, atol=1e-6)
    assert not run.ok
    with pytest.raises(AssertionError) as info:
        run.verify()
    message = str(info.value)
    assert "'x'" in message and "(1, 2)" in message and "2 of 12" in message
    assert "max abs error" in message and "max rel error" in message


def test_verify_reports_missing_output_and_bad_shape():
    run = ProgramRun("fake", {}, [], {"a": np.zeros(3)}, {"a": np.zeros(4), "b": np.zeros(1)})
    with pytest.raises(AssertionError, match="shape") as info:
        run.verify()
    assert "'b' is missing" in str(info.value)


# --- running on the simulator -----------------------------------------------------------------

@pytest.mark.parametrize(("name", "size"), CASES)
def test_program_matches_reference(name, size):
    run = get_program(name).run(size, seed=1)
    assert run.program == name
    assert run.size == get_program(name).full_size(size)
    assert run.launches, "no kernel was launched"
    for kernel, report in run.launches:
        assert f"void {kernel}(" in get_program(name).source()
        assert report is not None
    run.verify()


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_default_size(name):
    get_program(name).run().verify()


@pytest.mark.parametrize("name", ["reduce_atomic", "histogram", "flash_attn_splitkv", "paged_decode"])
def test_program_is_deterministic(name):
    """Same inputs, same preset: bit-identical outputs and identical counters (atomics included)."""
    program = get_program(name)
    first, second = (program.run(program.test_sizes[0], seed=3) for _ in range(2))
    for key in first.outputs:
        np.testing.assert_array_equal(first.outputs[key], second.outputs[key])
    for (k1, r1), (k2, r2) in zip(first.launches, second.launches):
        assert k1 == k2
        assert r1.metrics == r2.metrics
