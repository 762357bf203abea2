"""The cycle view: the replay's per-cycle record agrees with its issue cycles and stall totals."""

import numpy as np
import pytest

import simgpu as sg
from simgpu.core import stepper
from simgpu.timing.config import default_config
from simgpu.timing.cycles import NOT_RESIDENT, STATES, CycleView

SRC = r'''extern "C" __global__ void k(const float* a, float* c, int n) {
    __shared__ float s[256];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[threadIdx.x] = a[i];
    __syncthreads();
    float x = s[(threadIdx.x + 1) % blockDim.x];
    for (int j = 0; j < 8; ++j) x = fmaf(x, 1.0001f, 0.5f);
    c[i] = x;
}'''
N = 4 * 256


def _args():
    return (sg.asarray(np.arange(N, dtype=np.float32)), sg.zeros(N, np.float32), np.int32(N))


def _launch(policy="gto"):
    return sg.RawKernel(SRC, "k")((4,), (256,), _args(), progress=False, scheduler=policy)


@pytest.fixture(scope="module")
def rep():
    return _launch()


def _lines(rep, op):
    return [ins.line for ins in rep.linked.instructions if ins.text.startswith(op)]


def test_record_matches_issue_cycles_and_stall_totals(rep):
    t = rep.timing
    v = t.cycle_view()
    assert isinstance(v, CycleView) and v.cycles == t.cycles
    rec = t.record
    assert np.array_equal(rec.issue, t.issue_cycle) and (rec.issue >= 0).all()
    seg = v.segments()
    sel = seg["state"] == STATES.index("selected")
    # every replayed instruction issues exactly once, at its issue_cycle
    assert np.array_equal(np.sort(seg["start"][sel]), np.sort(t.issue_cycle))
    assert np.array_equal(t.issue_cycle[seg["entry"][sel]], seg["start"][sel])
    assert np.array_equal(np.sort(seg["entry"][sel]), np.arange(len(t.issue_cycle)))
    # the sub-partition of each issue is its warp's slot on the SM modulo 4
    assert set(rec.sub_partition.tolist()) <= {0, 1, 2, 3} and np.array_equal(rec.warp, v._ew)
    tot = v.totals()
    assert tot == pytest.approx(t.stalls)
    # the run-length record adds up to the same warp-cycles
    by = np.bincount(seg["state"], weights=seg["end"] - seg["start"], minlength=len(STATES))
    assert {STATES[i]: float(by[i]) for i in range(len(STATES))} == pytest.approx(t.stalls)


def test_one_state_per_cycle_while_resident(rep):
    v = rep.timing.cycle_view()
    rec = v.record
    seg = v.segments()
    for w in range(v.num_warps):
        m = seg["warp"] == w
        s, e = seg["start"][m], seg["end"][m]
        assert s[0] == rec.warp_start[w] and e[-1] == rec.warp_end[w]
        assert np.array_equal(s[1:], e[:-1])  # contiguous, no overlap, no hole
    warps, codes = v.states(cycles=(0, v.cycles))  # the first CTA's SM
    assert len(warps) > 0
    for i, w in enumerate(warps):
        inside = codes[i, rec.warp_start[w]:rec.warp_end[w]]
        assert (inside != NOT_RESIDENT).all()
        assert (codes[i, :rec.warp_start[w]] == NOT_RESIDENT).all()
        assert (codes[i, rec.warp_end[w]:] == NOT_RESIDENT).all()


@pytest.mark.parametrize("policy", ["gto", "lrr"])
def test_at_most_one_issue_per_scheduler_per_cycle(policy):
    v = _launch(policy).timing.cycle_view()
    iss = v.issues()
    key = (iss["sm"] * 4 + iss["sub_partition"]) * (v.cycles + 2) + iss["cycle"]
    assert len(np.unique(key)) == len(key)
    for c in np.unique(iss["cycle"])[::7]:
        st = v.at(int(c))
        for sc in st.schedulers():
            assert sum(w.state == "selected" for w in sc.warps) <= 1
            assert all(w.sub_partition == sc.sub_partition and w.sm == sc.sm for w in sc.warps)
        # at() agrees with the run-length record
        for w in st.warps():
            assert v.warp(w.warp).state_at(int(c)) == w.state


def test_stall_reasons_the_kernel_shows(rep):
    v = rep.timing.cycle_view()
    h = v.warp(0)
    rows = h.rows()
    ld = _lines(rep, "ld.global")[0]
    # the instruction after the global load that uses its value waits on the long scoreboard
    st_shared = _lines(rep, "st.shared")[0]
    assert any(st == "long_scoreboard" and line == st_shared for _, _, st, line, _ in rows), h
    assert any(st == "barrier" for _, _, st, _, _ in rows), h
    # the dependent FMA chain waits a fixed latency between links: "wait"
    fma = set(_lines(rep, "fma"))
    waits = [(s, e) for s, e, st, line, _ in rows if st == "wait" and line in fma]
    assert len(waits) >= 6
    # a link waits the FP32 latency minus its own issue cycle (or less when another instruction fills a cycle)
    lat = default_config().lat_fp32
    assert max(e - s for s, e in waits) == lat - 1 and all(1 <= e - s <= lat - 1 for s, e in waits)
    assert ld in {line for _, _, st, line, _ in rows if st == "selected"}
    assert h.totals()["selected"] == v.record.warp_off[1] - v.record.warp_off[0]


def test_cursor_step_and_run_until(rep):
    v = rep.timing.cycle_view()
    fma = _lines(rep, "fma")[0]
    st = v.run_until(line=fma)
    assert v.cycle == st.cycle and any(w.line == fma for w in st.issued())
    assert v.step().cycle == st.cycle + 1 and v.step(-1).cycle == st.cycle
    assert v.run_until(cycle=st.cycle + 10).cycle == st.cycle + 10
    w0 = v.run_until(warp=3)
    assert any(w.warp == 3 for w in w0.issued())
    assert "cycle" in str(w0) and "<table" in w0._repr_html_() and "<table" in v.warp(3)._repr_html_()
    assert "CycleView" in v._repr_html_()
    one = v.at(st.cycle, sm=1)
    assert set(one.sm.tolist()) <= {1}
    with pytest.raises(ValueError):
        v.run_until()


def test_deterministic_and_recording_changes_nothing(rep):
    from simgpu.timing.model import simulate_timing

    rep2 = sg.RawKernel(SRC, "k")((4,), (256,), _args(), progress=False, trace=True)
    a, b = rep.timing.cycle_view(), rep2.timing.cycle_view()
    sa, sb = a.segments(), b.segments()
    assert all(np.array_equal(sa[k], sb[k]) for k in sa)
    kw = dict(grid=rep2.grid, block=rep2.block, ctas_per_sm=rep2.ctas_per_sm,
              registers_per_thread=rep2.registers_per_thread, per_pc=rep2.per_pc)
    off = simulate_timing(rep2.linked, rep2.trace, sg.get_preset("h200"), record=False, **kw)
    on = simulate_timing(rep2.linked, rep2.trace, sg.get_preset("h200"), record=True, **kw)
    assert off.record is None and on.record is not None
    assert off.metrics == on.metrics == rep2.timing.metrics
    assert np.array_equal(off.issue_cycle, on.issue_cycle) and np.array_equal(off.stalls_per_pc, on.stalls_per_pc)
    with pytest.raises(ValueError, match="record=True"):
        off.cycle_view()


def test_stepper_cycles_after_run():
    s = stepper.start(sg.RawKernel(SRC, "k"), (4,), (256,), _args())
    s.step(3)
    with pytest.raises(RuntimeError, match="run"):
        s.cycles()
    rep = s.run()
    v = s.cycles()
    assert v.cycles == rep.timing.cycles and v.totals() == pytest.approx(rep.timing.stalls)


def test_scheduler_timeline_picture(rep):
    from simgpu.viz.pictures import scheduler_timeline

    v = rep.timing.cycle_view()
    v.run_until(line=_lines(rep, "fma")[0])
    fig = scheduler_timeline(v, cycles=(v.cycle - 50, v.cycle + 50))  # the first CTA's SM
    assert fig.axes and len(fig.axes[0].get_yticklabels()) == 8
    assert scheduler_timeline(rep) is not None
