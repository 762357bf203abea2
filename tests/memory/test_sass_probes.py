"""benchmarks/microbench/sass_probes/probes.cu against what the H200 ran (its results/ncu.csv): every
instruction, wavefront, request and sector count of 17 launches whose counts depend on what ptxas
makes of the PTX (fused shared loads and stores, over-fetching LDS.128, sub-word and 64-bit shared
accesses, volatile, shared atomics, a local array ptxas keeps in registers, NVVM's wrapped 32-bit
shared addresses)."""

import importlib.util
from pathlib import Path

import pytest

import simgpu as sg

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "sass_probes"


def _compare_module():
    spec = importlib.util.spec_from_file_location("sass_probes_compare", HERE / "compare.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


probes = _compare_module()


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_probe_counters_equal_the_h200(engine):
    mod = sg.RawModule(code=(HERE / "probes.cu").read_text())
    real = probes.measured(HERE / "results" / "ncu.csv")
    launches = probes.launches()
    assert len(real) == len(launches)
    wrong = []
    for (name, args), row in zip(launches, real):
        assert row["Kernel Name"].startswith(name)
        rep = mod.get_function(name)((1,), (probes.N,), args, timing=False, engine=engine)
        for _, metric in probes.METRICS:
            if metric.endswith(".sum") and rep.metrics.get(metric, 0.0) != float(row[metric].replace(",", "")):
                wrong.append(f"{name} {metric}: {rep.metrics.get(metric, 0.0):g} vs H200 {row[metric]}")
    assert not wrong, "\n".join(wrong)
