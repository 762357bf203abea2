"""Hand-written tensor-core PTX: mma.sync, ldmatrix, stmatrix (exec/mma.py) against NumPy, the PTX
ISA's fragment formulas and the H200 (benchmarks/microbench/wmma/results/mma_sync), in both engines.
Inline asm only: no CUDA headers needed."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import numpy as np
import pytest

import simgpu as sg
from simgpu.errors import KernelRuntimeError, UnsupportedInstructionError
from simgpu.exec import mma
from simgpu.timing.config import TimingConfig
from simgpu.timing.isa import P_TENSOR, classify

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "wmma"
RESULTS = BENCH / "results" / "mma_sync"
LANE = np.arange(32)
G, T = LANE // 4, LANE % 4


# ------------------------------------------------------------------------------------------------ helpers
def _bits(x: np.ndarray, etype: str) -> np.ndarray:
    """Raw element bits (uint32) of an array of the element type."""
    if etype in ("f16", "bf16"):
        return x.view(np.uint16).astype(np.uint32)
    if etype in ("s8", "u8"):
        return x.view(np.uint8).astype(np.uint32)
    return x.view(np.uint32)


def _words(mat_bits: np.ndarray, frag) -> np.ndarray:
    """[32 * regs] uint32 register words of every lane from a matrix of raw element bits."""
    el = mat_bits[frag.coords[:, :, 0], frag.coords[:, :, 1]].astype(np.uint32)
    bits = 8 * frag.ebytes
    w = np.zeros((32, frag.regs), np.uint32)
    for s in range(frag.slots):
        w[:, s // frag.per_reg] |= el[:, s] << np.uint32(bits * (s % frag.per_reg))
    return w.ravel()


def _unwords(w: np.ndarray, frag) -> np.ndarray:
    """Matrix of raw element bits (uint32) from [32 * regs] register words."""
    w = w.reshape(32, frag.regs)
    bits = 8 * frag.ebytes
    out = np.zeros((frag.rows, frag.cols), np.uint32)
    for s in range(frag.slots):
        v = (w[:, s // frag.per_reg] >> np.uint32(bits * (s % frag.per_reg))) & np.uint32((1 << bits) - 1)
        out[frag.coords[:, s, 0], frag.coords[:, s, 1]] = v
    return out


def _mma_kernel(op: str, na: int, nb: int, nc: int, nd: int, cf: bool, df: bool) -> str:
    """A one-warp kernel: every lane's A, B, C words from memory, one `op`, D words to memory."""
    lines = ['extern "C" __global__ void k(const unsigned *a, const unsigned *b, const unsigned *c, unsigned *d) {',
             "    int l = threadIdx.x;"]
    lines += [f"    unsigned A{i} = a[l * {na} + {i}];" for i in range(na)]
    lines += [f"    unsigned B{i} = b[l * {nb} + {i}];" for i in range(nb)]
    lines += [f"    {'float' if cf else 'unsigned'} C{i} = {'__uint_as_float' if cf else ''}(c[l * {nc} + {i}]);"
              for i in range(nc)]
    lines += [f"    {'float' if df else 'unsigned'} D{i};" for i in range(nd)]
    n = 0

    def group(k):
        nonlocal n
        s = "{" + ",".join(f"%{n + i}" for i in range(k)) + "}"
        n += k
        return s
    d, a, b, c = group(nd), group(na), group(nb), group(nc)
    outs = ", ".join(f'"={"f" if df else "r"}"(D{i})' for i in range(nd))
    ins = ", ".join([f'"r"(A{i})' for i in range(na)] + [f'"r"(B{i})' for i in range(nb)]
                    + [f'"{"f" if cf else "r"}"(C{i})' for i in range(nc)])
    lines.append(f'    asm volatile("{op} {d}, {a}, {b}, {c};" : {outs} : {ins});')
    lines += [f"    d[l * {nd} + {i}] = {'__float_as_uint' if df else ''}(D{i});" for i in range(nd)]
    lines.append("}")
    return "\n".join(lines)


def _run_mma(op: str, A, B, C, atype, btype, ctype, dtype, engine="fast"):
    spec = mma.parse_mma_sync(tuple(op.split(".")[1:]))
    assert spec is not None, op
    shape = spec[0]
    fa, fb = mma.fragment("a", shape, atype), mma.fragment("b", shape, btype)
    fc, fd = mma.fragment("c", shape, ctype), mma.fragment("c", shape, dtype)
    src = _mma_kernel(op, fa.regs, fb.regs, fc.regs, fd.regs, ctype == "f32", dtype == "f32")
    k = sg.RawModule(code=src).get_function("k")
    d = sg.zeros(32 * fd.regs, dtype=np.uint32)
    rep = k((1,), (32,), (sg.asarray(_words(_bits(A, atype), fa)), sg.asarray(_words(_bits(B, btype), fb)),
                          sg.asarray(_words(_bits(C, ctype), fc)), d), engine=engine)
    raw = _unwords(d.get(), fd)
    return raw, rep


def _bf16(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bits (round to nearest even), as uint16."""
    u = x.astype(np.float32).view(np.uint32).astype(np.uint64)
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)


def _bf16_val(b: np.ndarray) -> np.ndarray:
    return (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)


# ------------------------------------------------------------------------------------------------ arithmetic
@pytest.mark.parametrize("shape,k", [("m16n8k16", 16), ("m16n8k8", 8)])
@pytest.mark.parametrize("acc", ["f32", "f16"])
def test_f16_against_numpy(shape, k, acc):
    rng = np.random.default_rng(1)
    A = (rng.integers(-64, 64, (16, k)) / 16).astype(np.float16)
    B = (rng.integers(-64, 64, (k, 8)) / 16).astype(np.float16)
    dt = np.float32 if acc == "f32" else np.float16
    C = (rng.integers(-64, 64, (16, 8)) / 8).astype(dt)
    op = f"mma.sync.aligned.{shape}.row.col.{acc}.f16.f16.{acc}"
    raw, _ = _run_mma(op, A, B, C, "f16", "f16", acc, acc)
    got = raw.astype(np.uint16).view(np.float16) if acc == "f16" else raw.view(np.float32)
    exact = A.astype(np.float64) @ B.astype(np.float64) + C.astype(np.float64)
    assert np.array_equal(got, exact.astype(dt))  # one rounding of the exact result


def test_f16_inputs_f32_accumulate_f16_output():
    """.f16.f16.f16.f32: C in f32, D rounded once to f16."""
    rng = np.random.default_rng(2)
    A = rng.standard_normal((16, 16)).astype(np.float16)
    B = rng.standard_normal((16, 8)).astype(np.float16)
    C = rng.standard_normal((16, 8)).astype(np.float32)
    raw, _ = _run_mma("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f32", A, B, C, "f16", "f16", "f32", "f16")
    exact = A.astype(np.float64) @ B.astype(np.float64) + C.astype(np.float64)
    assert np.array_equal(raw.astype(np.uint16).view(np.float16), exact.astype(np.float16))


@pytest.mark.parametrize("shape,k", [("m16n8k16", 16), ("m16n8k8", 8)])
def test_bf16_against_numpy(shape, k):
    rng = np.random.default_rng(3)
    A = _bf16(rng.standard_normal((16, k)).astype(np.float32))
    B = _bf16(rng.standard_normal((k, 8)).astype(np.float32))
    C = rng.standard_normal((16, 8)).astype(np.float32)
    raw, _ = _run_mma(f"mma.sync.aligned.{shape}.row.col.f32.bf16.bf16.f32", A, B, C, "bf16", "bf16", "f32", "f32")
    exact = _bf16_val(A) @ _bf16_val(B) + C.astype(np.float64)
    assert np.array_equal(raw.view(np.float32), exact.astype(np.float32))


def test_tf32_m16n8k8_against_numpy():
    """tf32 reads the upper 19 bits of each .b32: the low 13 mantissa bits are ignored."""
    rng = np.random.default_rng(4)
    A = rng.standard_normal((16, 8)).astype(np.float32)
    B = rng.standard_normal((8, 8)).astype(np.float32)
    C = rng.standard_normal((16, 8)).astype(np.float32)
    raw, _ = _run_mma("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", A, B, C, "tf32", "tf32", "f32", "f32")

    def tf32(x):
        return (x.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32).astype(np.float64)
    exact = tf32(A) @ tf32(B) + C.astype(np.float64)
    assert np.array_equal(raw.view(np.float32), exact.astype(np.float32))


@pytest.mark.parametrize("atype,btype", [("s8", "s8"), ("u8", "s8"), ("s8", "u8")])
def test_int8_m16n8k32_against_numpy(atype, btype):
    rng = np.random.default_rng(5)

    def ints(t, shape):
        if t == "s8":
            return rng.integers(-128, 128, shape).astype(np.int8)
        return rng.integers(0, 256, shape).astype(np.uint8)
    A, B = ints(atype, (16, 32)), ints(btype, (32, 8))
    C = rng.integers(-(2 ** 20), 2 ** 20, (16, 8)).astype(np.int32)
    op = f"mma.sync.aligned.m16n8k32.row.col.s32.{atype}.{btype}.s32"
    raw, _ = _run_mma(op, A, B, C, atype, btype, "s32", "s32")
    exact = A.astype(np.int64) @ B.astype(np.int64) + C
    assert np.array_equal(raw.view(np.int32), exact.astype(np.int32))


def test_int8_satfinite_clamps_and_plain_wraps():
    A = np.full((16, 32), 127, np.int8)
    B = np.full((32, 8), 127, np.int8)
    C = np.full((16, 8), 2 ** 31 - 1000, np.int32)  # + 32 * 127 * 127 overflows
    sat, _ = _run_mma("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.s8.s8.s32", A, B, C, "s8", "s8", "s32", "s32")
    assert (sat.view(np.int32) == 2 ** 31 - 1).all()
    wrap, _ = _run_mma("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", A, B, C, "s8", "s8", "s32", "s32")
    assert (wrap.view(np.int32) == np.int32((2 ** 31 - 1000 + 32 * 127 * 127) - 2 ** 32)).all()


# ------------------------------------------------------------------------------------------------ layouts
def test_fragment_layouts_are_the_isa_formulas():
    """mma.fragment element by element against the PTX ISA's formulas (lane L: g = L // 4,
    t = L % 4; "Matrix Fragments for mma.m16n8k16 / m16n8k8 / m16n8k32")."""
    def check(use, shape, etype, formula):
        fr = mma.fragment(use, shape, etype)
        for s in range(fr.slots):
            r, c = formula(s)
            assert np.array_equal(fr.coords[:, s, 0], r), (use, shape, etype, s)
            assert np.array_equal(fr.coords[:, s, 1], c), (use, shape, etype, s)
    # m16n8k16 .f16 / .bf16: a0..a7, b0..b3, c0..c3
    for et in ("f16", "bf16"):
        check("a", "m16n8k16", et, lambda i: (G + 8 * ((i // 2) % 2), 2 * T + (i % 2) + 8 * (i // 4)))
        check("b", "m16n8k16", et, lambda i: (2 * T + (i % 2) + 8 * (i // 2), G))
        check("a", "m16n8k8", et, lambda i: (G + 8 * (i // 2), 2 * T + (i % 2)))
        check("b", "m16n8k8", et, lambda i: (2 * T + (i % 2), G))
    for ct in ("f16", "f32", "s32"):
        check("c", "m16n8k16", ct, lambda i: (G + 8 * (i // 2), 2 * T + (i % 2)))
    # m16n8k8 .tf32: a0..a3 (row g for a0, a2; g + 8 for a1, a3; col t for a0, a1; t + 4 for a2, a3)
    check("a", "m16n8k8", "tf32", lambda i: (G + 8 * (i % 2), T + 4 * (i // 2)))
    check("b", "m16n8k8", "tf32", lambda i: (T + 4 * i, G))
    # m16n8k32 .s8 / .u8: a0..a15 (row g for a0..a3, a8..a11), b0..b7
    for et in ("s8", "u8"):
        check("a", "m16n8k32", et, lambda i: (G + 8 * ((i // 4) % 2), 4 * T + (i % 4) + 16 * (i // 8)))
        check("b", "m16n8k32", et, lambda i: (4 * T + (i % 4) + 16 * (i // 4), G))
        check("a", "m16n8k16", et, lambda i: (G + 8 * (i // 4), 4 * T + (i % 4)))
        check("b", "m16n8k16", et, lambda i: (4 * T + i, G))
    assert [mma.fragment(u, "m16n8k16", "f16").regs for u in "abc"] == [4, 2, 2]
    assert mma.fragment("c", "m16n8k16", "f32").regs == 4
    assert [mma.fragment(u, "m16n8k32", "s8").regs for u in "ab"] == [4, 2]


def test_per_lane_layout_through_the_simulator():
    """A holds tags (lane * 8 + slot) and B selects columns 0..7 of A: D[m, n] is the tag of A[m, n],
    so every lane's D says which (lane, slot) of A held which element (the H200 probe a_lo)."""
    tags = (LANE[:, None] * 8 + np.arange(8)[None, :]).astype(np.float16)  # [lane, slot]
    fa = mma.fragment("a", "m16n8k16", "f16")
    A = np.zeros((16, 16), np.float16)
    A[fa.coords[:, :, 0], fa.coords[:, :, 1]] = tags
    B = np.eye(16, 8, dtype=np.float16)
    raw, _ = _run_mma("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", A, B, np.zeros((16, 8), np.float32),
                      "f16", "f16", "f32", "f32")
    D = raw.view(np.float32)
    for lane in range(32):
        for s in range(8):
            r, c = fa.coords[lane, s]
            if c < 8:
                assert D[r, c] == lane * 8 + s


def _h200_probes():
    text = (RESULTS / "mma_layouts.txt").read_text()
    out = {}
    for block in text.split("probe ")[1:]:
        lines = block.strip().splitlines()
        out[lines[0].strip()] = np.array([[float(x) for x in ln.split(":")[1].split()] for ln in lines[1:]])
    return out


def _isa_words(use, f):
    """The probe's register words, built (as mma_sync.cu's host does) from the ISA formulas."""
    n = 8 if use == "a" else 4
    w = np.zeros((32, n // 2), np.uint32)
    for s in range(n):
        if use == "a":
            r, c = G + 8 * ((s // 2) % 2), 2 * T + s % 2 + 8 * (s // 4)
        else:
            r, c = 2 * T + s % 2 + 8 * (s // 2), G
        v = np.array([f(int(r[i]), int(c[i])) for i in range(32)], np.float16).view(np.uint16).astype(np.uint32)
        w[:, s // 2] |= v << np.uint32(16 * (s % 2))
    return w.ravel()


def _tag_words(slots):
    t = (LANE[:, None] * slots + np.arange(slots)[None, :]).astype(np.float16).view(np.uint16).astype(np.uint32)
    return (t[:, 0::2] | (t[:, 1::2] << np.uint32(16))).ravel()


@pytest.mark.skipif(not (RESULTS / "mma_layouts.txt").exists(), reason="no H200 measurement")
def test_probes_are_the_h200s():
    """The H200's per-lane outputs of every mma_sync.cu probe (results/mma_sync/mma_layouts.txt):
    m16n8k16 f16 A / B / C, f32 and f16 accumulate, ldmatrix x1 / x2 / x4 / x4.trans and
    stmatrix x4 / x4.trans, reproduced bit for bit by the very same kernels on simgpu."""
    hw = _h200_probes()
    mod = sg.RawModule(code=(BENCH / "mma_sync.cu").read_text())
    zero = lambda m, k: 0.0  # noqa: E731
    probes = {
        "a_lo": (_tag_words(8), _isa_words("b", lambda k, n: float(k == n)), None),
        "a_hi": (_tag_words(8), _isa_words("b", lambda k, n: float(k == n + 8)), None),
        "b": (_isa_words("a", lambda m, k: float(k == m)), _tag_words(4), None),
        "c_row": (_isa_words("a", lambda m, k: float(m) if k == 0 else 0.0),
                  _isa_words("b", lambda k, n: float(k == 0)), None),
        "c_col": (_isa_words("a", lambda m, k: float(k == 0)),
                  _isa_words("b", lambda k, n: float(n) if k == 0 else 0.0), None),
        "c_pass": (_isa_words("a", zero), _isa_words("b", zero), "tags"),
    }
    n = 0
    for acc in ("f32", "f16"):
        for name, (a, b, c) in probes.items():
            if acc == "f32":
                cw = np.arange(128, dtype=np.float32) if c else np.zeros(128, np.float32)
                d = sg.zeros(128, dtype=np.float32)
                mod.get_function("probe_f16f32")((1,), (32,), (sg.asarray(a), sg.asarray(b), sg.asarray(cw), d))
                got = d.get().reshape(32, 4)
            else:
                cw = _tag_words(4) if c else np.zeros(64, np.uint32)
                d = sg.zeros(64, dtype=np.uint32)
                mod.get_function("probe_f16f16")((1,), (32,), (sg.asarray(a), sg.asarray(b), sg.asarray(cw), d))
                got = d.get().view(np.uint16).view(np.float16).astype(np.float32).reshape(32, 4)
            assert np.array_equal(got, hw[f"mma.m16n8k16.{acc} {name}"]), (acc, name)
            n += 1
    src = np.arange(256, dtype=np.uint16)
    for mode, name in enumerate(("x1", "x2", "x4", "x4.trans")):
        out = sg.zeros(128, dtype=np.uint32)
        mod.get_function("probe_ldsm")((1,), (32,), (sg.asarray(src), out, np.int32(mode)))
        w = out.get().reshape(32, 4)
        got = np.stack([w & 0xFFFF, w >> 16], axis=-1).reshape(32, 8)
        assert np.array_equal(got, hw[f"ldmatrix.{name}"]), name
        n += 1
    for mode, name in enumerate(("x4", "x4.trans")):
        out = sg.zeros(256, dtype=np.uint16)
        mod.get_function("probe_stsm")((1,), (32,), (out, np.int32(mode)))
        assert np.array_equal(out.get().reshape(32, 8), hw[f"stmatrix.{name}"]), name
        n += 1
    assert n == 18


# ------------------------------------------------------------------------------------------------ ldmatrix
LDSM = """
extern "C" __global__ void k(const unsigned short *src, unsigned *out, int stride) {{
    __shared__ __align__(128) unsigned short t[32 * 72];
    for (int i = threadIdx.x; i < 32 * 72; i += 32) t[i] = src[i];
    __syncwarp();
    unsigned p = (unsigned)__cvta_generic_to_shared(t + threadIdx.x * stride), r[4] = {{0, 0, 0, 0}};
    asm volatile("ldmatrix.sync.aligned.m8n8.{NUM}{TRANS}.shared.b16 {REGS}, [%4];"
                 : "+r"(r[0]), "+r"(r[1]), "+r"(r[2]), "+r"(r[3]) : "r"(p));
    for (int i = 0; i < 4; ++i) out[threadIdx.x * 4 + i] = r[i];
}}
"""


@pytest.mark.parametrize("trans", [False, True])
@pytest.mark.parametrize("num", [1, 2, 4])
@pytest.mark.parametrize("stride", [8, 72])
def test_ldmatrix_against_numpy(num, trans, stride):
    regs = "{" + ",".join(f"%{i}" for i in range(num)) + "}"
    src = LDSM.format(NUM=f"x{num}", TRANS=".trans" if trans else "", REGS=regs)
    rng = np.random.default_rng(num + 10 * trans)
    mem = rng.integers(0, 2 ** 16, 32 * 72).astype(np.uint16)
    out = sg.zeros(128, dtype=np.uint32)
    sg.RawModule(code=src).get_function("k")((1,), (32,), (sg.asarray(mem), out, np.int32(stride)))
    w = out.get().reshape(32, 4)
    for i in range(num):
        # matrix i: row r is the 8 halves at lane 8i + r's address
        M = np.stack([mem[(8 * i + r) * stride:(8 * i + r) * stride + 8] for r in range(8)])
        if trans:
            M = M.T
        want = M[G, 2 * T].astype(np.uint32) | (M[G, 2 * T + 1].astype(np.uint32) << 16)
        assert np.array_equal(w[:, i], want), i
    assert (w[:, num:] == 0).all()


def _h200_counters():
    rows = list(csv.reader((RESULTS / "mma_ncu.csv").read_text().splitlines()[2:]))
    head = rows[0]
    out = {}
    for r in rows[2:]:
        grid = int(r[head.index("Grid Size")].strip("()").split(",")[0])
        out[(r[head.index("Kernel Name")], grid)] = {h: float(v.replace(",", "")) for h, v in zip(head, r)
                                                     if h.endswith(".sum") and v}
    return out


COUNTERS = ("smsp__sass_inst_executed_op_ldsm.sum", "smsp__sass_inst_executed_op_shared_ld.sum",
            "smsp__sass_inst_executed_op_shared_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
            "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
            "sm__inst_executed_pipe_tensor_op_hmma.sum", "sm__inst_executed_pipe_tensor_op_imma.sum")


def test_ldmatrix_wavefronts_analytically():
    """An 8 x 8 matrix is 8 rows of 16 bytes. Rows 16 bytes apart fill the 32 banks once per 8 rows:
    1 wavefront per matrix (x1 / x2 / x4: 1 / 2 / 4), no conflict. Rows 128 bytes apart put all 8
    rows of a matrix on the same 4 banks: 8 wavefronts per matrix, 7 of them conflicts. (.trans
    reads the same rows.) One LDSM instruction each, none a shared-load instruction to ncu."""
    mod = sg.RawModule(code=(BENCH / "mma_sync.cu").read_text())
    for num in (1, 2, 4):
        for t in ("", "t"):
            for stride, wf, bc in ((16, num, 0), (128, 8 * num, 7 * num)):
                name = f"ldsm_x{num}{t}_r{stride}"
                m = mod.get_function(name)((1,), (32,), (sg.zeros(32, dtype=np.uint32),)).metrics
                assert m["smsp__sass_inst_executed_op_ldsm.sum"] == 1, name
                assert m["smsp__sass_inst_executed_op_shared_ld.sum"] == 0, name
                assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == wf, name
                assert m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == bc, name
                # ncu files LDSM's wavefronts under its own SASS class (validation/shared_sass: the
                # H200's mma_ldmatrix_gemm, op_ldsm 393,216 and op_ld 0)
                assert m["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldsm.sum"] == wf, name
                assert m["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 0, name


@pytest.mark.skipif(not (RESULTS / "mma_ncu.csv").exists(), reason="no H200 counter measurement")
def test_counters_are_the_h200s():
    """Every counter kernel of mma_sync.cu (ldmatrix x1/x2/x4 and .trans at 16- and 128-byte rows,
    stmatrix x4 and .trans, one mma.sync of each type), one warp and the <<<132, 128>>> grids: the
    shared-memory and tensor-pipe counters are the H200's."""
    hw = _h200_counters()
    mod = sg.RawModule(code=(BENCH / "mma_sync.cu").read_text())
    assert len(hw) == 24
    for (name, grid), want in hw.items():
        out = sg.zeros(132 * 128, dtype=np.uint32)
        m = mod.get_function(name)((grid,), (32 if grid == 1 else 128,), (out,)).metrics
        for key in COUNTERS:
            if key in want:
                assert m[key] == want[key], (name, grid, key, m[key], want[key])


# ------------------------------------------------------------------------------------------------ GEMM
GEMM = r"""
// C[64x64] (f32) = A[64x64] x B[64x64] (f16, row-major), 4 warps: warp w computes rows 16w..16w+15.
// A and B sit in shared memory with rows padded to 72 halves (144 bytes: 8 rows of 16 bytes hit
// 8 different bank quads, conflict-free). Per k step of 16: A by one ldmatrix.x4, B by four
// ldmatrix.x4.trans (two 8-column tiles each), eight mma.sync m16n8k16.
__device__ __forceinline__ unsigned sa(const void *p) { return (unsigned)__cvta_generic_to_shared(p); }
extern "C" __global__ void gemm(const unsigned short *A, const unsigned short *B, float *C) {
    __shared__ __align__(128) unsigned short sA[64 * 72], sB[64 * 72];
    for (int i = threadIdx.x; i < 64 * 64; i += blockDim.x) {
        sA[(i / 64) * 72 + i % 64] = A[i];
        sB[(i / 64) * 72 + i % 64] = B[i];
    }
    __syncthreads();
    int w = threadIdx.x / 32, l = threadIdx.x % 32;
    float acc[8][4];
    for (int j = 0; j < 8; ++j) for (int e = 0; e < 4; ++e) acc[j][e] = 0.f;
    for (int k0 = 0; k0 < 64; k0 += 16) {
        unsigned a[4], b[8][2];
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3])
                     : "r"(sa(sA + (16 * w + l % 16) * 72 + k0 + (l / 16) * 8)));
        for (int j = 0; j < 8; j += 2)
            asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];"
                         : "=r"(b[j][0]), "=r"(b[j][1]), "=r"(b[j + 1][0]), "=r"(b[j + 1][1])
                         : "r"(sa(sB + (k0 + l % 8 + 8 * ((l / 8) % 2)) * 72 + 8 * j + 8 * (l / 16))));
        for (int j = 0; j < 8; ++j)
            asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
                         "{%8,%9}, {%0,%1,%2,%3};"
                         : "+f"(acc[j][0]), "+f"(acc[j][1]), "+f"(acc[j][2]), "+f"(acc[j][3])
                         : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[j][0]), "r"(b[j][1]));
    }
    int g = l / 4, t = l % 4;
    for (int j = 0; j < 8; ++j)
        for (int e = 0; e < 4; ++e)
            C[(16 * w + g + 8 * (e / 2)) * 64 + 8 * j + 2 * t + e % 2] = acc[j][e];
}
"""


def _run_gemm(engine: str):
    rng = np.random.default_rng(7)
    A = (rng.integers(-32, 32, (64, 64)) / 8).astype(np.float16)
    B = (rng.integers(-32, 32, (64, 64)) / 8).astype(np.float16)
    c = sg.zeros(64 * 64, dtype=np.float32)
    k = sg.RawModule(code=GEMM).get_function("gemm")
    rep = k((1,), (128,), (sg.asarray(A.view(np.uint16).ravel()), sg.asarray(B.view(np.uint16).ravel()), c),
            engine=engine)
    return A, B, c.get().reshape(64, 64), rep


def test_gemm_64x64x64_ldmatrix_mma_sync():
    A, B, C, rep = _run_gemm("fast")
    # exact products, partial sums multiples of 1/64 far below 2^24: f32 is exact
    assert np.array_equal(C, (A.astype(np.float64) @ B.astype(np.float64)).astype(np.float32))
    m = rep.metrics
    # per warp and k step: 1 + 4 LDSM, 8 HMMA; 4 warps, 4 k steps
    assert m["smsp__sass_inst_executed_op_ldsm.sum"] == 4 * 4 * 5
    assert m["smsp__sass_inst_executed_op_shared_ld.sum"] == 0
    assert m["sm__inst_executed_pipe_tensor_op_hmma.sum"] == 4 * 4 * 8
    # 144-byte rows: every matrix's 8 rows on distinct bank quads, 4 wavefronts per .x4, no conflict
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 4 * 4 * 5 * 4
    assert m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 0


def test_engines_identical():
    from tests.fast.test_equivalence import assert_same_report

    _, _, c_ref, ref = _run_gemm("reference")
    _, _, c_fast, fast = _run_gemm("fast")
    assert np.array_equal(c_ref.view(np.uint32), c_fast.view(np.uint32))
    assert_same_report(ref, fast, "mma_sync gemm")


def test_timing_classes():
    """mma.sync on the tensor pipe with the measured latency / issue interval (TimingConfig)."""
    from simgpu.frontend.ptx.ast import Instruction

    cfg = TimingConfig()

    def cls(text):
        op, *mods = text.split(".")
        return classify(Instruction(op, tuple(mods), []), 0, None, cfg)
    full = cls("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32")
    assert full[1:4] == (P_TENSOR, cfg.lat_mma_full, cfg.ii_mma_full) == (P_TENSOR, 24, 6)
    assert cls("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32")[2:4] == (24, 6)
    assert cls("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32")[2:4] == (24, 6)
    assert cls("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32")[2:4] == (17, 4)


# ------------------------------------------------------------------------------------------------ errors
UNSUPPORTED = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<12>;
    .reg .f32 %f<9>;
    mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32 {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8}, {%r1,%r2}, {%r3,%r4},
        {%f1,%f2,%f3,%f4,%f5,%f6,%f7,%f8};
    ret;
}
"""


def test_unsupported_shape_names_opcode_and_line():
    with pytest.raises(UnsupportedInstructionError,
                       match=re.escape("mma.sync.aligned.m8n8k4.row.col.f32.f16.f16.f32") + r".*PTX line 9: mma.sync"):
        sg.RawModule(ptx=UNSUPPORTED).get_function("k")((1,), (32,), (sg.zeros(4, dtype=np.float32),))


def test_misaligned_ldmatrix_names_kernel_block_thread():
    src = """
    extern "C" __global__ void misaligned(unsigned *out) {
        __shared__ __align__(128) unsigned short t[512];
        for (int i = threadIdx.x; i < 512; i += 32) t[i] = i;
        __syncwarp();
        unsigned p = (unsigned)__cvta_generic_to_shared(t + threadIdx.x * 8 + (threadIdx.x == 5 ? 4 : 0)), r;
        asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];" : "=r"(r) : "r"(p));
        out[threadIdx.x] = r;
    }"""
    k = sg.RawModule(code=src).get_function("misaligned")
    where = r"kernel misaligned.*block \(0, 0, 0\), thread \(5, 0, 0\)"
    with pytest.raises(KernelRuntimeError, match=r"misaligned ldmatrix row address.*" + where):
        k((1,), (32,), (sg.zeros(32, dtype=np.uint32),))


DMMA_SRC = r'''
extern "C" __global__ void dmma(const double* A, const double* B, const double* C, double* D) {
    // PTX ISA, mma.m8n8k4 .f64: lane (g, t) = (lane / 4, lane % 4) holds a0 = A[g][t],
    // b0 = B[t][g], c0, c1 = C[g][2t], C[g][2t + 1]
    int lane = threadIdx.x, g = lane / 4, t = lane % 4;
    double a = A[g * 4 + t], b = B[t * 8 + g], c0 = C[g * 8 + 2 * t], c1 = C[g * 8 + 2 * t + 1], d0, d1;
    asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0, %1}, {%2}, {%3}, {%4, %5};"
                 : "=d"(d0), "=d"(d1) : "d"(a), "d"(b), "d"(c0), "d"(c1));
    D[g * 8 + 2 * t] = d0;
    D[g * 8 + 2 * t + 1] = d1;
}
'''


@pytest.mark.parametrize("engine", ["reference", "fast"])
def test_mma_sync_m8n8k4_f64(engine):
    """DMMA by hand (sm_80+): the ISA's fragment layout, D = A x B + C in double."""
    r = np.random.default_rng(12)
    A, B, C = r.standard_normal((8, 4)), r.standard_normal((4, 8)), r.standard_normal((8, 8))
    d = sg.zeros(64, dtype=np.float64)
    sg.RawModule(code=DMMA_SRC).get_function("dmma")((1,), (32,), (sg.asarray(A.ravel()), sg.asarray(B.ravel()),
                                                                   sg.asarray(C.ravel()), d), engine=engine)
    np.testing.assert_allclose(d.get().reshape(8, 8), A @ B + C, rtol=1e-13, atol=1e-13)
