"""An uncached NVRTC compile runs in a forked child (frontend/nvrtc.py), so that NVRTC crashing on
valid code is a CompileError naming the signal, not the silent end of the user's process."""

from __future__ import annotations

import os
import signal

import pytest

import simgpu as sg
from simgpu.frontend import nvrtc

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="compiles run in-process without fork")


def _crash(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGSEGV)


def test_a_crash_in_nvrtc_is_a_compile_error(monkeypatch):
    monkeypatch.setattr(nvrtc, "_compile_uncached", _crash)  # the forked child inherits it
    with pytest.raises(sg.CompileError, match=r"NVRTC \d+\.\d+ crashed \(signal SIGSEGV\) while compiling crash.cu"):
        nvrtc.compile_to_ptx('extern "C" __global__ void k() {}', name="crash.cu", use_cache=False)


def test_errors_and_results_come_back_from_the_child():
    with pytest.raises(sg.CompileError) as err:
        nvrtc.compile_to_ptx('extern "C" __global__ void k(int* p) { p[0] = undeclared; }', use_cache=False)
    assert "identifier \"undeclared\" is undefined" in err.value.log
    assert err.value.message.startswith("NVRTC could not compile")
    ptx = nvrtc.compile_to_ptx('extern "C" __global__ void k(int* p) { p[0] = 7; }', use_cache=False)
    assert ".entry k" in ptx


@pytest.mark.skipif(nvrtc.nvrtc_version() != (13, 5), reason="the crash is NVRTC 13.5's")
def test_the_cluster_kernel_nvrtc_13_5_crashes_on():
    """benchmarks/microbench/dsmem: a loop reading through `cond ? map_shared_rank(p, r) : p`."""
    src = """#include <cooperative_groups.h>
namespace cg = cooperative_groups;
extern "C" __global__ void __cluster_dims__(2, 1, 1) k(unsigned* total, int iters, int remote)
{
    __shared__ unsigned bins[1024];
    cg::cluster_group cl = cg::this_cluster();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) bins[i] = 0;
    cl.sync();
    unsigned* dst = remote ? cl.map_shared_rank(bins, (cl.block_rank() + 1) & 1) : bins;
    for (int s = 0; s < iters; ++s) atomicAdd(&dst[(threadIdx.x * 7 + s * 33) & 1023], 1u);
    cl.sync();
    unsigned c = 0;
    for (int i = threadIdx.x; i < 1024; i += blockDim.x) c += bins[i];
    atomicAdd(total, c);
}
"""
    with pytest.raises(sg.CompileError, match="crashed"):
        sg.RawModule(code=src)
    fixed = src.replace("remote ? cl.map_shared_rank(bins, (cl.block_rank() + 1) & 1) : bins",
                        "cl.map_shared_rank(bins, (cl.block_rank() + remote) & 1)")
    sg.RawModule(code=fixed)  # the rewrite the error message suggests compiles
