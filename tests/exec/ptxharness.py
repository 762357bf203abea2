"""Run one PTX instruction over arrays of lanes through the whole simulator.

`run_op("add.s32 %d, %a, %b;", [("s32", xs), ("s32", ys)], "s32")` builds a hand-written kernel
(PTX header `.version 8.0 / .target sm_90 / .address_size 64`) that loads a[i], b[i], ... from
global memory, runs the instruction, and stores %d; it returns the stored results as NumPy.
Operands are named %a, %b, %c, %e (inputs) and %d (result); a `pred` input is read as a u32 (non-zero
= true) and a `pred` result is stored as a u32 0/1.
"""

from __future__ import annotations

import numpy as np

import simgpu as sg

HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n"

NP = {"s8": np.int8, "u8": np.uint8, "b8": np.uint8,
      "s16": np.int16, "u16": np.uint16, "b16": np.uint16, "f16": np.uint16, "bf16": np.uint16,
      "s32": np.int32, "u32": np.uint32, "b32": np.uint32, "f32": np.float32,
      "s64": np.int64, "u64": np.uint64, "b64": np.uint64, "f64": np.float64, "pred": np.uint32}

_MEM = {"f16": "b16", "bf16": "b16", "pred": "u32"}
_REG = {"f16": "b16", "bf16": "b16", "s8": "s16", "u8": "u16", "b8": "b16"}
NAMES = ["a", "b", "c", "e"]


def op_ptx(instr: str, in_types: list[str], out_type: str, extra: str = "") -> str:
    n_in = len(in_types)
    params = ", ".join([f".param .u64 p{i}" for i in range(n_in + 1)] + [".param .u32 pn"])
    lines = [HEADER, f".visible .entry op_kernel({params})", "{",
             "  .reg .pred %pg, %pt;", "  .reg .b32 %gi, %nn, %nt, %ci;", "  .reg .b64 %base, %off, %addr;"]
    for name, t in zip(NAMES, in_types):
        if t == "pred":
            lines.append(f"  .reg .pred %{name};  .reg .u32 %{name}_u;")
        else:
            lines.append(f"  .reg .{_REG.get(t, t)} %{name};")
    if out_type == "pred":
        lines.append("  .reg .pred %d;  .reg .u32 %d_u;")
    else:
        lines.append(f"  .reg .{_REG.get(out_type, out_type)} %d;")
    if extra:
        lines.append(extra)
    lines += ["  mov.u32 %gi, %tid.x;", "  mov.u32 %nt, %ntid.x;", "  mov.u32 %ci, %ctaid.x;",
              "  mad.lo.u32 %gi, %ci, %nt, %gi;",
              "  ld.param.u32 %nn, [pn];", "  setp.ge.u32 %pg, %gi, %nn;", "  @%pg bra DONE;"]
    for i, (name, t) in enumerate(zip(NAMES, in_types)):
        mt = _MEM.get(t, t)
        size = np.dtype(NP[t]).itemsize
        lines += [f"  ld.param.u64 %base, [p{i}];", "  cvta.to.global.u64 %base, %base;",
                  f"  mul.wide.u32 %off, %gi, {size};", "  add.s64 %addr, %base, %off;"]
        if t == "pred":
            lines += [f"  ld.global.u32 %{name}_u, [%addr];", f"  setp.ne.u32 %{name}, %{name}_u, 0;"]
        else:
            lines.append(f"  ld.global.{mt} %{name}, [%addr];")
    lines.append("  " + instr)
    size = np.dtype(NP[out_type]).itemsize
    lines += [f"  ld.param.u64 %base, [p{n_in}];", "  cvta.to.global.u64 %base, %base;",
              f"  mul.wide.u32 %off, %gi, {size};", "  add.s64 %addr, %base, %off;"]
    if out_type == "pred":
        lines += ["  selp.u32 %d_u, 1, 0, %d;", "  st.global.u32 [%addr], %d_u;"]
    else:
        lines.append(f"  st.global.{_MEM.get(out_type, out_type)} [%addr], %d;")
    lines += ["DONE:", "  ret;", "}"]
    return "\n".join(lines) + "\n"


_cache: dict[str, object] = {}


def run_op(instr: str, inputs: list[tuple[str, np.ndarray]], out_type: str, extra: str = "") -> np.ndarray:
    """Execute `instr` once per element of the input arrays; return the %d values."""
    in_types = [t for t, _ in inputs]
    src = op_ptx(instr, in_types, out_type, extra)
    k = _cache.get(src)
    if k is None:
        k = sg.RawModule(ptx=src).get_function("op_kernel")
        _cache[src] = k
    arrays = [np.ascontiguousarray(np.asarray(v).astype(NP[t])) for t, v in inputs]
    n = len(arrays[0])
    assert all(len(a) == n for a in arrays)
    out = sg.zeros(n, dtype=NP[out_type])
    block = 64
    k(((n + block - 1) // block,), (block,), tuple(sg.asarray(a) for a in arrays) + (out, np.int32(n)))
    return out.get()


# ---------------------------------------------------------------------------- value helpers
INT_BITS = {"s16": 16, "u16": 16, "s32": 32, "u32": 32, "s64": 64, "u64": 64}


def wrap(v: int, t: str) -> int:
    """Python int -> the value of PTX integer type t (two's complement wrap)."""
    bits = INT_BITS[t]
    v &= (1 << bits) - 1
    if t.startswith("s") and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def edge_values(t: str) -> list[int]:
    bits = INT_BITS[t]
    if t.startswith("s"):
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1
        return [lo, lo + 1, -2, -1, 0, 1, 2, 3, 7, hi - 1, hi, -12345, 12345, 1 << (bits // 2), -(1 << (bits // 2))]
    hi = (1 << bits) - 1
    return [0, 1, 2, 3, 7, hi, hi - 1, 1 << (bits - 1), (1 << (bits - 1)) - 1, 12345, 1 << (bits // 2),
            (1 << (bits // 2)) - 1]


def int_pairs(t: str, n_random: int = 96, seed: int = 0) -> tuple[list[int], list[int]]:
    """All pairs of edge values plus random pairs (Python ints)."""
    ev = edge_values(t)
    xs = [x for x in ev for _ in ev]
    ys = [y for _ in ev for y in ev]
    rng = np.random.default_rng(seed)
    bits = INT_BITS[t]
    for _ in range(n_random):
        x = int(rng.integers(0, 1 << 62)) << 2 | int(rng.integers(0, 4))
        y = int(rng.integers(0, 1 << 62)) << 2 | int(rng.integers(0, 4))
        sh = int(rng.integers(0, bits))
        xs.append(wrap(x, t))
        ys.append(wrap(y >> sh, t))
    return xs, ys


def as_np(vals: list[int], t: str) -> np.ndarray:
    return np.array([v & ((1 << INT_BITS[t]) - 1) for v in vals], dtype=np.uint64).astype(
        {16: np.uint16, 32: np.uint32, 64: np.uint64}[INT_BITS[t]]).view(NP[t])
