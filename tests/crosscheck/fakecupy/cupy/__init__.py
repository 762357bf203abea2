"""A stand-in for CuPy built on simgpu, so the real-GPU half of the crosscheck can be tested on a
machine without a GPU. Only what simgpu.crosscheck uses is here."""

import time as _time
import types as _types

import simgpu as _sg

__version__ = "0.0-fake"


class RawModule:
    def __init__(self, code=None, options=(), **_kw):
        self._m = _sg.RawModule(code=code, options=tuple(options))

    def get_function(self, name):
        return self._m.get_function(name)


def RawKernel(code, name, options=(), **_kw):  # noqa: N802
    return RawModule(code=code, options=options).get_function(name)


asarray = _sg.asarray
zeros = _sg.zeros
empty = _sg.empty
asnumpy = _sg.asnumpy
ndarray = _sg.ndarray


class _Pool:
    def free_all_blocks(self):
        pass


def get_default_memory_pool():
    return _Pool()


class _Runtime:
    def getDeviceCount(self):  # noqa: N802
        return 1

    def getDeviceProperties(self, dev):  # noqa: N802
        return {"name": b"NVIDIA H200"}

    def deviceGetAttribute(self, attr, dev):  # noqa: N802
        values = {16: 132, 38: 62_914_560, 13: 1_755_000, 81: 233_472, 97: 232_448, 82: 65536, 75: 9, 76: 0}
        if attr not in values:
            raise RuntimeError("unsupported attribute")
        return values[attr]

    def driverGetVersion(self):  # noqa: N802
        return 13000

    def runtimeGetVersion(self):  # noqa: N802
        return 13000


class _Event:
    def record(self, stream=None):
        self.t = _time.perf_counter()

    def synchronize(self):
        pass


class _Device:
    def __init__(self, i=0):
        pass

    def synchronize(self):
        pass


def _elapsed(a, b):
    return 1000.0 * (b.t - a.t)


cuda = _types.SimpleNamespace(runtime=_Runtime(), Event=_Event, Device=_Device, get_elapsed_time=_elapsed)
