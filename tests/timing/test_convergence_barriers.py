"""ptxas's convergence barriers (timing/convergence.py convergence_barriers) against ptxas itself:
CUDA C probes compiled by NVRTC to a cubin, one BSSY / BSYNC pair predicted for each BSSY in
nvdisasm's listing (the pairs ptxas puts around its own slow-path calls left out: the timing model
counts those in the op's slots); what the pairs add to a launch's instruction estimate; and the
if-conversion rules (how long a shadow ptxas predicates; a slow-path call keeps its branch)."""

import re

import numpy as np
import pytest

import simgpu as sg
from simgpu.frontend import nvrtc, sass
from simgpu.frontend.sass_listing import convergence_regions, sass_listing, without_subroutines
from simgpu.timing.config import TimingConfig, overridden
from simgpu.timing.convergence import convergence_barriers
from simgpu.timing.isa import build_static, if_convertible_branches, scheduled_blocks

DIV = "float a = x[t + 64]; s = a * a + sqrtf(fabsf(a)) * 3.f; s = s * s + a; s += x[t + 128] * s; s = s / (a + 2.f);"
# name: (body, BSSYs in the SASS of NVRTC 13 + its ptxas for sm_90)
PROBES = {
    "thread_if": (f"if (threadIdx.x < 40) {{ {DIV} }}", 1),
    "uniform_if": (f"if (n > 3) {{ {DIV} }}", 0),
    "thread_return": ("if (t >= n) return; s = x[t];", 0),
    "strided_loop": ("for (int c = threadIdx.x; c < n; c += blockDim.x) s = s * x[c] + 1.f;", 1),
    "strided_loop_sync": ("__shared__ float sm[256]; for (int c = threadIdx.x; c < n; c += blockDim.x) "
                          "sm[c & 255] = x[c]; __syncthreads(); s = sm[t & 255];", 1),
    "strided_to_exit": ("for (int c = threadIdx.x; c < n; c += blockDim.x) y[c] = x[c] * 2.f; return;", 0),
    # a loop on a parameter inside a lane-strided one: uniform among the lanes that run it
    "nested_uniform_in_strided": ("for (int o = threadIdx.x; o < n; o += blockDim.x) { float a = 0.f; "
                                  "for (int k = 0; k < lens[0]; ++k) a += x[o * 64 + k]; y[o] = a; } return;", 0),
    "warp_load_loop": ("int m = lens[t >> 5]; for (int k = 0; k < m; ++k) s = s * x[k * 64 + t] + 1.f;", 2),
    "param_loop": ("for (int k = 0; k < n; ++k) s = s * x[k * 64 + t] + 1.f;", 0),
    # a short if around a sqrtf in a loop ptxas unrolls by 4: not predicated, one pair per copy
    "if_in_loop": ("for (int k = 0; k < n; ++k) { float a = x[k * 64 + t]; if (a > 0.5f) { "
                   "s += sqrtf(a) * x[k * 64 + t + 32]; s *= a; s += x[k * 64 + t + 96] * a; s = s * s; } }", 5),
    "break_loop": ("for (int k = 0; k < n; ++k) { s = s * x[k * 64 + t] + 1.f; if (s > 100.f) break; }", 1),
}
# ptxas predicates a short if / else too; the model if-converts only an if without else
NOT_MODELLED = {
    "if_else": ("if (t & 1) { s = x[t] * x[t + 64] + x[t + 96]; s = s * s + x[t + 128]; s = s * s; } else { "
                "s = x[t + 32] * 3.f + x[t + 160]; s = s * s + x[t + 192]; s = s * s; }", 0),
}


def _source(body: str) -> str:
    return ('extern "C" __global__ void k(const float* x, float* y, const int* lens, int n) '
            '{ int t = blockIdx.x * blockDim.x + threadIdx.x; float s = 0.f; ' + body + " y[t] = s; }")


def _sass_code(src: str):
    """Kernel k's SASS instructions as NVRTC's ptxas makes them, without its slow-path subroutines."""
    cubin = nvrtc.compile_to_cubin(src, arch="sm_90")
    return sass_listing(without_subroutines(sass.run_nvdisasm(cubin, sass.find_nvdisasm(), "-c", "-hex") or ""))["k"]


def _sass_regions(src: str) -> int:
    return convergence_regions(_sass_code(src))


def _predicted(src: str, cfg: TimingConfig | None = None) -> dict[int, int]:
    lk = sg.RawModule(code=src).linked("k")
    cfg = cfg or TimingConfig()
    conv, _ = scheduled_blocks(lk, build_static(lk, cfg), cfg)
    return convergence_barriers(lk, conv)


@pytest.mark.skipif(sass.find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
@pytest.mark.parametrize("name", list(PROBES))
def test_one_pair_per_bssy_of_the_sass(name):
    body, expected = PROBES[name]
    src = _source(body)
    assert _sass_regions(src) == expected  # the probe still says what it was written to say
    slots = _predicted(src)
    assert sum(slots.values()) == 2 * expected
    assert all(n % 2 == 0 for n in slots.values())


@pytest.mark.skipif(sass.find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
@pytest.mark.xfail(strict=True, reason="ptxas predicates a short if / else; the model converts an if alone")
def test_a_short_if_else_is_predicated():
    body, expected = NOT_MODELLED["if_else"]
    src = _source(body)
    assert _sass_regions(src) == expected
    assert sum(_predicted(src).values()) == 2 * expected


def test_the_pair_counts_once_per_warp_at_the_region_entry():
    """A lane-strided loop before a barrier: every warp enters it once, so the estimate grows by
    exactly two instructions a warp and nothing else changes."""
    src = _source(PROBES["strided_loop_sync"][0])
    x = np.arange(4096, dtype=np.float32)
    counts, outs = [], []
    for on in (True, False):
        y = sg.zeros(256, np.float32)
        with overridden(convergence_barrier_slots=on):
            rep = sg.RawModule(code=src).get_function("k")((1,), (256,), (sg.asarray(x), y, sg.zeros(4, np.int32),
                                                                            np.int32(300)))
        counts.append((rep.metrics["smsp__inst_executed.sum"], rep.metrics["simgpu__ptx_inst_executed.sum"]))
        outs.append(y.get())
    assert counts[0][0] - counts[1][0] == 2 * 8
    assert counts[0][1] == counts[1][1]  # the PTX count is the engine's, untouched
    np.testing.assert_array_equal(outs[0], outs[1])


def test_an_exit_only_region_and_a_uniform_branch_get_no_pair():
    assert _predicted(_source(PROBES["thread_return"][0])) == {}
    assert _predicted(_source(PROBES["uniform_if"][0])) == {}
    assert _predicted(_source(PROBES["strided_to_exit"][0])) == {}


def test_a_slow_path_call_is_not_if_converted():
    """`if (a > 0.5f) s = sqrtf(a)`: a shadow of a few PTX instructions, but sqrt.rn.f32 is a
    fast path with a branch to a CALL in the SASS, so the branch stays (and gets its pair)."""
    src = _source("float a = x[t]; if (a > 0.5f) s = sqrtf(a) * 3.f;")
    lk = sg.RawModule(code=src).linked("k")
    guarded = [pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "bra" and ins.guard is not None]
    assert len(guarded) == 1
    assert if_convertible_branches(lk, 8, over_slow_paths=True) == set(guarded)
    assert if_convertible_branches(lk, 8) == set()
    assert _predicted(src) == {guarded[0]: 2}


def _shadow_source(ops: int, loads: int) -> str:
    body = " ".join(f"s = s * x[t + {64 * (i + 1)}] + 1.f;" if i < loads else f"s = s * s + {i}.f;"
                    for i in range(ops))
    return ('extern "C" __global__ void k(const float* x, float* y, int n) { int t = blockIdx.x * blockDim.x '
            f"+ threadIdx.x; float s = x[t]; if (threadIdx.x < 40) {{ {body} }} y[t] = s; }}")


# (ops in the shadow, of which global loads): whether ptxas predicates it (NVRTC 13, sm_90)
SHADOWS = {(8, 0): True, (9, 0): False, (19, 1): True, (20, 1): False, (17, 3): True, (18, 3): False}


@pytest.mark.skipif(sass.find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
@pytest.mark.parametrize("ops,loads", list(SHADOWS))
def test_if_conversion_limits_follow_ptxas(ops, loads):
    """Up to 8 PTX instructions predicated, up to 20 where the shadow loads from global memory."""
    src = _shadow_source(ops, loads)
    code = _sass_code(src)
    predicated = not any(re.search(r"@!?P\d BRA", i.text) for i in code)
    assert predicated == SHADOWS[(ops, loads)]
    lk = sg.RawModule(code=src).linked("k")
    cfg = TimingConfig()
    converted = if_convertible_branches(lk, cfg.if_convert_max_instructions, cfg.if_convert_over_slow_paths,
                                        cfg.if_convert_max_with_load)
    assert bool(converted) == predicated


@pytest.mark.skipif(sass.find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
def test_a_branch_to_the_end_is_a_predicated_exit_not_a_predicated_shadow():
    """`if (x > y && x < n) { two loads, two stores }` (typical10 transpose_inplace_swap): the
    shadow is short enough to predicate, but ptxas exits the lanes instead (`@P0 EXIT`), so a warp
    whose lanes all leave issues none of it."""
    src = ('extern "C" __global__ void k(float* a, int n) { int x = blockIdx.x * blockDim.x + threadIdx.x; '
           "int y = blockIdx.y * blockDim.y + threadIdx.y; if (x > y && x < n) { float u = a[(size_t)y * n + x], "
           "v = a[(size_t)x * n + y]; a[(size_t)y * n + x] = v; a[(size_t)x * n + y] = u; } }")
    code = _sass_code(src)
    assert any(re.match(r"@P\d EXIT", i.text) for i in code)
    assert not any(re.search(r"@!?P\d BRA", i.text) for i in code)
    lk = sg.RawModule(code=src).linked("k")
    cfg = TimingConfig()
    assert any(ins.opcode == "bra" and ins.guard is not None for ins in lk.instructions)
    assert if_convertible_branches(lk, cfg.if_convert_max_instructions, cfg.if_convert_over_slow_paths,
                                   cfg.if_convert_max_with_load) == set()
    assert _predicted(src) == {}
