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
