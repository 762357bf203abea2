"""exec/alignment.known_alignment: what ptxas can prove about an address register's alignment."""

import pytest

from simgpu.exec.alignment import MAX_BITS, SYMBOL_BITS, known_alignment
from simgpu.frontend.ptx.parser import parse_ptx

HEAD = """
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u32 n)
{
.reg .b32 %r<20>;
.reg .pred %p<4>;
.shared .align 4 .b8 s[4096];
"""


def _bits(body: str) -> dict[str, int]:
    fn = parse_ptx(HEAD + body + "\nret;\n}\n").functions["k"]
    return known_alignment(fn.body, 0, len(fn.body))


@pytest.mark.parametrize("scale, bits", [(4, 2), (8, 3), (64, 4), (1, 0)])
def test_symbol_plus_scaled_thread_index(scale, bits):
    # s + scale * tid: a multiple of scale (at most the symbol's 16 bytes)
    b = _bits(f"""
mov.u32 %r1, %tid.x;
mov.u32 %r2, s;
mul.lo.s32 %r3, %r1, {scale};
add.s32 %r4, %r2, %r3;
""")
    assert b["%r4"] == min(bits, SYMBOL_BITS) and b["%r1"] == 0 and b["%r2"] == SYMBOL_BITS


def test_shift_and_mad():
    b = _bits("""
ld.param.u32 %r1, [n];
shl.b32 %r2, %r1, 6;
mad.lo.s32 %r3, %r1, 32, %r2;
and.b32 %r4, %r1, -16;
mov.u32 %r5, 0;
""")
    assert (b["%r1"], b["%r2"], b["%r3"], b["%r4"], b["%r5"]) == (0, 6, 5, 4, MAX_BITS)


def test_a_loop_carried_register_takes_its_weakest_definition():
    # %r2 starts at s (16 B) and steps by 8 or by 4 each trip
    for step, bits in ((8, 3), (4, 2), (32, 4)):
        b = _bits(f"""
mov.u32 %r2, s;
mov.u32 %r3, 0;
$L_loop:
add.s32 %r2, %r2, {step};
add.s32 %r3, %r3, 1;
setp.lt.s32 %p1, %r3, 10;
@%p1 bra $L_loop;
""")
        assert b["%r2"] == bits
