"""A memory fence holds its warp for the measured time of its scope (config lat_fence_cta / _gpu /
_sys; benchmarks/microbench/fences): a loop step of __threadfence() costs lat_fence_gpu more than
the same loop without it, __threadfence_system() lat_fence_sys, __threadfence_block() lat_fence_cta."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import default_config

SRC = (Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "fences" / "kernels.cu").read_text()
ITERS = 32


@pytest.fixture(scope="module")
def reports():
    """One warp's launch report of each kernel."""
    mod = sg.RawModule(code=SRC)
    return {name: mod.get_function(name)((1,), (32,), (sg.zeros(1, np.int64), sg.zeros(32, np.int32), np.int32(ITERS)))
            for name in ("none", "block_fence", "gpu_fence", "acq_rel_gpu", "system_fence")}


@pytest.fixture(scope="module")
def steps(reports):
    out = {}
    for name, rep in reports.items():
        reads = rep.timing.clock_reads()[0]
        out[name] = (reads[1] - reads[0]) / ITERS
    return out


@pytest.mark.parametrize("name, field", [("block_fence", "lat_fence_cta"), ("gpu_fence", "lat_fence_gpu"),
                                         ("acq_rel_gpu", "lat_fence_gpu"), ("system_fence", "lat_fence_sys")])
def test_a_fence_holds_its_warp_for_its_scope(steps, name, field):
    assert steps[name] - steps["none"] == pytest.approx(getattr(default_config(), field), abs=1.5)


def test_a_fence_wait_is_a_membar_stall_not_a_branch(reports):
    # ncu names a warp waiting on a memory barrier "membar"; the fence borrowed the branch's hold
    m = {name: reports[name].metrics for name in ("none", "gpu_fence")}
    membar = m["gpu_fence"]["smsp__pcsamp_warps_issue_stalled_membar"]
    assert membar >= ITERS * (default_config().lat_fence_gpu - 10)
    assert m["none"]["smsp__pcsamp_warps_issue_stalled_membar"] == 0
    # the fences' cycles are not branch cycles: the loop's branches cost the same with or without them
    branch = {k: v["smsp__pcsamp_warps_issue_stalled_branch_resolving"] for k, v in m.items()}
    assert branch["gpu_fence"] == pytest.approx(branch["none"], abs=ITERS * 2)
