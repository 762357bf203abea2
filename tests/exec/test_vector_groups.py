"""ptxas's fusion of scalar shared loads into LDS.64/LDS.128 (exec/program.find_vector_groups), across
control-equivalent blocks: a chain of `if (l[w] > 0) {...}` tests loads l[0..3] in four blocks, and
ptxas hoists them into one LDS.128 (the H200 ran 320 shared-load instructions for paged_decode's
merge loop, where its PTX has 416)."""

import numpy as np
import pytest

import simgpu as sg
from programs import get_program

SRC = r"""
// Thread t < 32 tests l[w] > 0 for w = 0..3 in turn; l[2] and l[3] are > 0.
template <bool STORE, bool SYM, int STEP>
__device__ __forceinline__ void body(float* out, int base)
{
    __shared__ __align__(16) float l[4];
    __shared__ float o[4][32];
    const int t = threadIdx.x;
    if (t < 4) l[t] = t - 1.5f;
    for (int w = 0; w < 4; ++w) o[w][t] = w;
    __syncthreads();
    // base = 0 at run time: a register base (a known multiple of 16 bytes when STEP is 4), or the symbol
    const float* lw = SYM ? l : l + STEP * base;
    float acc = 0.0f;
#pragma unroll
    for (int w = 0; w < 4; ++w) {
        if (lw[w] > 0.0f) {
            acc += o[w][t];
            if (STORE) o[w][t] = 0.0f;      // a shared store between the tests: no fusion
        }
    }
    out[t] = acc;
}
extern "C" __global__ void tests_reg(float* out, int base) { body<false, false, 4>(out, base); }
extern "C" __global__ void tests_sym(float* out, int base) { body<false, true, 4>(out, base); }
extern "C" __global__ void tests_store(float* out, int base) { body<true, false, 4>(out, base); }
// l + base is only known to be a multiple of 4 bytes: ptxas cannot use LDS.128 (exec/alignment.py)
extern "C" __global__ void tests_unaligned(float* out, int base) { body<false, false, 1>(out, base); }
"""


@pytest.fixture(scope="module")
def module():
    return sg.RawModule(code=SRC)


@pytest.mark.parametrize("name, fused", [("tests_reg", True), ("tests_sym", True), ("tests_store", False),
                                         ("tests_unaligned", False)])
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_loads_of_a_chain_of_tests_fuse_into_one_lds128(module, name, fused, engine):
    counts = {}
    for fuse in (True, False):
        out = sg.zeros(32, dtype=np.float32)
        rep = module.get_function(name)((1,), (32,), (out, np.int32(0)), fuse_shared_loads=fuse, timing=False,
                                        engine=engine)
        np.testing.assert_array_equal(out.get(), np.full(32, 5.0, np.float32))
        m = rep.metrics
        counts[fuse] = (m["smsp__sass_inst_executed_op_shared_ld.sum"],
                        m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"])
    # unfused: l[0..3] and o[2][t], o[3][t]; fused: one LDS.128 (a broadcast: 2 wavefronts) and o twice
    assert counts[False] == (6, 6)
    assert counts[True] == ((3, 4) if fused else (6, 6))


def test_paged_decode_merge_loop_matches_the_h200():
    rep = get_program("paged_decode").run().launches[0][1]
    m = rep.metrics
    assert m["smsp__sass_inst_executed_op_shared_ld.sum"] == 320  # H200 (validation/h200_2026-11-29.json)
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 384  # H200


STORES = r"""
// each thread writes two neighbouring words (s[2t], s[2t + 1]: STS.64 on the H200, bitonic_sort_1024
// in validation/typical) or s[t], s[t + 32] (two STS); then reads s[t] and s[t + 1] (LDS + LDS: s + 4t
// is not known to be 8-byte aligned, reduce_tree_atomic there) or s[2t], s[2t + 1] (LDS.64)
extern "C" __global__ void pairs(float* out, int mode)
{
    __shared__ float s[128];
    const int t = threadIdx.x;
    if (mode == 0) { s[2 * t] = t; s[2 * t + 1] = -t; }
    else { s[t] = t; s[t + 32] = -t; s[t + 64] = 0.f; s[t + 96] = 0.f; }
    __syncthreads();
    out[t] = mode == 0 ? s[2 * t] + s[2 * t + 1] : s[t] + s[t + 1];
}
"""


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_store_pairs_fuse_only_where_aligned(engine):
    mod = sg.RawModule(code=STORES)
    got = {}
    for mode in (0, 1):
        out = sg.zeros(32, dtype=np.float32)
        rep = mod.get_function("pairs")((1,), (32,), (out, np.int32(mode)), timing=False, engine=engine)
        t = np.arange(32, dtype=np.float32)
        want = np.zeros(32, np.float32) if mode == 0 else np.where(t < 31, 2 * t + 1, 31).astype(np.float32)
        np.testing.assert_array_equal(out.get(), want)
        m = rep.metrics
        got[mode] = (m["smsp__sass_inst_executed_op_shared_st.sum"], m["smsp__sass_inst_executed_op_shared_ld.sum"])
    assert got[0] == (1, 1)  # one STS.64, one LDS.64
    assert got[1] == (4, 2)  # four STS, two LDS


SQRT_SRC = r"""
// validation/typical23 pair_min_dist's inner loop, two points of a 16-byte-aligned float2 tile:
// each test's body takes an IEEE sqrtf (a branch to a slow-path call in the SASS) or not
template <bool IEEE>
__device__ __forceinline__ void body(const float2* pts, float* out)
{
    __shared__ __align__(16) float2 tile[64];
    const int t = threadIdx.x;
    tile[t] = pts[t];
    tile[t + 32] = pts[t + 32];
    __syncthreads();
    float best = 3.0e38f;
#pragma unroll
    for (int j = 0; j < 2; ++j) {
        float dx = tile[j].x - 1.0f, dy = tile[j].y;
        float d2 = dx * dx + dy * dy;
        if (j != t) best = fminf(best, IEEE ? sqrtf(d2) : d2);
    }
    out[t] = best;
}
extern "C" __global__ void with_sqrt(const float2* pts, float* out) { body<true>(pts, out); }
extern "C" __global__ void without_sqrt(const float2* pts, float* out) { body<false>(pts, out); }
"""


@pytest.mark.parametrize("name, loads", [("with_sqrt", 2), ("without_sqrt", 1)])
def test_a_slow_path_op_between_keeps_the_loads_apart(name, loads):
    """ptxas ends a SASS block at an IEEE sqrt's slow-path branch, so the second point's LDS.64 is
    not hoisted into one LDS.128 with the first (the GPU: one LDS.64 per point, typical23)."""
    mod = sg.RawModule(code=SQRT_SRC)
    pts = sg.asarray(np.arange(128, dtype=np.float32).view(np.float32))
    out = sg.zeros(32, dtype=np.float32)
    rep = mod.get_function(name)((1,), (32,), (pts, out), timing=False)
    assert rep.metrics["smsp__sass_inst_executed_op_shared_ld.sum"] == loads
