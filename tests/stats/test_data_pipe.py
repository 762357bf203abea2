"""l1tex__data_pipe_lsu_wavefronts_mem_shared.sum: shared wavefronts plus shuffles, %tid reads and
one per CTA with shared memory, as the H200 counts it (simgpu/stats/data_pipe.py)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg

TOTAL = "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"
PARTS = [f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum" for op in ("ld", "st", "atom")]

SRC = r"""
extern "C" __global__ void copy1d(const float* a, float* b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) b[i] = a[i];
}

extern "C" __global__ void shuffles(const float* a, float* b, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = a[i];
    for (int r = 0; r < rounds; ++r) v += __shfl_xor_sync(0xffffffffu, v, 1 + r % 16);
    b[i] = v;
}

extern "C" __global__ void copy2d(const float* a, float* b, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    b[y * w + x] = a[y * w + x];
}

extern "C" __global__ void copy3d(const float* a, float* b)
{
    int i = ((threadIdx.z * blockDim.y) + threadIdx.y) * blockDim.x + threadIdx.x;
    b[blockIdx.x * 256 + i] = a[blockIdx.x * 256 + i];
}

extern "C" __global__ void lane_only(float* b)
{
    unsigned l;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(l));
    b[blockIdx.x * 32 + l] = 1.f;
}

extern "C" __global__ void copy_async(const float* a, float* b)
{   // one 4-byte cp.async a lane, then a conflict-free shared load
    __shared__ float s[256];
    int t = threadIdx.x;
    unsigned d = (unsigned)__cvta_generic_to_shared(&s[t]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(a + blockIdx.x * 256 + t));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    b[blockIdx.x * 256 + t] = s[t];
}

extern "C" __global__ void rounds(float* b, int n)
{   // n rounds of (barrier, shared load, barrier, shared store), then n barriers with nothing after
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = (float)t;
    for (int r = 0; r < n; ++r) {
        __syncthreads();
        float v = s[(t + 32) & 255];
        __syncthreads();
        s[t] = v + 1.f;
    }
    for (int r = 0; r < n; ++r) __syncthreads();
    b[blockIdx.x * 256 + t] = 1.f;
}

extern "C" __global__ void copy_rows(const float* a, float* b)
{
    __shared__ float s[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    unsigned d = (unsigned)__cvta_generic_to_shared(&s[ty][tx]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(d), "l"(a + (blockIdx.x * 16 + ty) * 256 + tx));
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.wait_group 0;\n" ::);
    __syncthreads();
    b[(blockIdx.x * 16 + ty) * 16 + tx] = s[ty][tx];
}

extern "C" __global__ void tree(float* out)
{   // a shared reduction tree: at step k only the warps with a lane below k run s[t] += s[t + k]
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = 1.f;
    __syncthreads();
    for (int k = 128; k > 0; k >>= 1) {
        if (t < k) s[t] += s[t + k];
        __syncthreads();
    }
    if (t == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void via_shared(const float* a, float* b)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = a[blockIdx.x * 256 + t];
    __syncthreads();
    b[blockIdx.x * 256 + t] = s[255 - t];
}
"""


def _module() -> sg.RawModule:
    return sg.RawModule(code=SRC)


def _launch(name, grid, block, args):
    return _module().get_function(name)(grid, block, args)


def test_a_kernel_without_shared_memory_reads_tid_once_per_warp():
    n = 5 * 96
    r = _launch("copy1d", (5,), (96,), (sg.zeros(n, np.float32), sg.zeros(n, np.float32), np.int32(n)))
    assert all(r.metrics[p] == 0 for p in PARTS)
    assert r.metrics[TOTAL] == 5 * 3  # 3 warps per CTA


def test_a_partial_warp_is_a_warp():
    n = 4 * 48
    r = _launch("copy1d", (4,), (48,), (sg.zeros(n, np.float32), sg.zeros(n, np.float32), np.int32(n)))
    assert r.metrics[TOTAL] == 4 * 2


def test_two_and_three_dimensional_blocks_read_each_tid_component():
    r2 = _launch("copy2d", (2, 2), (16, 16), (sg.zeros(1024, np.float32), sg.zeros(1024, np.float32), np.int32(32)))
    assert r2.metrics[TOTAL] == 4 * 8 * 2
    r3 = _launch("copy3d", (3,), (8, 8, 4), (sg.zeros(768, np.float32), sg.zeros(768, np.float32)))
    assert r3.metrics[TOTAL] == 3 * 8 * 3


@settings(max_examples=12, deadline=None)
@given(ctas=st.integers(1, 6), warps=st.integers(1, 8), rounds=st.integers(0, 7))
def test_every_shuffle_is_one_wavefront(ctas, warps, rounds):
    n = ctas * warps * 32
    args = (sg.zeros(n, np.float32), sg.zeros(n, np.float32), np.int32(rounds))
    r = _launch("shuffles", (ctas,), (warps * 32,), args)
    assert r.metrics[TOTAL] == ctas * warps * (1 + rounds)


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_a_kernel_with_shared_memory_adds_its_wavefronts_and_one_per_cta(engine):
    with sg.use_engine(engine):
        r = _launch("via_shared", (3,), (256,), (sg.zeros(768, np.float32), sg.zeros(768, np.float32)))
    shared = sum(r.metrics[p] for p in PARTS)
    assert shared == 3 * 8 * 2  # one conflict-free store and load per warp
    assert r.metrics[TOTAL] == shared + 3 * 8 + 3


def test_laneid_is_read_once_per_warp_too():
    r = _launch("lane_only", (5,), (32,), (sg.zeros(160, np.float32),))
    assert r.metrics[TOTAL] == 5


def test_a_cp_async_its_commit_and_its_wait_cost_one_each_besides_its_shared_write():
    r = _launch("copy_async", (2,), (256,), (sg.zeros(512, np.float32), sg.zeros(512, np.float32)))
    warps = 2 * 8
    assert r.metrics["smsp__sass_inst_executed_op_ldgsts.sum"] == warps
    # shared load 1 + the copy's shared write 1 + copy, commit, wait 3 + %tid 1 a warp; the barrier
    # before the shared load one per CTA
    assert r.metrics[TOTAL] == warps * (1 + 1 + 3 + 1) + 2


def test_a_copy_from_two_lines_reaches_shared_memory_in_two_wavefronts():
    # 16 x 16 threads: a warp copies two rows of 16 floats 1 KB apart into 32 consecutive words
    r = _launch("copy_rows", (2,), (16, 16), (sg.zeros(8192, np.float32), sg.zeros(512, np.float32)))
    warps = 2 * 8
    assert r.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"] == warps  # one a copy
    # load 1 + write 2 + copy, commit, wait 3 + %tid.x, .y 2 a warp; one barrier per CTA
    assert r.metrics[TOTAL] == warps * (1 + 2 + 3 + 2) + 2


@settings(max_examples=6, deadline=None)
@given(ctas=st.integers(1, 4), n=st.integers(0, 5))
def test_one_per_cta_and_barrier_that_shared_accesses_follow(ctas, n):
    r = _launch("rounds", (ctas,), (256,), (sg.zeros(1024, np.float32), np.int32(n)))
    warps = ctas * 8
    shared = sum(r.metrics[p] for p in PARTS)
    assert shared == warps * (1 + 2 * n)  # conflict-free: the first store, a load and a store a round
    # the 2n barriers of the rounds are followed by shared accesses, the n after them are not
    assert r.metrics[TOTAL] == shared + warps + ctas * 2 * n


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_shared_accesses_ptxas_predicated_off_take_a_wavefront(engine):
    """The tree's `if (t < k)` shadow (two loads, a store) is if-converted: the warps with no lane
    below k still issue the three, predicated off. 8 warps, k = 128 ... 1: 4, 2, 1, 1, 1, 1, 1, 1
    warps run the step, 52 warp-steps do not (reduce_tree_atomic on the H200: 156 a CTA). The final
    `if (t == 0) out[...] = s[0]` holds a global store: ptxas keeps that branch, nothing is added."""
    ctas = 3
    with sg.use_engine(engine):
        r = _launch("tree", (ctas,), (256,), (sg.zeros(ctas, np.float32),))
    shared = sum(r.metrics[p] for p in PARTS)
    # conflict-free: the first store; per step and running warp two loads and a store; one load of s[0]
    assert shared == ctas * (8 + 12 * 3 + 1)
    # 1 a warp for %tid.x; 9 barriers a CTA, each followed by shared loads (the last by s[0]'s)
    assert r.metrics[TOTAL] == shared + ctas * 8 + ctas * 9 + ctas * 52 * 3
