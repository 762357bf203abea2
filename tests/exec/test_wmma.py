"""nvcuda::wmma: wmma.load / wmma.store / wmma.mma (exec/wmma.py) against NumPy, against the H200's
fragment layouts and counters (benchmarks/microbench/wmma/results), in both engines."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import numpy as np
import pytest

import simgpu as sg
from simgpu.errors import CompileError, KernelRuntimeError, UnsupportedInstructionError
from simgpu.exec import wmma

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "wmma"

HEADER = "#include <mma.h>\n#include <cuda_fp16.h>\n#include <cuda_bf16.h>\nusing namespace nvcuda;\n"


def _mma_header_available() -> bool:
    try:
        sg.RawModule(code=HEADER + 'extern "C" __global__ void k(float *x) { x[0] = 1.f; }').get_function("k")
    except CompileError:
        return False
    return True


needs_mma_h = pytest.mark.skipif(not _mma_header_available(), reason="<mma.h> not found (no CUDA toolkit headers)")


def _bench():
    spec = importlib.util.spec_from_file_location("wmma_compare", BENCH / "compare.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# ------------------------------------------------------------------------------------------------ GEMM tiles
TILE = HEADER + """
extern "C" __global__ void tile(const half *a, const half *b, const {T} *c, {T} *d) {{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::{AL}_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::{BL}_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, {T}> fc;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_{CL}_major);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_{CL}_major);
}}
"""


def _layout(m: np.ndarray, layout: str) -> np.ndarray:
    return np.ascontiguousarray(m if layout == "row" else m.T).ravel()


@needs_mma_h
@pytest.mark.parametrize("acc", ["float", "half"])
@pytest.mark.parametrize("al,bl,cl", [("row", "col", "row"), ("row", "row", "col"), ("col", "col", "row"),
                                      ("col", "row", "col")])
def test_one_warp_tile_matches_numpy(al, bl, cl, acc):
    rng = np.random.default_rng(1)
    A = rng.integers(-64, 64, (16, 16)).astype(np.float16) / np.float16(16)
    B = rng.integers(-64, 64, (16, 16)).astype(np.float16) / np.float16(16)
    dt = np.float32 if acc == "float" else np.float16
    C = (rng.integers(-64, 64, (16, 16)) / 8).astype(dt)
    k = sg.RawModule(code=TILE.format(T=acc, AL=al, BL=bl, CL=cl)).get_function("tile")
    d = sg.zeros(256, dtype=dt)
    k((1,), (32,), (sg.asarray(_layout(A, al)), sg.asarray(_layout(B, bl)), sg.asarray(_layout(C, cl)), d))
    exact = A.astype(np.float64) @ B.astype(np.float64) + C.astype(np.float64)
    got = d.get().reshape(16, 16)
    got = got if cl == "row" else got.T
    assert np.array_equal(got, exact.astype(dt))  # one rounding of the exact result


TILED = HEADER + """
// C[64x64] = A[64x64] (row-major) x B[64x64] (row-major), f16 in, f32 out: 4 warps, each a 32 x 32
// quarter of C as 2 x 2 fragments; A and B go through shared memory in 64 x 16 / 16 x 64 slabs,
// A's rows padded to 24 halves (the H200's conflict-free ldm)
extern "C" __global__ void gemm64(const half *A, const half *B, float *C) {
    __shared__ __align__(32) half sa[64 * 24];
    __shared__ __align__(32) half sb[16 * 64];
    int warp = threadIdx.x / 32, wm = warp / 2, wn = warp % 2;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[2][2];
    for (int i = 0; i < 2; ++i) for (int j = 0; j < 2; ++j) wmma::fill_fragment(acc[i][j], 0.f);
    for (int k0 = 0; k0 < 64; k0 += 16) {
        for (int e = threadIdx.x; e < 64 * 16; e += blockDim.x) {
            sa[(e / 16) * 24 + e % 16] = A[(e / 16) * 64 + k0 + e % 16];
            sb[e] = B[(k0 + e / 64) * 64 + e % 64];
        }
        __syncthreads();
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa[2];
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb[2];
        for (int i = 0; i < 2; ++i) wmma::load_matrix_sync(fa[i], sa + (wm * 32 + i * 16) * 24, 24);
        for (int j = 0; j < 2; ++j) wmma::load_matrix_sync(fb[j], sb + wn * 32 + j * 16, 64);
        for (int i = 0; i < 2; ++i) for (int j = 0; j < 2; ++j) wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
        __syncthreads();
    }
    for (int i = 0; i < 2; ++i)
        for (int j = 0; j < 2; ++j)
            wmma::store_matrix_sync(C + (wm * 32 + i * 16) * 64 + wn * 32 + j * 16, acc[i][j], 64, wmma::mem_row_major);
}
"""


def _run_gemm64(engine: str):
    rng = np.random.default_rng(7)
    A = (rng.integers(-32, 32, (64, 64)) / 8).astype(np.float16)
    B = (rng.integers(-32, 32, (64, 64)) / 8).astype(np.float16)
    k = sg.RawModule(code=TILED).get_function("gemm64")
    c = sg.zeros(64 * 64, dtype=np.float32)
    rep = k((1,), (128,), (sg.asarray(A.ravel()), sg.asarray(B.ravel()), c), engine=engine)
    return A, B, c.get().reshape(64, 64), rep


@needs_mma_h
def test_tiled_64x64x64_gemm_through_shared_memory():
    A, B, C, rep = _run_gemm64("fast")
    # the products are exact and every partial sum is a multiple of 1/64 below 2^24: f32 is exact
    assert np.array_equal(C, (A.astype(np.float64) @ B.astype(np.float64)).astype(np.float32))
    # A's wmma.loads: LDSM (not shared-load instructions to ncu), 2 per warp and k step, conflict-free at ldm 24
    m = rep.metrics
    assert m["smsp__sass_inst_executed_op_shared_ld.sum"] == 0
    assert m["smsp__sass_inst_executed_op_ldsm.sum"] == 4 * 4 * (2 + 2)  # warps x k steps x (A + B)
    # an LDSM reads four 8x8 blocks, 8 rows of 16 B each: A at ldm 24 halves (48 B) is conflict-free,
    # 4 wavefronts; B at ldm 64 (128 B) puts a block's 8 rows on the same 4 banks, 8 wavefronts a block
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 32 * 4 + 32 * 4 * 8
    assert m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 32 * 4 * 7


@needs_mma_h
def test_bf16_m32n8k16():
    src = HEADER + """
    extern "C" __global__ void bf(const __nv_bfloat16 *a, const __nv_bfloat16 *b, float *d) {
        wmma::fragment<wmma::matrix_a, 32, 8, 16, __nv_bfloat16, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 32, 8, 16, __nv_bfloat16, wmma::col_major> fb;
        wmma::fragment<wmma::accumulator, 32, 8, 16, float> fc;
        wmma::fill_fragment(fc, 0.5f);
        wmma::load_matrix_sync(fa, a, 16);
        wmma::load_matrix_sync(fb, b, 16);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(d, fc, 8, wmma::mem_row_major);
    }"""
    rng = np.random.default_rng(3)
    A = rng.standard_normal((32, 16)).astype(np.float32)
    B = rng.standard_normal((16, 8)).astype(np.float32)

    def bf16(x):  # round to nearest even, as raw bits
        u = x.view(np.uint32).astype(np.uint64)
        return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)

    def val(bits):
        return (bits.astype(np.uint32) << 16).view(np.float32).astype(np.float64)

    ab, bb = bf16(A), bf16(np.ascontiguousarray(B.T))  # B col-major: column n is 16 contiguous k
    k = sg.RawModule(code=src).get_function("bf")
    d = sg.zeros(256, dtype=np.float32)
    k((1,), (32,), (sg.asarray(ab.ravel()), sg.asarray(bb.ravel()), d))
    exact = val(ab) @ val(bb).T + 0.5
    assert np.array_equal(d.get().reshape(32, 8), exact.astype(np.float32))


# ------------------------------------------------------------------------------------------------ layouts
LAYOUT_PROBE = HEADER + """
extern "C" __global__ void probe(const half *src, float *out) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::load_matrix_sync(fa, src, 16);
    for (int i = 0; i < fa.num_elements; ++i) out[threadIdx.x * fa.num_elements + i] = __half2float(fa.x[i]);
}
"""


@needs_mma_h
def test_fragment_elements_per_lane_are_the_documented_layout():
    """Load a matrix of distinct values, write every lane's fragment elements out with ordinary
    code: each must be the element wmma.fragment names (row g + 8*((i//2)%2), col 2t + i%2 +
    8*(i//4), mma.m16n8k16's A layout; slots 8..15 repeat 0..7), which is the H200's."""
    vals = np.arange(256, dtype=np.float16)
    out = sg.zeros(32 * 16, dtype=np.float32)
    sg.RawModule(code=LAYOUT_PROBE).get_function("probe")((1,), (32,), (sg.asarray(vals), out))
    got = out.get().reshape(32, 16).astype(np.int64)
    frag = wmma.fragment("a", "m16n16k16", "f16")
    want = frag.coords[:, :, 0] * 16 + frag.coords[:, :, 1]
    assert np.array_equal(got, want)
    lane = np.arange(32)
    g, t = lane // 4, lane % 4
    for i in range(16):
        j = i % 8
        row = g + 8 * ((j // 2) % 2)
        col = 2 * t + j % 2 + 8 * (j // 4)
        assert np.array_equal(got[:, i], row * 16 + col), i


def _h200_layouts():
    text = (BENCH / "results" / "layouts.txt").read_text()
    for block in text.split("probe ")[1:]:
        lines = block.strip().splitlines()
        name, _, rows, _, cols, _, ldm, _, n = lines[0].split()
        offs = np.array([[int(x) for x in line.split(":")[1].split()] for line in lines[1:33]])
        yield name, int(ldm), offs


@pytest.mark.skipif(not (BENCH / "results" / "layouts.txt").exists(), reason="no H200 layout measurement")
def test_layouts_are_the_h200s():
    """Every fragment layout the H200 reported (benchmarks/microbench/wmma/results/layouts.txt:
    the memory offset each lane's x[i] came from) is wmma.fragment's, element by element. bf16
    holds integers exactly only up to 256: larger offsets are compared where they are exact."""
    n = 0
    for name, ldm, offs in _h200_layouts():
        use, layout, shape, etype = name.split(".")
        frag = wmma.fragment(use, shape, etype)
        r, c = frag.coords[:, :, 0], frag.coords[:, :, 1]
        want = r * ldm + c if layout == "row" else c * ldm + r
        exact = want <= 256 if etype == "bf16" else np.ones_like(want, bool)
        assert np.array_equal(offs[exact], want[exact]), name
        n += 1
    assert n == 37


# ------------------------------------------------------------------------------------------------ counters
def test_lowering_of_an_f16_a_load():
    """m16n16k16 f16 A from global: 4 accesses of 32 bits per lane (one per 8 x 8 block); from
    shared: one LDSM.x4 (16 bytes a lane)."""
    acc = wmma.memory_accesses("a", "m16n16k16", "f16", "row")
    assert [a.count for a in acc] == [2, 2, 2, 2]
    ldsm = wmma.memory_accesses("a", "m16n16k16", "f16", "col", True)
    assert [a.count for a in ldsm] == [8] and ldsm[0].lanes.all()
    f32c = wmma.memory_accesses("c", "m16n16k16", "f32", "row")
    assert [a.count for a in f32c] == [2, 2, 2, 2]
    assert [a.count for a in wmma.memory_accesses("c", "m16n16k16", "f32", "col")] == [1] * 8
    for use, etype, shape in (("a", "f16", "m32n8k16"), ("b", "bf16", "m8n32k16"), ("a", "s8", "m16n16k16"),
                              ("b", "tf32", "m16n16k8"), ("c", "f16", "m8n32k16")):
        for layout in ("row", "col"):
            cover = np.zeros((wmma.fragment(use, shape, etype).rows, wmma.fragment(use, shape, etype).cols), int)
            for a in wmma.memory_accesses(use, shape, etype, layout):
                np.add.at(cover, (a.coords[a.lanes, :, 0].ravel(), a.coords[a.lanes, :, 1].ravel()), 1)
            assert (cover == 1).all(), (use, shape, etype, layout)  # every element exactly once


@needs_mma_h
@pytest.mark.parametrize("ldm", [16, 24])
def test_global_load_counters_follow_the_lowering(ldm):
    """A 16 x 16 f16 tile at ldm 16 or 24: each access reads 8 lines' 16 bytes, one sector each."""
    bench = _bench()
    rep = bench.simulate(f"lda_row_g{ldm}", 1)
    n = len(wmma.memory_accesses("a", "m16n16k16", "f16", "row"))
    m = rep.metrics
    assert m["smsp__sass_inst_executed_op_global_ld.sum"] == n == 4
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == n
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 8 * n


@needs_mma_h
@pytest.mark.skipif(not (BENCH / "results" / "ncu.csv").exists(), reason="no H200 counter measurement")
def test_counters_are_the_h200s():
    """Every counter kernel of benchmarks/microbench/wmma, one warp: the memory counters are the H200's."""
    bench = _bench()
    hw = bench.h200()
    mod = sg.RawModule(code=(BENCH / "wmma.cu").read_text())
    for name in bench.KERNELS:
        rep = bench.simulate(name, 1, "fast", mod)
        for key, metric in bench.METRICS.items():
            assert rep.metrics[metric] == hw[(name, 1)][key], (name, key)


# ------------------------------------------------------------------------------------------------ engines
@needs_mma_h
def test_engines_identical():
    from tests.fast.test_equivalence import assert_same_report

    A, B, c_ref, ref = _run_gemm64("reference")
    _, _, c_fast, fast = _run_gemm64("fast")
    assert np.array_equal(c_ref.view(np.uint32), c_fast.view(np.uint32))
    assert_same_report(ref, fast, "gemm64")


# ------------------------------------------------------------------------------------------------ errors
@needs_mma_h
def test_misaligned_pointer_names_the_kernel():
    src = HEADER + """
    extern "C" __global__ void misaligned(const half *a, float *out) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::load_matrix_sync(fa, a + 8, 16);   // 16 bytes past a 256-byte allocation: not 32-byte aligned
        out[threadIdx.x] = __half2float(fa.x[0]);
    }"""
    k = sg.RawModule(code=src).get_function("misaligned")
    with pytest.raises(KernelRuntimeError, match=r"misaligned wmma address.*kernel misaligned.*block \(0, 0, 0\)"):
        k((1,), (32,), (sg.zeros(512, dtype=np.float16), sg.zeros(32, dtype=np.float32)))


UNSUPPORTED_PTX = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b64 %rd<2>;
    .reg .b32 %r<2>;
    ld.param.u64 %rd1, [p];
    wmma.load.a.sync.aligned.row.m8n8k32.global.s4 {%r1}, [%rd1];
    ret;
}
"""


def test_unsupported_variant_is_a_clear_error():
    """Sub-byte (s4 / u4 / b1) fragments are not modelled: refused by name."""
    with pytest.raises(UnsupportedInstructionError, match=re.escape("wmma.load.a.sync.aligned.row.m8n8k32.global.s4")):
        sg.RawModule(ptx=UNSUPPORTED_PTX).get_function("k")((1,), (32,), (sg.zeros(64, dtype=np.float64),))


F64_SRC = r"""
#include <mma.h>
using namespace nvcuda;
template <typename LA, typename LB>
__device__ void dmma(const double* a, int lda, const double* b, int ldb, const double* c, double* d, bool c_row) {
    wmma::fragment<wmma::matrix_a, 8, 8, 4, double, LA> fa;
    wmma::fragment<wmma::matrix_b, 8, 8, 4, double, LB> fb;
    wmma::fragment<wmma::accumulator, 8, 8, 4, double> fc;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, 8, c_row ? wmma::mem_row_major : wmma::mem_col_major);
    for (int i = 0; i < fc.num_elements; ++i) fc.x[i] *= 0.5;
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 8, c_row ? wmma::mem_row_major : wmma::mem_col_major);
}
extern "C" __global__ void f64_rr(const double* a, const double* b, const double* c, double* d) {
    dmma<wmma::row_major, wmma::row_major>(a, 4, b, 8, c, d, true);
}
extern "C" __global__ void f64_cc_shared(const double* a, const double* b, const double* c, double* d) {
    __shared__ __align__(32) double sa[8 * 4], sb[4 * 8];
    sa[threadIdx.x] = a[threadIdx.x]; sb[threadIdx.x] = b[threadIdx.x];
    __syncwarp();
    dmma<wmma::col_major, wmma::col_major>(sa, 8, sb, 4, c, d, false);
}
"""


@pytest.mark.parametrize("kernel", ["f64_rr", "f64_cc_shared"])
def test_f64_m8n8k4(kernel):
    """DMMA through wmma (8x8x4 doubles, sm_80+): A, B in either layout, C/D row or column major,
    from global and shared memory; fragment elements scaled one by one in between."""
    r = np.random.default_rng(11)
    A, B, C = r.standard_normal((8, 4)), r.standard_normal((4, 8)), r.standard_normal((8, 8))
    col = kernel == "f64_cc_shared"
    a = A.T.ravel() if col else A.ravel()
    b = B.T.ravel() if col else B.ravel()
    c = C.T.ravel() if col else C.ravel()
    d = sg.zeros(64, dtype=np.float64)
    rep = sg.RawModule(code=F64_SRC).get_function(kernel)((1,), (32,), (sg.asarray(a), sg.asarray(b), sg.asarray(c), d))
    got = d.get().reshape(8, 8)
    np.testing.assert_allclose(got.T if col else got, A @ B + 0.5 * C, rtol=1e-13, atol=1e-13)
    if not col:  # one 8-byte load per lane for A and B (256 contiguous bytes: 8 sectors each), C and D
        # as two doubles per lane (16 bytes: 512 bytes, 16 sectors), as the lowering's rule says
        assert rep.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 3
        assert rep.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"] == 8 + 8 + 16
        assert rep.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"] == 16
