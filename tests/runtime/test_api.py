"""The CuPy-shaped API: arrays, modules, launches, and the errors a launch must give."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

VECTOR_ADD = r"""
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}
"""


def test_arrays_round_trip_and_alignment():
    host = np.arange(10, dtype=np.float32)
    d = sg.asarray(host)
    assert isinstance(d, sg.DeviceArray)
    assert d.shape == (10,) and d.dtype == np.float32 and d.nbytes == 40
    assert np.array_equal(d.get(), host)
    assert np.array_equal(sg.asnumpy(d), host)
    e = sg.zeros((3, 4), dtype=np.int32)
    assert e.get().shape == (3, 4) and not e.get().any()
    assert d.data.ptr % 256 == 0 and e.data.ptr % 256 == 0  # cudaMalloc alignment
    assert np.array_equal(sg.zeros_like(d).get(), np.zeros(10, np.float32))
    assert sg.empty_like(e).shape == (3, 4)
    with pytest.raises(TypeError):
        np.asarray(d)  # implicit host conversion is refused, as in CuPy


def test_vector_add_and_report():
    n = 1000  # not a multiple of the block
    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    k = sg.RawModule(code=VECTOR_ADD).get_function("vector_add")
    c = sg.zeros(n, dtype=np.float32)
    report = k(((n + 255) // 256,), (256,), (sg.asarray(a), sg.asarray(b), c, np.int32(n)))
    assert np.array_equal(c.get(), a + b)
    assert isinstance(report, sg.LaunchReport)
    m = report.metrics
    # 1000 threads: 32 warps (the last CTA has 232 threads: warps 7 has 8 live lanes)
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 2 * 32
    assert m["smsp__sass_inst_executed_op_global_st.sum"] == 32
    assert "vector_add" in str(report) and "smsp__inst_executed.sum" in str(report)
    assert "<table>" in report._repr_html_()


def test_instruction_counts_sass_estimate_and_ptx():
    """smsp__inst_executed.sum is ncu's SASS count, the timing replay's estimate (its
    sm__inst_executed.sum); the PTX count the engine executed is simgpu__ptx_inst_executed.sum (22
    PTX instructions a warp here, 32 warps), what warp_instructions and SIMT efficiency use. Without
    the timing model there is no estimate: smsp__inst_executed.sum is the PTX count."""
    k = sg.RawModule(code=VECTOR_ADD).get_function("vector_add")
    n = 1024
    reports = {}
    for timing in (True, False):
        c = sg.zeros(n, dtype=np.float32)
        reports[timing] = k((n // 256,), (256,), (sg.ones(n), sg.ones(n), c, np.int32(n)), timing=timing)
    timed, untimed = reports[True].metrics, reports[False].metrics
    assert timed["simgpu__ptx_inst_executed.sum"] == untimed["simgpu__ptx_inst_executed.sum"] == 22 * 32
    assert timed["smsp__inst_executed.sum"] == timed["sm__inst_executed.sum"]
    # ptxas folds the 32-bit parameter, the cvta's and the address adds into operands
    assert timed["smsp__inst_executed.sum"] < timed["simgpu__ptx_inst_executed.sum"]
    assert untimed["smsp__inst_executed.sum"] == 22 * 32 and "sm__inst_executed.sum" not in untimed
    assert reports[True].warp_instructions == reports[False].warp_instructions == 22 * 32
    assert reports[True].simt_efficiency == reports[False].simt_efficiency == 1.0
    assert "SASS, estimated" in str(reports[True]) and "simgpu__ptx_inst_executed.sum" in str(reports[True])
    assert "SASS estimate needs timing" in str(reports[False])
    assert "simgpu__ptx_inst_executed.sum" not in str(reports[False])


def test_rawkernel_constructor_and_ptx_input():
    k = sg.RawKernel(VECTOR_ADD, "vector_add")
    ptx = k.module.ptx
    k2 = sg.RawModule(ptx=ptx).get_function("vector_add")
    n = 64
    c = sg.zeros(n, dtype=np.float32)
    k2((1,), (64,), (sg.ones(n), sg.ones(n), c, np.int32(n)))
    assert np.all(c.get() == 2)


def test_transpose_example_from_the_issue():
    src = r"""
    #define TILE 32
    extern "C" __global__ void transpose_padded(const float* in, float* out, int n) {
        __shared__ float tile[TILE][TILE + 1];
        int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += 8) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * n + x];
        __syncthreads();
        x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
        for (int j = 0; j < TILE; j += 8) out[(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
    }"""
    n = 128
    k = sg.RawModule(code=src).get_function("transpose_padded")
    a = sg.asarray(np.random.default_rng(1).random(n * n).astype(np.float32))
    b = sg.zeros(n * n, dtype=np.float32)
    report = k((n // 32, n // 32), (32, 8), (a, b, np.int32(n)))
    assert np.array_equal(b.get().reshape(n, n), a.get().reshape(n, n).T)
    # padding: every shared access is conflict-free
    assert report.metrics["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 0


def test_use_gpu_selects_the_preset():
    k = sg.RawModule(code=VECTOR_ADD).get_function("vector_add")
    c = sg.zeros(32, dtype=np.float32)
    with sg.use_gpu("teaching"):
        r = k((1,), (32,), (sg.ones(32), sg.ones(32), c, np.int32(32)))
    assert "teaching" in r.gpu
    with pytest.raises(ValueError, match="unknown GPU preset"):
        sg.use_gpu("no-such-gpu").__enter__()


@pytest.mark.parametrize("args, match", [
    ((1, 2, 3), "takes 4 argument"),
    ((np.ones(4, np.float32), None, None, np.int32(4)), "NumPy array"),
    (("A", "B", "C", 4.0), "Python float"),
    (("A", "B", "C", np.float32(4)), "integer parameter"),
    (("A", "B", "C", np.int64(4)), "int64"),
])
def test_bad_arguments_are_named(args, match):
    k = sg.RawModule(code=VECTOR_ADD).get_function("vector_add")
    devs = {"A": sg.zeros(4), "B": sg.zeros(4), "C": sg.zeros(4)}
    real = tuple(devs.get(a, a) if isinstance(a, str) else a for a in args)
    with pytest.raises(sg.LaunchError, match=match):
        k((1,), (4,), real)


def test_launch_limits():
    k = sg.RawModule(code=VECTOR_ADD).get_function("vector_add")
    args = (sg.zeros(4), sg.zeros(4), sg.zeros(4), np.int32(4))
    with pytest.raises(sg.LaunchError, match="1024"):
        k((1,), (2048,), args)
    with pytest.raises(sg.LaunchError, match="dimension"):
        k((1,), (0,), args)
    with pytest.raises(sg.LaunchError, match="grid dimension y"):
        k((1, 70000), (32,), args)
    with pytest.raises(sg.LaunchError, match="opt-in"):
        k((1,), (32,), args, shared_mem=64 * 1024)
    k.max_dynamic_shared_size_bytes = 100 * 1024
    k((1,), (32,), args, shared_mem=64 * 1024)  # allowed after opting in


def test_compile_error_carries_the_log():
    with pytest.raises(sg.CompileError) as info:
        sg.RawModule(code='extern "C" __global__ void k(float* x) { x[0] = undefined_name; }')
    assert "undefined_name" in info.value.log and "kernel.cu(1)" in info.value.log


def test_unknown_kernel_lists_the_names():
    mod = sg.RawModule(code=VECTOR_ADD)
    with pytest.raises(sg.LaunchError, match="vector_add"):
        mod.get_function("vector_sub")


def test_mangled_names_resolve():
    mod = sg.RawModule(code="__global__ void scale(float* x, float s) { x[threadIdx.x] *= s; }")
    k = mod.get_function("scale")
    x = sg.ones(32)
    k((1,), (32,), (x, np.float32(3)))
    assert np.all(x.get() == 3)


def test_out_of_bounds_access_names_block_and_thread():
    src = 'extern "C" __global__ void oob(float* x) { x[threadIdx.x + blockIdx.x * 1000] = 1.0f; }'
    k = sg.RawModule(code=src).get_function("oob")
    x = sg.zeros(64)
    with pytest.raises(sg.KernelRuntimeError) as info:
        k((2,), (32,), (x,))
    msg = str(info.value)
    assert "out-of-bounds" in msg and "block (1, 0, 0)" in msg and "thread (0, 0, 0)" in msg and "oob" in msg


def test_deterministic_outputs_and_counters():
    src = r"""
    extern "C" __global__ void hist(const int* v, int* bins, int n) {
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
            atomicAdd(&bins[v[i] % 16], 1);
    }"""
    k = sg.RawModule(code=src).get_function("hist")
    v = np.random.default_rng(3).integers(0, 1000, 5000).astype(np.int32)
    runs = []
    for _ in range(2):
        bins = sg.zeros(16, dtype=np.int32)
        r = k((8,), (128,), (sg.asarray(v), bins, np.int32(len(v))))
        runs.append((bins.get(), r.metrics))
    assert np.array_equal(runs[0][0], np.bincount(v % 16, minlength=16))
    assert np.array_equal(runs[0][0], runs[1][0])
    assert runs[0][1] == runs[1][1]


def test_static_shared_memory_over_48k_is_refused():
    src = 'extern "C" __global__ void big(float* x) { __shared__ float s[16384]; s[threadIdx.x] = 1; ' \
          'x[threadIdx.x] = s[threadIdx.x ^ 1]; }'
    k = sg.RawModule(code=src).get_function("big")
    with pytest.raises(sg.LaunchError, match="static __shared__"):
        k((1,), (32,), (sg.zeros(32),))


def test_device_arrays_take_item_assignment_as_cupy():
    a = sg.zeros((4, 3), np.float32)
    a[1] = 5.0
    a[2, 1:] = np.array([7.0, 8.0], np.float32)
    a[3:] = sg.asarray(np.full((1, 3), 2.0, np.float32))
    a[0:1][0, 0] = -1.0  # through a view: the same device memory
    want = np.zeros((4, 3), np.float32)
    want[1], want[2, 1:], want[3], want[0, 0] = 5.0, [7.0, 8.0], 2.0, -1.0
    np.testing.assert_array_equal(a.get(), want)


def test_ndarray_over_a_memptr_as_cupy():
    """cupy.ndarray(shape, dtype, memptr): the idiom for filling a __constant__ array from the host."""
    mod = sg.RawModule(code=r'''
    __constant__ float coef[4];
    extern "C" __global__ void scale(float* y) { y[threadIdx.x] = coef[threadIdx.x % 4] * threadIdx.x; }''')
    sg.ndarray((4,), np.float32, mod.get_global("coef")).set(np.array([1, 2, 3, 4], np.float32))
    y = sg.zeros(8, np.float32)
    mod.get_function("scale")((1,), (8,), (y,))
    np.testing.assert_array_equal(y.get(), np.array([1, 2, 3, 4] * 2, np.float32) * np.arange(8))
    a = sg.asarray(np.arange(6, dtype=np.int32))
    tail = sg.ndarray((2,), np.int32, a.data + 16)  # a view four elements in
    tail[...] = [40, 50]
    np.testing.assert_array_equal(a.get(), [0, 1, 2, 3, 40, 50])
    with pytest.raises(ValueError, match="does not fit"):
        sg.ndarray((3,), np.int32, a.data + 16)
