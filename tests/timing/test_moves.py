"""Register copies and immediate moves ptxas issues nothing for are folded (timing/moves.py): they
take no issue slot, a read of a copy waits for its source, and only where the PTX alone shows it is
safe."""

import dataclasses

import numpy as np

import simgpu as sg
from simgpu.timing.config import default_config, overridden
from simgpu.timing.isa import K_FREE, build_static

PTX = r'''
.version 8.0
.target sm_90
.address_size 64

.visible .entry k(.param .u64 p_in, .param .u64 p_out)
{
    .reg .pred %p<2>;
    .reg .b32 %r<12>;
    .reg .f32 %f<8>;
    .reg .b64 %rd<6>;

    ld.param.u64 %rd1, [p_in];
    ld.param.u64 %rd2, [p_out];
    mov.u32 %r1, %tid.x;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd4, %rd1, %rd3;
    ld.global.f32 %f1, [%rd4];
    mov.b32 %r2, %f1;
    mov.u32 %r3, 16;
    mov.u32 %r4, 31;
    mov.u32 %r5, -1;
    shfl.sync.bfly.b32 %r6|%p1, %r2, %r3, %r4, %r5;
    mov.b32 %f2, %r6;
    mov.f32 %f3, %f1;
    add.f32 %f4, %f3, %f2;
    mov.f32 %f5, 0f00000000;
    mov.u32 %r7, 0;
LOOP:
    add.f32 %f5, %f5, %f4;
    add.s32 %r7, %r7, 1;
    setp.lt.u32 %p1, %r7, 4;
    @%p1 bra LOOP;
    mov.u32 %r8, 7;
    add.s64 %rd5, %rd2, %rd3;
    st.global.f32 [%rd5], %f5;
    st.global.u32 [%rd5+4096], %r8;
    ret;
}
'''


def _static(fold: bool):
    lk = sg.RawModule(ptx=PTX).linked("k")
    cfg = dataclasses.replace(default_config(), fold_register_moves=fold)
    return lk, build_static(lk, cfg)


def _pc(lk, text: str) -> int:
    """The pc of the instruction written `text` in PTX (found by its opcode and destination)."""
    op, dst = text.split()[0].split(".")[0], text.split()[1].rstrip(",")
    return next(pc for pc, ins in enumerate(lk.instructions)
                if ins.opcode == op and getattr(ins.operands[0], "name", None) == dst)


def _reg(pc: int, st) -> int:
    """The register index of pc's first destination in the static table."""
    return int(st.dst[pc][0])


def test_copies_and_shuffle_immediates_fold():
    lk, st = _static(True)
    for text in ("mov.b32 %r2, %f1", "mov.u32 %r3, 16", "mov.u32 %r4, 31", "mov.u32 %r5, -1",
                 "mov.b32 %f2, %r6", "mov.f32 %f3, %f1"):
        assert st.kind[_pc(lk, text)] == K_FREE, text
    _, off = _static(False)
    assert off.kind[_pc(lk, "mov.b32 %r2, %f1")] != K_FREE


def test_a_read_of_a_copy_waits_for_the_copys_source():
    lk, st = _static(True)
    load, add = _pc(lk, "ld.global.f32 %f1, [%rd4]"), _pc(lk, "add.f32 %f4, %f3, %f2")
    shfl = next(pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "shfl")
    f1, r6 = _reg(load, st), _reg(shfl, st)
    # the shuffle reads the load's register (through %r2) and no immediate's; the add reads the
    # load's register (through %f3) and the shuffle's (through %f2)
    assert [r for r in st.src[shfl] if r >= 0] == [f1]
    assert sorted(r for r in st.src[add] if r >= 0) == sorted([f1, r6])


def test_what_the_ptx_cannot_prove_keeps_its_slot():
    lk, st = _static(True)
    # the accumulator and the loop counter are written again in the loop; a store's data needs a register
    for text in ("mov.f32 %f5, 0f00000000", "mov.u32 %r7, 0", "mov.u32 %r8, 7"):
        assert st.kind[_pc(lk, text)] != K_FREE, text


def test_folded_moves_issue_no_sass_instruction_and_change_no_result():
    """The estimate of SASS warp instructions drops by the six folded moves, one warp; the output
    is the same (the functional run executes the PTX as it is)."""
    x = np.arange(32, dtype=np.float32)
    counts, outs = [], []
    for fold in (True, False):
        out = sg.zeros(2048, np.float32)
        with overridden(fold_register_moves=fold):
            rep = sg.RawModule(ptx=PTX).get_function("k")((1,), (32,), (sg.asarray(x), out))
        counts.append(rep.metrics["smsp__inst_executed.sum"])
        outs.append(out.get())
    assert counts[1] - counts[0] == 6
    np.testing.assert_array_equal(outs[0], outs[1])
    np.testing.assert_array_equal(outs[0][:32], 4 * (x + x[np.arange(32) ^ 16]))
