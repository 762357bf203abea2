"""What a branch costs a warp in the replay: lat_branch when it falls through, lat_branch_taken when
it goes elsewhere (a loop's back edge), lat_predicate_branch from the predicate's producer to the
branch, convergence_barrier_cycles once a region (ptxas's BSSY / BSYNC), and lat_divergent_split
each time a warp really splits at a region's branch. One warp on a dependent chain, so every cycle a
branch adds shows in the kernel's duration."""

from dataclasses import replace

import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import TimingConfig, overridden
from simgpu.timing.convergence import splitting_branches
from simgpu.timing.isa import K_ALU, build_static, scheduled_blocks
from simgpu.timing.prepare import _split_entries

# one warp, `n` trips of a loop NVVM marks nounroll (so ptxas, and the model, keep one copy): each
# trip a dependent FFMA chain, then the counter's setp and the back edge
LOOP = r'''
extern "C" __global__ void loop(float* io, int n)
{
    float v = io[threadIdx.x];
    #pragma unroll 1
    for (int s = 0; s < n; ++s) { v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; }
    io[threadIdx.x] = v;
}
'''
# a lane-strided loop before a barrier: every warp enters the BSSY / BSYNC region once
STRIDED = r'''
extern "C" __global__ void strided(const float* x, float* y, int n)
{
    __shared__ float sm[256];
    for (int c = threadIdx.x; c < n; c += blockDim.x) sm[c & 255] = x[c];
    __syncthreads();
    y[threadIdx.x] = sm[threadIdx.x & 255];
}
'''
# each of `n` trips runs a dependent chain of 12 FFMAs (more than ptxas predicates: config
# if_convert_max_instructions) behind `if (lane < lim)` (a BSSY / BSYNC region): lim 32 keeps the
# warp whole, lim 16 splits it every trip; `ifelse` runs the other half through a second chain
# (FMUL + FMNMX pairs), so both sides run
LANE_IF = r'''
#define FMA4(v) v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f; v = v * 0.999f + 0.5f;
#define MAX2(v) v = fmaxf(v * 1.001f, 0.5f); v = fmaxf(v * 1.001f, 0.5f);
#define MAX4(v) MAX2(v) MAX2(v)
extern "C" __global__ void lane_if(float* io, int n, int lim, int ifelse)
{
    float v = io[threadIdx.x];
    int lane = threadIdx.x & 31;
    #pragma unroll 1
    for (int s = 0; s < n; ++s) {
        if (lane < lim) { FMA4(v) FMA4(v) FMA4(v) }
        else if (ifelse) { MAX4(v) MAX4(v) MAX4(v) }
    }
    io[threadIdx.x] = v;
}
'''


def _cycles(src: str, name: str, args, block: int = 32, **config) -> int:
    with overridden(**config):
        rep = sg.RawModule(code=src).get_function(name)((1,), (block,), args)
    return int(rep.metrics["gpc__cycles_elapsed.max"])


def _loop_cycles(n: int, **config) -> int:
    io = sg.asarray(np.ones(32, np.float32))
    return _cycles(LOOP, "loop", (io, np.int32(n)), **config)


@pytest.mark.parametrize("n", [9, 40])
def test_each_taken_back_edge_costs_lat_branch_taken(n):
    """n trips take the back edge n - 1 times; nothing else in the loop waits on it."""
    grew = _loop_cycles(n, lat_branch_taken=34) - _loop_cycles(n, lat_branch_taken=24)
    assert grew == 10 * (n - 1)


def test_the_loop_exit_falls_through_at_lat_branch():
    """Raising lat_branch moves only the branches that fall through: the loop's exit once, and
    the guard `n < 1` before the loop once."""
    grew = _loop_cycles(20, lat_branch=15) - _loop_cycles(20, lat_branch=5)
    assert 10 <= grew <= 20


def test_a_predicate_a_branch_reads_takes_lat_predicate_branch():
    lk = sg.RawModule(code=LOOP).linked("loop")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    texts = [ins.text for ins in lk.instructions]
    setps = [pc for pc, t in enumerate(texts) if t.startswith("setp")]
    assert setps and all(st.kind[pc] == K_ALU and st.lat[pc] == cfg.lat_predicate_branch for pc in setps)
    st0 = build_static(lk, replace(cfg, lat_predicate_branch=0))  # off: the ALU latency
    assert all(st0.lat[pc] == cfg.lat_int for pc in setps)


def test_a_predicate_read_only_by_a_select_keeps_the_alu_latency():
    src = r'''extern "C" __global__ void sel(const float* x, float* y)
    { float a = x[threadIdx.x]; y[threadIdx.x] = a > 0.5f ? a * 3.f : a; }'''
    lk = sg.RawModule(code=src).linked("sel")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    setps = [pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "setp"]
    assert setps and all(st.lat[pc] == cfg.lat_fp32 for pc in setps)


def test_a_convergence_region_holds_the_warp_once():
    """The strided loop's region: its entry pc carries convergence_barrier_cycles in the static
    table, and one warp's duration grows by exactly the change (it enters once)."""
    lk = sg.RawModule(code=STRIDED).linked("strided")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    scheduled_blocks(lk, st, cfg)
    assert sorted(int(d) for d in st.delay if d) == [cfg.convergence_barrier_cycles]
    x = sg.asarray(np.arange(300, dtype=np.float32))

    def cycles(d):
        return _cycles(STRIDED, "strided", (x, sg.zeros(32, np.float32), np.int32(300)),
                       convergence_barrier_cycles=d)

    assert cycles(40) - cycles(15) == 25
    assert cycles(15) - cycles(0) == 15


def _lane_if_cycles(n: int, lim: int, ifelse: int = 0, **config) -> int:
    io = sg.asarray(np.ones(32, np.float32))
    return _cycles(LANE_IF, "lane_if", (io, np.int32(n), np.int32(lim), np.int32(ifelse)), **config)


def test_the_if_opens_a_splitting_branch_the_back_edge_does_not():
    """The `if (lane < lim)` branch is a splitting branch and flagged in the static table; the
    loop's back edge is not; nor is the strided loop's back branch (its lanes leave at different
    trips and wait at the BSYNC; its guard `c < n` before the loop is a forward one and splits)."""
    lk = sg.RawModule(code=LANE_IF).linked("lane_if")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    conv, _ = scheduled_blocks(lk, st, cfg)
    split = splitting_branches(lk, conv)
    bras = [pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "bra"]
    assert split and split <= set(bras)
    assert all(int(lk.target[pc]) > pc for pc in split)
    assert sorted(np.flatnonzero(st.split)) == sorted(split)
    lk2 = sg.RawModule(code=STRIDED).linked("strided")
    back = [pc for pc, ins in enumerate(lk2.instructions) if ins.opcode == "bra" and int(lk2.target[pc]) <= pc]
    assert back and not splitting_branches(lk2) & set(back)


def _split_growth(n: int, ifelse: int, lo: int, hi: int, lim: int = 16) -> int:
    return (_lane_if_cycles(n, lim, ifelse, lat_divergent_split=hi)
            - _lane_if_cycles(n, lim, ifelse, lat_divergent_split=lo))


def test_each_real_split_costs_lat_divergent_split():
    """Half the lanes take the if: the warp splits once a trip, so each trip more moves the
    duration by exactly a change of lat_divergent_split (the first trip's split overlaps the wait
    for the chain's load, so trips are compared, not the whole); with every lane taking it, the
    duration does not move."""
    assert _split_growth(30, 0, 18, 28) - _split_growth(7, 0, 18, 28) == 10 * (30 - 7)
    assert _split_growth(30, 0, 18, 28, lim=32) == 0


def test_an_if_else_splits_once_a_trip():
    """Both sides run (the else's chain after the if's), one split a trip: at the if's branch, not
    at the then side's jump over the else."""
    assert _split_growth(12, 1, 0, 30) - _split_growth(4, 1, 0, 30) == 30 * (12 - 4)


def test_split_entries_reads_the_masks_at_the_next_entry():
    """A split is a branch whose warp's next entry runs a proper, non-empty subset of its lanes;
    the same mask (no split), a mask with other lanes (a different path meeting), an empty one, and
    a warp's last entry are not splits."""
    split_pc = np.array([False, True, False])
    # two warps' runs: warp 0 = entries 0..5, warp 1 = 6..7 (pcs, and flat indices into `active`)
    pcs = np.array([1, 0, 1, 0, 1, 1, 1, 0], np.int32)
    fidx = np.arange(8, dtype=np.int32)
    full, low, high = 0xFFFFFFFF, 0x0000FFFF, 0xFFFF0000
    active = np.array([full, low, low, low | (1 << 20), high, 0, full, full], np.uint32)
    bucket_off = np.array([0, 6, 8], np.int64)
    out = np.zeros(8, np.int8)
    assert _split_entries(split_pc, bucket_off, pcs, fidx, active, out) == 1
    assert out.tolist() == [1, 0, 0, 0, 0, 0, 0, 0]


def test_a_loop_invariant_compare_is_hoisted():
    """`lane < lim` does not change in the loop: ptxas computes it before the loop, so its setp keeps
    the ALU latency; the loop counter's compare, before the back edge, waits lat_predicate_branch."""
    lk = sg.RawModule(code=LANE_IF).linked("lane_if")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    texts = [ins.text for ins in lk.instructions]
    lane = [pc for pc, t in enumerate(texts) if t.startswith("setp.ge.s32") or t.startswith("setp.lt.s32 %p3")]
    counter = [pc for pc, t in enumerate(texts) if t.startswith("setp.lt.s32") and pc > 20]
    assert lane and counter
    assert all(st.lat[pc] == cfg.lat_int for pc in lane)
    assert all(st.lat[pc] == cfg.lat_predicate_branch for pc in counter)
