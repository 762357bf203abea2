"""__syncthreads: shared-memory reductions, exited threads, the counting/voting forms, deadlocks."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg


def kernel(src: str, name: str):
    return sg.RawModule(code=src).get_function(name)


@pytest.mark.parametrize("block", [32, 128, 256])
def test_shared_memory_tree_reduction(block):
    k = kernel(r'''
    extern "C" __global__ void reduce(const float* x, float* out, int n) {
        __shared__ float s[256];
        int t = threadIdx.x;
        int i = blockIdx.x * blockDim.x + t;
        s[t] = i < n ? x[i] : 0.0f;
        __syncthreads();
        for (int step = blockDim.x / 2; step > 0; step >>= 1) {
            if (t < step) s[t] += s[t + step];
            __syncthreads();
        }
        if (t == 0) out[blockIdx.x] = s[0];
    }''', "reduce")
    n = 1000
    x = np.random.default_rng(0).integers(-100, 100, n).astype(np.float32)
    blocks = (n + block - 1) // block
    out = sg.zeros(blocks, np.float32)
    r = k((blocks,), (block,), (sg.asarray(x), out, np.int32(n)))
    want = [x[b * block:(b + 1) * block].sum() for b in range(blocks)]
    np.testing.assert_array_equal(out.get(), np.array(want, np.float32))
    assert r.metrics["smsp__inst_executed_op_barrier.sum"] > 0


def test_barrier_ignores_exited_threads():
    """Warps whose threads returned before the barrier are not waited for."""
    k = kernel(r'''
    extern "C" __global__ void partial(int* out) {
        __shared__ int s[128];
        int t = threadIdx.x;
        if (t >= 64) return;            // warps 2 and 3 exit
        s[t] = t * 3;
        __syncthreads();
        out[t] = s[63 - t];
    }''', "partial")
    out = sg.zeros(128, np.int32)
    k((2,), (128,), (out,))
    want = np.zeros(128, np.int32)
    want[:64] = (63 - np.arange(64)) * 3
    np.testing.assert_array_equal(out.get(), want)


def test_syncthreads_count_and_or():
    k = kernel(r'''
    extern "C" __global__ void votes(const int* x, int* out) {
        int t = threadIdx.x;
        int v = x[blockIdx.x * blockDim.x + t];
        int c = __syncthreads_count(v > 10);
        int a = __syncthreads_and(v > 10);
        int o = __syncthreads_or(v > 10);
        if (t == 0) { out[3 * blockIdx.x] = c; out[3 * blockIdx.x + 1] = a != 0; out[3 * blockIdx.x + 2] = o != 0; }
    }''', "votes")
    block = 96
    x = np.random.default_rng(1).integers(0, 20, 3 * block).astype(np.int32)
    x[block:2 * block] = 50        # block 1: all true
    x[2 * block:] = 3              # block 2: all false
    out = sg.zeros(9, np.int32)
    k((3,), (block,), (sg.asarray(x), out))
    want = []
    for b in range(3):
        v = x[b * block:(b + 1) * block] > 10
        want += [int(v.sum()), int(v.all()), int(v.any())]
    np.testing.assert_array_equal(out.get(), want)


DEADLOCK_NAMED = r'''
.version 8.0
.target sm_90
.address_size 64
.visible .entry stuck(.param .u64 p)
{
    .reg .b32 %r1;
    mov.u32 %r1, %tid.x;
    bar.sync 1, 128;
    ret;
}
'''


def test_named_barrier_never_reached_raises():
    """bar.sync 1, 128 in a block of 64 threads can never complete: a KernelRuntimeError, not a hang."""
    k = sg.RawModule(ptx=DEADLOCK_NAMED).get_function("stuck")
    with pytest.raises(sg.KernelRuntimeError) as exc:
        k((1,), (64,), (sg.zeros(1, np.int32),))
    msg = str(exc.value)
    assert "stuck" in msg and "warp 0" in msg and "warp 1" in msg and "barrier 1" in msg


def test_divergent_syncthreads_with_spinning_warp_raises():
    """Warp 0 waits at __syncthreads; warp 1 spins on a flag warp 0 would set after the barrier."""
    k = kernel(r'''
    extern "C" __global__ void spin(volatile int* flag, int* out) {
        if (threadIdx.x < 32) {
            __syncthreads();
            flag[0] = 1;
        } else {
            int n = 0;
            while (flag[0] == 0) { ++n; if (n > 2000) break; }
            out[0] = n;
            __syncthreads();       // a different barrier instruction: never matched by warp 0
            __syncthreads();
        }
    }''', "spin")
    flag, out = sg.zeros(1, np.int32), sg.zeros(1, np.int32)
    try:
        k((1,), (64,), (flag, out))
    except sg.KernelRuntimeError as e:  # either outcome is legal; it must terminate
        assert "spin" in str(e)


def test_barrier_counted_with_threads_not_warps():
    """bar.sync 0 (all threads) in a block whose last warp is partial (40 threads) completes."""
    k = kernel(r'''
    extern "C" __global__ void partialwarp(int* out) {
        __shared__ int s[40];
        s[threadIdx.x] = threadIdx.x + 1;
        __syncthreads();
        out[threadIdx.x] = s[39 - threadIdx.x];
    }''', "partialwarp")
    out = sg.zeros(40, np.int32)
    k((1,), (40,), (out,))
    np.testing.assert_array_equal(out.get(), 40 - np.arange(40))
