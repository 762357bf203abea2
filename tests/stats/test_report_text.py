"""The readable report's last lines: the simulation's own host time and speed, and, apart from it,
the time numba spent compiling simgpu's engine in that launch (a first run on a machine)."""

from __future__ import annotations

import dataclasses

import numpy as np

import simgpu as sg

SRC = 'extern "C" __global__ void twice(float* x) { x[threadIdx.x] *= 2; }'


def _report():
    return sg.RawKernel(SRC, "twice")((1,), (64,), (sg.ones(64, np.float32),))


def test_host_time_and_speed_are_the_simulations_own():
    rep = _report()
    assert rep.host_seconds > 0 and rep.compile_seconds >= 0
    assert rep.sim_speed == rep.warp_instructions / rep.host_seconds
    assert f"simulated in {rep.host_seconds:.2f} s on the host" in str(rep)


def test_compile_time_is_reported_apart_when_there_was_some():
    rep = dataclasses.replace(_report(), compile_seconds=72.4)
    assert "and 72 s compiling simgpu's engine (numba), once: later runs load it from the cache" in str(rep)
    assert "compiling" not in str(dataclasses.replace(rep, compile_seconds=0.0))


def test_the_timing_replay_is_timed_apart_from_the_engine():
    """The engine's run sets the warp-instruction rate; the timing replay that follows it is said
    separately (it is host time the user waits for too), and not there without timing."""
    rep = _report()
    assert rep.timing is not None and 0 < rep.timing_seconds <= rep.timing.host_seconds
    assert f"then {rep.timing_seconds:.2f} s of timing replay" in str(rep)
    plain = sg.RawKernel(SRC, "twice")((1,), (64,), (sg.ones(64, np.float32),), timing=False)
    assert plain.timing_seconds == 0.0 and "timing replay" not in str(plain)


ACCUMULATE = r"""extern "C" __global__ void acc(float* c, const float* __restrict__ v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int o = 1; o < 32; o <<= 1) c[i] += __shfl_xor_sync(~0u, v[i], o); }"""


def test_the_loads_and_stores_ptxas_removes_are_listed_with_their_source_line():
    """`c[i] += ..` five times: NVRTC's PTX loads c[i] five times and stores it five times; ptxas
    keeps one load and one store. The report lists the four forwarded loads with the line of the
    store whose value each takes, and the four overwritten stores; with ptxas_memory=False
    nothing is listed."""
    k = sg.RawKernel(ACCUMULATE, "acc")
    args = (sg.zeros(256, np.float32), sg.ones(256, np.float32))
    rep = k((2,), (128,), args, timing=False)
    rows = rep.instructions()
    forwarded = [r for r in rows if "value_of_line" in r]
    dropped = [r for r in rows if r.get("dropped_store")]
    assert len(forwarded) == 4 and len(dropped) == 4
    assert [r["value_of_line"] for r in forwarded] == [r["line"] for r in dropped]
    assert all(r["warps"] == 8 for r in forwarded + dropped)
    text = str(rep)
    assert "no memory access, as ptxas compiles them" in text
    assert f"line {forwarded[0]['line']:>4}  ld.global.f32" in text and f"value of line {dropped[0]['line']}" in text
    assert rep.metrics["smsp__sass_inst_executed_op_global_st.sum"] == 8
    plain = k((2,), (128,), args, timing=False, ptxas_memory=False)
    assert "no memory access" not in str(plain)
    assert not any("value_of_line" in r or r.get("dropped_store") for r in plain.instructions())
