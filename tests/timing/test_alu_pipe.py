"""The ALU (16 lanes a sub-partition) takes ii_alu cycles a warp instruction: FP32 compares, selects
and min / max and the integer logic, shift, compare and select ops go there (isa._on_alu), FP32
arithmetic stays on the FMA pipe and integer add / sub keep ii_int (ptxas puts them on either).
One warp runs benchmarks/microbench/alu_pipe's kernels: 8 independent chains, 16 ops a loop step,
so the pipe, not the latency, sets the step."""

from pathlib import Path

import numpy as np
import pytest

import simgpu as sg
from simgpu.timing.config import TimingConfig, overridden
from simgpu.timing.isa import P_FP32, P_INT, build_static

SRC = (Path(__file__).resolve().parents[2] / "benchmarks" / "microbench" / "alu_pipe" / "kernels.cu").read_text()
INTS = ("lop3", "shf", "iadd")


def _per_step(kernel: str, **config) -> float:
    """Cycles a loop step of one warp, from its clock64 reads at 10 and 40 steps."""
    mod = sg.RawModule(code=SRC)
    dtype = np.uint32 if kernel in INTS else np.float32

    def cycles(steps: int) -> int:
        out, io = sg.zeros(1, np.int64), sg.asarray(np.arange(1, 33).astype(dtype))
        with overridden(**config):
            rep = mod.get_function(kernel)((1,), (32,), (out, io, np.int32(steps)))
        t0, t1 = rep.timing.clock_reads()[0]
        return t1 - t0

    return (cycles(40) - cycles(10)) / 30


@pytest.mark.parametrize("kernel", ["fmnmx", "fsetp_fsel", "lop3", "shf"])
def test_each_alu_op_holds_the_alu_ii_alu_cycles(kernel):
    """16 ALU ops a step: one more cycle of ii_alu is 16 more cycles a step."""
    assert _per_step(kernel, ii_alu=3) - _per_step(kernel, ii_alu=2) == 16


@pytest.mark.parametrize("kernel", ["ffma", "iadd"])
def test_fma_pipe_ops_and_integer_adds_do_not_use_it(kernel):
    """Only the loop's own compare is an ALU op: ii_alu moves the step by at most that one op."""
    assert 0 <= _per_step(kernel, ii_alu=3) - _per_step(kernel, ii_alu=2) <= 1


def test_the_static_table_puts_them_on_the_alu():
    lk = sg.RawModule(code=SRC).linked("fsetp_fsel")
    cfg = TimingConfig()
    st = build_static(lk, cfg)
    ops = {(ins.opcode, tuple(ins.mods)): (int(st.pipe[pc]), int(st.ii[pc])) for pc, ins in enumerate(lk.instructions)}
    assert ops[("setp", ("gt", "f32"))] == (P_INT, cfg.ii_alu)
    assert ops[("selp", ("f32",))] == (P_INT, cfg.ii_alu)
    assert ops[("add", ("s32",))] == (P_INT, cfg.ii_int)
    lk = sg.RawModule(code=SRC).linked("ffma")
    st = build_static(lk, cfg)
    assert {(int(st.pipe[pc]), int(st.ii[pc])) for pc, ins in enumerate(lk.instructions)
            if ins.opcode == "fma"} == {(P_FP32, cfg.ii_fp32)}
