"""The stepper drives the real engine: stepping to the end gives exactly a plain launch's outputs and
counters; between steps it shows warps, masks, the SIMT stack, registers and shared memory."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg
from simgpu.core import stepper
from simgpu.programs import get_program
from simgpu.viz import capture

EVEN_ODD = r'''
extern "C" __global__ void evenodd(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        if (i % 2 == 0) y[i] = x[i] * 2.0f;
        else            y[i] = x[i] + 100.0f;
    }
}'''

TILE = r'''
extern "C" __global__ void tile_rev(const float* x, float* y) {
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = x[blockIdx.x * blockDim.x + t];
    __syncthreads();
    y[blockIdx.x * blockDim.x + t] = s[blockDim.x - 1 - t];
}'''


def _evenodd(n=60, threads=64):
    k = sg.RawModule(code=EVEN_ODD).get_function("evenodd")
    x = sg.asarray(np.arange(threads, dtype=np.float32))
    return k, x


@pytest.mark.parametrize("one_at_a_time", [True, False])
def test_stepping_to_the_end_equals_a_plain_launch(one_at_a_time):
    k, x = _evenodd()
    y1 = sg.zeros(64, np.float32)
    plain = k((1,), (64,), (x, y1, np.int32(60)), gpu="teaching")
    y2 = sg.zeros(64, np.float32)
    s = stepper.start(k, (1,), (64,), (x, y2, np.int32(60)), gpu="teaching")
    if one_at_a_time:
        while not s.finished:
            s.step()
    rep = s.run()
    np.testing.assert_array_equal(y1.get(), y2.get())
    assert rep.metrics == plain.metrics
    assert rep.per_pc == plain.per_pc
    assert s.steps_done == len(rep.trace.step_pc)


@pytest.mark.parametrize("name,size", [
    ("transpose_naive", {"rows": 45, "cols": 70}),
    ("gemm_tiled", {"M": 33, "N": 47, "K": 29}),
    ("reduce_shared", None),
    ("histogram", None),
    ("flash_attn_splitkv", None),
])
def test_programs_through_the_stepper_equal_plain_launches(name, size):
    prog = get_program(name)
    size = size or prog.test_sizes[0]
    plain = prog.run(size, arch="teaching")
    with capture() as launches:
        stepped = prog.run(size, arch="teaching")
    stepped.verify()
    assert len(launches) == len(plain.launches)
    for key in plain.outputs:
        np.testing.assert_array_equal(plain.outputs[key], stepped.outputs[key])
    for (_, a), (_, b) in zip(plain.launches, stepped.launches):
        assert a.metrics == b.metrics
        assert b.trace is not None


def test_multi_wave_launch_steps_through_every_wave():
    k = sg.RawModule(code=TILE).get_function("tile_rev")
    n_cta = 40  # teaching GPU: 4 SMs x 8 CTAs of 256 threads -> 32 per wave, so two waves
    x = sg.asarray(np.arange(256 * n_cta, dtype=np.float32))
    y = sg.zeros(256 * n_cta, np.float32)
    s = stepper.start(k, (n_cta,), (256,), (x, y), gpu="teaching")
    waves = set()
    while not s.finished:
        s.step()
        if not s.finished:
            waves.add(s.wave)
    assert waves == {0, 1}
    want = np.arange(256 * n_cta, dtype=np.float32).reshape(n_cta, 256)[:, ::-1].ravel()
    np.testing.assert_array_equal(y.get(), want)
    y2 = sg.zeros(256 * n_cta, np.float32)
    assert k((n_cta,), (256,), (x, y2), gpu="teaching").metrics == s.report.metrics


def test_divergence_masks_stack_and_registers():
    k, x = _evenodd()
    y = sg.zeros(64, np.float32)
    s = stepper.start(k, (1,), (64,), (x, y, np.int32(60)), gpu="teaching")
    assert s.warps() == [] and "before the first instruction" in s.summary()
    with pytest.raises(RuntimeError):
        s.registers(0)
    s.step()
    assert s.last_step.pc == 0 and "first instruction" in s.last_step.why
    ws = s.warps()
    assert [w.mask for w in ws] == ["1" * 32, "1" * 32]
    # step until warp 0 splits: even lanes on one path, odd lanes saved on the stack
    while s.warps()[0].mask == "1" * 32:
        s.step()
    w0 = s.warps()[0]
    assert w0.stack_depth == 2
    assert set(w0.mask) == {"1", "."} and w0.mask.count("1") == 16
    other = w0.stack[0]
    assert other.mask.count("1") == 16 and other.mask != w0.mask
    i = s.registers(0, "%r1")["%r1"]
    assert i.dtype.kind in "iu" and list(i[:4]) == [0, 1, 2, 3]
    f = s.registers((0, 1), ["%f1"])["%f1"]
    assert f.dtype == np.float32
    # warp 1 has lanes 28..31 past n: they take the early exit
    s.run_until(line=s.linked.instructions[-1].line)
    assert s.last_step.text.startswith("ret")
    s.run()
    assert s.finished and s.report.simt_efficiency < 1


def test_run_until_barrier_shared_memory_and_why():
    k = sg.RawModule(code=TILE).get_function("tile_rev")
    x = sg.asarray(np.arange(256, dtype=np.float32) + 1)
    y = sg.zeros(256, np.float32)
    s = stepper.start(k, (1,), (256,), (x, y), gpu="teaching")
    s.run_until(barrier=True)
    assert s.last_step.text.startswith("bar")
    assert {w.status for w in s.warps()} <= {"barrier", "ready"}
    np.testing.assert_array_equal(s.shared(0, np.float32), np.arange(256, dtype=np.float32) + 1)
    html = s._repr_html_()
    assert "<table" in html and "Why" in html
    acc = s.access_at(line=[a for a in s.accesses().values() if a.space == "shared"][0].line)
    assert acc.space == "shared" and acc.addr.shape[1] == 32
    s.run_until(step=s.steps_done + 3)
    assert "pc" in s.last_step.why
    with pytest.raises(ValueError):
        s.run_until()
    s.run()
    np.testing.assert_array_equal(y.get(), (np.arange(256, dtype=np.float32) + 1)[::-1])
