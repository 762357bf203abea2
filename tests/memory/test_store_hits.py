"""Global stores in L1, against what the H200 measured (benchmarks/microbench/l1_hits/store_hits.cu):
every thread writes its own row of 64 floats, one scalar store per float, so a warp's store touches
32 lines and the next 31 stores of the warp touch the same 32 lines again.

On the H200 (ncu, l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit / _miss):
  one warp per SM:   0 of 16,384 store sectors hit (each store follows the warp's own, same lines)
  2 warps per CTA:   15,808 hit; 4 warps: 15,872 = every store but the first into each line
  one warp, rows A and B in turn: 31,744 of 32,768 = all but the first into each line
  264 one-warp CTAs (two per SM): 521,696 of 540,672 (the rule: 523,776)
"""

import numpy as np
import pytest

import simgpu as sg

SRC = r"""
#define ROW 64
extern "C" __global__ void rowstore(float* out, int alternate)
{
    float* row = out + (size_t)(blockIdx.x * blockDim.x + threadIdx.x) * ROW;
    float* row2 = out + (size_t)(gridDim.x * blockDim.x + blockIdx.x * blockDim.x + threadIdx.x) * ROW;
#pragma unroll
    for (int d = 0; d < ROW; ++d) {
        row[d] = d;
        if (alternate) row2[d] = -d;
    }
}
"""


@pytest.fixture(scope="module")
def rowstore():
    return sg.RawModule(code=SRC).get_function("rowstore")


def store_counts(kernel, grid, block, alternate=0, engine="fast"):
    threads = grid * block
    out = sg.zeros(2 * threads * 64, dtype=np.float32)
    rep = kernel((grid,), (block,), (out, np.int32(alternate)), timing=False, engine=engine)
    m = rep.metrics
    hit = m["l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"]
    miss = m["l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum"]
    assert hit + miss == m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]
    return hit, miss, m


@pytest.mark.parametrize("grid, block, hits", [
    (8, 32, 0),            # H200: 0
    (4, 64, 16384 - 512),  # H200: 15,808 (the two warps sometimes line up)
    (2, 128, 16384 - 512),  # H200: 15,872
])
@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_row_stores_hit_unless_one_warp_stores_back_to_back(rowstore, grid, block, hits, engine):
    hit, miss, m = store_counts(rowstore, grid, block, engine=engine)
    assert (hit, miss) == (hits, 16384 - hits)
    assert m["lts__t_sectors_srcunit_tex_op_write.sum"] == 16384  # every store still reaches L2


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_alternating_rows_hit_though_one_warp_stores_back_to_back(rowstore, engine):
    hit, miss, _ = store_counts(rowstore, 8, 32, alternate=1, engine=engine)
    assert (hit, miss) == (32768 - 1024, 1024)  # H200: 31,744 / 1,024


def test_two_one_warp_ctas_per_sm_take_turns(rowstore):
    hit, miss, _ = store_counts(rowstore, 264, 32)
    assert miss == 264 * 32 * 2  # the first store into each line
    assert abs(hit - 521696) / 521696 < 0.01  # H200
