"""What empties an SM's L1 (ptxas's CCTL.IVALL after an acquire or an SC / acq_rel fence at GPU or
system scope), and how generic accesses that reach global memory are counted."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

TWICE = r'''
extern "C" __global__ void k(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = x[i];
  FENCE;
  y[i] = a + x[i ^ 1];  // the same lines again: L1 hits unless the fence emptied the L1
}'''


@pytest.mark.parametrize("fence,second_pass_hits", [
    ("", True), ("__threadfence_block()", True), ("__threadfence()", False), ("__threadfence_system()", False),
    ('asm volatile("fence.acq_rel.gpu;")', False), ('asm volatile("fence.acq_rel.cta;")', True),
    ('{ unsigned v; asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "l"(y)); }', False),
])
def test_gpu_scope_fences_and_acquires_empty_the_l1(fence, second_pass_hits):
    n = 32 * 256
    x = np.arange(n, dtype=np.float32)
    y = sg.zeros(n, np.float32)
    rep = sg.RawModule(code=TWICE.replace("FENCE", fence or "(void)0")).get_function("k")((32,), (256,),
                                                                                        (sg.asarray(x), y))
    np.testing.assert_array_equal(y.get()[:8], (x + x[np.arange(n) ^ 1])[:8])
    hits = rep.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]
    first_pass = n * 4 // 32  # sectors of x, each missed once by the first load
    if second_pass_hits:
        assert hits == first_pass
    else:
        assert hits == 0


def test_a_generic_atomic_on_global_memory_counts_as_a_global_atomic():
    src = r'''
    extern "C" __global__ void k(unsigned* g, unsigned* out) {
      __shared__ unsigned s;
      if (threadIdx.x == 0) s = 0;
      __syncthreads();
      unsigned* p = threadIdx.x < 32 ? g : &s;  // generic pointers: warp 0 global, warp 1 shared
      unsigned old;
      asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(old) : "l"(p));
      __syncthreads();
      out[1 + threadIdx.x] = old;  // the result is used: an atom, not a red
      if (threadIdx.x == 0) out[0] = s;
    }'''
    g, out = sg.zeros(1, np.uint32), sg.zeros(65, np.uint32)
    rep = sg.RawModule(code=src).get_function("k")((1,), (64,), (g, out))
    assert int(g.get()[0]) == 32 and int(out.get()[0]) == 32
    assert sorted(out.get()[1:33].tolist()) == list(range(32))
    assert rep.metrics["smsp__sass_inst_executed_op_global_atom.sum"] == 1  # warp 0 only


THRICE = r'''
extern "C" __global__ void k(const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = x[i];
  float b = MIDDLE;
  y[i] = a + b + __ldcs(x + i);  // .cs caches as a plain load: a hit, unless the middle load dropped the line
}'''


@pytest.mark.parametrize("middle,third_hits", [
    ("x[i ^ 1]", True), ("__ldca(x + i)", True), ("__ldcv(x + i)", False), ("__ldcg(x + i)", False),
    ("*(const volatile float*)(x + i)", False),
])
def test_a_bypass_load_drops_the_l1s_copy(middle, third_hits):
    """A load of the bypass class (.cv, .cg, volatile) fetches again from L2 and leaves the L1 without
    the sectors it read, so the next plain load of them misses (validation/typical12 reread_cache_ops:
    plain, .cv, .cs of one word, no L1 hit on the H200). Timing off: each load's count alone."""
    n = 32 * 256
    x = np.arange(n, dtype=np.float32)
    y = sg.zeros(n, np.float32)
    rep = sg.RawModule(code=THRICE.replace("MIDDLE", middle)).get_function("k")((32,), (256,), (sg.asarray(x), y),
                                                                              timing=False)
    np.testing.assert_array_equal(y.get(), x + x[np.arange(n) ^ 1 if middle.startswith("x[") else np.arange(n)] + x)
    hits = rep.metrics["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"]
    sectors = n * 4 // 32  # sectors of x: each load of the whole array asks for them all
    bypass_hits = 0 if middle.startswith(("__ldcv", "__ldcg", "*")) else sectors
    assert hits == bypass_hits + (sectors if third_hits else 0)
