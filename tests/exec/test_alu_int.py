"""Integer lane semantics, checked against exact references written with Python integers.

Two levels: the NumPy lane functions of `simgpu.exec.alu` directly (hypothesis property tests),
and whole instructions through hand-written PTX kernels (`ptxharness.run_op`) over every pair of
edge values (INT_MIN, -1, 0, MAX, ...) plus random pairs.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ptxharness import INT_BITS, as_np, int_pairs, run_op, wrap

from simgpu.exec import alu

TYPES = ["s32", "u32", "s64", "u64"]
NPT = {"s16": np.int16, "u16": np.uint16, "s32": np.int32, "u32": np.uint32, "s64": np.int64, "u64": np.uint64}


def ints(t: str):
    bits = INT_BITS[t]
    if t.startswith("s"):
        return st.integers(-(1 << (bits - 1)), (1 << (bits - 1)) - 1)
    return st.integers(0, (1 << bits) - 1)


def arr(vals, t):
    return as_np(list(vals), t)


def tolist(a: np.ndarray) -> list[int]:
    return [int(x) for x in a]


def tdiv(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def trem(a: int, b: int) -> int:
    return a - tdiv(a, b) * b


def sat(v: int, t: str) -> int:
    bits = INT_BITS[t]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if t.startswith("s") else (0, (1 << bits) - 1)
    return min(max(v, lo), hi)


# ------------------------------------------------------------------------------ binary ops in PTX
BINARY_REFS = {
    "add": lambda a, b, t: wrap(a + b, t),
    "sub": lambda a, b, t: wrap(a - b, t),
    "mul.lo": lambda a, b, t: wrap(a * b, t),
    "mul.hi": lambda a, b, t: wrap((a * b) >> INT_BITS[t], t),
    "min": lambda a, b, t: min(a, b),
    "max": lambda a, b, t: max(a, b),
    "div": lambda a, b, t: wrap(tdiv(a, b), t) if b else None,
    "rem": lambda a, b, t: wrap(trem(a, b), t) if b else None,
}


@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("op", list(BINARY_REFS))
def test_binary_ptx(op, t):
    xs, ys = int_pairs(t)
    got = tolist(run_op(f"{op}.{t} %d, %a, %b;", [(t, arr(xs, t)), (t, arr(ys, t))], t))
    for x, y, g in zip(xs, ys, got):
        want = BINARY_REFS[op](x, y, t)
        if want is None:  # division by zero: undefined in PTX; the simulator must not crash
            continue
        assert g == want, f"{op}.{t} {x}, {y}: got {g}, want {want}"


@pytest.mark.parametrize("t", ["s32", "u32", "s64", "u64"])
def test_div_by_zero_does_not_crash(t):
    got = run_op(f"div.{t} %d, %a, %b;", [(t, arr([5, 0, 7], t)), (t, arr([0, 0, 0], t))], t)
    assert len(got) == 3
    got = run_op(f"rem.{t} %d, %a, %b;", [(t, arr([5, 0, 7], t)), (t, arr([0, 0, 0], t))], t)
    assert len(got) == 3


@pytest.mark.parametrize("t", ["s16", "u16", "s32", "u32"])
def test_mul_wide_ptx(t):
    wt = {"s16": "s32", "u16": "u32", "s32": "s64", "u32": "u64"}[t]
    xs, ys = int_pairs(t)
    got = tolist(run_op(f"mul.wide.{t} %d, %a, %b;", [(t, arr(xs, t)), (t, arr(ys, t))], wt))
    assert got == [x * y for x, y in zip(xs, ys)]


@pytest.mark.parametrize("t", ["s32", "u32"])
def test_mad_wide_ptx(t):
    wt = {"s32": "s64", "u32": "u64"}[t]
    xs, ys = int_pairs(t)
    cs = [wrap(x * 977 + 3, wt) for x in ys]
    got = tolist(run_op(f"mad.wide.{t} %d, %a, %b, %c;", [(t, arr(xs, t)), (t, arr(ys, t)), (wt, arr(cs, wt))], wt))
    assert got == [wrap(x * y + c, wt) for x, y, c in zip(xs, ys, cs)]


@pytest.mark.parametrize("t", TYPES)
@pytest.mark.parametrize("half", ["lo", "hi"])
def test_mad_ptx(t, half):
    xs, ys = int_pairs(t)
    cs = [wrap(x - 3 * y, t) for x, y in zip(xs, ys)]
    got = tolist(run_op(f"mad.{half}.{t} %d, %a, %b, %c;", [(t, arr(xs, t)), (t, arr(ys, t)), (t, arr(cs, t))], t))
    bits = INT_BITS[t]
    for x, y, c, g in zip(xs, ys, cs, got):
        p = x * y if half == "lo" else (x * y) >> bits
        assert g == wrap(p + c, t), (x, y, c)


@pytest.mark.parametrize("op", ["add", "sub"])
def test_add_sub_sat_s32(op):
    t = "s32"
    xs, ys = int_pairs(t)
    got = tolist(run_op(f"{op}.sat.s32 %d, %a, %b;", [(t, arr(xs, t)), (t, arr(ys, t))], t))
    assert got == [sat(x + y if op == "add" else x - y, t) for x, y in zip(xs, ys)]


@pytest.mark.parametrize("t", ["s16", "s32", "s64"])
@pytest.mark.parametrize("op", ["abs", "neg"])
def test_abs_neg_ptx(t, op):
    xs, _ = int_pairs(t)
    got = tolist(run_op(f"{op}.{t} %d, %a;", [(t, arr(xs, t))], t))
    assert got == [wrap(abs(x) if op == "abs" else -x, t) for x in xs]


@pytest.mark.parametrize("t", ["b32", "b64"])
@pytest.mark.parametrize("op", ["and", "or", "xor", "not", "cnot"])
def test_logic_ptx(t, op):
    ut = "u" + t[1:]
    xs, ys = int_pairs(ut)
    bits = INT_BITS[ut]
    mask = (1 << bits) - 1
    if op in ("not", "cnot"):
        got = tolist(run_op(f"{op}.{t} %d, %a;", [(t, arr(xs, ut))], t))
        want = [(~x) & mask if op == "not" else int(x == 0) for x in xs]
    else:
        got = tolist(run_op(f"{op}.{t} %d, %a, %b;", [(t, arr(xs, ut)), (t, arr(ys, ut))], t))
        fn = {"and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b}[op]
        want = [fn(x, y) for x, y in zip(xs, ys)]
    assert got == want


# ------------------------------------------------------------------------------ shifts
def shift_ref(op, a, n, t):
    bits = INT_BITS[t]
    if op == "shl":
        return wrap(a << min(n, bits), t)
    return wrap(a >> min(n, bits), t)  # Python >> is arithmetic for negatives: shr.s semantics


SHIFT_AMOUNTS = [0, 1, 5, 15, 16, 31, 32, 33, 63, 64, 65, 100, 255, 256, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF]


@pytest.mark.parametrize("t", ["s16", "u16", "s32", "u32", "s64", "u64"])
@pytest.mark.parametrize("op", ["shl", "shr"])
def test_shift_ptx(op, t):
    xs = [x for x in int_pairs(t)[0][::7]]
    a = [x for x in xs for _ in SHIFT_AMOUNTS]
    n = [s for _ in xs for s in SHIFT_AMOUNTS]
    ptx_t = t if op == "shr" else "b" + t[1:]
    got = tolist(run_op(f"{op}.{ptx_t} %d, %a, %b;", [(t, arr(a, t)), ("u32", arr(n, "u32"))], t))
    for x, s, g in zip(a, n, got):
        assert g == shift_ref(op, x, s, t), f"{op}.{t} {x} by {s}: got {g}"


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(["s32", "u32", "s64", "u64"]), st.data())
def test_shift_alu(t, data):
    a = data.draw(ints(t))
    n = data.draw(st.integers(0, 0xFFFFFFFF))
    op = data.draw(st.sampled_from(["shl", "shr"]))
    got = alu.shift(op, np.array([a], NPT[t]), np.array([n], np.uint32), t)
    assert int(got[0]) == shift_ref(op, a, n, t)


# ------------------------------------------------------------------------------ mul.hi / div / rem (alu)
@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TYPES), st.data())
def test_mul_hi_alu(t, data):
    a, b = data.draw(ints(t)), data.draw(ints(t))
    got = alu.mul_hi(np.array([a], NPT[t]), np.array([b], NPT[t]), t)
    assert int(got[0]) == wrap((a * b) >> INT_BITS[t], t)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TYPES), st.data())
def test_div_rem_alu(t, data):
    a, b = data.draw(ints(t)), data.draw(ints(t).filter(lambda v: v != 0))
    q = alu.int_div(np.array([a], NPT[t]), np.array([b], NPT[t]), t)
    r = alu.int_rem(np.array([a], NPT[t]), np.array([b], NPT[t]), t)
    assert int(q[0]) == wrap(tdiv(a, b), t)
    assert int(r[0]) == wrap(trem(a, b), t)


def test_div_edge_cases_alu():
    # INT_MIN / -1 overflows: PTX wraps to INT_MIN, remainder 0
    assert int(alu.int_div(np.array([-2**31], np.int32), np.array([-1], np.int32), "s32")[0]) == -2**31
    assert int(alu.int_div(np.array([-2**63], np.int64), np.array([-1], np.int64), "s64")[0]) == -2**63
    assert int(alu.int_rem(np.array([-2**63], np.int64), np.array([-1], np.int64), "s64")[0]) == 0
    # division by zero: all ones, as the hardware returns
    assert int(alu.int_div(np.array([7], np.uint32), np.array([0], np.uint32), "u32")[0]) == 0xFFFFFFFF


# ------------------------------------------------------------------------------ bit manipulation
def bfe_ref(a: int, pos: int, ln: int, t: str) -> int:
    bits = INT_BITS[t]
    msb = bits - 1
    ua = a & ((1 << bits) - 1)
    pos &= 0xFF
    ln &= 0xFF
    sbit = 0 if (not t.startswith("s") or ln == 0) else (ua >> min(pos + ln - 1, msb)) & 1
    d = 0
    for i in range(bits):
        bit = ((ua >> (pos + i)) & 1) if (i < ln and pos + i <= msb) else sbit
        d |= bit << i
    return wrap(d, t)


def bfi_ref(a: int, b: int, pos: int, ln: int, bits: int) -> int:
    pos &= 0xFF
    ln &= 0xFF
    f = b & ((1 << bits) - 1)
    for i in range(ln):
        if pos + i > bits - 1:
            break
        bit = (a >> i) & 1
        f = (f & ~(1 << (pos + i))) | (bit << (pos + i))
    return f


small = st.one_of(st.integers(0, 70), st.integers(0, 0xFFFFFFFF))


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(TYPES), st.data(), small, small)
def test_bfe_alu(t, data, pos, ln):
    a = data.draw(ints(t))
    got = alu.bfe(np.array([a], NPT[t]), np.array([pos], np.uint32), np.array([ln], np.uint32), t)
    assert int(got[0]) == bfe_ref(a, pos, ln, t), (a, pos, ln)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["b32", "b64"]), st.data(), small, small)
def test_bfi_alu(t, data, pos, ln):
    bits = 32 if t == "b32" else 64
    a = data.draw(st.integers(0, (1 << bits) - 1))
    b = data.draw(st.integers(0, (1 << bits) - 1))
    dt = np.uint32 if bits == 32 else np.uint64
    got = alu.bfi(np.array([a], dt), np.array([b], dt), np.array([pos], np.uint32), np.array([ln], np.uint32), t)
    assert int(got[0]) == bfi_ref(a, b, pos, ln, bits), (a, b, pos, ln)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([32, 64]), st.data())
def test_popc_clz_brev_alu(bits, data):
    a = data.draw(st.one_of(st.integers(0, (1 << bits) - 1), st.sampled_from([0, 1, (1 << bits) - 1, 1 << (bits - 1)])))
    dt = np.uint32 if bits == 32 else np.uint64
    x = np.array([a], dt)
    assert int(alu.popc(x, bits)[0]) == bin(a).count("1")
    assert int(alu.clz(x, bits)[0]) == bits - a.bit_length()
    assert int(alu.brev(x, bits)[0]) == int(format(a, f"0{bits}b")[::-1], 2)


def bfind_ref(a: int, t: str, shiftamt: bool) -> int:
    bits = INT_BITS[t]
    if t.startswith("s") and a < 0:
        a = ~a
    a &= (1 << bits) - 1
    if a == 0:
        return 0xFFFFFFFF
    pos = a.bit_length() - 1
    return bits - 1 - pos if shiftamt else pos


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(TYPES), st.booleans(), st.data())
def test_bfind_alu(t, shiftamt, data):
    a = data.draw(st.one_of(ints(t), st.sampled_from([0, -1, 1]).map(lambda v: wrap(v, t))))
    got = alu.bfind(np.array([a], NPT[t]), t, shiftamt)
    assert int(got[0]) == bfind_ref(a, t, shiftamt)


def prmt_ref(a: int, b: int, c: int, mode: str) -> int:
    src = a | (b << 32)
    byte = [(src >> (8 * i)) & 0xFF for i in range(8)]
    out = 0
    if not mode:
        for i in range(4):
            sel = (c >> (4 * i)) & 0xF
            v = byte[sel & 7]
            if sel & 8:
                v = 0xFF if v & 0x80 else 0
            out |= v << (8 * i)
        return out
    table = {  # PTX ISA prmt table: selector c[1:0] -> (b0, b1, b2, b3) source byte
        "f4e": [(0, 1, 2, 3), (1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6)],
        "b4e": [(0, 7, 6, 5), (1, 0, 7, 6), (2, 1, 0, 7), (3, 2, 1, 0)],
        "rc8": [(0, 0, 0, 0), (1, 1, 1, 1), (2, 2, 2, 2), (3, 3, 3, 3)],
        "ecl": [(0, 1, 2, 3), (1, 1, 2, 3), (2, 2, 2, 3), (3, 3, 3, 3)],
        "ecr": [(0, 0, 0, 0), (0, 1, 1, 1), (0, 1, 2, 2), (0, 1, 2, 3)],
        "rc16": [(0, 1, 0, 1), (2, 3, 2, 3), (0, 1, 0, 1), (2, 3, 2, 3)],
    }[mode][c & 3]
    for i, s in enumerate(table):
        out |= byte[s] << (8 * i)
    return out


u32s = st.integers(0, 0xFFFFFFFF)


@settings(max_examples=300, deadline=None)
@given(u32s, u32s, u32s, st.sampled_from(["", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"]))
def test_prmt_alu(a, b, c, mode):
    got = alu.prmt(np.array([a], np.uint32), np.array([b], np.uint32), np.array([c], np.uint32), mode)
    assert int(got[0]) == prmt_ref(a, b, c, mode)


@settings(max_examples=200, deadline=None)
@given(u32s, u32s, u32s, st.integers(0, 255))
def test_lop3_alu(a, b, c, lut):
    got = int(alu.lop3(np.array([a], np.uint32), np.array([b], np.uint32), np.array([c], np.uint32), lut)[0])
    want = 0
    for bit in range(32):
        i = (((a >> bit) & 1) << 2) | (((b >> bit) & 1) << 1) | ((c >> bit) & 1)
        want |= ((lut >> i) & 1) << bit
    assert got == want


@settings(max_examples=300, deadline=None)
@given(u32s, u32s, st.one_of(st.integers(0, 70), u32s), st.booleans(), st.booleans())
def test_funnel_shift_alu(lo, hi, n, left, clamp):
    got = int(alu.funnel_shift(np.array([lo], np.uint32), np.array([hi], np.uint32), np.array([n], np.uint32),
                               left, clamp)[0])
    s = min(n, 32) if clamp else n & 31
    both = lo | (hi << 32)
    want = ((both << s) >> 32) & 0xFFFFFFFF if left else (both >> s) & 0xFFFFFFFF
    assert got == want


def test_bit_ops_ptx():
    xs = [0, 1, 0x80000000, 0xFFFFFFFF, 0x12345678, 0x0F0F0000, 7]
    a = arr(xs, "u32")
    assert tolist(run_op("popc.b32 %d, %a;", [("b32", a)], "u32")) == [bin(x).count("1") for x in xs]
    assert tolist(run_op("clz.b32 %d, %a;", [("b32", a)], "u32")) == [32 - x.bit_length() for x in xs]
    assert tolist(run_op("brev.b32 %d, %a;", [("b32", a)], "b32")) == [int(f"{x:032b}"[::-1], 2) for x in xs]
    assert tolist(run_op("bfind.u32 %d, %a;", [("u32", a)], "u32")) == [bfind_ref(x, "u32", False) for x in xs]
    sx = [wrap(x, "s32") for x in xs]
    assert tolist(run_op("bfind.shiftamt.s32 %d, %a;", [("s32", arr(sx, "s32"))], "u32")) == \
        [bfind_ref(x, "s32", True) for x in sx]
    ys = [3, 0xFFFF0000, 5, 0x01234567, 0, 0xDEADBEEF, 9]
    b = arr(ys, "u32")
    c = arr([0x3210, 0x7654, 0x1111, 0x8888, 0x4567, 0x0123, 0xF0F0], "u32")
    assert tolist(run_op("prmt.b32 %d, %a, %b, %c;", [("b32", a), ("b32", b), ("b32", c)], "b32")) == \
        [prmt_ref(x, y, int(z), "") for x, y, z in zip(xs, ys, c)]
    assert tolist(run_op("lop3.b32 %d, %a, %b, %c, 0x96;", [("b32", a), ("b32", b), ("b32", c)], "b32")) == \
        [x ^ y ^ int(z) for x, y, z in zip(xs, ys, c)]
    n = arr([0, 1, 31, 32, 33, 64, 8], "u32")
    for mode, left, clamp in [("l.wrap", True, False), ("r.clamp", False, True), ("l.clamp", True, True),
                              ("r.wrap", False, False)]:
        got = tolist(run_op(f"shf.{mode}.b32 %d, %a, %b, %c;", [("b32", a), ("b32", b), ("u32", n)], "b32"))
        for g, lo, hi, s in zip(got, xs, ys, n):
            s = min(int(s), 32) if clamp else int(s) & 31
            both = lo | (hi << 32)
            assert g == (((both << s) >> 32) if left else (both >> s)) & 0xFFFFFFFF
    pos = arr([0, 4, 8, 28, 31, 40, 255], "u32")
    ln = arr([8, 4, 16, 8, 1, 3, 0], "u32")
    got = tolist(run_op("bfe.s32 %d, %a, %b, %c;", [("s32", arr(sx, "s32")), ("u32", pos), ("u32", ln)], "s32"))
    assert got == [bfe_ref(x, int(p), int(q), "s32") for x, p, q in zip(sx, pos, ln)]
    got = tolist(run_op("bfi.b32 %d, %a, %b, %c, %e;", [("b32", a), ("b32", b), ("u32", pos), ("u32", ln)], "b32"))
    assert got == [bfi_ref(x, y, int(p), int(q), 32) for x, y, p, q in zip(xs, ys, pos, ln)]


# ------------------------------------------------------------------------------ 24-bit multiply, sad, carries
def s24(x: int) -> int:
    x &= 0xFFFFFF
    return x - (1 << 24) if x & 0x800000 else x


@pytest.mark.parametrize("t", ["s32", "u32"])
@pytest.mark.parametrize("half", ["lo", "hi"])
def test_mul24_mad24_ptx(t, half):
    xs, ys = int_pairs(t, n_random=32)
    cs = [wrap(7 * x + 1, t) for x in xs]
    ext = s24 if t == "s32" else (lambda v: v & 0xFFFFFF)
    got = tolist(run_op(f"mul24.{half}.{t} %d, %a, %b;", [(t, arr(xs, t)), (t, arr(ys, t))], t))
    prods = [ext(x) * ext(y) for x, y in zip(xs, ys)]
    want = [wrap(p if half == "lo" else p >> 16, t) for p in prods]
    assert got == want
    got = tolist(run_op(f"mad24.{half}.{t} %d, %a, %b, %c;", [(t, arr(xs, t)), (t, arr(ys, t)), (t, arr(cs, t))], t))
    assert got == [wrap(w + c, t) for w, c in zip(want, cs)]


def test_sad_ptx():
    xs, ys = int_pairs("s32", n_random=16)
    cs = [wrap(x + 5, "s32") for x in xs]
    got = tolist(run_op("sad.s32 %d, %a, %b, %c;", [("s32", arr(xs, "s32")), ("s32", arr(ys, "s32")),
                                                     ("s32", arr(cs, "s32"))], "s32"))
    assert got == [wrap(abs(x - y) + c, "s32") for x, y, c in zip(xs, ys, cs)]


def test_add_cc_addc_64bit_from_32bit_halves():
    """add.cc / addc / sub.cc / subc: a 64-bit add/sub built from 32-bit halves."""
    rng = np.random.default_rng(3)
    a64 = [int(v) for v in rng.integers(0, 2**63, 64, dtype=np.int64)] + [2**64 - 1, 2**32 - 1, 0, 2**32]
    b64 = [int(v) for v in rng.integers(0, 2**63, 64, dtype=np.int64)] + [1, 1, 2**64 - 1, 2**32 - 1]
    a64 = [x * 2 % 2**64 for x in a64]
    lo = lambda v: arr([x & 0xFFFFFFFF for x in v], "u32")  # noqa: E731
    hi = lambda v: arr([x >> 32 for x in v], "u32")  # noqa: E731
    extra = "  .reg .u32 %t0, %t1;"
    for op, ref in [("add", lambda x, y: (x + y) % 2**64), ("sub", lambda x, y: (x - y) % 2**64)]:
        body = (f"{op}.cc.u32 %t0, %a, %c; {op}c.u32 %t1, %b, %e; "
                "mov.b64 %d, {%t0, %t1};")
        got = tolist(run_op(body, [("u32", lo(a64)), ("u32", hi(a64)), ("u32", lo(b64)), ("u32", hi(b64))], "b64",
                            extra))
        assert got == [ref(x, y) for x, y in zip(a64, b64)], op


@pytest.mark.parametrize("bits", [32, 64])
def test_carry_flag_is_a_carry_after_a_subtraction(bits):
    """CC.CF after sub.cc is the carry out of a + ~b + 1 (1: no borrow) and subc adds a + ~b + CF,
    so a flag set by one kind of instruction can be read by the other: the H200 (2026-12-04, the
    inline-asm chains below, NVRTC PTX under CuPy) gave, for (a, b) = (1, 2), (2, 1), (5, 5),
    (max, 1), (0, max): sub.cc -> addc 0, 0: 0 1 1 1 0; add.cc -> subc 0, 0: -1 -1 -1 0 -1;
    sub.cc -> subc 0, 0: -1 0 0 0 -1; add.cc -> addc 0, 0: 0 0 0 1 0. NVVM's inline 128-bit
    division tests a subtraction's flag with addc (the sweep of 2026-12-04 found (2**64) / 3 wrong
    while the flag meant a borrow)."""
    t = f"u{bits}"
    top = 2**bits - 1
    xs = [1, 2, 5, top, 0]
    ys = [2, 1, 5, 1, top]
    measured = {("sub", "addc"): [0, 1, 1, 1, 0], ("add", "subc"): [-1, -1, -1, 0, -1],
                ("sub", "subc"): [-1, 0, 0, 0, -1], ("add", "addc"): [0, 0, 0, 1, 0]}
    for (first, second), want in measured.items():
        body = f".reg .{t} %t; {first}.cc.{t} %t, %a, %b; {second}.{t} %d, 0, 0;"
        got = tolist(run_op(body, [(t, arr(xs, t)), (t, arr(ys, t))], t))
        assert got == [w % 2**bits for w in want], (first, second)


def test_subc_chain_keeps_the_borrow_across_three_words():
    """A 96-bit subtraction from 32-bit words (sub.cc, subc.cc, subc; the top words 5 and 2), against
    Python integers."""
    rng = np.random.default_rng(11)
    a = [int(v) for v in rng.integers(0, 2**62, 32, dtype=np.int64)] + [0, 2**64 - 1, 1, 0]
    b = [int(v) for v in rng.integers(0, 2**62, 32, dtype=np.int64)] + [1, 1, 2**64 - 1, 0]
    words = lambda v, k: arr([(x >> (32 * k)) & 0xFFFFFFFF for x in v], "u32")  # noqa: E731
    extra = "  .reg .u32 %t0, %t1, %t2;"
    body = ("sub.cc.u32 %t0, %a, %c; subc.cc.u32 %t1, %b, %e; subc.u32 %t2, 5, 2; "
            "mov.b64 %d, {%t1, %t2};")
    got = tolist(run_op(body, [("u32", words(a, 0)), ("u32", words(a, 1)), ("u32", words(b, 0)),
                               ("u32", words(b, 1))], "b64", extra))
    assert got == [((x + (5 << 64) - y - (2 << 64)) % 2**96) >> 32 for x, y in zip(a, b)]


# ------------------------------------------------------------------------------ integer compare, selp, min/max
INT_CMPS = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
            "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
            "lo": lambda a, b: a < b, "ls": lambda a, b: a <= b, "hi": lambda a, b: a > b,
            "hs": lambda a, b: a >= b}


@pytest.mark.parametrize("t,cmp", [(t, c) for t in TYPES for c in INT_CMPS
                                    if not (c in ("lo", "ls", "hi", "hs") and t.startswith("s"))])
def test_setp_int_ptx(t, cmp):
    xs, ys = int_pairs(t, n_random=16)
    got = tolist(run_op(f"setp.{cmp}.{t} %d, %a, %b;", [(t, arr(xs, t)), (t, arr(ys, t))], "pred"))
    assert got == [int(INT_CMPS[cmp](x, y)) for x, y in zip(xs, ys)]


def test_setp_two_destinations_and_boolop():
    xs = [1, 5, 3, -1]
    ys = [2, 5, 1, 0]
    cs = [1, 0, 1, 0]
    extra = "  .reg .pred %q, %r;"
    body = ("setp.lt.and.s32 %q|%r, %a, %b, %c; selp.u32 %d, 1, 0, %q; .reg .u32 %z; selp.u32 %z, 2, 0, %r; "
            "add.u32 %d, %d, %z;")
    got = tolist(run_op(body, [("s32", arr(xs, "s32")), ("s32", arr(ys, "s32")), ("pred", arr(cs, "u32"))], "u32",
                        extra))
    want = [int((x < y) and bool(c)) + 2 * int((not x < y) and bool(c)) for x, y, c in zip(xs, ys, cs)]
    assert got == want


@pytest.mark.parametrize("t", ["s32", "u64", "f32"])
def test_selp_ptx(t):
    xs = np.arange(8).astype(np.float32 if t == "f32" else np.int64) + 1
    ys = -xs if t != "u64" else xs * 100
    ps = np.array([1, 0, 1, 1, 0, 0, 1, 0])
    got = run_op(f"selp.{t} %d, %a, %b, %c;", [(t, xs), (t, ys), ("pred", ps)], t)
    np.testing.assert_array_equal(got, np.where(ps != 0, xs, ys).astype(got.dtype))
