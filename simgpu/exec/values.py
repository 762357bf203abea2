"""Registers hold raw bits (uint64); these helpers view them as PTX types and back.

Keeping one raw representation means `mov.b32` between an `.f32` and a `.b32` register is a
plain copy, exactly as on the hardware, and the state stays a flat array a numba engine can share.
"""

from __future__ import annotations

import numpy as np

# PTX type -> (numpy dtype used for arithmetic, width in bits)
TYPE_INFO: dict[str, tuple[np.dtype, int]] = {
    "pred": (np.dtype(np.bool_), 1),
    "b8": (np.dtype(np.uint8), 8), "u8": (np.dtype(np.uint8), 8), "s8": (np.dtype(np.int8), 8),
    "b16": (np.dtype(np.uint16), 16), "u16": (np.dtype(np.uint16), 16), "s16": (np.dtype(np.int16), 16),
    "f16": (np.dtype(np.float16), 16), "bf16": (np.dtype(np.float32), 16),
    "b32": (np.dtype(np.uint32), 32), "u32": (np.dtype(np.uint32), 32), "s32": (np.dtype(np.int32), 32),
    "f32": (np.dtype(np.float32), 32), "f16x2": (np.dtype(np.uint32), 32), "bf16x2": (np.dtype(np.uint32), 32),
    "tf32": (np.dtype(np.float32), 32),
    "b64": (np.dtype(np.uint64), 64), "u64": (np.dtype(np.uint64), 64), "s64": (np.dtype(np.int64), 64),
    "f64": (np.dtype(np.float64), 64),
}

_UINT_OF_BITS = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


def type_bits(t: str) -> int:
    return TYPE_INFO[t][1]


def type_bytes(t: str) -> int:
    return max(1, TYPE_INFO[t][1] // 8)


def is_float(t: str) -> bool:
    return t in ("f16", "bf16", "f32", "f64", "tf32")


def is_signed(t: str) -> bool:
    return t.startswith("s")


def bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << np.uint32(16)).view(np.float32)


def f32_to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """Round-to-nearest-even float32 -> bfloat16 bits (NaN stays NaN)."""
    x = np.asarray(x, dtype=np.float32)
    u = x.view(np.uint32).astype(np.uint64)
    rounded = (u + np.uint64(0x7FFF) + ((u >> np.uint64(16)) & np.uint64(1))) >> np.uint64(16)
    nan = np.isnan(x)
    out = rounded.astype(np.uint16)
    if nan.any():
        out = np.where(nan, ((u >> np.uint64(16)) | np.uint64(0x40)).astype(np.uint16), out)
    return out


def from_raw(raw: np.ndarray, t: str) -> np.ndarray:
    """View raw uint64 register bits as PTX type `t` (truncating to the type's width)."""
    if t == "pred":
        return raw != 0
    dt, bits = TYPE_INFO[t]
    if bits == 64:
        return raw if dt == np.uint64 else raw.view(dt)
    u = raw.astype(_UINT_OF_BITS[bits])
    if t == "bf16":
        return bf16_bits_to_f32(u)
    if dt == u.dtype:
        return u
    return u.view(dt)


def to_raw(val: np.ndarray, t: str) -> np.ndarray:
    """Raw uint64 bits of a value of PTX type `t` (zero-extended, as a b32 register holds it)."""
    if t == "pred":
        return np.asarray(val, dtype=np.bool_).astype(np.uint64)
    dt, bits = TYPE_INFO[t]
    if t == "bf16":
        return f32_to_bf16_bits(val).astype(np.uint64)
    v = np.asarray(val)
    if v.dtype != dt:
        v = v.astype(dt)
    if bits == 64:
        return v if dt == np.uint64 else v.view(np.uint64)
    u = v.view(_UINT_OF_BITS[bits]) if v.dtype.itemsize * 8 == bits else v.astype(_UINT_OF_BITS[bits])
    return u.astype(np.uint64)


def imm_value(imm, t: str):
    """A numpy scalar of type `t` for an immediate operand."""
    if t == "pred":
        return np.bool_(bool(imm.value))
    dt, bits = TYPE_INFO[t]
    if imm.is_float and imm.float_bits is not None and is_float(t):
        if imm.float_width == 32:
            v = np.array([imm.float_bits], dtype=np.uint32).view(np.float32)[0]
        else:
            v = np.array([imm.float_bits], dtype=np.uint64).view(np.float64)[0]
        return dt.type(v) if t != "bf16" else np.float32(v)
    if imm.is_float and imm.float_bits is not None:
        # a float literal given to a bit-typed instruction (mov.b32 %r, 0f3F800000): its bits
        return dt.type(imm.float_bits & ((1 << bits) - 1))
    if is_float(t):
        return np.float32(imm.value) if t in ("f32", "bf16", "tf32") else dt.type(imm.value)
    v = int(imm.value) & ((1 << bits) - 1)
    return np.array([v], dtype=_UINT_OF_BITS[bits]).view(dt)[0]
