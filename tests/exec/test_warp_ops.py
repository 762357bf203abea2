"""Warp-level primitives: shuffles (all modes, widths, out-of-range lanes), votes, match, redux."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import simgpu as sg

SRC = r'''
extern "C" __global__ void shfl(const int* x, int* out, int delta, int width) {
    int t = threadIdx.x;
    int v = x[t];
    int n = blockDim.x;
    out[0 * n + t] = __shfl_sync(0xffffffff, v, delta, width);
    out[1 * n + t] = __shfl_up_sync(0xffffffff, v, delta, width);
    out[2 * n + t] = __shfl_down_sync(0xffffffff, v, delta, width);
    out[3 * n + t] = __shfl_xor_sync(0xffffffff, v, delta, width);
}
extern "C" __global__ void votes(const int* x, unsigned* out) {
    int t = threadIdx.x;
    int n = blockDim.x;
    int v = x[t];
    out[0 * n + t] = __ballot_sync(0xffffffff, v > 0);
    out[1 * n + t] = __any_sync(0xffffffff, v > 100);
    out[2 * n + t] = __all_sync(0xffffffff, v >= 0);
    out[3 * n + t] = __match_any_sync(0xffffffff, v & 3);
    out[4 * n + t] = (unsigned)__reduce_add_sync(0xffffffff, v);
    out[5 * n + t] = (unsigned)__reduce_min_sync(0xffffffff, v);
    out[6 * n + t] = (unsigned)__reduce_max_sync(0xffffffff, (unsigned)v);
    out[7 * n + t] = __reduce_or_sync(0xffffffff, (unsigned)v);
    if (t & 1) {
        out[8 * n + t] = __activemask();
        out[9 * n + t] = __ballot_sync(__activemask(), v > 0);
        int p; out[10 * n + t] = __match_all_sync(__activemask(), v >= -1000000, &p); out[11 * n + t] = p;
    } else {
        if (t % 4 == 0) out[8 * n + t] = __activemask();
        else out[8 * n + t] = 0xdead;
        out[9 * n + t] = 0; out[10 * n + t] = 0; out[11 * n + t] = 0;
    }
}
extern "C" __global__ void warp_sum(const float* x, float* out) {
    float v = x[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
'''


def shfl_ref(v, delta, width):
    """CUDA's intrinsics as PTX shfl.sync: c = ((32 - width) << 8) | 0x1f (| 0 for up); the PTX rule
    then gives: idx reads lane (srcLane mod width) of the segment; up/down stay inside the segment;
    xor may read an *earlier* segment (CUDA: 'can access elements from earlier groups')."""
    n = len(v)
    res = np.zeros((4, n), np.int64)
    seg = (32 - width) & 31
    b = delta & 31
    for t in range(n):
        lane, warp0 = t % 32, t - t % 32
        for k, mode in enumerate(["idx", "up", "down", "bfly"]):
            cval = 0 if mode == "up" else 31
            max_lane = (lane & seg) | (cval & ~seg)
            min_lane = lane & seg
            j, ok = {"up": (lane - b, lane - b >= max_lane), "down": (lane + b, lane + b <= max_lane),
                     "bfly": (lane ^ b, (lane ^ b) <= max_lane),
                     "idx": (min_lane | (b & ~seg), (min_lane | (b & ~seg)) <= max_lane)}[mode]
            res[k, t] = v[warp0 + (j if ok else lane)]
    return res


@pytest.fixture(scope="module")
def mod():
    return sg.RawModule(code=SRC)


@pytest.mark.parametrize("width", [32, 16, 8])
@pytest.mark.parametrize("delta", [0, 1, 3, 7, 8, 15, 16, 31, 33])
def test_shuffles(mod, width, delta):
    x = (np.arange(64) * 7 + 3).astype(np.int32)
    out = sg.zeros(4 * 64, np.int32)
    mod.get_function("shfl")((1,), (64,), (sg.asarray(x), out, np.int32(delta), np.int32(width)))
    got = out.get().reshape(4, 64)
    want = shfl_ref(x, delta, width)
    lane = np.arange(64) % width
    if delta < width:  # the familiar cases, stated directly
        np.testing.assert_array_equal(want[0], x[np.arange(64) - lane + delta])
        down = x[np.minimum(np.arange(64) + delta, 63)]
        np.testing.assert_array_equal(want[2], np.where(lane + delta < width, down, x))
    np.testing.assert_array_equal(got, want)


def test_votes_match_redux_activemask(mod):
    rng = np.random.default_rng(8)
    x = rng.integers(-5, 120, 64).astype(np.int32)
    x[32:] = np.abs(x[32:])  # warp 1: all >= 0
    out = sg.zeros(12 * 64, np.uint32)
    mod.get_function("votes")((1,), (64,), (sg.asarray(x), out))
    got = out.get().reshape(12, 64).astype(np.int64)
    for w in range(2):
        v = x[32 * w:32 * w + 32].astype(np.int64)
        sl = slice(32 * w, 32 * w + 32)
        bits = lambda b: int(sum(1 << i for i in range(32) if b[i]))  # noqa: E731
        assert (got[0, sl] == bits(v > 0)).all()
        assert (got[1, sl] == int((v > 100).any())).all()
        assert (got[2, sl] == int((v >= 0).all())).all()
        for i in range(32):
            assert got[3, 32 * w + i] == bits((v & 3) == (v[i] & 3))
        assert (got[4, sl] == (int(v.sum()) & 0xFFFFFFFF)).all()
        assert (got[5, sl] == (int(v.min()) & 0xFFFFFFFF)).all()
        assert (got[6, sl] == int((v & 0xFFFFFFFF).max())).all()
        assert (got[7, sl] == int(np.bitwise_or.reduce(v & 0xFFFFFFFF))).all()
        odd = 0xAAAAAAAA
        assert (got[8, sl][1::2] == odd).all()
        assert (got[8, sl][0::4] == 0x11111111).all()
        assert (got[9, sl][1::2] == bits((v > 0) & (np.arange(32) % 2 == 1))).all()
        # match_all over the odd lanes only: the predicate is true for all of them -> mask, p = 1
        assert (got[10, sl][1::2] == odd).all()
        assert (got[11, sl][1::2] == 1).all()


def test_warp_shuffle_reduction(mod):
    x = np.random.default_rng(9).random(256).astype(np.float32)
    out = sg.zeros(1, np.float32)
    mod.get_function("warp_sum")((2,), (128,), (sg.asarray(x), out))
    np.testing.assert_allclose(out.get()[0], x.astype(np.float64).sum(), rtol=1e-5)


SHFL_PTX = r'''
.version 8.0
.target sm_90
.address_size 64
.visible .entry shflp(.param .u64 p, .param .u32 b, .param .u32 c)
{
    .reg .b32 %r<8>;
    .reg .b64 %rd<4>;
    .reg .pred %q;
    mov.u32 %r1, %laneid;
    mul.lo.u32 %r2, %r1, 10;
    ld.param.u32 %r3, [b];
    ld.param.u32 %r4, [c];
    shfl.sync.MODE.b32 %r5|%q, %r2, %r3, %r4, -1;
    selp.u32 %r6, 1, 0, %q;
    ld.param.u64 %rd1, [p];
    cvta.to.global.u64 %rd1, %rd1;
    mul.wide.u32 %rd2, %r1, 8;
    add.s64 %rd3, %rd1, %rd2;
    st.global.v2.u32 [%rd3], {%r5, %r6};
    ret;
}
'''


@pytest.mark.parametrize("mode", ["up", "down", "bfly", "idx"])
@pytest.mark.parametrize("b,c", [(1, 0x1F), (5, 0x1F), (3, 0x181F), (40, 0x1F), (2, 0x0)])
def test_shfl_ptx_predicate(mode, b, c):
    """The PTX definition (ISA 'shfl.sync'), including the validity predicate."""
    k = sg.RawModule(ptx=SHFL_PTX.replace("MODE", mode)).get_function("shflp")
    out = sg.zeros(64, np.uint32)
    k((1,), (32,), (out, np.uint32(b), np.uint32(c)))
    got = out.get().reshape(32, 2)
    bval, cval, seg = b & 31, c & 31, (c >> 8) & 31
    for lane in range(32):
        max_lane = (lane & seg) | (cval & ~seg)
        min_lane = lane & seg
        j, ok = {"up": (lane - bval, lane - bval >= max_lane), "down": (lane + bval, lane + bval <= max_lane),
                 "bfly": (lane ^ bval, (lane ^ bval) <= max_lane),
                 "idx": (min_lane | (bval & ~seg), (min_lane | (bval & ~seg)) <= max_lane)}[mode]
        j = j if ok else lane
        assert tuple(got[lane]) == (10 * j, int(ok)), (mode, b, c, lane)


GROUP_SRC = r'''
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern "C" __global__ void group_votes(const int* x, unsigned* out, int g) {
    // lanes in groups of g, each passing its own group's membermask (as a cooperative-groups tile)
    int t = threadIdx.x, n = blockDim.x, lane = t & 31;
    unsigned mask = (g == 32 ? 0xffffffffu : ((1u << g) - 1u)) << (lane & ~(g - 1));
    int v = x[t];
    out[0 * n + t] = __ballot_sync(mask, v > 0);
    out[1 * n + t] = __any_sync(mask, v > 100);
    out[2 * n + t] = __all_sync(mask, v >= 0);
    out[3 * n + t] = __match_any_sync(mask, v & 3);
    int p; out[4 * n + t] = __match_all_sync(mask, v & 1, &p); out[5 * n + t] = p;
    out[6 * n + t] = (unsigned)__reduce_add_sync(mask, v);
    out[7 * n + t] = (unsigned)__reduce_min_sync(mask, v);
    out[8 * n + t] = __reduce_xor_sync(mask, (unsigned)v);
}
extern "C" __global__ void tile16_sums(const int* x, int* out) {
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(cg::this_thread_block());
    out[threadIdx.x] = cg::reduce(tile, x[threadIdx.x], cg::plus<int>());
}
'''


@pytest.mark.parametrize("g", [2, 8, 16, 32])
def test_each_lane_votes_within_its_own_membermask(g):
    """Lanes of one warp that pass different membermasks in one instruction (tiles of g) each get
    their own group's ballot, vote, match and reduction: not the whole warp's."""
    rng = np.random.default_rng(g)
    x = rng.integers(-3, 110, 64).astype(np.int32)
    x[32:48] = np.abs(x[32:48])  # some groups all >= 0
    x[48:56] = 5                  # some groups all equal
    out = sg.zeros(9 * 64, np.uint32)
    sg.RawModule(code=GROUP_SRC).get_function("group_votes")((1,), (64,), (sg.asarray(x), out, np.int32(g)))
    got = out.get().reshape(9, 64).astype(np.int64)
    v = x.astype(np.int64)
    for t in range(64):
        lo = t - t % g
        grp = np.arange(lo, lo + g)

        def bits(b, grp=grp, lo=lo):
            return int(sum(1 << (j % 32) for j in grp if b[j - lo]))
        gv = v[grp]
        allsame = bool(((gv & 1) == (v[t] & 1)).all())
        want = [bits(gv > 0), int((gv > 100).any()), int((gv >= 0).all()), bits((gv & 3) == (v[t] & 3)),
                bits(np.ones(g, bool)) if allsame else 0, int(allsame), int(gv.sum()) & 0xFFFFFFFF,
                int(gv.min()) & 0xFFFFFFFF, int(np.bitwise_xor.reduce(gv & 0xFFFFFFFF))]
        assert list(got[:, t]) == want, f"lane {t}, groups of {g}"


def test_cooperative_groups_tile_reduce_sums_its_tile_only():
    x = np.arange(64, dtype=np.int32) * 3 + 1
    out = sg.zeros(64, np.int32)
    sg.RawModule(code=GROUP_SRC).get_function("tile16_sums")((1,), (64,), (sg.asarray(x), out))
    np.testing.assert_array_equal(out.get(), np.repeat(x.reshape(4, 16).sum(1), 16))


ATOMIC_TYPES_SRC = r'''
#include <cuda_bf16.h>
extern "C" __global__ void bf16_atomics(__nv_bfloat162* p2, __nv_bfloat16* p1, long long* out)
{
    atomicAdd(p2, __floats2bfloat162_rn(1.0f, 2.0f));
    atomicAdd(p1, __float2bfloat16(0.5f));
    __int128 big = (__int128)(threadIdx.x + 1) * (__int128)0x100000001LL * (__int128)0x7fffffffLL;
    out[threadIdx.x] = (long long)(big >> 17);   // __int128 in device code, as nvcc takes it
}
'''


def test_bf16_atomics_and_int128():
    """atom.add.noftz.bf16x2 / .bf16 once failed to decode ('uf16x2'); __int128 needs NVRTC's
    --device-int128, which nvcc does not."""
    p2, p1 = sg.zeros(1, np.uint32), sg.zeros(1, np.uint16)
    out = sg.zeros(64, np.int64)
    sg.RawModule(code=ATOMIC_TYPES_SRC).get_function("bf16_atomics")((1,), (64,), (p2, p1, out))
    bf = lambda bits: (np.asarray(bits, np.uint32) << 16).view(np.float32)  # noqa: E731
    lo, hi = p2.get().view(np.uint16)
    assert (bf(lo), bf(hi), bf(p1.get()[0])) == (64.0, 128.0, 32.0)
    want = [((((t + 1) * 0x100000001 * 0x7FFFFFFF) >> 17) + 2**63) % 2**64 - 2**63 for t in range(64)]
    np.testing.assert_array_equal(out.get(), np.array(want, np.int64))


ELECT = r'''
extern "C" __global__ void elect(unsigned* lane_out, int* leader_out, unsigned mask) {
    unsigned lane = 99, p = 0;
    // lanes 0-2 and those the mask leaves out do not execute it (a lane must name itself): the
    // leader is the lowest active named lane
    if (threadIdx.x >= 3 && ((mask >> threadIdx.x) & 1)) {
        asm volatile("{ .reg .pred q; elect.sync %0|q, %2; selp.u32 %1, 1, 0, q; }"
                     : "=r"(lane), "=r"(p) : "r"(mask));
    }
    lane_out[threadIdx.x] = lane;
    leader_out[threadIdx.x] = p;
}
extern "C" __global__ void elect_sink(int* leader_out) {
    unsigned p;
    asm volatile("{ .reg .pred q; elect.sync _|q, 0xffffffff; selp.u32 %0, 1, 0, q; }" : "=r"(p));
    leader_out[threadIdx.x] = p;
}
'''


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("mask, leader", [(0xFFFFFFFF, 3), (0xFFFFFFF0, 4), (0x00F00000, 20), (0x00F00003, 20)])
def test_elect_sync_picks_the_lowest_active_named_lane(engine, mask, leader):
    """sm_90 `elect.sync d|p, membermask`: d = the leader's lane id in every active lane, p true in
    the leader only (PTX ISA); inactive lanes (0-2 here, named or not) cannot be elected. A mask
    naming them (live lanes that do not execute it: undefined on the GPU) warns."""
    mod = sg.RawModule(code=ELECT)
    lane, lead = sg.zeros(32, np.uint32), sg.zeros(32, np.int32)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        mod.get_function("elect")((1,), (32,), (lane, lead, np.uint32(mask)), engine=engine)
    assert len(_absent_warnings(rec)) == (1 if mask & 0b111 else 0)
    runs = ((mask >> np.arange(32)) & 1).astype(bool) & (np.arange(32) >= 3)
    want_lane = np.where(runs, leader, 99).astype(np.uint32)
    np.testing.assert_array_equal(lane.get(), want_lane)
    np.testing.assert_array_equal(lead.get(), (np.arange(32) == leader).astype(np.int32))
    sink = sg.zeros(64, np.int32)
    mod.get_function("elect_sink")((1,), (64,), (sink,), engine=engine)
    np.testing.assert_array_equal(sink.get(), (np.arange(64) % 32 == 0).astype(np.int32))


AND_SRC = r"""
extern "C" __global__ void and_redux(const unsigned* in, unsigned* out) {
    unsigned v = in[threadIdx.x];
    out[threadIdx.x] = __reduce_and_sync(0xffffffff, v);                  // redux.sync.and.b32
    if (threadIdx.x < 16) out[32 + threadIdx.x] = __reduce_and_sync(0xffff, v);
}
"""


def test_reduce_and_sync_on_unsigned():
    """__reduce_and_sync over a full and a half warp (the sweep of 2026-12-04: an OverflowError from
    the all-ones fill of an unsigned lane type)."""
    rng = np.random.default_rng(5)
    v = (rng.integers(0, 2**32, 32, dtype=np.uint64) | np.uint64(0xF0F00001)).astype(np.uint32)
    out = sg.zeros(48, np.uint32)
    sg.RawModule(code=AND_SRC).get_function("and_redux")((1,), (32,), (sg.asarray(v), out))
    got = out.get()
    assert np.all(got[:32] == np.bitwise_and.reduce(v))
    assert np.all(got[32:] == np.bitwise_and.reduce(v[:16]))


OWN_LANE = r"""
extern "C" __global__ void shfl_mask(const int* x, int* out, unsigned mask) {
    out[threadIdx.x] = __shfl_sync(mask, x[threadIdx.x], 0);
}
extern "C" __global__ void ballot_mask(const int* x, int* out, unsigned mask) {
    out[threadIdx.x] = __ballot_sync(mask, x[threadIdx.x] > 0);
}
extern "C" __global__ void syncwarp_mask(const int* x, int* out, unsigned mask) {
    out[threadIdx.x] = x[threadIdx.x];
    __syncwarp(mask);
}
extern "C" __global__ void half_warp_shfl(const int* x, int* out) {
    // lanes 0-15 shuffle among themselves, the others do not take part: well defined
    if (threadIdx.x % 32 < 16) out[threadIdx.x] = __shfl_sync(0x0000ffffu, x[threadIdx.x], 0);
}
"""


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("kernel", ["shfl_mask", "ballot_mask", "syncwarp_mask"])
def test_a_lane_its_member_mask_leaves_out_is_reported(engine, kernel):
    """A full warp running a *_sync with the mask 0xd (a user's typo for 0xffffffff; undefined on the
    GPU, PTX ISA) stops with an error that names the op, the mask, the lane, its block and thread;
    the full mask runs."""
    mod = sg.RawModule(code=OWN_LANE)
    x, out = sg.asarray(np.arange(64, dtype=np.int32) - 5), sg.zeros(64, np.int32)
    with pytest.raises(sg.KernelRuntimeError) as err:
        mod.get_function(kernel)((1,), (64,), (x, out, np.uint32(0xD)), engine=engine)
    msg = str(err.value)
    assert "member mask 0x0000000d of lane 1 leaves out lane 1" in msg, msg
    assert f"kernel {kernel}" in msg and "block (0, 0, 0), thread (1, 0, 0)" in msg, msg
    mod.get_function(kernel)((1,), (64,), (x, out, np.uint32(0xFFFFFFFF)), engine=engine)


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_a_partial_mask_of_the_lanes_that_run_is_fine(engine):
    mod = sg.RawModule(code=OWN_LANE)
    x, out = sg.asarray(np.arange(64, dtype=np.int32) * 3), sg.zeros(64, np.int32)
    mod.get_function("half_warp_shfl")((1,), (64,), (x, out), engine=engine)
    want = np.zeros(64, np.int32)
    want[:16], want[32:48] = 0, 96
    np.testing.assert_array_equal(out.get(), want)


ABSENT = r"""
extern "C" __global__ void split_shuffles(const int* x, int* out) {
    // both sides of a divergent branch shuffle with the full mask: defined on sm_70+, where the GPU
    // pairs the two shuffles; simgpu runs each side alone
    int lane = threadIdx.x % 32, v;
    if (lane & 1) v = __shfl_sync(0xffffffffu, x[threadIdx.x], 0);
    else v = __shfl_sync(0xffffffffu, 2 * x[threadIdx.x], 1);
    out[threadIdx.x] = v;
}
extern "C" __global__ void tail_reduce(const int* x, int* out, int n) {
    // the classic slip: lanes past n skip the shuffles but stay alive (undefined on the GPU)
    int i = threadIdx.x, v = 0;
    if (i < n) {
        v = x[i];
        for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
    }
    out[i] = v;
}
extern "C" __global__ void exited_tail(const int* x, int* out, int n) {
    // the lanes past n have exited: the others' full mask is fine
    int i = threadIdx.x;
    if (i >= n) return;
    int v = x[i];
    v += __shfl_xor_sync(0xffffffffu, v, 1);
    out[i] = v;
}
extern "C" __global__ void divergent_ballot(const int* x, int* out) {
    unsigned b = 0;
    if (threadIdx.x < 8) b = __ballot_sync(0xffffffffu, x[threadIdx.x] > 0);
    out[threadIdx.x] = (int)b;
}
extern "C" __global__ void divergent_syncwarp(int* out) {
    __shared__ int s[32];
    int lane = threadIdx.x;
    if (lane < 16) { s[lane] = lane; __syncwarp(); out[lane] = s[lane + 16]; }
    else { s[lane] = lane; __syncwarp(); out[lane] = s[lane - 16]; }
}
"""


def _absent_warnings(rec) -> list[str]:
    return [str(w.message) for w in rec if issubclass(w.category, sg.FidelityWarning)
            and "have not exited but do not execute it" in str(w.message)]


@pytest.mark.parametrize("engine", ["reference", "fast"])
@pytest.mark.parametrize("kernel, args, lanes", [
    ("tail_reduce", (np.int32(20),), "lanes 20, 21, 22, 23, 24, 25, 26, 27, ..."),
    ("divergent_ballot", (), "lanes 8, 9, 10, 11, 12, 13, 14, 15, ..."),
])
def test_a_member_mask_naming_live_lanes_that_never_come_warns(engine, kernel, args, lanes):
    """A .sync op whose mask names lanes that are alive but never reach a .sync op of its kind (they
    skip the if): undefined on the GPU; simgpu runs without them and says so once per kernel,
    naming the op, the lanes, the block and thread."""
    mod = sg.RawModule(code=ABSENT)
    x, out = sg.asarray(np.arange(32, dtype=np.int32) + 1), sg.zeros(32, np.int32)
    call = (out,) if args is None else (x, out, *args)
    with pytest.warns(sg.FidelityWarning) as rec:
        mod.get_function(kernel)((1,), (32,), call, engine=engine)
    msgs = _absent_warnings(rec)
    assert len(msgs) == 1, msgs
    assert lanes in msgs[0] and f"kernel {kernel}" in msgs[0] and "block (0, 0, 0), thread (" in msgs[0], msgs[0]
    assert "__activemask()" in msgs[0]


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_exited_lanes_and_named_subsets_do_not_warn(engine, recwarn):
    mod = sg.RawModule(code=ABSENT + OWN_LANE)
    x, out = sg.asarray(np.arange(64, dtype=np.int32) + 1), sg.zeros(64, np.int32)
    mod.get_function("exited_tail")((1,), (64,), (x, out, np.int32(21)), engine=engine)
    got = out.get()
    np.testing.assert_array_equal(got[:20], (x.get()[:20] + x.get()[np.arange(20) ^ 1]))
    mod.get_function("half_warp_shfl")((1,), (64,), (x, out), engine=engine)
    assert not _absent_warnings(recwarn.list)


# the kernels the H100 ran (split_shuffles, split_xor, split_ballot, ...), and two more below
SYNC_PAIRING = (Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "sync_pairing"
                / "kernels.cu").read_text()
PAIRED = r"""
extern "C" __global__ void split_late(const int* x, int* out) {
    // the odd arm works before its shuffle, the even arm shuffles at once: they still meet
    int lane = threadIdx.x % 32, v = x[threadIdx.x];
    if (lane & 1) { v = v * 3 + out[threadIdx.x + 64]; v = __shfl_sync(0xffffffffu, v, 0); }
    else v = __shfl_sync(0xffffffffu, 2 * v, 1);
    out[threadIdx.x] = v;
}
extern "C" __global__ void split_redux_match(const int* x, int* out) {
    // every lane: the sum over both arms' operands, and which lanes hold the same value as it
    int lane = threadIdx.x % 32, s;
    unsigned same;
    if (lane & 1) {
        s = __reduce_add_sync(0xffffffffu, x[threadIdx.x]); same = __match_any_sync(0xffffffffu, lane & 2);
    } else {
        s = __reduce_add_sync(0xffffffffu, 2 * x[threadIdx.x]); same = __match_any_sync(0xffffffffu, lane & 6);
    }
    out[threadIdx.x] = s;
    out[threadIdx.x + 32] = (int)same;
}
extern "C" __global__ void split_kinds(const int* x, int* out) {
    // a shuffle in one arm, a ballot in the other: no pairing, both warn-worthy
    int lane = threadIdx.x % 32, v;
    if (lane & 1) v = __shfl_sync(0xffffffffu, x[threadIdx.x], 0);
    else v = (int)__ballot_sync(0xffffffffu, x[threadIdx.x] & 1);
    out[threadIdx.x] = v;
}
"""


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_the_two_arms_of_an_if_meet_at_their_sync_ops_as_on_the_gpu(engine, recwarn):
    """On sm_90 the shuffles or ballots of the two arms of a divergent if run as one op, each lane
    with its own instruction's operands (an H100, benchmarks/microbench/sync_pairing: the expected
    values below are its outputs for x[i] = 100 + i, in split_shuffles / split_xor / split_ballot)."""
    x = np.arange(64, dtype=np.int32) + 100
    mod = sg.RawModule(code=SYNC_PAIRING + PAIRED)

    def run(kernel):
        out = sg.asarray(np.full(96, -7, np.int32))
        mod.get_function(kernel)((1,), (32,), (sg.asarray(x), out), engine=engine)
        return out.get()[:32]

    assert run("split_shuffles").tolist() == [101, 200] * 16
    assert run("split_xor").tolist() == [v for i in range(0, 32, 2) for v in (101 + i, 1100 + i)]
    assert (run("split_ballot").view(np.uint32) == 0xCCCCCCAA).all()
    def run_two(kernel):
        out = sg.asarray(np.full(96, -7, np.int32))
        mod.get_function(kernel)((1,), (32,), (sg.asarray(x), out), engine=engine)
        return out.get()[:32], out.get()[32:64].view(np.uint32)

    total, same = run_two("split_redux_match")
    assert (total == x[1:32:2].sum() + 2 * x[0:32:2].sum()).all()
    key = np.where(np.arange(32) & 1, np.arange(32) & 2, np.arange(32) & 6)
    want = [sum(1 << j for j in range(32) if key[j] == key[i]) for i in range(32)]
    assert same.tolist() == want
    late = run("split_late")
    assert late[0::2].tolist() == [3 * 101 - 7] * 16 and late[1::2].tolist() == [200] * 16
    assert not _absent_warnings(recwarn.list)
    kinds = run("split_kinds")  # each arm alone: the odd lanes read lane 0's x (its register)
    assert kinds[1::2].tolist() == [100] * 16
    assert len(_absent_warnings(recwarn.list)) == 1


def test_paired_arms_count_both_instructions_once():
    """Pairing changes what the lanes exchange, not what the warp executes: each arm's instructions
    are counted once, the same as without the other arm's lanes waiting."""
    x = sg.asarray(np.arange(32, dtype=np.int32) + 100)
    mod = sg.RawModule(code=ABSENT)
    out = sg.zeros(32, np.int32)
    r = mod.get_function("split_shuffles")((1,), (32,), (x, out), engine="reference")
    shfl = [row for row in r.per_pc if row["text"].startswith("shfl.sync")]
    assert len(shfl) == 2 and all(row["warps"] == 1 for row in shfl)
    assert sum(row["threads"] for row in shfl) == 32
