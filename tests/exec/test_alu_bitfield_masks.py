"""fns, szext and bmsk (sm_70+ bit instructions), against the PTX ISA's pseudocode written out
literally with Python integers: the lane functions directly (hypothesis), and whole instructions
through hand-written PTX kernels (ptxharness) over edge values (0, 31, 32, 33, 0xffffffff, ...)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ptxharness import run_op

from simgpu.exec import alu

FULL = 0xFFFFFFFF
EDGES = [0, 1, 2, 15, 16, 30, 31, 32, 33, 63, 64, 255, 0x7FFFFFFF, 0x80000000, 0xAAAAAAAA, FULL]


def fns_ref(mask: int, base: int, offset: int) -> int:
    """The ISA's loop, step by step."""
    if offset == 0:
        return base if base <= 31 and (mask >> base) & 1 else FULL
    pos, count, inc = base, abs(offset) - 1, 1 if offset > 0 else -1
    while 0 <= pos < 32:
        if (mask >> pos) & 1:
            if count == 0:
                return pos
            count -= 1
        pos += inc
    return FULL


def szext_ref(a: int, b: int, signed: bool, clamp: bool) -> int:
    b1 = b & 31
    too_large = b >= 32 and clamp
    mask = 0 if too_large else (FULL << b1) & FULL
    sign_bit = 0 if (b1 == 0 or too_large or not signed) else (a >> ((b1 - 1) & 31)) & 1
    return (a & ~mask & FULL) | (mask if sign_bit else 0)


def bmsk_ref(a: int, b: int, clamp: bool) -> int:
    a1, b1 = a & 31, b & 31
    mask0 = (FULL << a1) & FULL
    s = a1 + b1
    mask1 = (FULL << s) & FULL
    pos_over = clamp and a >= 32
    width_over = clamp and b >= 32
    if pos_over:
        mask0 = 0
    if s >= 32 or pos_over or width_over:
        mask1 = 0
    elif b1 == 0:
        mask1 = FULL
    return mask0 & ~mask1 & FULL


def test_the_isa_examples():
    assert [fns_ref(0xAAAAAAAA, b, o) for b, o in ((3, 1), (3, -1), (2, 1), (2, -1))] == [3, 3, 3, 1]
    got = alu.fns(np.full(4, 0xAAAAAAAA, np.uint32), np.array([3, 3, 2, 2]), np.array([1, -1, 1, -1]))
    assert got.tolist() == [3, 3, 3, 1]
    assert alu.bmsk(np.uint32(1), np.uint32(2), clamp=False) == 0x6
    assert alu.szext(np.uint32(FULL), np.uint32(0), signed=False, clamp=False) == 0


u32 = st.integers(0, FULL)
small = st.integers(0, 40)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(u32, st.one_of(st.integers(0, 31), u32), st.integers(-40, 40)), min_size=1, max_size=64))
def test_fns_matches_the_isa(rows):
    mask, base, off = (np.array(c, dtype) for c, dtype in zip(zip(*rows), (np.uint32, np.uint32, np.int32)))
    base = np.minimum(base, 31)  # the ISA leaves base > 31 undefined
    assert alu.fns(mask, base, off).tolist() == [fns_ref(int(m), int(b), int(o)) for m, b, o in zip(mask, base, off)]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(u32, st.one_of(small, u32)), min_size=1, max_size=64), st.booleans(), st.booleans())
def test_szext_and_bmsk_match_the_isa(rows, signed, clamp):
    a, b = (np.array(c, np.uint32) for c in zip(*rows))
    assert alu.szext(a, b, signed, clamp).tolist() == [szext_ref(int(x), int(y), signed, clamp) for x, y in rows]
    assert alu.bmsk(a, b, clamp).tolist() == [bmsk_ref(int(x), int(y), clamp) for x, y in rows]


def _pairs():
    xs, ys = zip(*[(x, y) for x in EDGES for y in EDGES])
    return np.array(xs, np.uint32), np.array(ys, np.uint32)


@pytest.mark.parametrize("mode", ["clamp", "wrap"])
def test_bmsk_and_szext_instructions(mode):
    a, b = _pairs()
    got = run_op(f"bmsk.{mode}.b32 %d, %a, %b;", [("b32", a), ("u32", b)], "b32")
    assert got.tolist() == [bmsk_ref(int(x), int(y), mode == "clamp") for x, y in zip(a, b)]
    for t in ("s32", "u32"):
        got = run_op(f"szext.{mode}.{t} %d, %a, %b;", [(t, a.view(np.int32) if t == "s32" else a), ("u32", b)], t)
        want = [szext_ref(int(x), int(y), t == "s32", mode == "clamp") for x, y in zip(a, b)]
        assert got.view(np.uint32).tolist() == want, t


def test_fns_instruction_and_the_cuda_intrinsic():
    masks = np.array([0, 1, 0x80000000, 0xAAAAAAAA, 0x0F0F0F0F, FULL] * 12, np.uint32)
    bases = np.array([b for b in (0, 5, 31) for _ in range(24)], np.uint32)
    offs = np.array([o for o in (-3, -1, 0, 1, 2, 33) for _ in range(6)] * 2, np.int32)
    got = run_op("fns.b32 %d, %a, %b, %c;", [("b32", masks), ("u32", bases), ("s32", offs)], "b32")
    assert got.tolist() == [fns_ref(int(m), int(b), int(o)) for m, b, o in zip(masks, bases, offs)]
