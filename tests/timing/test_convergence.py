"""Which shfl.sync ptxas guards (timing/convergence.py), against ptxas itself: CUDA C probes
compiled by NVRTC to a cubin, a SHFL guarded where nvdisasm's listing has a BRA.DIV or a
WARPSYNC.ALL; and what the guard does to the replay (loads stay behind a guarded shuffle)."""

import re

import numpy as np
import pytest

import simgpu as sg
from simgpu.frontend import nvrtc, sass
from simgpu.timing.config import TimingConfig
from simgpu.timing.convergence import divergent_pcs, guarded_shuffles
from simgpu.timing.isa import build_static, scheduled_blocks

LOOP = "for (int k = 0; k < {m}; ++k) s += __shfl_down_sync(~0u, x[k * 64 + t], 1);"


def _special(ptx_type: str, name: str) -> str:
    """CUDA C that reads special register %name into r (inline PTX)."""
    ctype, con = ("unsigned long long", "l") if ptx_type == "u64" else ("unsigned", "r")
    return f'{ctype} r; asm volatile("mov.{ptx_type} %0, %%{name};" : "={con}"(r)); '


# name: (body, whether ptxas guards a SHFL of it: NVRTC 13 + its ptxas for sm_90)
PROBES = {
    # uniform trip counts: a parameter, %ntid, loads from a uniform address, an idx shuffle, a ballot
    "param_loop": (LOOP.format(m="n"), False),
    "ntid_loop": (LOOP.format(m="blockDim.x"), False),
    "block_load_loop": ("int m = lens[blockIdx.x]; " + LOOP.format(m="m"), False),
    "first_load_loop": ("int m = lens[0]; " + LOOP.format(m="m"), False),
    "shared_load_loop": ("__shared__ int sm[4]; if (t < 4) sm[t] = lens[t]; __syncthreads(); int m = sm[1]; "
                         + LOOP.format(m="m"), False),
    "broadcast_loop": ("int m = __shfl_sync(~0u, lens[t], 0); " + LOOP.format(m="m"), False),
    "ballot_loop": ("int m = __popc(__ballot_sync(~0u, x[t] > 0.f)); " + LOOP.format(m="m"), False),
    "nested_uniform": ("for (int k = 0; k < n; ++k) for (int j = 0; j < 4; ++j) "
                       "s += __shfl_down_sync(~0u, x[k * 64 + j + t], 1);", False),
    # varying trip counts: a load from a per-warp address, an atomic's result, a thread-strided loop
    "warp_load_loop": ("int m = lens[t >> 5]; " + LOOP.format(m="m"), True),
    "atomic_loop": ("int m = atomicAdd(lens, 1) & 7; " + LOOP.format(m="m"), True),
    "strided_loop": ("for (int c = threadIdx.x; c < n; c += blockDim.x) s += __shfl_down_sync(~0u, x[c], 1);",
                     True),
    "strided_tail_loop": ("for (int c = t; c < n; c += 4096) y[c] = __shfl_down_sync(~0u, x[c], 1); return;", True),
    "break_loop": ("for (int k = 0; k < n; ++k) { s += __shfl_down_sync(~0u, x[k * 64 + t], 1); "
                   "if (s > 100.f) break; }", True),
    # conditionals: uniform ones, varying ones that rejoin in code, and ones whose other side exits
    "block_if": ("if (blockIdx.x == 3) s += __shfl_down_sync(~0u, x[t], 1);", False),
    "uniform_load_if": ("if (lens[blockIdx.x] > 2) s += __shfl_down_sync(~0u, x[t], 1);", False),
    "thread_if": ("if (threadIdx.x < 64) s += __shfl_down_sync(~0u, x[t], 1);", True),
    "warp_index_if": ("if ((threadIdx.x >> 5) == 0) s += __shfl_down_sync(~0u, x[t], 1);", True),
    "if_else_shuffles": ("if (t & 1) s = __shfl_down_sync(~0u, x[t], 1); else s = __shfl_down_sync(~0u, x[t], 2); "
                         "s *= 3.f;", True),
    "thread_return": ("if (t >= n) return; s += __shfl_down_sync(~0u, x[t], 1);", False),
    "block_return": ("if (blockIdx.x >= n) return; s += __shfl_down_sync(~0u, x[t], 1);", False),
    "if_then_return": ("if (threadIdx.x < 64) { y[t] = __shfl_down_sync(~0u, x[t], 1); return; }", False),
    "else_return": ("if (t & 1) { y[t] = 1.f; return; } s = __shfl_down_sync(~0u, x[t], 1);", False),
    "two_returns": ("if (t >= n) return; s = __shfl_down_sync(~0u, x[t], 1); if (t & 1) { y[t] = s; return; } "
                    "s += __shfl_down_sync(~0u, s, 2);", False),
    "loop_return": ("for (int k = 0; k < n; ++k) { s += __shfl_down_sync(~0u, x[k * 64 + t], 1); "
                    "if (s > 100.f) return; }", False),
    # ... unless NVVM merges the early exit's store with the final one: the sides rejoin at that store
    "loop_exit_before": ("for (int k = 0; k < n; ++k) { if (x[k * 64 + t] > 100.f) { y[t] = 1.f; return; } "
                         "s += __shfl_down_sync(~0u, x[k * 64 + t], 1); }", True),
    # varying code that has rejoined before the shuffle
    "rejoined_if": ("if (threadIdx.x & 1) s = x[t]; else s = x[t + 1] * 2.f; s += __shfl_down_sync(~0u, s, 1);",
                    False),
    "rejoined_store": ("if (t & 1) y[t + 1] = 2.f; s = __shfl_down_sync(~0u, x[t], 1);", False),
    "rejoined_loop": ("for (int c = threadIdx.x; c < n; c += blockDim.x) s += x[c]; "
                      "s += __shfl_down_sync(~0u, s, 1);", False),
    "rejoined_in_loop": ("for (int k = 0; k < n; ++k) { if (t & 1) s += x[k]; "
                         "s += __shfl_down_sync(~0u, x[k * 64 + t], 1); }", False),
    "rejoined_barrier": ("if (t < 64) s = x[t]; __syncthreads(); s += __shfl_down_sync(~0u, s, 1);", False),
    "lane0_atomic": ("int c = 0; if ((threadIdx.x & 31) == 0) c = atomicAdd(lens, 1); c = __shfl_sync(~0u, c, 0); "
                     "s = c;", False),
    "worklist": ("while (true) { int c = 0; if ((threadIdx.x & 31) == 0) c = atomicAdd(lens, 1); "
                 "c = __shfl_sync(~0u, c, 0); if (c >= n) break; s += x[c]; }", False),
    # special registers a warp reads as one value: its SM, its warp slot, the clocks (%laneid varies)
    "smid_if": (_special("u32", "smid") + "if (r & 1) s += __shfl_down_sync(~0u, x[t], 1);", False),
    "warpid_if": (_special("u32", "warpid") + "if (r & 1) s += __shfl_down_sync(~0u, x[t], 1);", False),
    "smid_loop": (_special("u32", "smid") + "int m = r & 7; " + LOOP.format(m="m"), False),
    "clock_if": ("if (clock() & 1) s += __shfl_down_sync(~0u, x[t], 1);", False),
    "clock64_loop": ("int m = clock64() & 7; " + LOOP.format(m="m"), False),
    "globaltimer_if": (_special("u64", "globaltimer") + "if (r & 1) s += __shfl_down_sync(~0u, x[t], 1);", False),
    "laneid_if": (_special("u32", "laneid") + "if (r < 16) s += __shfl_down_sync(~0u, x[t], 1);", True),
}


def _source(probes: dict) -> str:
    return "\n".join(
        f'extern "C" __global__ void {name}(const float* x, int* lens, float* y, int n) '
        f"{{ int t = blockIdx.x * blockDim.x + threadIdx.x; float s = 0.f; {body} y[t] = s; }}"
        for name, (body, _) in probes.items())


@pytest.fixture(scope="module")
def module():
    return sg.RawModule(code=_source(PROBES))


def test_the_same_shuffles_as_ptxas_guards(module):
    """For every probe, simgpu guards a shuffle exactly where ptxas's SASS has a BRA.DIV or a
    WARPSYNC.ALL; the expectations above are ptxas's too."""
    listing = sass.disassemble(nvrtc.compile_to_cubin(_source(PROBES), ()))
    if listing is None:
        pytest.skip("nvdisasm is not available")
    ptxas = {name: bool(re.search(r"BRA\.DIV|WARPSYNC\.ALL", listing[name])) for name in PROBES}
    simgpu = {name: bool(guarded_shuffles(module.linked(name))) for name in PROBES}
    assert simgpu == ptxas
    assert ptxas == {name: guarded for name, (_, guarded) in PROBES.items()}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_guards_as_expected(module, name):
    """The same without nvdisasm; each probe's every shuffle is guarded or none is."""
    lk = module.linked(name)
    shuffles = {pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "shfl" and "sync" in ins.mods}
    guarded = guarded_shuffles(lk)
    assert guarded in (set(), shuffles - {pc for pc in shuffles if "idx" in lk.instructions[pc].mods}, shuffles)
    assert bool(guarded) == PROBES[name][1]


def test_entry_code_is_never_divergent(module):
    lk = module.linked("thread_if")
    div = divergent_pcs(lk)
    assert 0 not in div and div  # the branch's then-side only
    assert all(lk.instructions[pc].opcode != "ret" for pc in div)


FILTER = r"""
extern "C" __global__ void uniform_steps(const float* x, const int* lens, float* y, int steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; float s = 0.f;
  for (int k = 0; k < steps; ++k) { float v = x[(size_t)k * n + i]; s += v - __shfl_down_sync(~0u, v, 1); }
  y[i] = s; }
extern "C" __global__ void varying_steps(const float* x, const int* lens, float* y, int steps, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x; float s = 0.f; int m = lens[i >> 5];
  for (int k = 0; k < m; ++k) { float v = x[(size_t)k * n + i]; s += v - __shfl_down_sync(~0u, v, 1); }
  y[i] = s; }
"""


def test_a_guarded_shuffle_keeps_the_loads_behind_it():
    """The same loop, its trip count a parameter or loaded per warp (equal values): unguarded, the
    unrolled body is one scheduling block and its four loads go out together; guarded, each shuffle's
    region is a block of its own and each load waits for the shuffle before it, so the replay takes
    well over twice as long."""
    mod = sg.RawModule(code=FILTER)
    cfg = TimingConfig()
    blocks = {}
    for name in ("uniform_steps", "varying_steps"):
        lk = mod.linked(name)
        _, bl = scheduled_blocks(lk, build_static(lk, cfg), cfg)
        blocks[name] = len(bl)
    assert blocks["varying_steps"] > blocks["uniform_steps"]
    steps, n = 32, 1 << 14
    x = sg.asarray(np.random.default_rng(0).standard_normal(steps * n, dtype=np.float32))
    lens = sg.asarray(np.full(n // 32, steps, np.int32))
    cycles = {}
    for name in ("uniform_steps", "varying_steps"):
        y = sg.zeros(n, np.float32)
        rep = mod.get_function(name)((n // 256,), (256,), (x, lens, y, np.int32(steps), np.int32(n)))
        cycles[name] = rep.timing.cycles
    assert cycles["varying_steps"] > 2.5 * cycles["uniform_steps"], cycles
