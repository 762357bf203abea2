"""Atomics on generic addresses (benchmarks/microbench/generic_atomics): ptxas keeps them ATOM.E,
never RED, and each warp request also takes 1 (2 for 64-bit data or CAS) wavefronts of the LSU data
pipe's shared path, as ncu counted on the H200."""

from pathlib import Path

import numpy as np
import pytest

import simgpu as sg
from simgpu.crosscheck import crosscheck

HERE = Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "generic_atomics"

SRC = r'''
extern "C" __global__ void add_unused(unsigned* g, int generic)
{   // the old value is never read: a .global atom becomes a RED, a generic one stays an ATOM
    unsigned* p = g + (blockIdx.x * blockDim.x + threadIdx.x);
    if (generic) asm volatile("{ .reg .u32 t; atom.add.u32 t, [%0], 1; }" :: "l"(p) : "memory");
    else asm volatile("{ .reg .u32 t; atom.global.add.u32 t, [%0], 1; }" :: "l"(p) : "memory");
}
extern "C" __global__ void kinds(unsigned* g, unsigned long long* g64, unsigned* old)
{   // one warp: a generic 32-bit add, a 64-bit add, a CAS, all on one word each
    unsigned a, c; unsigned long long b;
    asm volatile("atom.add.u32 %0, [%1], 1;" : "=r"(a) : "l"(g) : "memory");
    asm volatile("atom.add.u64 %0, [%1], 1;" : "=l"(b) : "l"(g64) : "memory");
    asm volatile("atom.cas.b32 %0, [%1], 0, 7;" : "=r"(c) : "l"(g + 1) : "memory");
    old[threadIdx.x] = a + (unsigned)b + c;
}
'''


@pytest.fixture(scope="module")
def mod():
    return sg.RawModule(code=SRC)


@pytest.mark.parametrize("generic", [0, 1])
def test_an_unused_generic_atomic_stays_an_atom(mod, generic):
    g = sg.zeros(256, np.uint32)
    rep = mod.get_function("add_unused")((2,), (128,), (g, np.int32(generic)))
    assert (g.get() == 1).all()
    m = rep.metrics
    atom, red = (m[f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum"] for op in ("atom", "red"))
    assert (atom, red) == ((8, 0) if generic else (0, 8))
    # the generic ATOM's data-pipe wavefronts, one per warp request; the REDG's none
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] == (8 if generic else 0)
    assert m["sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] == 0


def test_64_bit_and_cas_take_two_wavefronts(mod):
    g, g64, old = sg.zeros(2, np.uint32), sg.zeros(1, np.uint64), sg.zeros(32, np.uint32)
    rep = mod.get_function("kinds")((1,), (32,), (g, g64, old))
    assert g.get()[0] == 32 and g64.get()[0] == 32 and g.get()[1] == 7
    m = rep.metrics
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] == 3
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"] == 1 + 2 + 2
    assert m["smsp__sass_inst_executed_op_shared_atom.sum"] == 0


# random words and one word per warp: the H200's wavefronts follow the rule exactly (one word: +10
# of 8,192); each lane its own word: a few percent more, not modelled (README)
IN_CI = ("gen_u32_rand", "gen_u64_rand", "gen_cas_rand", "gen_f16x2_rand_used", "glob_u32_rand", "gen_u32_one")


def test_generic_atomics_match_the_h200():
    report = crosscheck(suite=HERE / "specs.py", specs=IN_CI, recorded=HERE / "results" / "typical.json",
                        echo=None)
    assert len(report.cases) == len(IN_CI)
    for case in report.cases:
        assert case.real_ran and case.outputs_ok, case.name
        m = {r.metric: r for r in case.launches[0].metrics}
        for k in ("smsp__sass_inst_executed_op_global_atom.sum", "smsp__sass_inst_executed_op_global_red.sum",
                  "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                  "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"):
            assert m[k].simulated == m[k].real, (case.name, k)
        wf = m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"]
        if case.name.endswith("_one"):
            assert abs(wf.simulated - wf.real) <= 16, (case.name, wf.simulated, wf.real)
        else:
            assert wf.simulated == wf.real, (case.name, wf.simulated, wf.real)
        # sectors with repeated words: within 0.3 % (passes per repeated word; README)
        sec = m["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"]
        assert abs(sec.simulated / sec.real - 1) < 0.003, (case.name, sec.simulated, sec.real)
