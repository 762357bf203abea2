"""ptxas's layout of a kernel's loops, read from the SASS in NVRTC's cubin with NVIDIA's nvdisasm.

simgpu executes PTX. One decision of ptxas's that PTX does not show moves kernel time a lot: how
many registers of loaded, not yet used values an unrolled loop issues before its first use. With a
32-register cap ptxas keeps 13 in the calibration gemm_naive and 5 in the same loop with 64-bit
offsets added to its pointers (benchmarks/microbench/naive_latency: the H200 took 20 and 48 us);
the PTX's own register pressure is the same for both. So where the `nvidia-cuda-nvdisasm` wheel
(or an nvdisasm on PATH, or $SIMGPU_NVDISASM) is there, the timing model takes that count from the
SASS (timing/unroll.py, sass_loaded_ahead); without it, config ptxas_loaded_registers.
"""

from __future__ import annotations

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path

from simgpu.frontend.cubin import MachineCode
from simgpu.frontend.nvrtc import cache_dir

_ENV = "SIMGPU_NVDISASM"  # a path to nvdisasm, to override the search


@dataclass(frozen=True)
class SassLoop:
    """An innermost SASS loop with global loads: its LDG count and the registers of loaded values
    it issues before the first instruction that reads one."""

    loads: int
    loaded_ahead: int


def find_nvdisasm() -> str | None:
    """nvdisasm from $SIMGPU_NVDISASM, the nvidia-cuda-nvdisasm wheel, or PATH (None: none)."""
    if os.environ.get(_ENV):
        return os.environ[_ENV] if os.path.exists(os.environ[_ENV]) else None
    for base in sys.path:
        for found in sorted(glob.glob(os.path.join(base, "nvidia", "cu*", "bin", "nvdisasm"))):
            if os.access(found, os.X_OK):
                return found
    return shutil.which("nvdisasm")


def disassemble(cubin: bytes, use_cache: bool = True) -> dict[str, str] | None:
    """kernel name -> its SASS in cuobjdump -sass's form (sass_functions); None without nvdisasm
    or if it fails. nvdisasm takes ~0.8 s a module, so its output is kept on disk beside NVRTC's
    (sass_cache_path), keyed by the cubin and the nvdisasm binary."""
    tool = find_nvdisasm()
    if tool is None:
        return None
    cached = sass_cache_path(cubin, tool) if use_cache else None
    if cached is not None and cached.exists():
        try:
            return nvdisasm_functions(cached.read_text())
        except OSError:
            pass
    text = run_nvdisasm(cubin, tool, "-c")
    if text is None:
        return None
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp_path = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp_path.write_text(text)
            tmp_path.replace(cached)
        except OSError:
            pass  # a read-only cache is not an error; nvdisasm runs again next time
    return nvdisasm_functions(text)


def run_nvdisasm(cubin: bytes, tool: str, *flags: str) -> str | None:
    """nvdisasm's text for `cubin` with `flags`; None if it fails."""
    with tempfile.TemporaryDirectory(prefix="simgpu-sass-") as tmp:
        path = os.path.join(tmp, "module.cubin")
        with open(path, "wb") as f:
            f.write(cubin)
        try:
            out = subprocess.run([tool, *flags, path], capture_output=True, text=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired):
            return None
    return out.stdout if out.returncode == 0 else None


def sass_cache_path(cubin: bytes, tool: str) -> Path:
    """Where nvdisasm's text for `cubin` is kept: the cache root's sass/ (beside NVRTC's ptx/),
    named by a hash of the cubin and of the nvdisasm binary's path, size and time (another
    nvdisasm may print other text)."""
    st = os.stat(tool)
    key = hashlib.sha256(cubin + repr((os.path.realpath(tool), st.st_size, st.st_mtime_ns)).encode())
    return cache_dir().parent / "sass" / f"{key.hexdigest()[:32]}.sass"


def nvdisasm_lines(text: str) -> Iterator[tuple[str, tuple[str, ...], str]]:
    """(kernel, the branch labels just before the line, line) for each line of nvdisasm's text
    inside a `.text.<kernel>` section that is neither its header nor a label."""
    kernel: str | None = None
    labels: list[str] = []
    for line in text.splitlines():
        head = re.match(r"//-+ \.text\.(\S+)\s+-+", line)
        if head:
            kernel, labels = head.group(1), []
            continue
        label = re.match(r"^\s*(\.L_x_\d+):", line)
        if label:
            labels.append(label.group(1))
        elif kernel is not None:
            yield kernel, tuple(labels), line
            if re.match(r"^\s*/\*[0-9a-f]{4,}\*/", line):
                labels = []


def nvdisasm_functions(text: str) -> dict[str, str]:
    """nvdisasm -c output as sass_functions gives cuobjdump's: per `.text.<kernel>` section, its
    `/*addr*/ instruction ;` lines, each branch's label replaced by its target's address."""
    funcs: dict[str, list[tuple[int, str]]] = {}
    labels: dict[str, int] = {}
    for kernel, before, line in nvdisasm_lines(text):
        body = funcs.setdefault(kernel, [])
        ins = re.match(r"^\s*/\*([0-9a-f]{4,})\*/\s+(.*)$", line)
        if ins:
            addr = int(ins.group(1), 16)
            labels.update((name, addr) for name in before)
            body.append((addr, ins.group(2)))

    def resolved(s: str) -> str:
        return re.sub(r"`\((\.L_x_\d+)\)", lambda m: f"0x{labels[m.group(1)]:x}" if m.group(1) in labels
                      else m.group(0), s)

    return {name: "\n".join(f"        /*{addr:04x}*/ {resolved(s)}" for addr, s in body)
            for name, body in funcs.items()}


def sass_functions(text: str) -> dict[str, str]:
    """Each kernel's part of cuobjdump -sass output."""
    return {m.group(1): m.group(2) for m in re.finditer(r"Function : (\S+)\n(.*?)(?=\n\s*Function : |\Z)", text, re.S)}


def sass_loops(body: str) -> list[list[str]]:
    """The innermost loops (a backward branch to an earlier instruction) with a global load, as
    their instructions (predicates stripped), in address order."""
    found = re.findall(r"/\*([0-9a-f]{4,})\*/\s+(.*?);", body)
    at = {int(a, 16): i for i, (a, _) in enumerate(found)}
    ins = [re.sub(r"^@!?U?P\w+\s+", "", x.strip()) for _, x in found]
    loops = []
    for i, s in enumerate(ins):
        m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", s)
        if m and "BRA.DIV" not in s and int(m.group(1), 16) in at and at[int(m.group(1), 16)] <= i:
            loops.append((at[int(m.group(1), 16)], i))
    inner = [(a, b) for a, b in loops if not any(a <= c and d <= b and (c, d) != (a, b) for c, d in loops)]
    return [ins[a:b + 1] for a, b in inner if any(is_register_load(x) for x in ins[a:b + 1])]


def registers(s: str) -> list[int]:
    """The R registers an operand text names, a .64 pair as both."""
    out = []
    for r, wide in re.findall(r"\bR(\d+)(\.64)?", s):
        out += [int(r), int(r) + 1] if wide else [int(r)]
    return out


def is_register_load(instruction: str) -> bool:
    """A global load into registers (LDG), not cp.async's LDGSTS or its LDGDEPBAR."""
    return instruction.startswith("LDG") and not instruction.startswith(("LDGSTS", "LDGDEPBAR"))


def loaded_ahead(body: list[str]) -> int:
    """Registers of loaded values a SASS loop issues before it first uses one (as data or address)."""
    loaded: set[int] = set()
    count = 0
    for x in body:
        op, _, rest = x.partition(" ")
        if is_register_load(op):
            if set(registers(rest.split("[", 1)[1])) & loaded:
                break
            width = 4 if ".128" in op else 2 if ".64" in op else 1
            first = registers(rest.split(",", 1)[0])[0]
            loaded |= set(range(first, first + width))
            count += width
        elif set(registers(rest if op.startswith("ST") else rest.partition(",")[2] or rest)) & loaded:
            break
    return count


def kernel_loops(body: str) -> tuple[SassLoop, ...]:
    """A kernel's innermost loops with global loads, in address order."""
    return tuple(SassLoop(sum(map(is_register_load, loop)), loaded_ahead(loop)) for loop in sass_loops(body))


def with_loops(codes: dict[str, MachineCode], cubin: bytes) -> dict[str, MachineCode]:
    """`codes` (read_cubin's) with each kernel's SASS loops, where nvdisasm can read the cubin."""
    funcs = disassemble(cubin)
    if funcs is None:
        return codes
    return {k: replace(m, loops=kernel_loops(funcs[k])) if k in funcs else m for k, m in codes.items()}
