"""Shared-memory float atomics as ptxas's CAS loops (simgpu/frontend/ptx/cas_loops.py): the rewrite
itself, and the trip counts the engines then give, which follow from which lanes update one word."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.frontend.ptx import parse_ptx
from simgpu.frontend.ptx.cas_loops import lower_shared_cas_loops, lowered_atomic

PTX = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
 .reg .pred %p<3>; .reg .b32 %r<9>; .reg .f32 %f<4>; .reg .f64 %fd<3>; .reg .b64 %rd<3>;
 .shared .align 8 .b8 h[256];
 mov.u32 %r1, h;
$L__BB0_1:
 @%p1 atom.shared.add.f32 %f1, [%r1+4], 0f3F800000;
 atom.shared.add.u32 %r3, [%r1], 1;
 red.shared.add.f64 [%r1+8], %fd1;
 atom.global.add.f32 %f2, [%rd1], %f3;
 atom.shared.add.noftz.f16x2 %r4, [%r1+16], %r5;
 atom.shared.add.u64 %rd2, [%r1+24], 3;
 setp.ne.b32 %p2, %r1, %r2;
 @%p2 bra $L__BB0_1;
 bra $L__BB0_2;
$L__BB0_2:
 ret;
}
"""


def test_rewrite_replaces_only_shared_f32_f64_adds():
    module = parse_ptx(PTX)
    before = [i.full_opcode for i in module.functions["k"].body]
    fn = lower_shared_cas_loops(module).functions["k"]
    assert [i.full_opcode for i in module.functions["k"].body] == before  # the parsed module is kept
    ops = [i.full_opcode for i in fn.body]
    assert ops == ["mov.u32",
                   "bra", "ld.shared.f32", "add.f32", "atom.shared.cas.spin.b32", "setp.ne.b32", "bra", "mov.b32",
                   "atom.shared.add.u32",
                   "ld.shared.f64", "add.f64", "atom.shared.cas.spin.b64", "setp.ne.b64", "bra",
                   "atom.global.add.f32", "atom.shared.add.noftz.f16x2",
                   "ld.shared.u64", "add.u64", "atom.shared.cas.spin.b64", "setp.ne.b64", "bra", "mov.b64",
                   "setp.ne.b32", "bra", "bra", "ret"]
    # the kernel's labels still name the same instructions
    assert fn.body[fn.labels["$L__BB0_1"]].full_opcode == "bra"  # the guard's skip opens the loop
    assert fn.body[fn.labels["$L__BB0_2"]].full_opcode == "ret"
    # the guard (@%p1) skips the whole loop: @!%p1 bra to the instruction after it
    skip = fn.body[1]
    assert skip.guard.name == "%p1" and skip.guard_negated
    assert fn.labels[skip.operands[0].name] == 8 and fn.body[8].full_opcode == "atom.shared.add.u32"
    # each trip goes back to its load; the result is the value the successful swap replaced
    assert fn.labels[fn.body[6].operands[0].name] == 2 and fn.labels[fn.body[13].operands[0].name] == 9
    assert fn.body[7].operands[0].name == "%f1" and fn.body[7].operands[1].name == fn.body[2].operands[0].name
    # every lowered instruction keeps the atomic's PTX line, and says what it is
    assert {i.line for i in fn.body[1:8]} == {module.functions["k"].body[1].line}
    assert all("CAS loop" in i.text for i in fn.body[1:8])
    assert fn.registers[fn.body[11].operands[0].name] == "b64"


def test_u64_shared_add_is_a_loop_and_exact():
    k = sg.RawModule(code=r'''
    extern "C" __global__ void u64sum(unsigned long long* out) {
        __shared__ unsigned long long s[2];
        if (threadIdx.x < 2) s[threadIdx.x] = 0;
        __syncthreads();
        atomicAdd(&s[threadIdx.x & 1], (1ull << 40) + threadIdx.x);
        __syncthreads();
        if (threadIdx.x < 2) out[threadIdx.x] = s[threadIdx.x];
    }''').get_function("u64sum")
    out = sg.zeros(2, np.uint64)
    rep = k((1,), (32,), (out,), timing=False)
    t = np.arange(32, dtype=np.uint64)
    assert list(out.get()) == [int(((1 << 40) + t[0::2]).sum()), int(((1 << 40) + t[1::2]).sum())]
    # 16 lanes on each of two words: 16 trips, one CAS each
    assert rep.metrics["smsp__sass_inst_executed_op_shared_atom.sum"] == 16


def test_module_without_float_shared_atomics_is_returned_as_is():
    module = parse_ptx(PTX.replace("@%p1 atom.shared.add.f32 %f1, [%r1+4], 0f3F800000;", "")
                       .replace("red.shared.add.f64 [%r1+8], %fd1;", "")
                       .replace("atom.shared.add.u64 %rd2, [%r1+24], 3;", ""))
    assert lower_shared_cas_loops(module) is module
    assert not any(lowered_atomic(i) for i in module.functions["k"].body)


KERNEL = r'''
extern "C" __global__ void hist(const int* bin, const int* active, float* out, float* old, double* dout) {
    __shared__ float h[64];
    __shared__ double d[64];
    const int t = threadIdx.x;
    for (int i = t; i < 64; i += blockDim.x) { h[i] = 0.f; d[i] = 0.0; }
    __syncthreads();
    if (active[t]) {
        old[t] = atomicAdd(&h[bin[t]], 1.0f);
        atomicAdd(&d[bin[t]], 0.5);
    }
    __syncthreads();
    for (int i = t; i < 64; i += blockDim.x) { out[i] = h[i]; dout[i] = d[i]; }
}'''


@pytest.fixture(scope="module")
def hist():
    return sg.RawModule(code=KERNEL).get_function("hist")


def _run(hist, bins, active=None, engine=None, loops=True):
    n = len(bins)
    active = np.ones(n, np.int32) if active is None else np.asarray(active, np.int32)
    out, old, dout = sg.zeros(64, np.float32), sg.zeros(n, np.float32), sg.zeros(64, np.float64)
    rep = hist((1,), (n,), (sg.asarray(np.asarray(bins, np.int32)), sg.asarray(active), out, old, dout),
               timing=False, engine=engine, shared_cas_loops=loops)
    return rep, out.get(), old.get(), dout.get()


def _trips(rep) -> int:
    """CAS instructions executed by the two atomics' loops, per atomic (each trip is one)."""
    return int(rep.metrics["smsp__sass_inst_executed_op_shared_atom.sum"]) // 2


def test_own_words_take_one_trip(hist):  # 32 words in 32 banks
    rep, out, old, _ = _run(hist, np.arange(32))
    assert _trips(rep) == 1
    # a trip is a load, an add and a CAS: the loads are counted as the LDS they are
    assert rep.metrics["smsp__sass_inst_executed_op_shared_ld.sum"] == 2 + 4  # + the two rounds of h, d reads
    np.testing.assert_array_equal(out[:32], 1.0)
    np.testing.assert_array_equal(old, 0.0)
    # a spinning CAS takes two wavefronts a phase with a lane, none a bank conflict: the float CAS's
    # one phase 2, the double CAS's two half-warps 4
    assert rep.metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] == 2 + 4
    assert rep.metrics.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum", 0) == 0


def test_one_word_takes_a_trip_per_lane(hist):
    rep, out, old, dout = _run(hist, np.zeros(32, int))
    assert _trips(rep) == 32  # one lane of the warp wins each CAS
    assert out[0] == 32.0 and dout[0] == 16.0
    assert sorted(old.tolist()) == list(range(32))  # each lane saw the sum before its own add


def test_two_warps_at_the_loop_together(hist):
    # both warps load, then CAS in issue order: warp 0's winner changes the word, so warp 1's swap
    # fails until warp 0 is done (32 trips); warp 1 then needs 32 more: 32 + 64 trips in all
    rep, out, old, _ = _run(hist, np.zeros(64, int))
    assert _trips(rep) == 96
    assert out[0] == 64.0 and sorted(old.tolist()) == list(range(64))


def test_without_loops_one_atomic_per_warp(hist):
    rep, out, _, _ = _run(hist, np.zeros(64, int), loops=False)
    assert _trips(rep) == 2
    assert out[0] == 64.0


def _spin_trips(bins: np.ndarray, active: np.ndarray, size: int) -> int:
    """Trips of one warp's CAS loop by the rule, brute force: each trip every pending lane loads its
    word; then, in lane order, the first pending lane of each (phase, bank) -- the whole warp for
    4-byte words, each half-warp for 8 -- swaps, and succeeds unless a lower lane changed its word
    in this trip."""
    pending = active.copy()
    trips = 0
    while pending.any():
        trips += 1
        groups, changed = set(), set()
        for lane in np.flatnonzero(pending):
            b = int(bins[lane])
            group = (lane // 16, b % 16) if size == 8 else b % 32
            if group in groups:
                continue
            groups.add(group)
            if b not in changed:
                changed.add(b)
                pending[lane] = False
    return trips


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, 63), min_size=32, max_size=32), st.lists(st.booleans(), min_size=32, max_size=32))
def test_one_warp_trips_follow_banks_and_words(hist, bins, active):
    bins, active = np.array(bins), np.array(active)
    rep, out, old, dout = _run(hist, bins, active)
    want = np.bincount(bins[active], minlength=64)
    trips = _spin_trips(bins, active, 4) + _spin_trips(bins, active, 8)
    assert rep.metrics["smsp__sass_inst_executed_op_shared_atom.sum"] == trips
    assert rep.metrics["smsp__sass_inst_executed_op_shared_ld.sum"] == trips + 4  # + the reads at the end
    np.testing.assert_array_equal(out, want.astype(np.float32))
    np.testing.assert_array_equal(dout, want * 0.5)
    for b in np.unique(bins[active]):  # each lane of a bin saw a different count before its add
        assert sorted(old[active & (bins == b)].tolist()) == list(range(int(want[b])))


def test_lanes_of_one_bank_take_turns(hist):
    # 32 lanes on two words of one bank (h[0], h[32]; d[0], d[32] share a bank pair): the spinning
    # CAS tries one lane a bank a trip: 32 trips for the floats; for the doubles each half-warp tries
    # one lane a trip, and lane 16's first try loses to lane 0's swap of the same word: 17
    bins = np.array([0, 32] * 16)
    rep, out, _, _ = _run(hist, bins)
    assert rep.metrics["smsp__sass_inst_executed_op_shared_atom.sum"] == 32 + 17
    assert out[0] == 16.0 and out[32] == 16.0


def test_engines_agree(hist):
    bins = np.random.default_rng(3).integers(0, 8, 256)
    a = _run(hist, bins, engine="reference")
    b = _run(hist, bins, engine="fast")
    for k in ("smsp__sass_inst_executed_op_shared_atom.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
              "smsp__inst_executed.sum", "simgpu__ptx_inst_executed.sum",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"):
        assert a[0].metrics[k] == b[0].metrics[k], k
    for x, y in zip(a[1:], b[1:]):
        np.testing.assert_array_equal(x, y)
    assert _trips(a[0]) > 4  # eight warps over eight bins contend
