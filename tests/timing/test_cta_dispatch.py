"""The replay's CTA dispatcher: a launch and a retirement each keep it busy for their share of the
steady cost per CTA (config cta_launch_ns, cta_dispatch_ns), and a new CTA's warps start
warp_launch_cycles apart (benchmarks/microbench/cta_turnover)."""

import numpy as np

import simgpu as sg
from simgpu.timing.config import default_config

SRC = r"""
extern "C" __global__ void touch(float* out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1.0f;
}
"""


def _launch(ctas: int, threads: int):
    kernel = sg.RawModule(code=SRC).get_function("touch")
    out = sg.zeros(ctas * threads, np.float32)
    report = kernel((ctas,), (threads,), (out,))
    assert np.all(out.get() == 1.0)
    return report.timing


def test_by_default_every_launch_pays_the_steady_cost():
    cfg = default_config()
    assert cfg.cta_launch_ns == cfg.cta_dispatch_ns and cfg.warp_launch_cycles == 0
    tl = _launch(264, 64).timeline
    start = np.sort(tl["cta_start"])
    # 264 CTAs fit at once: they start one dispatch interval (0.6 ns, 1.2 cycles) apart
    assert start[0] == 0
    steps = np.diff(start)
    assert steps.min() >= 1 and steps.max() <= 2, (steps.min(), steps.max())
    assert 1.1 <= start[-1] / (len(start) - 1) <= 1.3
    assert np.array_equal(tl["warp_start"][0::2], tl["warp_start"][1::2])  # both warps of a CTA together


def test_warps_of_a_cta_start_apart(timing_override):
    timing_override(warp_launch_cycles=2.0)
    tl = _launch(4, 256).timeline
    ws = tl["warp_start"].reshape(4, 8)
    assert np.array_equal(ws - ws[:, :1], np.tile(2 * np.arange(8), (4, 1)))


def test_a_cheaper_launch_starts_the_first_wave_sooner_and_retiring_still_costs(timing_override):
    base = _launch(1056, 256)
    timing_override(cta_launch_ns=0.1)
    fast = _launch(1056, 256)
    first, later = base.timeline["cta_start"].max(), fast.timeline["cta_start"].max()
    assert later < first / 4, (later, first)  # 0.1 ns instead of 0.6 a CTA
    # the 1,056 retirements (0.5 ns each, about 1 cycle) keep the dispatcher busy past the last CTA's end
    assert fast.cycles >= fast.timeline["cta_end"].min() + 1000


def test_a_warp_with_nothing_to_run_ends_a_cycle_after_its_own_start(timing_override):
    """An empty kernel's warps have no timed entry: each is done one cycle after it becomes ready,
    its own launch offset included, and its CTA when the last of them is."""
    timing_override(warp_launch_cycles=2.0)
    report = sg.RawModule(code='extern "C" __global__ void nop() {}').get_function("nop")((2,), (256,), ())
    tl = report.timing.timeline
    assert np.array_equal(tl["warp_end"], tl["warp_start"] + 1)
    ws = tl["warp_start"].reshape(2, 8)
    assert np.array_equal(ws - ws[:, :1], np.tile(2 * np.arange(8), (2, 1)))
    assert np.array_equal(tl["cta_end"], tl["warp_end"].reshape(2, 8).max(axis=1))
