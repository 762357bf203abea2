"""PTX ops that ptxas expands into a SASS sequence (integer div / rem, IEEE div / sqrt / rcp) take
one issue slot per SASS instruction when config sass_sequences is on (timing/isa.sass_slots;
counts measured in benchmarks/microbench/sass_ops; off by default, config.py says why)."""

import dataclasses

import numpy as np
import pytest

import simgpu as sg
from simgpu.frontend.ptx.ast import Instruction
from simgpu.timing.config import default_config
from simgpu.timing.isa import build_static, divisor_reciprocals, sass_slots


def _ins(text: str) -> Instruction:
    op, *mods = text.split(".")
    return Instruction(opcode=op, mods=tuple(mods), operands=(), guard=None, line=1, text=text)


@pytest.mark.parametrize("text,field", [
    ("div.u32", "sass_idiv32"), ("rem.u32", "sass_idiv32"), ("div.s32", "sass_sdiv32"),
    ("rem.s32", "sass_sdiv32"), ("div.u64", "sass_idiv64"), ("rem.s64", "sass_idiv64"),
    ("div.rn.f32", "sass_fdiv32"), ("sqrt.rn.f32", "sass_fdiv32"), ("rcp.rn.f32", "sass_fdiv32"),
    ("div.rn.f64", "sass_fdiv64"), ("sqrt.rn.f64", "sass_fsqrt64"), ("rcp.rn.f64", "sass_frcp64"),
])
def test_expanded_ops_take_their_measured_slots(text, field):
    cfg = dataclasses.replace(default_config(), sass_sequences=True)
    assert sass_slots(_ins(text), cfg) == getattr(cfg, field) > 1
    assert sass_slots(_ins(text), dataclasses.replace(cfg, sass_sequences=False)) == 1


@pytest.mark.parametrize("text", ["add.s32", "div.approx.f32", "div.full.f32", "sqrt.approx.f32", "mul.lo.u32",
                                  "fma.rn.f32"])
def test_other_ops_take_one_slot(text):
    assert sass_slots(_ins(text), dataclasses.replace(default_config(), sass_sequences=True)) == 1


MIXED = r'''
extern "C" __global__ void k(unsigned* o, unsigned d) {
    unsigned x = threadIdx.x + 1000u, a0 = 0, a1 = 1, a2 = 2, a3 = 3, a4 = 4, a5 = 5, a6 = 6, a7 = 7, q = 0;
    #pragma unroll 1
    for (int i = 0; i < 64; ++i) {
        q ^= x / d;  // one division among 16 independent adds: the dispatch, not the pipe, is busy
        a0 += x; a1 ^= x; a2 += x; a3 ^= x; a4 += x; a5 ^= x; a6 += x; a7 ^= x;
        a0 ^= i; a1 += i; a2 ^= i; a3 += i; a4 ^= i; a5 += i; a6 ^= i; a7 += i;
        x += 7u;
    }
    o[blockIdx.x * blockDim.x + threadIdx.x] = q + a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7;
}'''


def _cycles() -> float:
    k = sg.RawModule(code=MIXED).get_function("k")
    o = sg.zeros(132 * 1024, np.uint32)
    rep = k((132,), (1024,), (o, np.uint32(3)))
    return rep.metrics["sm__cycles_elapsed.max"]


def test_a_division_takes_its_slots_from_the_other_instructions(timing_override):
    """32 warps per SM, each iteration one division among ~20 one-slot instructions: issue-bound, so
    the division's sass_idiv32 - 1 extra slots show up once per division per warp (64 x 8 per
    sub-partition)."""
    cfg = default_config()
    timing_override(sass_sequences=True)
    expanded = _cycles()
    timing_override(sass_sequences=False)
    single = _cycles()
    per_div = (expanded - single) / (64 * 32 / 4)
    assert cfg.sass_idiv32 - 3 <= per_div <= cfg.sass_idiv32, per_div


RECIPROCALS = r'''
extern "C" __global__ void outside(unsigned* o, unsigned d) {
    unsigned x = threadIdx.x + 1000u;
    o[threadIdx.x] = x / d + x % d;  // one reciprocal for both: the same divisor in one block
}
extern "C" __global__ void invariant(unsigned* o, unsigned d, int n) {
    unsigned x = threadIdx.x + 1000u, q = 0;
    for (int i = 0; i < n; ++i) { q ^= x / d; x += 7u; }  // d is the loop's constant: hoisted
    o[threadIdx.x] = q;
}
extern "C" __global__ void varying(unsigned* o, unsigned d, int n) {
    unsigned x = threadIdx.x + 1000u, q = 0;
    for (int i = 0; i < n; ++i) { q ^= x / d; d += 3u; }  // a new divisor each trip
    o[threadIdx.x] = q;
}
extern "C" __global__ void two(unsigned* o, unsigned d, unsigned e) {
    unsigned x = threadIdx.x + 1000u;
    o[threadIdx.x] = x / d + x / e;  // two divisors, two reciprocals
}'''


@pytest.mark.parametrize("kernel,expected", [("outside", 1), ("invariant", 0), ("varying", "all"), ("two", 2)])
def test_a_division_computes_its_divisors_reciprocal_where_ptxas_cannot_share_it(kernel, expected):
    """ptxas computes a divisor's reciprocal (I2F, MUFU.RCP, F2I, ...) once before a loop that does
    not change the divisor, and once for divisions by the same register in a block."""
    lk = sg.RawModule(code=RECIPROCALS).linked(kernel)
    divisions = [pc for pc, ins in enumerate(lk.instructions) if ins.opcode in ("div", "rem")]
    assert divisions, [ins.text for ins in lk.instructions]
    if expected == "all":  # NVVM unrolls the loop: every copy divides by a divisor of its own
        expected = len(divisions)
    assert len(divisor_reciprocals(lk)) == expected
    cfg = dataclasses.replace(default_config(), sass_sequences=True)
    st = build_static(lk, cfg)
    with_reciprocal = [pc for pc in divisions if st.slots[pc] == cfg.sass_idiv32 + cfg.sass_idiv32_reciprocal]
    assert len(with_reciprocal) == expected
    assert all(st.lat[pc] == cfg.lat_idiv32 + cfg.lat_idiv32_reciprocal for pc in with_reciprocal)


@pytest.mark.parametrize("text", ["add.s64", "sub.u64", "add.b64"])
def test_a_64_bit_add_takes_its_own_latency(text):
    """add / sub on 64-bit integers take config lat_int64_add (benchmarks/microbench/int64_chain);
    32-bit ones and float adds keep theirs."""
    from simgpu.timing.isa import classify
    cfg = dataclasses.replace(default_config(), lat_int64_add=10)
    assert classify(_ins(text), 0, None, cfg)[2] == 10
    assert classify(_ins("add.s32"), 0, None, cfg)[2] == cfg.lat_int
    assert classify(_ins("add.f64"), 0, None, cfg)[2] == cfg.lat_fp64
