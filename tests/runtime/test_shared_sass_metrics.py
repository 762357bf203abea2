"""ncu's SASS-attributed shared wavefronts (sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*):
by the class of the instruction that made them, and equal to the l1tex__ counts simgpu reports (it
models no bank arbitration with other traffic: benchmarks/microbench/smem_arbitration)."""

from pathlib import Path

import numpy as np

import simgpu as sg

ROOT = Path(__file__).resolve().parents[2]
# the padded 32x32 transpose of block 32x8 (the calibration's transpose_padded, typical9's copy)
TRANSPOSE = (ROOT / "validation" / "typical9" / "kernels.cu").read_text()
SRC = r"""
extern "C" __global__ void column_reads(float* out)
{   // 32-way conflicts: lane i reads word 32 i
    __shared__ float s[32 * 32];
    for (int i = threadIdx.x; i < 32 * 32; i += 32) s[i] = (float)i;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x * 32];
}
"""


def _sass(m: dict, op: str) -> float:
    return m[f"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"]


def test_transpose_loads_and_stores_by_class():
    n = 128
    mod = sg.RawModule(code=TRANSPOSE)
    x = sg.asarray(np.arange(n * n, dtype=np.float32))
    y = sg.zeros(n * n, dtype=np.float32)
    kernel = mod.get_function("transpose_tile32x8")
    m = kernel((n // 32, n // 32), (32, 8), (x, y, np.int32(n), np.int32(n))).metrics
    assert np.array_equal(y.get().reshape(n, n), x.get().reshape(n, n).T)
    warp_accesses = (n // 32) ** 2 * 8 * 4  # CTAs x warps x 4 loads (and 4 stores), one wavefront each
    assert _sass(m, "ld") == _sass(m, "st") == warp_accesses
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == _sass(m, "ld")
    assert _sass(m, "ldsm") == _sass(m, "ldgsts") == _sass(m, "atom") == 0
    assert m["smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == _sass(m, "ld")


def test_conflicts_count_in_the_instruction_class():
    mod = sg.RawModule(code=SRC)
    m = mod.get_function("column_reads")((1,), (32,), (sg.zeros(32, dtype=np.float32),)).metrics
    assert _sass(m, "ld") == 32  # one 32-way conflicted LDS
    assert _sass(m, "st") == 32  # 32 conflict-free STS
