"""Device-side printf and assert: `call vprintf(fmt, args)` and `call __assertfail(...)` executed
on the host.

NVRTC compiles `printf("x=%d %f\\n", i, v)` to a call of the external function `vprintf` with two
generic pointers: the format string (a module-scope `.global` byte array) and a per-thread buffer
in local memory holding the arguments, each aligned to its own size (char, short and int as 4-byte
ints, float promoted to double, long, long long, double and pointers 8 bytes). CUDA's driver formats
the lines when the host synchronises; simgpu formats them when the warp executes the call, in the
order the engine runs warps (warp by warp, lanes in order), and the launch prints them at its end
(LaunchReport.printf keeps them). vprintf returns the number of arguments it consumed.

A failed device `assert(e)` calls the external `__assertfail(message, file, line, function,
char_size)`; CUDA prints "file:line: function: block [..], thread [..] Assertion `e` failed." and
the launch fails (cudaErrorAssert). simgpu raises KernelRuntimeError with the same facts, for the
first thread (in the order the engine runs them) whose assertion failed.
"""

from __future__ import annotations

import re
import struct

import numpy as np

from simgpu.errors import KernelRuntimeError
from simgpu.exec.memory import CONST_WINDOW, LOCAL_WINDOW, SHARED_WINDOW, WINDOW_SIZE

# %[flags][width][.precision][length]conversion, as C's printf reads it
_SPEC = re.compile(r"%([-+ #0]*)(\*|\d+)?(?:\.(\*|\d*))?(hh|h|ll|l|L|z|j|t)?([diouxXcsfFeEgGaAp%n])")
_SIGNED = "di"
_UNSIGNED = "ouxX"
_FLOAT = "fFeEgGaA"
_MAX_STRING = 1 << 16  # longest %s string read (CUDA's printf buffer is far smaller)


def _int_bits(length: str | None) -> int:
    return 64 if length in ("l", "ll", "z", "j", "t", "L") else 16 if length == "h" else 8 if length == "hh" else 32


def format_printf(fmt: bytes, read_arg, read_string) -> tuple[str, int]:
    """Format one printf call. read_arg(size) -> the next argument's raw bits (aligned to size);
    read_string(addr) -> the NUL-terminated bytes at a generic address. Returns (text, arguments)."""
    text = fmt.split(b"\0", 1)[0].decode("utf-8", errors="replace")
    out: list[str] = []
    pos = 0
    n_args = 0
    for m in _SPEC.finditer(text):
        out.append(text[pos:m.start()])
        pos = m.end()
        flags, width, prec, length, conv = m.groups()
        if conv == "%":
            out.append("%")
            continue
        if width == "*":
            width = str(np.int32(np.uint32(read_arg(4) & 0xFFFFFFFF)))
            n_args += 1
            if width.startswith("-"):
                flags, width = flags + "-", width[1:]
        if prec == "*":
            p = int(np.int32(np.uint32(read_arg(4) & 0xFFFFFFFF)))
            n_args += 1
            prec = str(p) if p >= 0 else None
        spec = "%" + flags + (width or "") + ("." + prec if prec is not None else "")
        n_args += 1
        if conv in _SIGNED or conv in _UNSIGNED or conv == "c":
            bits = _int_bits(length)
            raw = read_arg(8 if bits == 64 else 4) & ((1 << bits) - 1)
            if conv == "c":
                out.append((spec + "c") % chr(raw & 0xFF))
            elif conv in _SIGNED:
                value = raw - (1 << bits) if raw >> (bits - 1) else raw
                out.append((spec + "d") % value)
            else:
                out.append((spec + conv) % raw)
        elif conv in _FLOAT:
            value = struct.unpack("<d", struct.pack("<Q", read_arg(8)))[0]
            if conv in "aA":
                h = value.hex()
                out.append((spec + "s") % (h.upper() if conv == "A" else h))
            else:
                out.append((spec + conv) % value)
        elif conv == "s":
            addr = read_arg(8)
            s = "(null)" if addr == 0 else read_string(addr).decode("utf-8", errors="replace")
            out.append((spec + "s") % s)
        elif conv == "p":
            out.append((spec + "s") % f"0x{read_arg(8):x}")
        else:  # %n writes nothing on the GPU either
            read_arg(8)
    out.append(text[pos:])
    return "".join(out), n_args


def _space_of(addr: int) -> tuple[str, int]:
    for space, base in (("shared", SHARED_WINDOW), ("local", LOCAL_WINDOW), ("const", CONST_WINDOW)):
        if base <= addr < base + WINDOW_SIZE:
            return space, addr - base
    return "global", addr


def _reader(ctx, w: int, lane: int):
    """read(addr, n) -> n bytes at a generic address, as thread (w, lane) sees memory."""
    def read(addr: int, n: int) -> bytes:
        space, off = _space_of(addr)
        if space == "global":
            idx, ok = ctx.heap.locate(np.array([off], np.uint64), 1)
            if not ok[0]:
                raise KernelRuntimeError(f"printf reads an address outside device memory: 0x{addr:x} "
                                         f"({ctx.heap.describe(addr)})")
            i = int(idx[0])
            start = off - ctx.heap.bases[i]
            end = min(start + n, ctx.heap.sizes[i])
            return ctx.heap.buffers[i][start:end].tobytes()
        if space == "local":
            base = (w * 32 + lane) * ctx.local_stride
            return ctx.local[base + off:base + min(off + n, ctx.local_stride)].tobytes()
        if space == "shared":
            base = int(ctx.cta_of_warp[w]) * ctx.smem_stride
            return ctx.smem[base + off:base + min(off + n, ctx.shared_bytes)].tobytes()
        return ctx.const_buf[off:off + n].tobytes()
    return read


class _Arguments:
    """vprintf's argument buffer of one thread, read in order, each argument aligned to its size."""

    def __init__(self, read, addr: int, where) -> None:
        self.read, self.cursor, self.where = read, addr, where  # where(): the thread, for an error

    def next(self, size: int) -> int:
        at = -(-self.cursor // size) * size
        self.cursor = at + size
        raw = self.read(at, size)
        if len(raw) < size:
            raise KernelRuntimeError(f"printf reads past the end of its argument buffer: the format asks "
                                     f"for more arguments than memory holds ({self.where()})")
        return int.from_bytes(raw, "little")

    def string(self, addr: int) -> bytes:
        return self.read(addr, _MAX_STRING).split(b"\0", 1)[0]


def each_thread(ctx, ws, m: np.ndarray):
    """The active threads of a call run on the host, warp by warp and lanes in order: (row of its
    warp in ws, warp, lane, offset of its function parameters in ctx.fparam)."""
    stride = ctx.fparam_stride
    for i, w in enumerate(np.arange(ctx.W)[ws]):
        for lane in np.flatnonzero(m[i]):
            yield i, int(w), int(lane), (int(w) * 32 + int(lane)) * stride


def param_word(ctx, at: int, n: int = 8) -> int:
    """The n-byte little-endian integer at byte `at` of ctx.fparam."""
    return int.from_bytes(ctx.fparam[at:at + n].tobytes(), "little")


def lane_mask(shape, i: int, lane: int) -> np.ndarray:
    """A mask of `shape` with one lane set (for ctx.where naming that thread)."""
    mask = np.zeros(shape, bool)
    mask[i, lane] = True
    return mask


def build_vprintf(fmt_param: int, args_param: int, ret_param: int | None):
    """The exec function of `call (ret), vprintf, (fmt, args)`: offsets of the three .param
    variables in the per-thread function-parameter storage (ret None if the result is dropped)."""
    def exec_vprintf(ctx, ws, m: np.ndarray) -> None:
        sink = getattr(ctx, "printf_sink", None)
        for i, w, lane, base in each_thread(ctx, ws, m):
            fmt_addr = param_word(ctx, base + fmt_param)
            args = _Arguments(_reader(ctx, w, lane), param_word(ctx, base + args_param),
                              lambda i=i, lane=lane: ctx.where(ws, lane_mask(m.shape, i, lane)))
            text, n_args = format_printf(args.string(fmt_addr), args.next, args.string)
            if sink is not None:
                sink.append(text)
            if ret_param is not None:
                ctx.fparam[base + ret_param:base + ret_param + 4] = np.frombuffer(np.int32(n_args).tobytes(), np.uint8)
    return exec_vprintf


def build_assertfail(param_offsets: list[int]):
    """The exec function of `call __assertfail, (message, file, line, function, char_size)`: the
    offsets of its .param variables in the per-thread function-parameter storage."""
    msg_p, file_p, line_p, func_p = param_offsets[:4]

    def exec_assertfail(ctx, ws, m: np.ndarray) -> None:
        for i, w, lane, base in each_thread(ctx, ws, m):
            read = _reader(ctx, w, lane)

            def text(addr: int, read=read) -> str:
                return read(addr, _MAX_STRING).split(b"\0", 1)[0].decode("utf-8", errors="replace")

            raise KernelRuntimeError(
                f"device assert failed: {text(param_word(ctx, base + file_p))}:{param_word(ctx, base + line_p, 4)}: "
                f"{text(param_word(ctx, base + func_p))}: Assertion `{text(param_word(ctx, base + msg_p))}` failed "
                f"({ctx.where(ws, lane_mask(m.shape, i, lane))})")
    return exec_assertfail
