"""frontend/sass.py: nvdisasm's text read as cuobjdump's, the loops found, the loaded values ahead
counted as in the SASS; and, where nvdisasm is installed, ptxas's own choice for two kernels whose
PTX register pressure is the same (benchmarks/microbench/naive_latency)."""

from __future__ import annotations

import pytest

import simgpu as sg
from simgpu.frontend import sass
from simgpu.frontend.nvrtc import compile_to_cubin
from simgpu.frontend.sass import (
    SassLoop,
    disassemble,
    find_nvdisasm,
    kernel_loops,
    loaded_ahead,
    nvdisasm_functions,
    sass_loops,
)

NVDISASM_TEXT = """\
//--------------------- .text.k          --------------------------
        .section        .text.k,"ax",@progbits
k:
.text.k:
        /*0000*/                   MOV R2, RZ ;
.L_x_0:
        /*0010*/                   LDG.E R4, desc[UR4][R8.64] ;
        /*0020*/                   LDG.E.64 R6, desc[UR4][R8.64+0x8] ;
        /*0030*/                   FFMA R2, R4, R4, R2 ;
        /*0040*/              @P0 BRA `(.L_x_0) ;
        /*0050*/                   EXIT ;
.L_x_1:
        /*0060*/                   BRA `(.L_x_1);
"""


def test_nvdisasm_text_reads_as_cuobjdump_with_branch_targets_resolved():
    body = nvdisasm_functions(NVDISASM_TEXT)["k"]
    assert "/*0040*/ @P0 BRA 0x10 ;" in body
    loops = sass_loops(body)
    assert len(loops) == 1 and loops[0][0].startswith("LDG.E R4") and loops[0][-1].startswith("BRA 0x10")
    assert kernel_loops(body) == (SassLoop(loads=2, loaded_ahead=3),)  # a float and a double


@pytest.mark.parametrize("body, ahead", [
    (["LDG.E R4, desc[UR4][R8.64]", "LDG.E R5, desc[UR4][R8.64+0x4]", "FADD R2, R4, R5"], 2),
    # a load whose address is a loaded value ends the count (a gather behind an index load)
    (["LDG.E R4, desc[UR4][R8.64]", "LDG.E R6, desc[UR4][R4.64]", "FADD R2, R6, R2"], 1),
    (["LDG.E.128 R4, desc[UR4][R8.64]", "LDG.E.64 R10, desc[UR4][R12.64]", "FADD R2, R4, R5"], 6),
    # cp.async's copies write shared memory, not registers
    (["LDGSTS.E [R3], desc[UR4][R8.64]", "LDGDEPBAR", "LDG.E R4, desc[UR4][R8.64]", "FADD R2, R4, R2"], 1),
    # a store of a loaded value is a use
    (["LDG.E R4, desc[UR4][R8.64]", "STG.E desc[UR4][R10.64], R4", "LDG.E R5, desc[UR4][R8.64+0x4]"], 1),
])
def test_loaded_ahead_counts_registers_until_the_first_use(body, ahead):
    assert loaded_ahead(body) == ahead


NAIVE = r"""
#define BODY { int row = blockIdx.y * blockDim.y + threadIdx.y; int col = blockIdx.x * blockDim.x + threadIdx.x; \
    if (row < M && col < N) { float acc = 0.0f; \
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col]; C[row * N + col] = acc; } }
extern "C" __global__ void shared_ab(const float* A, const float* B, float* C, int M, int N, int K) BODY
extern "C" __global__ void private_ab(const float* A0, const float* B0, float* C, int M, int N, int K)
{ const float* A = A0 + (size_t)blockIdx.x * M * K; const float* B = B0 + (size_t)blockIdx.y * K * N; BODY }
"""


@pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
def test_ptxas_keeps_fewer_loads_ahead_where_the_pointers_take_64_bit_offsets():
    """The same unrolled loop, 32 loads: ptxas hoists fewer of them when A and B carry a 64-bit
    per-CTA offset (NVRTC 13.5: 13 and 5 registers), at the same 32 registers a thread."""
    mod = sg.RawModule(code=NAIVE)
    shared, private = mod.machine_code("shared_ab"), mod.machine_code("private_ab")
    assert shared.loops and private.loops
    big = [max(m.loops, key=lambda x: x.loads) for m in (shared, private)]
    assert [b.loads for b in big] == [32, 32]  # NVVM's 4 copies, unrolled 4 times again by ptxas
    assert big[0].loaded_ahead > big[1].loaded_ahead + 4


@pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
def test_nvdisasm_output_is_kept_on_disk_and_read_back_without_running_it(tmp_path, monkeypatch):
    """The second disassembly of the same cubin reads the cache (nvdisasm is not run: it would
    fail here) and gives the same functions; use_cache=False writes nothing."""
    monkeypatch.setenv("SIMGPU_CACHE_DIR", str(tmp_path))
    cubin = compile_to_cubin(NAIVE, arch="sm_90")
    first = disassemble(cubin)
    assert first and "shared_ab" in first
    assert len(list((tmp_path / "sass").glob("*.sass"))) == 1

    def no_nvdisasm(*args, **kwargs):
        raise AssertionError("nvdisasm ran although its output was cached")

    monkeypatch.setattr(sass.subprocess, "run", no_nvdisasm)
    assert disassemble(cubin) == first
    with pytest.raises(AssertionError, match="cached"):
        disassemble(cubin, use_cache=False)
    monkeypatch.undo()
    monkeypatch.setenv("SIMGPU_CACHE_DIR", str(tmp_path / "other"))
    assert disassemble(cubin, use_cache=False) == first
    assert not (tmp_path / "other").exists()
