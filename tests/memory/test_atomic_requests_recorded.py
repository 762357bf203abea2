"""benchmarks/microbench/l2_atomics/atom_requests.py against what ncu counted on the H200: every kind
of warp atomic (ATOM add / CAS / exch on 32 and 64 bits, float add, RED on ints and doubles), 1 ... 32
active lanes, lanes one word, one double, one sector or one line apart: one L1TEX request per warp
instruction whatever the kind, width or spread, and as many L1 and L2 sectors as the lanes touch."""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import simgpu as sg

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "l2_atomics"


def _compare_module():
    spec = importlib.util.spec_from_file_location("atom_requests_compare", HERE / "compare_atom_requests.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


cmp = _compare_module()
CASES = cmp.recorded()


@pytest.fixture(scope="module")
def mod():
    return sg.RawModule(code=cmp.SRC)


def test_every_atomic_kind_was_measured():
    kinds = {c["kernel"] for c, _ in CASES}
    assert kinds == {"add32", "cas32", "exch32", "addf32", "add64", "cas64", "red32", "redf64"}
    assert len(CASES) == 232


@pytest.mark.parametrize("kernel", ["add32", "cas32", "exch32", "addf32", "add64", "cas64", "red32", "redf64"])
def test_atomic_requests_and_sectors_equal_the_h200(mod, kernel):
    for case, real in CASES:
        if case["kernel"] != kernel:
            continue
        op = "red" if kernel.startswith("red") else "atom"
        sim = cmp.simulate(mod, case)
        for name in (m.format(op=op) for m in cmp.METRICS):
            assert sim[name] == real[name], (case, name, sim[name], real[name])
        # and the H200 never split a warp's atomic into several requests
        assert real[f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"] == case["warps"]
        assert np.isfinite(sim["gpu__time_duration.sum"])
