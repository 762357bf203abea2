"""Device printf (exec/printf.py): the format rules on their own, then whole kernels on both engines."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.exec.printf import format_printf

ENGINES = ("reference", "fast")


def _args(*items: tuple[int, int]):
    """A read_arg over (size, raw bits) items laid out as vprintf's buffer: each aligned to its size."""
    buf = bytearray()
    for size, raw in items:
        buf += b"\0" * (-len(buf) % size) + raw.to_bytes(size, "little")
    cursor = [0]

    def read_arg(size: int) -> int:
        at = -(-cursor[0] // size) * size
        cursor[0] = at + size
        return int.from_bytes(bytes(buf[at:at + size]), "little")
    return read_arg


def _double(x: float) -> int:
    return struct.unpack("<Q", struct.pack("<d", x))[0]


def _no_strings(addr: int) -> bytes:
    raise AssertionError("no %s here")


def test_ints_take_their_width_and_sign_from_the_length_modifier():
    text, n = format_printf(b"%d %u %x %hhd %hd %lld %llu %o|%5d|%-5d|%05d\0junk",
                            _args((4, 0xFFFFFFFF), (4, 0xFFFFFFFF), (4, 0xFFFFFFFF), (4, 0xFF), (4, 0x8000),
                                  (8, (1 << 64) - 5), (8, (1 << 64) - 5), (4, 8), (4, 42), (4, 42), (4, 42)),
                            _no_strings)
    assert text == "-1 4294967295 ffffffff -1 -32768 -5 18446744073709551611 10|   42|42   |00042"
    assert n == 11


def test_floats_are_doubles_aligned_to_eight_bytes():
    # an int at 0, then a double at 8 (not 4): NVRTC's layout of printf("%d %f", i, (double)f)
    text, n = format_printf(b"%d %.3f %e %g %G", _args((4, 7), (8, _double(1.5)), (8, _double(12345.678)),
                                                       (8, _double(0.0001)), (8, _double(1e20))), _no_strings)
    assert text == "7 1.500 1.234568e+04 0.0001 1E+20"
    assert n == 5


def test_star_width_and_precision_consume_int_arguments():
    text, n = format_printf(b"[%*d] [%.*f] [%-*d]", _args((4, 6), (4, 3), (4, 2), (8, _double(3.14159)),
                                                           (4, 4), (4, 9)), _no_strings)
    assert text == "[     3] [3.14] [9   ]"
    assert n == 6


def test_strings_chars_pointers_and_percent():
    strings = {0x1000: b"hello\0world"}
    text, n = format_printf(b"%s|%8s|%c|%p|%%|%s", _args((8, 0x1000), (8, 0x1000), (4, ord("Z")), (8, 0xBEEF), (8, 0)),
                            lambda a: strings[a].split(b"\0")[0])
    assert text == "hello|   hello|Z|0xbeef|%|(null)"
    assert n == 5


PRINT_SRC = r"""
extern "C" __global__ void show(const int* v, int* ret, float f)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x % 16 == 3)
        ret[i] = printf("block %d thread %2d v=%d f=%.2f %s\n", blockIdx.x, threadIdx.x, v[i], f * i, "ok");
}
"""


@pytest.mark.parametrize("engine", ENGINES)
def test_kernel_printf_prints_each_active_lane_in_warp_order(engine, capsys):
    v = np.arange(64, dtype=np.int32) * 10
    ret = sg.zeros(64, dtype=np.int32)
    report = sg.RawModule(code=PRINT_SRC).get_function("show")((2,), (32,), (sg.asarray(v), ret, np.float32(0.5)),
                                                               engine=engine)
    expected = "".join(f"block {b} thread {t:2d} v={(b * 32 + t) * 10} f={0.5 * (b * 32 + t):.2f} ok\n"
                       for b in range(2) for t in (3, 19))
    assert report.printf == expected
    assert capsys.readouterr().out == expected  # printed at the end of the launch, as CUDA does at sync
    got = ret.get()
    assert list(got[got != 0]) == [5] * 4  # vprintf returns the number of arguments it consumed


@settings(max_examples=15, deadline=None)
@given(st.lists(st.integers(-2**31, 2**31 - 1), min_size=1, max_size=32))
def test_printed_ints_read_back_as_the_values_stored(values):
    src = r"""extern "C" __global__ void p(const int* v, int n)
    { int i = threadIdx.x; if (i < n) printf("%d %u %08x\n", v[i], v[i], v[i]); }"""
    n = len(values)
    report = sg.RawModule(code=src).get_function("p")((1,), (32,), (sg.asarray(np.array(values, np.int32)),
                                                                    np.int32(n)), timing=False)
    lines = report.printf.splitlines()
    assert lines == [f"{x} {x & 0xFFFFFFFF} {x & 0xFFFFFFFF:08x}" for x in values]


def test_printf_in_a_device_function_and_a_loop():
    src = r"""__device__ void say(int k) { printf("k=%d\n", k); }
    extern "C" __global__ void loop(int n) { for (int k = 0; k < n; ++k) if (threadIdx.x == 0) say(k); }"""
    for engine in ENGINES:
        report = sg.RawModule(code=src).get_function("loop")((1,), (32,), (np.int32(3),), engine=engine, timing=False)
        assert report.printf == "k=0\nk=1\nk=2\n"
