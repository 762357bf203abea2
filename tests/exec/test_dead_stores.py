"""ptxas's store-to-load forwarding (exec/reuse_loads.py) and dead-store elimination
(exec/dead_stores.py): a load of what this thread just stored reads no memory, and a store a later
one overwrites is not issued; both as NVRTC's cubins show, and with the values the GPU computes."""

import numpy as np
import pytest
from ptxprobes import against_sass, asm_kernels

import simgpu as sg

# two stores, or a store and a load, of one address with one instruction between (module docstring
# of tests/exec/ptxprobes.py for the operands): what ptxas drops or forwards, and what it keeps
_PROBES = {
    "dse_plain": "st.global.u32 [%3], %0; add.u32 %2, %2, 1; st.global.u32 [%3], %2;",
    "dse_shfl": "st.global.u32 [%3], %0; shfl.sync.bfly.b32 %2, %0, 1, 31, -1; st.global.u32 [%3], %2;",
    "dse_ld_other": "st.global.u32 [%3], %0; ld.global.u32 %2, [%4]; st.global.u32 [%3], %2;",
    "dse_ld_shared": "st.global.u32 [%3], %0; ld.shared.u32 %2, [%5]; st.global.u32 [%3], %2;",
    "dse_ld_same": "st.global.u32 [%3], %0; ld.global.u32 %2, [%3]; st.global.u32 [%3], %2;",
    "dse_st_other": "st.global.u32 [%3], %0; st.global.u32 [%4], %0; st.global.u32 [%3], %2;",
    "dse_warpsync": "st.global.u32 [%3], %0; bar.warp.sync -1; st.global.u32 [%3], %2;",
    "dse_atom_other": "st.global.u32 [%3], %0; atom.global.add.u32 %2, [%4], 1; st.global.u32 [%3], %2;",
    "dse_red_other": "st.global.u32 [%3], %0; red.global.add.u32 [%4], 1; st.global.u32 [%3], %2;",
    "dse_ldvol_other": "st.global.u32 [%3], %0; ld.volatile.global.u32 %2, [%4]; st.global.u32 [%3], %2;",
    "dse_shared": "st.shared.u32 [%5], %0; add.u32 %2, %2, 1; st.shared.u32 [%5], %2;",
    "dse_shared_ld_global": "st.shared.u32 [%5], %0; ld.global.u32 %2, [%4]; st.shared.u32 [%5], %2;",
    "dse_generic": "st.u32 [%3], %0; add.u32 %2, %2, 1; st.u32 [%3], %2;",
    "dse_wider": "st.global.u32 [%3], %0; st.global.u64 [%3], %6;",
    "dse_narrower": "st.global.u32 [%3], %0; st.global.u16 [%3], %7;",
    "dse_cs": "st.global.cs.u32 [%3], %0; add.u32 %2, %2, 1; st.global.cs.u32 [%3], %2;",
    "dse_mixed_op": "st.global.u32 [%3], %0; add.u32 %2, %2, 1; st.global.cs.u32 [%3], %2;",
    "dse_volatile": "st.volatile.global.u32 [%3], %0; add.u32 %2, %2, 1; st.volatile.global.u32 [%3], %2;",
    "fwd_plain": "st.global.u32 [%3], %0; ld.global.u32 %1, [%3];",
    "fwd_shfl": "st.global.u32 [%3], %0; shfl.sync.bfly.b32 %2, %0, 1, 31, -1; ld.global.u32 %1, [%3];",
    "fwd_st_other": "st.global.u32 [%3], %0; st.global.u32 [%4], %2; ld.global.u32 %1, [%3];",
    "fwd_ld_other": "st.global.u32 [%3], %0; ld.global.u32 %2, [%4]; ld.global.u32 %1, [%3];",
    "fwd_f32_as_u32": "st.global.f32 [%3], %8; ld.global.u32 %1, [%3];",
    "fwd_u8": "st.global.u8 [%3], %7; ld.global.u8 %1, [%3];",
    "fwd_u16": "st.global.u16 [%3], %7; ld.global.u16 %1, [%3];",
    "fwd_wide_narrow": "st.global.u64 [%3], %6; ld.global.u32 %1, [%3];",
    "fwd_cs_ld": "st.global.u32 [%3], %0; ld.global.cs.u32 %1, [%3];",
    "fwd_cg_ld": "st.global.u32 [%3], %0; ld.global.cg.u32 %1, [%3];",
    "fwd_nc_ld": "st.global.u32 [%3], %0; ld.global.nc.u32 %1, [%3];",
    "fwd_st_cs": "st.global.cs.u32 [%3], %0; ld.global.u32 %1, [%3];",
    "fwd_imm": "st.global.u32 [%3], 7; ld.global.u32 %1, [%3];",
    "fwd_generic": "st.u32 [%3], %0; ld.u32 %1, [%3];",
    "fwd_global_generic": "st.global.u32 [%3], %0; ld.u32 %1, [%3];",
    "fwd_shared": "st.shared.u32 [%5], %0; ld.shared.u32 %1, [%5];",
    "fwd_warpsync": "st.global.u32 [%3], %0; bar.warp.sync -1; ld.global.u32 %1, [%3];",
    "fwd_v2": "st.global.v2.u32 [%3], {%0, %2}; ld.global.v2.u32 {%1, %2}, [%3];",
    "fwd_v2_scalar": "st.global.v2.u32 [%3], {%0, %2}; ld.global.u32 %1, [%3];",
    "fwd_ld_volatile": "st.global.u32 [%3], %0; ld.volatile.global.u32 %1, [%3];",
}

# what NVVM leaves for ptxas: a global accumulation across shuffles and ballots (LLVM keeps each
# += as a load and a store around the intrinsic), and the cases where nothing may go
ACCUMULATE = r"""
extern "C" __global__ void acc_shfl(float* c, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  for (int o = 16; o > 0; o >>= 1) c[i] += __shfl_xor_sync(0xffffffffu, v, o);
}
extern "C" __global__ void ballot_acc(unsigned* c, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = a[i];
  c[i] += __ballot_sync(0xffffffffu, v > 0);
  c[i] += __ballot_sync(0xffffffffu, v > 1);
}
extern "C" __global__ void smem_acc(float* out, const float* a) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = a[t];
  for (int o = 16; o > 0; o >>= 1) s[t] += __shfl_xor_sync(0xffffffffu, s[t], o);
  __syncthreads();
  out[t] = s[(t + 1) & 255];
}
extern "C" __global__ void acc_sync(float* c, const float* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  c[i] += a[i];
  __syncwarp();
  c[i] += a[i] * 2.f;
}
extern "C" __global__ void acc_alias(float* c, const float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 4; ++k) c[i] += a[i + k * n];
}
"""


def test_the_same_loads_and_stores_as_ptxas_keeps():
    """Each probe and each accumulation kernel: the loads and stores simgpu issues = the load and
    store instructions of ptxas's SASS."""
    counts = against_sass(asm_kernels(_PROBES) + ACCUMULATE)
    if counts is None:
        pytest.skip("nvdisasm is not available")
    wrong = {name: c for name, c in counts.items() if c[0] != c[1]}
    assert not wrong, wrong
    # the PTX of acc_shfl has 6 loads and 5 stores; ptxas keeps a's and c's load and one store
    assert counts["acc_shfl"][0] == (2, 1) and counts["ballot_acc"][0] == (2, 1)
    assert counts["acc_alias"][0] == (5, 4)  # a may alias c: every load and store stays
    assert counts["dse_plain"][0] == (1, 2) and counts["dse_st_other"][0] == (1, 4)  # (the harness's own: 1, 1)


def test_accumulation_counts_and_values():
    m = sg.RawModule(code=ACCUMULATE)
    rng = np.random.default_rng(3)
    a = rng.standard_normal(256).astype(np.float32)
    c0 = rng.standard_normal(256).astype(np.float32)
    c = sg.asarray(c0)
    report = m.get_function("acc_shfl")((2,), (128,), (c, sg.asarray(a)))
    want = c0.copy()
    lanes = np.arange(256)
    for o in (16, 8, 4, 2, 1):
        want = want + a[lanes ^ o]
    np.testing.assert_allclose(c.get(), want, rtol=1e-6)
    metrics = report.metrics
    assert metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 2 * 8  # a and c, a warp
    assert metrics["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] == 8      # one store a warp
    literal = m.get_function("acc_shfl")((2,), (128,), (sg.asarray(c0), sg.asarray(a)), ptxas_memory=False).metrics
    assert literal["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 6 * 8  # every PTX load and store
    assert literal["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"] == 5 * 8
    s = sg.zeros(256, dtype=np.float32)
    report = m.get_function("smem_acc")((1,), (256,), (s, sg.asarray(a)))
    sums = a.reshape(8, 32).sum(axis=1).repeat(32)
    np.testing.assert_allclose(s.get(), sums[(lanes + 1) & 255], rtol=1e-5)
    assert report.metrics["smsp__sass_inst_executed_op_shared_st.sum"] == 8       # 6 st.shared a warp in the PTX
    assert report.metrics["smsp__sass_inst_executed_op_shared_ld.sum"] == 8


PTX = ".version 8.0\n.target sm_90\n.address_size 64\n" + """
.visible .entry k(.param .u64 p0, .param .u64 p1)
{
  .reg .b16 %h;
  .reg .b32 %t, %x, %y, %z;
  .reg .b64 %a, %o, %off;
  mov.u32 %t, %tid.x;
  mul.wide.u32 %off, %t, 4;
  ld.param.u64 %a, [p0];
  cvta.to.global.u64 %a, %a;
  add.s64 %a, %a, %off;
  ld.param.u64 %o, [p1];
  cvta.to.global.u64 %o, %o;
  mul.wide.u32 %off, %t, 16;
  add.s64 %o, %o, %off;
  cvt.u16.u32 %h, %t;
  add.u16 %h, %h, 0x7f;
  st.global.u8 [%a], %h;
  ld.global.s8 %x, [%a];
  ld.global.u8 %y, [%a];
  st.global.u32 [%a], -2;
  ld.global.s16 %z, [%a];
  st.global.v4.u32 [%o], {%x, %y, %z, %t};
  ret;
}
"""


def test_forwarded_narrow_values_are_extended_as_the_load_would():
    """st.u8 then ld.s8 / ld.u8: the byte's sign or zero extension, not the stored register's
    other bits; an immediate -2 then ld.s16 at the same address: not forwarded (other width), read."""
    k = sg.RawModule(ptx=PTX).get_function("k")
    a = sg.zeros(64, dtype=np.uint32)
    out = sg.zeros(4 * 64, dtype=np.int32)
    report = k((1,), (64,), (a, out))
    got = out.get().reshape(64, 4)
    t = np.arange(64)
    byte = (t + 0x7F) & 0xFF
    np.testing.assert_array_equal(got[:, 0], np.where(byte >= 128, byte - 256, byte))
    np.testing.assert_array_equal(got[:, 1], byte)
    np.testing.assert_array_equal(got[:, 2], -2)
    assert report.metrics["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == 2  # the s16 load only
