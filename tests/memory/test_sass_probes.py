"""benchmarks/microbench/sass_probes/probes.cu against what the H200 ran (its results/ncu.csv): every
instruction, wavefront, request and sector count of 55 small launches (shared-memory fusion and
sub-word accesses, local arrays ptxas keeps in registers, vector and misaligned global loads,
atomics, cache operators, L1 and L2 capacity, a stencil), but for compare.KNOWN_GAPS."""

import importlib.util
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "sass_probes"


def _compare_module():
    spec = importlib.util.spec_from_file_location("sass_probes_compare", HERE / "compare.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


probes = _compare_module()


@pytest.mark.parametrize("source, results, make", probes.SETS, ids=[s[0] for s in probes.SETS])
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_probe_counters_equal_the_h200(source, results, make, engine):
    assert (HERE / "results" / results).exists()
    lines, differ, known = probes.compare(source, results, make, engine=engine)
    assert len(lines) == 2 + len(make()), "\n".join(lines)
    assert not differ, "\n".join(differ)
    # a known gap that closed must leave the list
    gaps = {launch[0] for launch in make() if launch[0] in probes.KNOWN_GAPS}
    assert gaps == {line.split()[0] for line in known}
