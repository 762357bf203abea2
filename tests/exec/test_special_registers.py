"""PTX special registers read through inline asm, each against what it means on the H200; the ones
PTX names but simgpu cannot give a meaning to are refused by name."""

from __future__ import annotations

import numpy as np
import pytest

import simgpu as sg

READS = [("%laneid", 32), ("%warpid", 32), ("%nwarpid", 32), ("%smid", 32), ("%nsmid", 32), ("%lanemask_eq", 32),
         ("%lanemask_lt", 32), ("%lanemask_le", 32), ("%lanemask_gt", 32), ("%lanemask_ge", 32),
         ("%dynamic_smem_size", 32), ("%total_smem_size", 32), ("%clock64", 64), ("%clock_hi", 32), ("%clock", 32)]


def _read(i: int, reg: str, bits: int) -> str:
    """Thread t's value of `reg` into o[i * n + t]."""
    c_type, constraint = ("unsigned long long", "l") if bits == 64 else ("unsigned", "r")
    return (f'{{ {c_type} v; asm volatile("mov.u{bits} %0, {reg.replace("%", "%%")};" : "={constraint}"(v)); '
            f"o[{i} * n + t] = v; }}\n")


def _source(regs) -> str:
    body = "".join(_read(i, r, w) for i, (r, w) in enumerate(regs))
    return ('extern "C" __global__ void k(unsigned long long* o) {\n'
            '  __shared__ int pad[100]; extern __shared__ int dyn[];\n'
            '  int t = blockIdx.x * blockDim.x + threadIdx.x, n = gridDim.x * blockDim.x;\n'
            '  ((volatile int*)pad)[threadIdx.x % 100] = ((volatile int*)dyn)[0] = t;\n' + body + "}")


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_special_registers(engine):
    n = 2 * 96
    o = sg.zeros(len(READS) * n, np.uint64)
    with sg.use_engine(engine):
        sg.RawModule(code=_source(READS)).get_function("k")((2,), (96,), (o,), shared_mem=256, timing=False)
    got = dict(zip((r for r, _ in READS), o.get().reshape(len(READS), n)))
    lane = np.tile(np.arange(96) % 32, 2).astype(np.uint64)
    one, full = np.uint64(1), np.uint64(0xFFFFFFFF)
    assert got["%laneid"].tolist() == lane.tolist()
    assert got["%warpid"].tolist() == np.tile(np.arange(96) // 32, 2).tolist()
    assert set(got["%nwarpid"].tolist()) == {64} and set(got["%nsmid"].tolist()) == {132}
    assert (got["%smid"] < 132).all() and len(set(got["%smid"][:96].tolist())) == 1  # a CTA stays on its SM
    assert got["%lanemask_eq"].tolist() == (one << lane).tolist()
    assert got["%lanemask_lt"].tolist() == ((one << lane) - one).tolist()
    assert got["%lanemask_le"].tolist() == ((one << (lane + one)) - one).tolist()
    assert got["%lanemask_gt"].tolist() == (~((one << (lane + one)) - one) & full).tolist()
    assert got["%lanemask_ge"].tolist() == (~((one << lane) - one) & full).tolist()
    assert set(got["%dynamic_smem_size"].tolist()) == {256}
    assert set(got["%total_smem_size"].tolist()) == {400 + 256}  # pad[100], then the dynamic 256 B
    assert (got["%clock64"] > 0).all() and (got["%clock_hi"] == got["%clock64"] >> np.uint64(32)).all()
    assert (got["%clock"] > got["%clock64"] & full).all()  # read later, and still below 2**32


@pytest.mark.parametrize("reg", ["%pm0", "%aggr_smem_size", "%reserved_smem_offset_begin"])
def test_registers_without_a_meaning_here_are_refused_by_name(reg):
    with pytest.raises(sg.KernelRuntimeError, match=f"special register {reg} is not supported"):
        k = sg.RawModule(code=_source([(reg, 32)])).get_function("k")
        k((1,), (32,), (sg.zeros(32, np.uint64),), shared_mem=256, timing=False)
