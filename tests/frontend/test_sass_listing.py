"""frontend/sass_listing.py and `simgpu sass`: nvdisasm -hex text read into instructions with their
control fields, and, where nvdisasm is installed, the scoreboards as ptxas uses them."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from simgpu.cli import main
from simgpu.frontend.nvrtc import compile_to_cubin
from simgpu.frontend.sass import find_nvdisasm, run_nvdisasm
from simgpu.frontend.sass_listing import format_listing, sass_listing


def _high(stall: int, yld: int, wb: int, rb: int, waits: tuple[int, ...]) -> int:
    mask = sum(1 << b for b in waits)
    return (stall << 41) | (yld << 45) | (wb << 46) | (rb << 49) | (mask << 52) | 0x1E1900


TEXT = f"""\
//--------------------- .text.k          --------------------------
        .section        .text.k,"ax",@progbits
k:
.text.k:
        /*0000*/                   LDG.E R4, desc[UR4][R8.64] ;          /* 0x0000000408047981 */
                                                                         /* 0x{_high(1, 1, 2, 7, ()):016x} */
.L_x_0:
        /*0010*/              @P0 FFMA R2, R4, R4, R2 ;                  /* 0x0000000404027223 */
                                                                         /* 0x{_high(5, 0, 7, 0, (0, 2)):016x} */
"""


def test_listing_reads_addresses_text_labels_and_control_fields():
    (ld, fma), = sass_listing(TEXT).values()
    assert (ld.address, ld.text, ld.labels) == (0, "LDG.E R4, desc[UR4][R8.64]", ())
    assert (ld.stall, ld.yield_bit, ld.write_barrier, ld.read_barrier, ld.waits_on) == (1, True, 2, None, ())
    assert (fma.address, fma.text, fma.labels) == (0x10, "@P0 FFMA R2, R4, R4, R2", (".L_x_0",))
    assert (fma.stall, fma.yield_bit, fma.write_barrier, fma.read_barrier, fma.waits_on) == (5, False, None, 0, (0, 2))
    out = format_listing([ld, fma]).splitlines()
    assert out[2] == ".L_x_0:" and out[3].endswith("SB0 SB2") and "SB2" in out[1]


NAIVE = r"""
extern "C" __global__ void walk(const float* A0, const float* B0, float* C, int N, int K)
{
    const float* A = A0 + (size_t)blockIdx.x * K;
    const float* B = B0 + (size_t)blockIdx.y * K * N;
    int col = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int k = 0; k < K; ++k) acc += A[k] * B[k * N + col];
    C[col] = acc;
}
"""


@pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
def test_every_use_of_a_loaded_register_waits_on_its_load_s_scoreboard():
    """What the decoded fields mean, checked on ptxas's own code: each instruction that reads a
    register an LDG wrote waits on the scoreboard that LDG sets, unless an earlier wait on that
    scoreboard (which waits for every load on it) already covered it."""
    cubin = compile_to_cubin(NAIVE, arch="sm_90")
    (code,) = sass_listing(run_nvdisasm(cubin, find_nvdisasm(), "-c", "-hex")).values()
    loaded: dict[int, int] = {}  # register -> the scoreboard of the load in flight into it
    checked = 0
    for ins in code:
        op, _, rest = re.sub(r"^@!?U?P\w+\s+", "", ins.text).partition(" ")
        dst, _, srcs = (("", "", rest) if op.startswith("ST") else rest.partition(","))
        for r in {int(x) for x in re.findall(r"\bR(\d+)\b", srcs)} & set(loaded):
            assert loaded[r] in ins.waits_on, (hex(ins.address), ins.text, loaded[r])
            checked += 1
        # a wait on a scoreboard waits for every load on it: all of them have landed now
        loaded = {r: b for r, b in loaded.items() if b not in ins.waits_on}
        regs = [int(x) for x in re.findall(r"\bR(\d+)\b", dst)]
        for r in regs:
            loaded.pop(r, None)
        if op.startswith("LDG") and regs:
            assert ins.write_barrier is not None, ins.text
            loaded[regs[0]] = ins.write_barrier
    assert checked >= 16


@pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
def test_sass_command_prints_each_kernel_and_names_an_unknown_one(tmp_path):
    src = tmp_path / "walk.cu"
    src.write_text(NAIVE)
    out = CliRunner().invoke(main, ["sass", str(src)])
    assert out.exit_code == 0, out.output
    assert "== walk:" in out.output and "waits on" in out.output and "innermost loop 0" in out.output
    bad = CliRunner().invoke(main, ["sass", str(src), "--kernel", "nope"])
    assert bad.exit_code != 0 and "no kernel 'nope'" in bad.output and "walk" in bad.output


def _listing(lines: list[str]) -> str:
    """nvdisasm -c -hex text of kernel k from (label or instruction) lines."""
    out = ["//--------------------- .text.k          --------------------------"]
    addr = 0
    for line in lines:
        if line.endswith(":"):
            out.append(line)
            continue
        out.append(f"        /*{addr:04x}*/                   {line} ;          /* 0x0000000000000000 */")
        out.append(" " * 73 + f"/* 0x{_high(0, 0, 7, 7, ()):016x} */")
        addr += 16
    return "\n".join(out)


def test_convergence_regions_leave_out_slow_path_regions_and_subroutines():
    """A BSSY around a user's branch counts; one around only a slow-path CALL does not; the
    appended slow-path subroutine is not part of the kernel."""
    from simgpu.frontend.sass_listing import convergence_regions, without_subroutines

    text = _listing(["BSSY B0, `(.L_x_1)", "@P0 BRA `(.L_x_2)", "BSSY B1, `(.L_x_3)", "MUFU.RSQ R6, R3",
                     "@!P1 BRA `(.L_x_4)", "CALL.REL.NOINC `($__internal_0_$__cuda_sm20_sqrt_rn_f32_slowpath)",
                     ".L_x_4:", ".L_x_3:", "BSYNC B1", ".L_x_2:", ".L_x_1:", "BSYNC B0", "EXIT"])
    text += "\n        .type           $__internal_0_$__cuda_sm20_sqrt_rn_f32_slowpath,@function\n"
    text += _listing(["BSSY B2, `(.L_x_9)", "@P0 BRA `(.L_x_9)", ".L_x_9:", "BSYNC B2", "RET.REL.NODEC R4 `(k)"]
                     ).split("\n", 1)[1]
    assert convergence_regions(sass_listing(text)["k"]) == 2  # the subroutine's region counted too
    assert convergence_regions(sass_listing(without_subroutines(text))["k"]) == 1
