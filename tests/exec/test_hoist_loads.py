"""ptxas's loop-invariant load hoisting (exec/hoist_loads.py): a load NVVM leaves in a loop because
of a shuffle or a ballot is loaded once before the loop, as in the SASS, and only there."""

import numpy as np
import pytest
from ptxprobes import against_sass

import simgpu as sg
from simgpu.exec.program import _defs_uses
from simgpu.exec.ptxas_memory import rewrite_memory_ops
from simgpu.frontend import nvrtc, sass
from simgpu.frontend.ptx.parser import parse_ptx

SRC = r"""
extern "C" __global__ void inv_shfl(float* out, const float* a, const float* scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
  for (int k = 0; k < n; ++k) s += __shfl_xor_sync(0xffffffffu, a[i + k * 32], 1) * scale[0];
  out[i] = s;
}
extern "C" __global__ void inv_ballot(unsigned* out, const float* a, const float* th, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned s = 0;
  for (int k = 0; k < n; ++k) s += __popc(__ballot_sync(0xffffffffu, a[i + 32 * k] > th[0]));
  out[i] = s;
}
// the rest are not unrolled, so their loops can be compared with the SASS's one by one
extern "C" __global__ void inv_fixed(float* out, const float* a, const float* scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < 64; ++k) s += __shfl_xor_sync(0xffffffffu, a[i + k * 32], 1) * scale[0];
  out[i] = s;
}
extern "C" __global__ void inv_store(float* out, const float* a, const float* scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll 1
  for (int k = 0; k < n; ++k) out[i + k * 32] = __shfl_xor_sync(0xffffffffu, a[i + k * 32], 1) * scale[0];
}
extern "C" __global__ void inv_cond(float* out, const float* a, const float* scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    float v = __shfl_xor_sync(0xffffffffu, a[i + k * 32], 1);
    if (v > 0.f) s += v * scale[0];
  }
  out[i] = s;
}
extern "C" __global__ void inv_syncwarp(float* out, const float* a, const float* scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    float v = a[i + k * 32];
    __syncwarp();
    s += v * scale[0];
  }
  out[i] = s;
}
extern "C" __global__ void inv_nested(float* out, const float* a, const float* scale, int n, int m) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
#pragma unroll 1
  for (int r = 0; r < m; ++r)
#pragma unroll 1
    for (int k = 0; k < n; ++k) s += __shfl_xor_sync(0xffffffffu, a[i + (k + r) * 32], 1) * scale[0];
  out[i] = s;
}
extern "C" __global__ void inv_break(float* out, const float* a, const float* scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    float v = __shfl_xor_sync(0xffffffffu, a[i + k * 32], 1);
    if (v > 100.f) break;
    s += v * scale[0];
  }
  out[i] = s;
}
extern "C" __global__ void inv_vec(float* out, const float4* a, const float4* w, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float s = 0.f;
#pragma unroll 1
  for (int k = 0; k < n; ++k) {
    float4 x = a[i + k * 32];
    float4 c = w[0];
    s += __shfl_xor_sync(0xffffffffu, x.x, 1) * c.x + x.y * c.y + x.z * c.z + x.w * c.w;
  }
  out[i] = s;
}
"""
NOT_UNROLLED = ("inv_fixed", "inv_store", "inv_cond", "inv_syncwarp", "inv_nested", "inv_break", "inv_vec")


def _loop_loads(body, labels) -> list[int]:
    """Global loads of each innermost loop (a back branch with none inside it) of a PTX body."""
    back = [(labels[ins.operands[0].name], j) for j, ins in enumerate(body)
            if ins.opcode == "bra" and labels[ins.operands[0].name] <= j]
    inner = [(t, j) for t, j in back if not any(t <= t2 and j2 <= j and (t2, j2) != (t, j) for t2, j2 in back)]
    out = [sum(body[k].opcode == "ld" and ("global" in body[k].mods or not {"shared", "param", "const", "local"}
                                          & set(body[k].mods)) for k in range(t, j + 1)) for t, j in inner]
    return sorted(n for n in out if n)


def test_loads_and_loops_as_ptxas_leaves_them():
    counts = against_sass(SRC)
    listing = sass.disassemble(nvrtc.compile_to_cubin(SRC, ()))
    if counts is None or listing is None:
        pytest.skip("nvdisasm is not available")
    wrong = {name: c for name, c in counts.items() if c[0] != c[1]}
    assert not wrong, wrong
    module = parse_ptx(nvrtc.compile_to_ptx(SRC))
    for name in NOT_UNROLLED:
        rw = rewrite_memory_ops(module.functions[name], _defs_uses)
        ours = _loop_loads(rw.body, rw.function.labels)
        theirs = sorted(loop.loads for loop in sass.kernel_loops(listing[name]))
        assert ours == theirs, (name, ours, theirs)
    # hoisted: one load left in the loop (a's); kept: the store, the condition, __syncwarp and the
    # early exit each keep scale's load in its loop
    assert _loop_loads(*_rw(module, "inv_fixed")) == [1]
    for name in ("inv_store", "inv_cond", "inv_syncwarp", "inv_break"):
        assert _loop_loads(*_rw(module, name)) == [2], name


def _rw(module, name):
    rw = rewrite_memory_ops(module.functions[name], _defs_uses)
    return rw.body, rw.function.labels


def test_hoisted_loads_run_once_a_loop_entry_with_the_same_values():
    m = sg.RawModule(code=SRC)
    rng = np.random.default_rng(1)
    a = rng.standard_normal(32 * 80).astype(np.float32)
    scale = sg.asarray(np.array([1.5], np.float32))
    out = sg.zeros(64, dtype=np.float32)
    lanes = np.arange(64) % 32 + 32 * (np.arange(64) // 32)
    report = m.get_function("inv_fixed")((2,), (32,), (out, sg.asarray(np.tile(a, 2)), scale))
    aa = np.tile(a, 2)
    want = sum(aa[(lanes ^ 1) + 32 * k] * np.float32(1.5) for k in range(64))
    np.testing.assert_allclose(out.get(), want, rtol=1e-5)
    assert report.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 2 * (64 + 1)  # PTX: 2 * 128
    n, reps = 5, 7  # nested: out of the inner loop only, once an outer trip (the SASS's place)
    out = sg.zeros(32, dtype=np.float32)
    report = m.get_function("inv_nested")((1,), (32,), (out, sg.asarray(a), scale, np.int32(n), np.int32(reps)))
    i = np.arange(32)
    want = sum(a[(i ^ 1) + (k + r) * 32] * np.float32(1.5) for r in range(reps) for k in range(n))
    np.testing.assert_allclose(out.get(), want, rtol=1e-5)
    assert report.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == n * reps + reps
    # a loop that never runs loads nothing (the hoisted load sits after the loop's entry test)
    report = m.get_function("inv_nested")((1,), (32,), (out, sg.asarray(a), scale, np.int32(0), np.int32(reps)))
    assert report.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 0
