"""What ptxas made of a kernel: its SASS size and register count, read from NVRTC's cubin.

simgpu executes PTX, but two facts about the machine code matter to what a real GPU shows: the
registers per thread (they set the occupancy) and the code size (a cold launch reads the code from
DRAM: benchmarks/microbench/l1_hits). NVRTC compiles CUDA C for a real architecture (sm_90) into
a cubin, an ELF file; this module reads the two facts from it without a GPU or a disassembler:

* code: the size of the kernel's `.text.<name>` section, plus the sections of functions that are
  not kernels (device functions ptxas did not inline; shared by every kernel of the module);
* registers: the EIATTR_REGCOUNT attribute of the module's `.nv.info` section;
* frame: EIATTR_FRAME_SIZE, the bytes of local memory per thread the SASS uses. 0 means ptxas kept
  every local array of the PTX in registers (no LDL/STL runs: benchmarks/microbench/sass_probes).
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

_SHT_SYMTAB = 2
_STT_FUNC = 2
_EIFMT_NVAL, _EIFMT_BVAL, _EIFMT_HVAL, _EIFMT_SVAL = 1, 2, 3, 4
_EIATTR_FRAME_SIZE = 0x11
_EIATTR_REGCOUNT = 0x2F


@dataclass(frozen=True)
class MachineCode:
    """ptxas's output for one kernel."""

    code_bytes: int  # SASS bytes: the kernel's .text section and those of non-inlined functions
    registers: int  # registers per thread
    frame_bytes: int = 0  # local memory per thread in the SASS (0: PTX local arrays live in registers)
    # the SASS's innermost loops with global loads (frontend/sass.py), None where nvdisasm is missing
    loops: tuple | None = None


def _cstr(data: bytes, offset: int) -> str:
    end = data.index(b"\0", offset)
    return data[offset:end].decode()


def read_cubin(data: bytes) -> dict[str, MachineCode]:
    """kernel name -> MachineCode, for every kernel (a function with a register count) of a cubin.
    ValueError if `data` is not a 64-bit little-endian ELF file with the sections NVRTC writes."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("not a 64-bit little-endian ELF file (cubin)")
    try:
        shoff, = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        secs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
        names = [_cstr(data, secs[shstrndx][4] + s[0]) for s in secs]
        symtab = next(i for i, s in enumerate(secs) if s[1] == _SHT_SYMTAB)
        sym_off, sym_size, strtab = secs[symtab][4], secs[symtab][5], secs[symtab][6]
        symbols = []
        for i in range(sym_size // 24):
            name_off, info = struct.unpack_from("<IB", data, sym_off + i * 24)
            symbols.append((_cstr(data, secs[strtab][4] + name_off), info & 15))
        text = {n[len(".text."):]: s[5] for n, s in zip(names, secs) if n.startswith(".text.")}
        registers: dict[str, int] = {}
        frames: dict[str, int] = {}
        for n, s in zip(names, secs):
            if n != ".nv.info":
                continue
            p, end = s[4], s[4] + s[5]
            while p < end:
                fmt, attr = data[p], data[p + 1]
                if fmt == _EIFMT_SVAL:
                    size, = struct.unpack_from("<H", data, p + 2)
                    if attr in (_EIATTR_REGCOUNT, _EIATTR_FRAME_SIZE) and size >= 8:
                        sym, value = struct.unpack_from("<II", data, p + 4)
                        (registers if attr == _EIATTR_REGCOUNT else frames)[symbols[sym][0]] = value
                    p += 4 + size
                elif fmt in (_EIFMT_HVAL, _EIFMT_BVAL):
                    p += 4
                elif fmt == _EIFMT_NVAL:
                    p += 2
                else:
                    raise ValueError(f"unknown .nv.info entry format {fmt}")
    except (struct.error, IndexError, StopIteration) as exc:
        raise ValueError(f"malformed cubin: {exc}") from exc
    kernels = set(registers)
    shared_code = sum(size for name, size in text.items() if name not in kernels)
    return {k: MachineCode(text.get(k, 0) + shared_code, r, frames.get(k, 0)) for k, r in registers.items()}
