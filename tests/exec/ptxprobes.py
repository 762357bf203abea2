"""Probes of what ptxas does to loads and stores: hand-written PTX put into CUDA C as inline asm,
compiled by NVRTC to a cubin, and its SASS's load and store instructions counted (nvdisasm) beside
the ones simgpu issues for the same PTX (exec/ptxas_memory.py).

`asm_kernels({name: asm})` gives one kernel per entry; inside the asm, %0 = x (in/out, the thread
index), %1 = y (in/out, 0), %2 = w (in/out, 0), %3 = the thread's word of a, %4 = its word of b,
%5 = its shared word, %6 = a 64-bit value, %7 = a 16-bit one, %8 = a float; the kernel stores
x + y + w and a shared word to out afterwards (one STG and one LDS of its own)."""

from __future__ import annotations

import re

from simgpu.exec.program import _defs_uses
from simgpu.exec.ptxas_memory import rewrite_memory_ops
from simgpu.frontend import nvrtc, sass
from simgpu.frontend.ptx.parser import parse_ptx

HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"
_LOAD = re.compile(r"\b(?:LDG|LDS|LD)(?:\.[A-Z0-9_]+)* ")
_STORE = re.compile(r"\b(?:STG|STS|ST)(?:\.[A-Z0-9_]+)* ")


def asm_kernels(probes: dict[str, str]) -> str:
    """CUDA C with one kernel per probe, the probe's PTX as inline asm (module docstring)."""
    out = []
    for name, asm in probes.items():
        out.append(f"""extern "C" __global__ void {name}(unsigned* a, unsigned* b, unsigned* out) {{
  unsigned x = threadIdx.x, y = 0, w = 0;
  __shared__ unsigned sh[64];
  unsigned sa = (unsigned)__cvta_generic_to_shared(sh + (threadIdx.x & 31));
  unsigned long long q = threadIdx.x * 3ull;
  unsigned short h = (unsigned short)(threadIdx.x * 5);
  float f = threadIdx.x * 0.5f;
  asm volatile("{{ {asm} }}" : "+r"(x), "+r"(y), "+r"(w)
      : "l"(a + threadIdx.x), "l"(b + threadIdx.x), "r"(sa), "l"(q), "h"(h), "f"(f) : "memory");
  out[threadIdx.x] = x + y + w + sh[(threadIdx.x + 1) & 63];
}}""")
    return "\n".join(out)


def simgpu_counts(fn) -> tuple[int, int]:
    """(loads, stores) in one PTX function's body as simgpu executes it (exec/ptxas_memory.py, as
    the linker does): loads hoisted into preheaders, reused or forwarded loads as register copies,
    dropped stores as nops."""
    body = rewrite_memory_ops(fn, _defs_uses).body
    return (sum(ins.opcode == "ld" and "param" not in ins.mods for ins in body),
            sum(ins.opcode == "st" for ins in body))


def against_sass(source: str) -> dict[str, tuple[tuple[int, int], tuple[int, int]]] | None:
    """Per kernel of `source`: ((loads, stores) simgpu issues, (loads, stores) in ptxas's SASS);
    None without nvdisasm."""
    listing = sass.disassemble(nvrtc.compile_to_cubin(source, ()))
    if listing is None:
        return None
    module = parse_ptx(nvrtc.compile_to_ptx(source))
    return {name: (simgpu_counts(fn), (len(_LOAD.findall(listing[name])), len(_STORE.findall(listing[name]))))
            for name, fn in module.functions.items()}
