"""A kernel whose L1 hits depend on the walk's order, shared by test_l1_order.py and test_retime.py."""

import numpy as np

import simgpu as sg

CHUNKS = r"""
extern "C" __global__ void chunk_sum(const float* in, float* out) {
    // each thread sums its own 32 floats (one 128-byte line): a warp's load touches 32 lines, one
    // sector each, and the same lane reads the line's sector again in the next 7 loads
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    const float* p = in + (size_t)t * 32;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < 32; ++k) s += p[k];
    out[t] = s;
}
"""
THREADS = 132 * 2048  # one wave of 64 warps an SM


class ChunkSum:
    """chunk_sum over THREADS threads of ones, launched under the config in force at each call."""

    def __init__(self):
        self.kernel = sg.RawModule(code=CHUNKS).get_function("chunk_sum")
        self.x = sg.asarray(np.ones(THREADS * 32, np.float32))

    def __call__(self):
        out = sg.zeros(THREADS, np.float32)
        rep = self.kernel((THREADS // 256,), (256,), (self.x, out))
        assert np.all(out.get() == 32.0)
        return rep


def lru_l1():
    """Launches inside the block use an LRU L1 (config l1_victim_pool = 1, no second chance): the
    walk-order tests are about what LRU keeps in one order or the other; the default draw among the
    11 oldest ways keeps part of an overflowing SM's lines in any order
    (benchmarks/microbench/l1_replacement)."""
    from simgpu.memory.config import overridden

    return overridden(l1_victim_pool=1, l1_second_chance=False)
