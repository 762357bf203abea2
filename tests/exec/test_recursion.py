"""Recursive device functions: each activation keeps its own registers, local arrays and
parameters (saved at the call, restored at the return), lanes of a warp recurse to different
depths, and mutual recursion and recursion through a function pointer work; both engines agree."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

SRC = r'''
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int is_odd(int n);
__device__ int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
__device__ int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
// a local array per activation, read after the inner call returns
__device__ int weighted(const int* a, int n) {
    int loc[4];
    for (int i = 0; i < 4; ++i) loc[i] = a[i] * n;
    int inner = n == 0 ? 0 : weighted(a, n - 1);
    return inner + loc[n % 4];
}
__device__ int down(int n);
__device__ int (*volatile step)(int) = down;
__device__ int down(int n) { return n <= 0 ? 0 : 1 + step(n - 2); }
extern "C" __global__ void recurse(const int* a, int* o) {
    int t = threadIdx.x;
    o[4 * t] = fib(t % 13);
    o[4 * t + 1] = is_even(t);
    o[4 * t + 2] = weighted(a, t % 9);
    o[4 * t + 3] = down(t);
}
'''
A = np.array([1, 2, 3, 4], np.int32)


def _fib(n: int) -> int:
    return n if n < 2 else _fib(n - 1) + _fib(n - 2)


def _weighted(n: int) -> int:
    return int(A[n % 4]) * n + (0 if n == 0 else _weighted(n - 1))


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_recursion_at_a_different_depth_in_every_lane(engine):
    out = sg.zeros(64 * 4, np.int32)
    with sg.use_engine(engine):
        rep = sg.RawModule(code=SRC).get_function("recurse")((1,), (64,), (sg.asarray(A), out))
    got = out.get().reshape(64, 4)
    want = [[_fib(t % 13), 1 - t % 2, _weighted(t % 9), (t + 1) // 2] for t in range(64)]
    assert got.tolist() == want
    assert rep.metrics["smsp__inst_executed.sum"] > 0


def test_both_engines_count_the_same():
    def metrics(engine):
        with sg.use_engine(engine):
            return sg.RawModule(code=SRC).get_function("recurse")((1,), (64,), (sg.asarray(A), sg.zeros(256, np.int32))
                                                                  ).metrics
    assert metrics("fast") == metrics("reference")


def test_recursion_warns_that_the_stack_traffic_is_left_out():
    src = SRC.replace("recurse(", "recurse_warned(")
    with pytest.warns(sg.FidelityWarning, match=r"kernel recurse_warned is recursive: .* 720,025 local loads"):
        sg.RawModule(code=src).get_function("recurse_warned")((1,), (32,), (sg.asarray(A), sg.zeros(128, np.int32)),
                                                             timing=False)


def test_a_recursive_function_without_parameters_or_locals():
    """Nothing but registers to keep per activation (no .param bytes at all in the kernel)."""
    src = r'''
    __device__ int depth;
    __device__ void descend() { int d = atomicAdd(&depth, 1); if (d < 5) descend(); atomicAdd(&depth, 100); }
    extern "C" __global__ void go() { if (threadIdx.x == 0) descend(); }'''
    mod = sg.RawModule(code=src)
    with pytest.warns(sg.FidelityWarning):
        mod.get_function("go")((1,), (32,), (), timing=False)
    assert int(mod.get_global("depth").view(np.int32).get()[0]) == 6 + 600
