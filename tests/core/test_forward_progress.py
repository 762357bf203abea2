"""Forward progress: a warp spinning on memory another warp writes must not starve that warp
(core/engine.py: spinning warps sleep, starved warps get a fair turn), on both engines; and
kernels that do not spin keep the lowest-PC-first order (no sleeps, no fair turns)."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg
import simgpu.core.engine as engine_module
from simgpu.core.engine import SPIN_CHECK_WAIT, STARVED_STEPS

ENGINES = ["reference", "fast"]

LOOKBACK = r'''
extern "C" __global__ void scan(const int* x, int* y, volatile int* flags, volatile int* vals, int* ctr) {
  __shared__ int s[128]; __shared__ int bid; __shared__ int prefix;
  if (threadIdx.x == 0) bid = atomicAdd(ctr, 1);
  __syncthreads();
  int b = bid; int i = b * 128 + threadIdx.x;
  s[threadIdx.x] = x[i]; __syncthreads();
  for (int o = 1; o < 128; o <<= 1) {
    int v = threadIdx.x >= o ? s[threadIdx.x - o] : 0; __syncthreads(); s[threadIdx.x] += v; __syncthreads();
  }
  if (threadIdx.x == 0) {
    int p = 0;
    if (b > 0) { while (flags[b - 1] == 0) { __nanosleep(32); } p = vals[b - 1]; }
    vals[b] = p + s[127]; __threadfence(); flags[b] = 1; prefix = p;
  }
  __syncthreads();
  y[i] = s[threadIdx.x] + prefix;
}'''


def _lookback(engine: str, blocks: int = 24):
    n = blocks * 128
    x = np.random.default_rng(7).integers(0, 100, n).astype(np.int32)
    y = sg.zeros(n, np.int32)
    with sg.use_engine(engine):
        rep = sg.RawModule(code=LOOKBACK).get_function("scan")(
            (blocks,), (128,), (sg.asarray(x), y, sg.zeros(blocks, np.int32), sg.zeros(blocks, np.int32),
                                sg.zeros(1, np.int32)))
    return x, y.get(), rep


@pytest.mark.parametrize("engine", ENGINES)
def test_decoupled_lookback_scan_completes_and_is_correct(engine):
    """Each CTA's thread 0 spins on its predecessor's flag at a lower PC than the predecessor's
    publishing store: lowest-PC-first alone never runs that store."""
    x, y, rep = _lookback(engine)
    np.testing.assert_array_equal(y, np.cumsum(x))
    assert rep.metrics["simgpu__scheduler_spin_sleeps"] > 0
    # the spinners poll about once per memory write, not once per step of the others, and no
    # ready warp waits much past the bound (the fair turn)
    assert rep.metrics["simgpu__scheduler_longest_wait_steps"] <= STARVED_STEPS + 1


def test_both_engines_spin_alike():
    *_, ref = _lookback("reference", blocks=12)
    *_, fast = _lookback("fast", blocks=12)
    for key in ("smsp__inst_executed.sum", "simgpu__ptx_inst_executed.sum", "simgpu__scheduler_spin_sleeps",
                "simgpu__scheduler_longest_wait_steps",
                "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "gpu__time_duration.sum"):
        assert ref.metrics[key] == fast.metrics[key], key


@pytest.mark.parametrize("engine", ENGINES)
def test_spin_lock_across_ctas(engine):
    """Every thread takes a global lock with atomicCAS and increments a counter under it."""
    src = r'''
    extern "C" __global__ void k(int* lock, int* count) {
      bool done = false;
      while (!done) {
        if (atomicCAS(lock, 0, 1) == 0) {
          *(volatile int*)count = *(volatile int*)count + 1; __threadfence(); atomicExch(lock, 0); done = true;
        }
      }
    }'''
    count = sg.zeros(1, np.int32)
    with sg.use_engine(engine):
        sg.RawModule(code=src).get_function("k")((6,), (64,), (sg.zeros(1, np.int32), count))
    assert int(count.get()[0]) == 6 * 64


@pytest.mark.parametrize("engine", ENGINES)
def test_flag_in_shared_memory_set_by_a_later_warp(engine):
    """Warp 0 waits for warp 3 (higher PC) to publish a value through shared memory."""
    src = r'''
    extern "C" __global__ void k(const int* x, int* out) {
      __shared__ volatile int flag; __shared__ volatile int value;
      if (threadIdx.x == 0) flag = 0;
      __syncthreads();
      if (threadIdx.x / 32 == 0) {
        if (threadIdx.x == 0) { while (flag == 0) { } out[blockIdx.x] = value; }
      } else if (threadIdx.x == 96) {
        int acc = 0;
        for (int i = 0; i < 64; ++i) acc += x[i] * (i + blockIdx.x);
        value = acc; flag = 1;
      }
    }'''
    x = np.arange(64, dtype=np.int32)
    out = sg.zeros(4, np.int32)
    with sg.use_engine(engine):
        sg.RawModule(code=src).get_function("k")((4,), (128,), (sg.asarray(x), out))
    want = [int((x * (np.arange(64) + b)).sum()) for b in range(4)]
    assert out.get().tolist() == want


@pytest.mark.parametrize("engine", ENGINES)
def test_spin_with_changing_registers_gets_a_fair_turn(engine):
    """A spin that counts its tries never repeats its registers: only the fair turn saves it."""
    src = r'''
    extern "C" __global__ void k(volatile int* flag, int* tries, int* out) {
      if (blockIdx.x == 0 && threadIdx.x == 0) { int t = 0; while (*flag == 0) { ++t; } tries[0] = t; out[0] = 1; }
      if (blockIdx.x == 1 && threadIdx.x == 0) { out[1] = 2; *flag = 1; }  // after the loop in program order
    }'''
    tries, out = sg.zeros(1, np.int32), sg.zeros(2, np.int32)
    with sg.use_engine(engine):
        rep = sg.RawModule(code=src).get_function("k")((2,), (32,), (sg.zeros(1, np.int32), tries, out))
    assert out.get().tolist() == [1, 2]
    assert rep.metrics["simgpu__scheduler_fair_turns"] >= 1
    assert int(tries.get()[0]) > STARVED_STEPS // 8  # it did spin until the turn came


def test_long_uneven_loops_are_not_taken_for_spins(monkeypatch):
    """Warps whose loops run 1 to 3,000 iterations would wait long behind each other (the spin check
    runs) but change their registers every iteration: nobody sleeps; the fair turns keep every
    warp within STARVED_STEPS of the others, and the results and instruction counts are those of
    any order."""
    src = r'''
    extern "C" __global__ void k(const int* trips, float* out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      float a = 0.f;
      for (int t = 0; t < trips[i / 32]; ++t) a = a * 0.5f + 1.f;
      out[i] = a;
    }'''
    trips = np.array([1, 3000, 10, 700, 2, 1500, 40, 5], np.int32)
    out = sg.zeros(256, np.float32)
    rep = sg.RawModule(code=src).get_function("k")((2,), (128,), (sg.asarray(trips), out))
    assert rep.metrics["simgpu__scheduler_longest_wait_steps"] > SPIN_CHECK_WAIT
    assert rep.metrics["simgpu__scheduler_longest_wait_steps"] <= STARVED_STEPS + 8  # a turn per group
    assert rep.metrics["simgpu__scheduler_spin_sleeps"] == 0
    assert rep.metrics["simgpu__scheduler_fair_turns"] >= 1
    a, want = np.float32(0), []
    for t in trips:
        a = np.float32(0)
        for _ in range(int(t)):
            a = np.float32(a * np.float32(0.5) + np.float32(1))
        want.append(a)
    np.testing.assert_array_equal(out.get(), np.repeat(want, 32))
    # lowest-PC-first without the bound (the old 20,000 steps): the same work and the same counters
    monkeypatch.setattr(engine_module, "STARVED_STEPS", 20_000)
    out2 = sg.zeros(256, np.float32)
    rep2 = sg.RawModule(code=src).get_function("k")((2,), (128,), (sg.asarray(trips), out2))
    assert rep2.metrics["simgpu__scheduler_fair_turns"] == 0
    np.testing.assert_array_equal(out2.get(), out.get())
    for key in ("simgpu__ptx_inst_executed.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
                "l1tex__t_sector_hit_rate.pct"):
        assert rep2.metrics[key] == rep.metrics[key], key


@pytest.mark.parametrize("engine", ENGINES)
def test_named_barrier_producer_consumer(engine):
    """Warps 0-3 produce (bar.arrive 1, 256), warps 4-7 consume (bar.sync 1, 256): the arrivals
    count toward the consumers' barrier (it used to be reported as a deadlock)."""
    src = r'''
    extern "C" __global__ void k(const float* x, float* y, int n) {
      __shared__ float buf[2][128];
      int w = threadIdx.x / 128, t = threadIdx.x % 128;
      for (int it = 0; it < n / 128; ++it) {
        int b = it & 1;
        if (w == 0) { buf[b][t] = x[it * 128 + t]; asm volatile("bar.arrive 1, 256;"); }
        else { asm volatile("bar.sync 1, 256;"); y[it * 128 + t] = buf[b][t] * 2.f; }
        __syncthreads();
      }
    }'''
    n = 1024
    x = np.arange(n, dtype=np.float32)
    y = sg.zeros(n, np.float32)
    with sg.use_engine(engine):
        sg.RawModule(code=src).get_function("k")((1,), (256,), (sg.asarray(x), y, np.int32(n)))
    np.testing.assert_array_equal(y.get(), 2 * x)


@pytest.mark.parametrize("engine", ENGINES)
def test_failed_mbarrier_wait_sleeps_until_the_producer_arrives(engine):
    """Warp 0 waits on an mbarrier (try_wait.parity in a loop) at a lower PC than warp 1's arrival:
    its failed waits put it to sleep at once, so no fair turn is needed and it polls a few times."""
    src = r'''
    extern "C" __global__ void k(const int* x, int* out) {
      __shared__ unsigned long long bar; __shared__ int data[32];
      unsigned a = (unsigned)__cvta_generic_to_shared(&bar);
      if (threadIdx.x == 0) asm volatile("mbarrier.init.shared.b64 [%0], 32;" :: "r"(a));
      __syncthreads();
      if (threadIdx.x < 32) {
        asm volatile("{ .reg .pred p; WAIT: mbarrier.try_wait.parity.shared.b64 p, [%0], 0; @!p bra WAIT; }"
                     :: "r"(a) : "memory");
        out[blockIdx.x * 32 + threadIdx.x] = data[threadIdx.x];
      } else {
        int acc = 0;
        for (int i = 0; i < 32; ++i) acc += x[i] * (threadIdx.x - 31);
        data[threadIdx.x - 32] = acc;
        asm volatile("mbarrier.arrive.shared.b64 _, [%0];" :: "r"(a) : "memory");
      }
    }'''
    x = np.arange(32, dtype=np.int32)
    out = sg.zeros(3 * 32, np.int32)
    with sg.use_engine(engine):
        rep = sg.RawModule(code=src).get_function("k")((3,), (64,), (sg.asarray(x), out))
    assert out.get().tolist() == [int(x.sum()) * (t + 1) for t in range(32)] * 3
    assert rep.metrics["simgpu__scheduler_spin_sleeps"] >= 3
    assert rep.metrics["simgpu__scheduler_fair_turns"] == 0
    assert rep.metrics["simgpu__ptx_inst_executed.sum"] < 800  # 336 (PTX); 1,878 when only the loop check catches it
