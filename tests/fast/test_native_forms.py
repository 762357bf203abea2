"""Every native instruction form of the fast engine against the reference engine, one PTX instruction
at a time, on special values (zeros, signs, INT_MIN, shift counts around the width, infinities,
NaNs with payloads, subnormals, float32 ties of fma) and random bits."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu
from simgpu.fast.decode import N_NONE
from simgpu.fast.engine import decoded

N = 256

_SPECIAL32 = [0, 1, 2, 3, 7, 31, 32, 33, 63, 64, 65, 0xFF, 0x7F, 0x80, 0xFFFF, 0x8000, 0x7FFFFFFF, 0x80000000,
              0xFFFFFFFF, 0xFFFFFFFE, 0x3F800000, 0xBF800000, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00001,
              0x7F800001, 0x00000001, 0x807FFFFF, 0x00800000, 0x34000000, 0x4B800000, 0x3F800001, 0x33800000]


def _operands(seed: int) -> np.ndarray:
    """[3, N] uint64 raw operand bits: special 32-bit patterns (also sign-extended), then random."""
    rng = np.random.default_rng(seed)
    out = rng.integers(0, 2**64, (3, N), dtype=np.uint64)
    out[:, : N // 2] &= np.uint64(0xFFFFFFFF)
    sp = np.array(_SPECIAL32, np.uint64)
    for i in range(3):
        pick = rng.integers(0, len(sp), N // 2)
        out[i, : N // 2] = sp[pick]
        hi = pick[N // 4:]  # the second quarter: the same patterns sign-extended to 64 bits
        out[i, N // 4: N // 2] = np.where(sp[hi] >> np.uint64(31) & np.uint64(1),
                                          sp[hi] | np.uint64(0xFFFFFFFF00000000), sp[hi])
    # fma ties: a * b + c exactly halfway between two float32 values, with a tiny error term
    one = np.float32(1.0)
    tie_a = (one + np.float32(2.0 ** -12)).view(np.uint32)
    out[0, 0:4] = tie_a
    out[1, 0:4] = tie_a
    out[2, 0:4] = np.array([np.float32(2.0 ** -24), -np.float32(2.0 ** -24), np.float32(1.0), np.float32(0)],
                           np.float32).view(np.uint32)
    return out


# (PTX body using %ra/%rb/%rc of `src` type, result in %rd of `dst` type)
FORMS = []
for t in ("s32", "u32"):
    for op in ("add", "sub", "mul.lo", "min", "max"):
        FORMS.append((f"{op}.{t} %d, %a, %b;", t, t))
    FORMS.append((f"mad.lo.{t} %d, %a, %b, %c;", t, t))
    FORMS.append((f"mul.wide.{t} %d, %a, %b;", t, t.replace("32", "64")))
    FORMS.append((f"shr.{t} %d, %a, %b;", t, t))
    for cmp in ("eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs"):
        FORMS.append((f"setp.{cmp}.{t} %p, %a, %b;", t, "pred"))
for t in ("s64", "u64"):
    for op in ("add", "sub", "mul.lo", "min", "max"):
        FORMS.append((f"{op}.{t} %d, %a, %b;", t, t))
    FORMS.append((f"shr.{t} %d, %a, %b;", t, t))
    FORMS.append((f"setp.lt.{t} %p, %a, %b;", t, "pred"))
FORMS += [
    ("mad.wide.s32 %d, %a, %b, %c;", "s32", "s64"), ("mad.wide.u32 %d, %a, %b, %c;", "u32", "u64"),
    ("shl.b32 %d, %a, %b;", "b32", "b32"), ("shl.b64 %d, %a, %b;", "b64", "b64"),
    ("and.b32 %d, %a, %b;", "b32", "b32"), ("or.b32 %d, %a, %b;", "b32", "b32"),
    ("xor.b64 %d, %a, %b;", "b64", "b64"), ("not.b32 %d, %a;", "b32", "b32"), ("neg.s32 %d, %a;", "s32", "s32"),
    ("cvt.s64.s32 %d, %a;", "s32", "s64"), ("cvt.u64.u32 %d, %a;", "u32", "u64"),
    ("cvt.u32.u64 %d, %a;", "u64", "u32"), ("cvt.s32.s16 %d, %a;", "s16", "s32"),
    ("cvt.u16.u32 %d, %a;", "u32", "u16"), ("cvt.s8.s32 %d, %a;", "s32", "s8"),
    ("selp.s32 %d, %a, %b, %q;", "s32", "s32"), ("selp.f32 %d, %a, %b, %q;", "f32", "f32"),
    ("mov.b32 %d, %a;", "b32", "b32"), ("mov.u64 %d, %a;", "u64", "u64"),
    ("add.f32 %d, %a, %b;", "f32", "f32"), ("sub.f32 %d, %a, %b;", "f32", "f32"),
    ("mul.f32 %d, %a, %b;", "f32", "f32"), ("add.rn.f32 %d, %a, %b;", "f32", "f32"),
    ("fma.rn.f32 %d, %a, %b, %c;", "f32", "f32"), ("mad.rn.f32 %d, %a, %b, %c;", "f32", "f32"),
    ("neg.f32 %d, %a;", "f32", "f32"), ("abs.f32 %d, %a;", "f32", "f32"),
    ("max.f32 %d, %a, %b;", "f32", "f32"), ("min.f32 %d, %a, %b;", "f32", "f32"),
    ("add.s32 %d, %a, -7;", "s32", "s32"), ("mul.f32 %d, %a, 0f3F000000;", "f32", "f32"),
    ("setp.lt.s32 %p, %a, 5;", "s32", "pred"),
    ("setp.lt.and.s32 %p, %a, %b, %q;", "s32", "pred"), ("setp.ge.or.f32 %p, %a, %b, !%q;", "f32", "pred"),
    ("setp.ne.xor.u32 %p, %a, %b, %q;", "u32", "pred"),
    ("and.pred %p, %q, %q2;", "pred", "pred"), ("xor.pred %p, %q, %q2;", "pred", "pred"),
    ("not.pred %p, %q;", "pred", "pred"),
]
for mode in ("up", "down", "bfly", "idx"):
    FORMS.append((f"shfl.sync.{mode}.b32 %d, %a, %b, %c, -1;", "b32", "b32"))
FORMS.append(("shfl.sync.down.b32 %d|%p, %a, %b, %c, -1;", "b32", "b32"))
for cmp in ("eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"):
    FORMS.append((f"setp.{cmp}.f32 %p, %a, %b;", "f32", "pred"))

_REG = {"s32": "r", "u32": "r", "b32": "r", "f32": "f", "s64": "rd", "u64": "rd", "b64": "rd", "s16": "h",
        "u16": "h", "s8": "h", "u8": "h", "pred": "p"}
_DECL = {"r": ".b32", "f": ".f32", "rd": ".b64", "h": ".b16"}


def _ptx(body: str, src: str, dst: str) -> str:
    """A kernel: load three raw 64-bit operands per thread, view them as `src`, run `body`, store the
    result's raw bits (zero-extended) and the guard-free predicate as 0/1."""
    sr, dr = _REG[src], _REG[dst]
    lines = []
    conv = []
    for name, idx in (("a", 0), ("b", 1), ("c", 2)):
        if sr == "rd":
            conv.append(f"mov.b64 %{sr}_{name}, %raw{idx};")
        elif sr == "p":
            conv.append(f"setp.ne.u64 %p_{name}, %raw{idx}, 0;")
        else:
            width = {"r": 32, "f": 32, "h": 16}[sr]
            conv.append(f"cvt.u{width}.u64 %t{width}_{name}, %raw{idx};")
            conv.append(f"mov.b{width} %{sr}_{name}, %t{width}_{name};")
    body = (body.replace("%a", f"%{sr}_a").replace("%b", f"%{sr}_b").replace("%c", f"%{sr}_c"))
    if src == "pred":
        body = body.replace("%q2", "%p_b").replace("%q", "%p_a").replace("%p,", "%pd,")
    else:
        body = body.replace("%q", "%qq").replace("%p,", "%pd,").replace("%d,", f"%{dr}_d,").replace("%d|", f"%{dr}_d|")
    lines += conv
    lines.append("setp.ne.u64 %qq, %raw2, 0;")
    lines.append(body)
    if dst == "pred":
        lines.append("selp.u64 %out, 1, 0, %pd;")
    elif dr == "rd":
        lines.append(f"mov.b64 %out, %{dr}_d;")
    else:
        width = {"r": 32, "f": 32, "h": 16}[dr]
        lines.append(f"mov.b{width} %t{width}_d, %{dr}_d;")
        lines.append(f"cvt.u64.u{width} %out, %t{width}_d;")
    decl = "\n".join(f"  .reg {_DECL[r]} %{r}_<x>;".replace("<x>", n) for r in ("r", "f", "rd", "h")
                     for n in ("a", "b", "c", "d"))
    decl += "\n  .reg .b32 %t32_a, %t32_b, %t32_c, %t32_d;\n  .reg .b16 %t16_a, %t16_b, %t16_c, %t16_d;"
    decl += "\n  .reg .pred %p_a, %p_b, %p_c, %pd, %qq;"
    return f"""
.version 8.0
.target sm_90
.address_size 64
.visible .entry form(.param .u64 pin, .param .u64 pout)
{{
{decl}
  .reg .b32 %thr;
  .reg .b64 %off, %in, %o, %raw0, %raw1, %raw2, %out, %ptr;
  mov.u32 %thr, %tid.x;
  mul.wide.u32 %off, %thr, 8;
  ld.param.u64 %in, [pin];
  ld.param.u64 %o, [pout];
  add.s64 %ptr, %in, %off;
  ld.global.u64 %raw0, [%ptr];
  ld.global.u64 %raw1, [%ptr+{8 * N}];
  ld.global.u64 %raw2, [%ptr+{16 * N}];
  {chr(10).join('  ' + x for x in lines)}
  add.s64 %ptr, %o, %off;
  st.global.u64 [%ptr], %out;
  ret;
}}
"""


@pytest.mark.parametrize("body,src,dst", FORMS, ids=[f[0].split(" ")[0] + f"[{i}]" for i, f in enumerate(FORMS)])
@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_native_form_matches_reference(body, src, dst, seed):
    kernel = simgpu.RawModule(ptx=_ptx(body, src, dst)).get_function("form")
    lk = kernel.linked
    pcs = [pc for pc, ins in enumerate(lk.instructions) if ins.text.strip().startswith(body.split(" ")[0])]
    assert pcs and all(decoded(lk).nat[pc] != N_NONE for pc in pcs), f"{body} has no native form"
    ops = _operands(seed)
    outs = []
    for eng in ("reference", "fast"):
        d_in = simgpu.asarray(ops.reshape(-1))
        d_out = simgpu.zeros(N, dtype=np.uint64)
        kernel((1,), (N,), (d_in, d_out), engine=eng, timing=False)
        outs.append(d_out.get())
    bad = np.flatnonzero(outs[0] != outs[1])
    assert not len(bad), (f"{body}: lane {bad[0]} a=0x{int(ops[0, bad[0]]):x} b=0x{int(ops[1, bad[0]]):x} "
                          f"c=0x{int(ops[2, bad[0]]):x}: reference 0x{int(outs[0][bad[0]]):x}, "
                          f"fast 0x{int(outs[1][bad[0]]):x}")
