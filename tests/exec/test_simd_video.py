"""CUDA's SIMD-within-a-word intrinsics (__vadd4, __vabsdiffu4, __vsadu4, __vmaxs2, __vcmpgtu4 ...):
sm_90 compiles some to PTX's video instructions (vabsdiff4, with .add for the sums of absolute
differences) and some to packed 16-bit integer arithmetic (add.u16x2, max.s16x2); every one is
checked against its documented per-byte (per-half-word) meaning on random words and edge cases."""

import numpy as np
import pytest

import simgpu as sg

INTRINSICS = [  # name, CUDA expression, reference on (unsigned lanes a, b; signed lanes sa, sb), lanes
    ("vadd4", "__vadd4(x, y)", lambda a, b, sa, sb: [p + q for p, q in zip(a, b)], 4),
    ("vsub4", "__vsub4(x, y)", lambda a, b, sa, sb: [p - q for p, q in zip(a, b)], 4),
    ("vabsdiffu4", "__vabsdiffu4(x, y)", lambda a, b, sa, sb: [abs(p - q) for p, q in zip(a, b)], 4),
    ("vabsdiffs4", "__vabsdiffs4(x, y)", lambda a, b, sa, sb: [abs(p - q) for p, q in zip(sa, sb)], 4),
    ("vmaxu4", "__vmaxu4(x, y)", lambda a, b, sa, sb: [max(p, q) for p, q in zip(a, b)], 4),
    ("vmins4", "__vmins4(x, y)", lambda a, b, sa, sb: [min(p, q) for p, q in zip(sa, sb)], 4),
    ("vavgu4", "__vavgu4(x, y)", lambda a, b, sa, sb: [(p + q + 1) >> 1 for p, q in zip(a, b)], 4),
    ("vhaddu4", "__vhaddu4(x, y)", lambda a, b, sa, sb: [(p + q) >> 1 for p, q in zip(a, b)], 4),
    ("vcmpgtu4", "__vcmpgtu4(x, y)", lambda a, b, sa, sb: [0xFF if p > q else 0 for p, q in zip(a, b)], 4),
    ("vcmpeq4", "__vcmpeq4(x, y)", lambda a, b, sa, sb: [0xFF if p == q else 0 for p, q in zip(a, b)], 4),
    ("vsetgtu4", "__vsetgtu4(x, y)", lambda a, b, sa, sb: [int(p > q) for p, q in zip(a, b)], 4),
    ("vaddss4", "__vaddss4(x, y)", lambda a, b, sa, sb: [max(-128, min(127, p + q)) for p, q in zip(sa, sb)], 4),
    ("vabs4", "__vabs4(x)", lambda a, b, sa, sb: [abs(p) for p in sa], 4),
    ("vsadu4", "__vsadu4(x, y)", lambda a, b, sa, sb: sum(abs(p - q) for p, q in zip(a, b)), 4),
    ("vadd2", "__vadd2(x, y)", lambda a, b, sa, sb: [p + q for p, q in zip(a, b)], 2),
    ("vsub2", "__vsub2(x, y)", lambda a, b, sa, sb: [p - q for p, q in zip(a, b)], 2),
    ("vmaxs2", "__vmaxs2(x, y)", lambda a, b, sa, sb: [max(p, q) for p, q in zip(sa, sb)], 2),
    ("vminu2", "__vminu2(x, y)", lambda a, b, sa, sb: [min(p, q) for p, q in zip(a, b)], 2),
    ("vabsdiffu2", "__vabsdiffu2(x, y)", lambda a, b, sa, sb: [abs(p - q) for p, q in zip(a, b)], 2),
    ("vcmpgeu2", "__vcmpgeu2(x, y)", lambda a, b, sa, sb: [0xFFFF if p >= q else 0 for p, q in zip(a, b)], 2),
    ("vsads2", "__vsads2(x, y)", lambda a, b, sa, sb: sum(abs(p - q) for p, q in zip(sa, sb)), 2),
]
SRC = "extern \"C\" __global__ void simd(const unsigned* a, const unsigned* b, unsigned* o, int n) {\n" \
      "  int i = threadIdx.x; unsigned x = a[i], y = b[i];\n" + \
      "".join(f"  o[{k} * n + i] = {expr};\n" for k, (_, expr, _, _) in enumerate(INTRINSICS)) + "}\n"


def _lanes(v: int, n: int, signed: bool) -> list[int]:
    w = 32 // n
    x = [(v >> (w * j)) & ((1 << w) - 1) for j in range(n)]
    return [e - (1 << w) if signed and e >> (w - 1) else e for e in x]


def _pack(r, n: int) -> int:
    if isinstance(r, int):  # a sum over the lanes
        return r & 0xFFFFFFFF
    w = 32 // n
    return sum((e & ((1 << w) - 1)) << (w * j) for j, e in enumerate(r))


@pytest.fixture(scope="module")
def results():
    rng = np.random.default_rng(5)
    a = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    b = rng.integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    a[:6] = [0x7F80FF00, 0, 0xFFFFFFFF, 0x01020304, 0x80008000, 0x7FFF7FFF]
    b[:6] = [0x80807F01, 0xFFFFFFFF, 1, 0x04030201, 0x7FFF0001, 0x80008000]
    o = sg.zeros(len(INTRINSICS) * 64, np.uint32)
    sg.RawModule(code=SRC).get_function("simd")((1,), (64,), (sg.asarray(a), sg.asarray(b), o, np.int32(64)))
    return a, b, o.get().reshape(len(INTRINSICS), 64)


@pytest.mark.parametrize("k", range(len(INTRINSICS)), ids=[t[0] for t in INTRINSICS])
def test_simd_intrinsic_matches_its_per_lane_meaning(results, k):
    a, b, got = results
    name, _, ref, n = INTRINSICS[k]
    for i in range(64):
        x, y = int(a[i]), int(b[i])
        want = _pack(ref(_lanes(x, n, False), _lanes(y, n, False), _lanes(x, n, True), _lanes(y, n, True)), n)
        assert int(got[k, i]) == want, (name, hex(x), hex(y), hex(want), hex(int(got[k, i])))
