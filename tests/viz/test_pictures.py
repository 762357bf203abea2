"""Every picture function draws every built-in program (small sizes) without error, and the
pictures say what the counters say."""

from __future__ import annotations

import json

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from simgpu import viz  # noqa: E402
from simgpu.programs import PROGRAMS  # noqa: E402


@pytest.fixture(scope="module")
def captured():
    out = {}
    for name, prog in PROGRAMS.items():
        with viz.capture() as launches:
            prog.run(prog.test_sizes[0], arch="teaching").verify()
        out[name] = launches
    return out


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_picture_for_every_program(captured, name, tmp_path):
    from matplotlib.figure import Figure

    for launch in captured[name]:
        figs = [viz.divergence(launch, warp=0), viz.cache_hits(launch), viz.roofline(launch, gpu="h200"),
                viz.occupancy(launch), viz.timeline(launch)]
        kinds = {}
        for acc in launch.accesses().values():  # the first access of each kind (space, op)
            kinds.setdefault((acc.space, acc.op), acc)
        for acc in kinds.values():
            figs.append(viz.bank_map(acc) if acc.space == "shared" else viz.sector_map(acc))
        for f in figs:
            assert isinstance(f, Figure)
            f.savefig(tmp_path / "x.png", dpi=30)
        path = viz.export_perfetto(launch, tmp_path / "trace.json")
        events = json.loads(path.read_text())["traceEvents"]
        assert sum(e["ph"] == "X" for e in events) == int(sum(len(w) for w in launch.report.trace.step_warps))


def test_timing_pictures(captured, tmp_path):
    launch = captured["gemm_tiled"][0]
    t = viz.simulate(launch)
    if t is None:
        pytest.skip("timing model not available")
    viz.timeline(launch, timing=t).savefig(tmp_path / "t.png", dpi=30)
    viz.roofline(launch, timing=t).savefig(tmp_path / "r.png", dpi=30)
    ev = viz.perfetto_events(launch, timing=t)
    assert ev["otherData"]["time_unit"] == "cycle"


def test_bank_map_shows_the_transpose_conflict(captured):
    def column_read(name):
        return [a for a in captured[name][0].accesses().values() if a.space == "shared" and a.op == "ld"][0]

    naive, padded = column_read("transpose_naive"), column_read("transpose_padded")
    assert "32 wavefront(s), ideal 1" in viz.bank_map(naive).axes[0].get_title()
    assert "no bank conflict" in viz.bank_map(padded).axes[0].get_title()


def test_sector_map_counts_sectors(captured):
    acc = [a for a in captured["copy2d"][0].accesses().values() if a.space == "global" and a.op == "ld"][0]
    title = viz.sector_map(acc).axes[0].get_title()
    assert f"{int(acc.result['sectors'][0])} sectors" in title


def test_occupancy_limits_match_the_launch():
    from simgpu.arch import get_preset
    from simgpu.runtime.launch import occupancy

    gpu = get_preset("h200")
    for threads, regs, smem in [(256, 32, 0), (1024, 64, 0), (128, 255, 0), (64, 32, 100_000), (32, 16, 0)]:
        by = viz.occupancy_limits(gpu, threads, regs, smem)
        o = occupancy(gpu, threads, regs, smem)
        assert min(by.values()) == o.ctas_per_sm and by[o.limiter] == o.ctas_per_sm
        viz.occupancy(gpu="h200", threads=threads, registers=regs, shared_mem=smem)


def test_flop_count():
    import simgpu as sg

    k = sg.RawModule(code=r'''extern "C" __global__ void f(float* x) {
        int i = threadIdx.x; x[i] = x[i] * 3.0f + 1.0f; }''').get_function("f")
    x = sg.asarray(np.ones(64, np.float32))
    rep = k((1,), (64,), (x,), gpu="teaching")
    assert viz.count_flops(rep)["f32"] == 2 * 64
