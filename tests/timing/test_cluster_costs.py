"""Thread-block clusters in the timing model: a load from another CTA's shared memory takes the
SM-to-SM latency (config lat_dsmem) and a cluster barrier lat_cluster_barrier more than a CTA
barrier, as benchmarks/microbench/dsmem measured; a CTA's own shared memory stays as it was."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import default_config

SRC = (Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "dsmem" / "kernels.cu").read_text()
STEPS = 64


@pytest.fixture(scope="module")
def mod():
    return sg.RawModule(code=SRC)


def _interval(rep) -> int:
    """Cycles between the first warp's two clock64 reads (the replay's issue cycles)."""
    reads = rep.timing.clock_reads()[0]
    return int(reads[1] - reads[0])


def test_a_chain_through_another_ctas_shared_memory_pays_the_sm_to_sm_latency(mod):
    cfg = default_config()
    per_step = {}
    for rank in (0, 1):
        out = sg.zeros(2, np.int64)
        rep = mod.get_function("dsmem_chase")((2,), (32,), (out, np.int32(STEPS), np.int32(rank)))
        per_step[rank] = _interval(rep) / STEPS
    assert per_step[0] < cfg.lat_shared + 15  # its own memory, through mapa: a shared load
    assert per_step[1] - per_step[0] == pytest.approx(cfg.lat_dsmem - cfg.lat_shared, abs=2)


def test_a_cluster_barrier_costs_its_measured_extra(mod):
    cfg = default_config()
    out = sg.zeros(8, np.int64)
    block = _interval(mod.get_function("block_sync")((1,), (32,), (out, np.int32(STEPS)))) / STEPS
    cluster = _interval(mod.get_function("cluster_sync2")((2,), (32,), (out, np.int32(STEPS)))) / STEPS
    # cl.sync() is two barrier instructions (arrive, wait); the wait releases lat_cluster_barrier later
    assert cluster - 2 * block == pytest.approx(cfg.lat_cluster_barrier, rel=0.05)


def test_a_generic_load_into_another_ctas_shared_memory_costs_what_a_cluster_load_does(mod):
    # dsmem_chase_generic walks through a generic pointer (ld, not ld.shared::cluster): its peer
    # lanes make no memory event of the SM, and their row must not finish in one cycle
    cfg = default_config()
    nxt = ((np.arange(1024) * 97 + 13) & 1023).astype(np.int32)  # the chain fill_chain writes
    end = 0
    for _ in range(STEPS):
        end = int(nxt[end])
    per_step = {}
    for mode in (0, 1):
        out = sg.zeros(2, np.int64)
        rep = mod.get_function("dsmem_chase_generic")((2,), (32,), (out, sg.asarray(nxt), np.int32(STEPS),
                                                                    np.int32(mode)))
        per_step[mode] = _interval(rep) / STEPS
        assert int(out.get()[1]) == end
    cluster = sg.zeros(2, np.int64)
    rep = mod.get_function("dsmem_chase")((2,), (32,), (cluster, np.int32(STEPS), np.int32(1)))
    assert per_step[1] - per_step[0] == pytest.approx(cfg.lat_dsmem - cfg.lat_shared, abs=4)
    assert per_step[1] == pytest.approx(_interval(rep) / STEPS, abs=4)
