"""Timing model: determinism, analytic micro-cases, policies."""

import numpy as np
import pytest

import simgpu as sg
from simgpu.arch import get_preset
from simgpu.timing.config import TimingConfig, default_config
from simgpu.timing.model import simulate_timing

GPU = get_preset("h200")


def _run(src, name, grid, block, args, policy="gto", config=None):
    k = sg.RawKernel(src, name)
    dev = tuple(sg.asarray(a) if isinstance(a, np.ndarray) else a for a in args)
    rep = k(grid, block, dev, trace=True, progress=False)
    res = simulate_timing(rep.linked, rep.trace, GPU, grid=rep.grid, block=rep.block, ctas_per_sm=rep.ctas_per_sm,
                          registers_per_thread=rep.registers_per_thread, policy=policy, config=config,
                          per_pc=rep.per_pc)
    return rep, res


ADD = r'''extern "C" __global__ void add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) c[i] = a[i] + b[i]; }'''


def test_deterministic_same_trace_twice():
    n = 1 << 14
    a = np.arange(n, dtype=np.float32)
    k = sg.RawKernel(ADD, "add")
    rep = k((n // 256,), (256,), (sg.asarray(a), sg.asarray(a), sg.zeros(n, np.float32), np.int32(n)), trace=True,
            progress=False)
    kw = dict(grid=rep.grid, block=rep.block, ctas_per_sm=rep.ctas_per_sm,
              registers_per_thread=rep.registers_per_thread)
    r1 = simulate_timing(rep.linked, rep.trace, GPU, **kw)
    r2 = simulate_timing(rep.linked, rep.trace, GPU, **kw)
    assert r1.cycles == r2.cycles and r1.cycles > 0
    assert r1.metrics == r2.metrics
    assert np.array_equal(r1.issue_cycle, r2.issue_cycle)
    assert np.array_equal(r1.stalls_per_pc, r2.stalls_per_pc)
    # and a second functional run gives the same cycles
    rep2 = k((n // 256,), (256,), (sg.asarray(a), sg.asarray(a), sg.zeros(n, np.float32), np.int32(n)), trace=True,
             progress=False)
    assert simulate_timing(rep2.linked, rep2.trace, GPU, **kw).cycles == r1.cycles


def _fma_chain_src(n):
    body = "\n".join("    x = fmaf(x, a, b);" for _ in range(n))
    return ('extern "C" __global__ void chain(float* out, float a, float b) {\n'
            "    float x = out[threadIdx.x];\n" + body + "\n    out[threadIdx.x] = x;\n}")


def test_dependent_fma_chain_takes_n_times_latency():
    cfg = default_config()
    out = {}
    for n in (64, 256):
        _, res = _run(_fma_chain_src(n), "chain", (1,), (32,), [np.ones(32, np.float32), np.float32(1.0001),
                                                                   np.float32(0.5)])
        out[n] = res.cycles
    # the difference removes the load/store/launch part: 192 more dependent FMAs
    per = (out[256] - out[64]) / 192
    assert abs(per - cfg.lat_fp32) < 0.1, (out, per)


INDEP = r'''extern "C" __global__ void indep(float* out, float a, float b) {
    float x0 = threadIdx.x, x1 = x0 + 1, x2 = x0 + 2, x3 = x0 + 3, x4 = x0 + 4, x5 = x0 + 5, x6 = x0 + 6, x7 = x0 + 7;
    #pragma unroll 1
    for (int i = 0; i < 16; ++i) {
        x0 = fmaf(x0, a, b); x1 = fmaf(x1, a, b); x2 = fmaf(x2, a, b); x3 = fmaf(x3, a, b);
        x4 = fmaf(x4, a, b); x5 = fmaf(x5, a, b); x6 = fmaf(x6, a, b); x7 = fmaf(x7, a, b);
        x0 = fmaf(x0, a, b); x1 = fmaf(x1, a, b); x2 = fmaf(x2, a, b); x3 = fmaf(x3, a, b);
        x4 = fmaf(x4, a, b); x5 = fmaf(x5, a, b); x6 = fmaf(x6, a, b); x7 = fmaf(x7, a, b);
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = x0 + x1 + x2 + x3 + x4 + x5 + x6 + x7;
}'''


def test_independent_work_approaches_one_ipc_per_scheduler():
    grid, block = (132,), (1024,)
    _, res = _run(INDEP, "indep", grid, block, [np.zeros(132 * 1024, np.float32), np.float32(1.0), np.float32(0.5)])
    ipc = res.metrics["sm__inst_executed.avg.per_cycle_active"]
    assert 3.0 < ipc <= 4.0, ipc  # 4 schedulers per SM, one issue each per cycle


COPY = r'''extern "C" __global__ void copy4(const float4* in, float4* out, int n4) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) out[i] = in[i]; }'''


def test_streaming_copy_is_bound_by_the_l2_fill_rate():
    # 8 CTAs x 8 warps per SM: enough loads in flight to cover the DRAM latency (Little's law); the
    # reads' DRAM fills and the stores into lines the L2 does not hold share the L2's fill rate
    # (config l2_fill_bytes_per_s, validation/typical17: a 16 MB copy on the H200 took its reads'
    # time plus its stores')
    n4 = 1056 * 256 * 4
    a = np.ones(n4 * 4, np.float32)
    _, res = _run(COPY, "copy4", (1056,), (256,), [a, np.zeros_like(a), np.int32(n4)])
    cfg = default_config()
    moved = 2 * n4 * 16  # read and stored, all 17 MB of each stay in L2
    seconds = res.cycles / (GPU.sm_clock_mhz * 1e6)
    achieved = moved / seconds
    assert 0.6 * cfg.l2_fill_bytes_per_s < achieved <= 1.001 * cfg.l2_fill_bytes_per_s, achieved / 1e12


def test_written_back_sectors_share_the_dram_queue_at_the_copy_rate(timing_override):
    """Dirty lines the L2 writes back during a launch take DRAM time on the reads' queue: a
    DRAM-bound copy that writes back as many sectors as it reads moves read + written bytes at
    the measured copy rate (4163 GB/s against 4553 read-only), not for free. The write-backs are
    put on the store's pc by hand here (a real one needs buffers past the 60 MB L2); the L2's fill
    rate is off, so that the DRAM alone paces the copy (test_l2_fill_rate.py has the fills)."""
    import dataclasses

    timing_override(l2_fill_bytes_per_s=0.0)

    n4 = 1056 * 256 * 4
    a = np.ones(n4 * 4, np.float32)
    rep, base = _run(COPY, "copy4", (1056,), (256,), [a, np.zeros_like(a), np.int32(n4)])
    per_pc = [dict(r) for r in rep.per_pc]
    read = sum(r.get("dram_bytes_read", 0.0) for r in per_pc)
    store = next(r for r in per_pc if r["text"].startswith("st.global"))
    store["dram_bytes_write"] = read
    kw = dict(grid=rep.grid, block=rep.block, ctas_per_sm=rep.ctas_per_sm,
              registers_per_thread=rep.registers_per_thread, per_pc=per_pc)
    cfg = default_config()
    res = simulate_timing(rep.linked, rep.trace, GPU, **kw)
    seconds = res.cycles / (GPU.sm_clock_mhz * 1e6)
    # (the last write-backs queue behind the last reads without holding up any warp: a few % over)
    assert 0.8 * cfg.dram_copy_bytes_per_s < 2 * read / seconds <= 1.03 * cfg.dram_copy_bytes_per_s
    assert res.cycles > 1.6 * base.cycles  # (the read-only copy is not wholly DRAM-bound: 82 % of the read rate)
    no_writes = dataclasses.replace(cfg, dram_write_bytes_per_s=0.0)  # the switch: write-backs cost nothing
    off = simulate_timing(rep.linked, rep.trace, GPU, config=no_writes, **kw)
    assert off.cycles == simulate_timing(rep.linked, rep.trace, GPU, config=no_writes,
                                         **{**kw, "per_pc": rep.per_pc}).cycles <= base.cycles


MIXED = r'''extern "C" __global__ void mixed(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float x = in[i];
    #pragma unroll 1
    for (int k = 0; k < 8; ++k) { x = fmaf(x, 1.0001f, 0.5f); x += in[(i + 97 * k) % n]; }
    out[i] = x;
}'''


def test_lrr_and_gto_differ_and_are_each_deterministic():
    n = 132 * 512
    a = np.random.default_rng(0).random(n, dtype=np.float32)
    k = sg.RawKernel(MIXED, "mixed")
    rep = k((n // 512,), (512,), (sg.asarray(a), sg.zeros(n, np.float32), np.int32(n)), trace=True, progress=False)
    kw = dict(grid=rep.grid, block=rep.block, ctas_per_sm=rep.ctas_per_sm,
              registers_per_thread=rep.registers_per_thread)
    gto = simulate_timing(rep.linked, rep.trace, GPU, policy="gto", **kw)
    lrr = simulate_timing(rep.linked, rep.trace, GPU, policy="lrr", **kw)
    assert gto.cycles == simulate_timing(rep.linked, rep.trace, GPU, policy="gto", **kw).cycles
    assert lrr.cycles == simulate_timing(rep.linked, rep.trace, GPU, policy="lrr", **kw).cycles
    assert not np.array_equal(gto.issue_cycle, lrr.issue_cycle)
    # GTO keeps issuing from one warp: its warps' lifetimes are more spread out than LRR's
    assert np.std(gto.timeline["warp_end"]) != np.std(lrr.timeline["warp_end"])
    with pytest.raises(ValueError):
        simulate_timing(rep.linked, rep.trace, GPU, policy="fifo", **kw)


def test_barrier_and_metrics_present():
    src = r'''extern "C" __global__ void bar(float* x) { __shared__ float s[256];
        s[threadIdx.x] = x[threadIdx.x]; __syncthreads(); x[threadIdx.x] = s[255 - threadIdx.x]; }'''
    _, res = _run(src, "bar", (1,), (256,), [np.arange(256, dtype=np.float32)])
    m = res.metrics
    for key in ("sm__cycles_elapsed.avg", "sm__cycles_elapsed.max", "gpc__cycles_elapsed.max", "gpu__time_duration.sum",
                "sm__warps_active.avg.pct_of_peak_sustained_active", "sm__inst_executed.avg.per_cycle_active",
                "smsp__average_warp_latency_issue_stalled_barrier.ratio"):
        assert key in m
    assert res.stalls["barrier"] > 0
    assert m["gpu__time_duration.sum"] > TimingConfig().launch_overhead_ns
    assert res.timeline["issued"].sum() == m["sm__inst_executed.sum"]


def test_loaded_latency_curve_interpolation():
    from simgpu.timing.replay import _interp
    xs = np.array([0.0, 0.5, 1.0])
    ys = np.array([0.0, 10.0, 110.0])
    assert _interp(-1.0, xs, ys) == 0.0
    assert _interp(0.25, xs, ys) == pytest.approx(5.0)
    assert _interp(0.75, xs, ys) == pytest.approx(60.0)
    assert _interp(2.0, xs, ys) == 110.0
    cfg = TimingConfig()
    for u, x in ((cfg.dram_load_util, cfg.dram_load_extra_cycles), (cfg.l2_load_util, cfg.l2_load_extra_cycles)):
        assert len(u) == len(x) and list(u) == sorted(u) and list(x) == sorted(x)


def test_loaded_latency_slows_a_streaming_kernel_only_under_load():
    from dataclasses import replace
    n = 1 << 18
    a = np.ones(n, np.float32)
    args = [a, a, np.zeros(n, np.float32), np.int32(n)]
    on = default_config()
    off = replace(on, load_window_cycles=0.0)
    _, r_on = _run(ADD, "add", (n // 256,), (256,), args, config=on)
    _, r_off = _run(ADD, "add", (n // 256,), (256,), args, config=off)
    assert r_on.cycles > r_off.cycles
    _, r_on = _run(ADD, "add", (1,), (32,), [a[:32], a[:32], np.zeros(32, np.float32), np.int32(32)], config=on)
    _, r_off = _run(ADD, "add", (1,), (32,), [a[:32], a[:32], np.zeros(32, np.float32), np.int32(32)], config=off)
    assert r_on.cycles == r_off.cycles  # one warp: no load, idle latency
    _, r_again = _run(ADD, "add", (1,), (32,), [a[:32], a[:32], np.zeros(32, np.float32), np.int32(32)], config=on)
    assert r_again.cycles == r_on.cycles


SHARED_READ = r'''extern "C" __global__ void shared_read(const float* a, float* out, int n) {
    float s = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x) s += a[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s; }'''


@pytest.mark.parametrize("n_ctas", [100, 200])
def test_first_wave_ctas_run_where_the_functional_engine_put_them(n_ctas):
    """The replay dispatches the first wave's CTAs to the functional engine's SMs (one partial round,
    or a full one and a partial one: core/dispatch.py), so the timeline's SM of each warp is
    the SM whose L1 its counters came from."""
    n = 4096
    rep, res = _run(SHARED_READ, "shared_read", (n_ctas,), (128,),
                    (np.ones(n, np.float32), np.zeros(n_ctas * 128, np.float32), np.int32(n)))
    assert np.array_equal(res.timeline["warp_sm"], rep.trace.sm_of_warp())
    assert rep.trace.sm_of_warp()[0] == 124  # the H200's first SM for CTA 0


def test_timing_does_not_depend_on_where_earlier_allocations_put_the_arrays():
    """Near/far L2 lines follow a line's offset in its allocation (timing/l2_sides.py): shifting every
    array by an odd-sized allocation before it changes no cycle."""
    n = 4096
    k = sg.RawKernel(SHARED_READ, "shared_read")
    cycles = []
    for pad in (0, 4096 + 256 + 37):
        if pad:
            sg.zeros(pad, np.uint8)
        a = sg.asarray(np.ones(n, np.float32))
        out = sg.zeros(64 * 128, np.float32)
        rep = k((64,), (128,), (a, out, np.int32(n)), progress=False)
        cycles.append(rep.timing.cycles)
    assert cycles[0] == cycles[1] > 0


CHASE = r'''extern "C" __global__ void chase(const int* a, int* out, int n) {
    int i = 0;
    for (int k = 0; k < n; ++k) i = a[i];
    out[0] = i; }'''


def test_an_sms_own_distance_to_the_l2_adds_to_each_of_its_l2_trips():
    """With l2_sm_latency, every access of an SM that goes past the L1 takes that SM's latency minus
    the mean longer: 16 dependent loads of new lines on the first CTA's SM (124), and the store the
    warp waits for before it ends, 40 cycles each."""
    import dataclasses

    from simgpu.timing.config import default_config

    a = np.arange(32 * 64, dtype=np.int32) + 32  # a[i] = i + 32: the next 128-byte line
    cycles = []
    for lat in (None, tuple(340 if s == 124 else 300 for s in range(132))):
        cfg = dataclasses.replace(default_config(), l2_sm_latency=lat)
        rep, res = _run(CHASE, "chase", (1,), (32,), (a, np.zeros(1, np.int32), np.int32(16)), config=cfg)
        assert rep.trace.sm_of_warp()[0] == 124
        cycles.append(res.cycles)
    assert cycles[1] - cycles[0] == 17 * 40
