"""Calls through a register: function pointers (a table in local memory, a __device__ table filled
by the loader), virtual functions (vtables), pointers to variables in initializers. Lanes of one
warp that reach different functions run one function at a time and meet again after the call, as
on the GPU; both engines give the same results and counters."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

SRC = r'''
__device__ float twice(float x) { return 2 * x; }
__device__ float plus1(float x) { return x + 1; }
__device__ float square(float x) { return x * x; }
__device__ float minus3(float x) { return x - 3; }
__device__ float (*table[2])(float) = {square, minus3};
__device__ int answer = 42;
__device__ int* where_answer[2] = {nullptr, &answer};

extern "C" __global__ void local_table(const int* sel, float* o) {
    float (*fs[4])(float) = {twice, plus1, square, minus3};
    float x = threadIdx.x;
    o[threadIdx.x] = fs[sel[threadIdx.x] & 3](x) + 1000 * (sel[threadIdx.x] & 3);
}
extern "C" __global__ void global_table(const int* sel, float* o) {
    o[threadIdx.x] = table[sel[threadIdx.x] & 1]((float)threadIdx.x) + *where_answer[1];
}

struct Shape { __device__ virtual float area(float x) const = 0; };
struct Square : Shape { __device__ float area(float x) const override { return x * x; } };
struct Double : Shape { __device__ float area(float x) const override { return 2 * x; } };
extern "C" __global__ void virtuals(const int* sel, float* o) {
    Square s; Double d;
    const Shape* p = (sel[threadIdx.x] & 1) ? (const Shape*)&s : (const Shape*)&d;
    o[threadIdx.x] = p->area((float)threadIdx.x);
}
extern "C" __global__ void wild(const unsigned long long* f, float* o) {
    o[threadIdx.x] = ((float (*)(float))f[threadIdx.x])(1.0f);
}
'''
FUNCS = [lambda x: 2 * x, lambda x: x + 1, lambda x: x * x, lambda x: x - 3]


def _run(kernel: str, sel: np.ndarray, engine: str):
    out = sg.zeros(len(sel), np.float32)
    with sg.use_engine(engine):
        rep = sg.RawModule(code=SRC).get_function(kernel)((1,), (len(sel),), (sg.asarray(sel), out))
    return out.get(), rep


@pytest.mark.parametrize("pattern", ["mixed", "per_warp"])
def test_function_pointers_in_a_local_table(pattern):
    n = 64
    sel = (np.arange(n) * 7 % 4 if pattern == "mixed" else np.arange(n) // 32 + 1).astype(np.int32)
    x = np.arange(n, dtype=np.float32)
    want = np.array([FUNCS[s](x[i]) + 1000 * s for i, s in enumerate(sel)], np.float32)
    fast, rep_fast = _run("local_table", sel, "fast")
    ref, rep_ref = _run("local_table", sel, "reference")
    np.testing.assert_array_equal(fast, want)
    np.testing.assert_array_equal(ref, want)
    assert rep_fast.metrics == rep_ref.metrics


def test_divergent_targets_cost_one_pass_each():
    """k functions in one warp take k passes: each extra one issues the call again for the lanes
    still waiting and runs its callee (4 instructions: the same for all four here); per thread the
    work is the same, plus the re-issued calls (24 + 16 + 8 lanes for four functions of 8 lanes)."""
    runs = [_run("local_table", (np.arange(32) % k).astype(np.int32) + (k == 1), "reference")[1].metrics
            for k in (1, 2, 4)]
    warp = [r["simgpu__ptx_inst_executed.sum"] for r in runs]
    thread = [r["smsp__thread_inst_executed.sum"] for r in runs]
    assert warp[1] - warp[0] == 5 and warp[2] - warp[0] == 3 * 5
    assert thread[1] - thread[0] == 16 and thread[2] - thread[0] == 24 + 16 + 8


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_loader_filled_tables_and_virtual_functions(engine):
    sel = (np.arange(64) // 3 % 2).astype(np.int32)
    x = np.arange(64, dtype=np.float32)
    got, _ = _run("global_table", sel, engine)
    np.testing.assert_array_equal(got, np.where(sel == 1, x - 3, x * x) + 42)
    got, _ = _run("virtuals", sel, engine)
    np.testing.assert_array_equal(got, np.where(sel == 1, x * x, 2 * x))


def test_a_call_through_a_wild_pointer_names_the_thread():
    f = np.zeros(32, np.uint64)
    with pytest.raises(sg.KernelRuntimeError, match=r"indirect call to 0x0, which is not the address of a device "
                       r"function.*thread \(0, 0, 0\)"):
        sg.RawModule(code=SRC).get_function("wild")((1,), (32,), (sg.asarray(f), sg.zeros(32, np.float32)),
                                                   timing=False)
