"""Device arrays with CuPy's shape: `asarray`, `zeros`, `empty`, `arr.get()`, `asnumpy`.

A DeviceArray is a C-contiguous window onto one allocation of the simulated device's global
memory. Its `.data.ptr` is the device address a kernel sees. The allocation is freed when the last
array that views it is garbage-collected, as CuPy returns it to its pool, and its addresses are
reused by later allocations (exec/memory.py GlobalHeap).
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field

import numpy as np

from simgpu.runtime.device import current_device, current_gpu


@dataclass(frozen=True)
class MemoryPointer:
    """CuPy's `arr.data`: the device address (`ptr`) of the first element, and the array it points
    into (so `ndarray(shape, dtype, memptr)` can view that memory, as CuPy's does)."""

    ptr: int
    array: DeviceArray | None = field(default=None, compare=False, repr=False)

    def __add__(self, nbytes: int) -> MemoryPointer:
        return MemoryPointer(self.ptr + int(nbytes), self.array)


class _Allocation:
    """One global allocation, shared by every array that views it: the heap frees it when the last
    of them lets go of this object."""

    __slots__ = ("__weakref__",)

    def __init__(self, heap, ptr: int) -> None:
        weakref.finalize(self, heap.free, ptr)


class DeviceArray:
    """An n-dimensional array in simulated device memory (C order)."""

    def __init__(self, shape, dtype=np.float32, memptr: MemoryPointer | DeviceArray | None = None, *,
                 _buffer: np.ndarray | None = None, _ptr: int | None = None, _offset: int = 0,
                 _owner: _Allocation | None = None) -> None:
        self.shape = tuple(int(s) for s in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        self.dtype = np.dtype(dtype)
        if any(s < 0 for s in self.shape):
            raise ValueError(f"negative dimensions are not allowed: {self.shape}")
        if memptr is not None:  # CuPy's ndarray(shape, dtype, memptr): a view of existing device memory
            base = memptr if isinstance(memptr, DeviceArray) else memptr.array
            if base is None:
                raise TypeError("memptr must come from a simgpu array (arr.data) or RawModule.get_global")
            offset = (memptr.ptr - base.data.ptr) if isinstance(memptr, MemoryPointer) else 0
            if offset < 0 or offset + self.nbytes > base.nbytes:
                raise ValueError(f"an array of {self.nbytes} bytes does not fit in the {base.nbytes - offset} "
                                 f"bytes at memptr 0x{base.data.ptr + offset:x}")
            _buffer, _ptr, _offset, _owner = base._buffer, base._ptr, base._offset + offset, base._owner
        if _buffer is None:
            heap = current_device().heap
            gpu = current_gpu()
            _ptr, _buffer = heap.allocate(self.nbytes, gpu.global_memory_bytes, gpu.name)
            _owner = _Allocation(heap, _ptr)
        self._owner = _owner
        self._buffer = _buffer
        self._ptr = _ptr
        self._offset = _offset

    # -- CuPy-like attributes ----------------------------------------------------------------
    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def data(self) -> MemoryPointer:
        return MemoryPointer(self._ptr + self._offset, self)

    @property
    def ptr(self) -> int:
        return self._ptr + self._offset

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def _host_view(self) -> np.ndarray:
        raw = self._buffer[self._offset:self._offset + self.nbytes]
        return raw.view(self.dtype).reshape(self.shape)

    def get(self, stream=None, order: str = "C", out: np.ndarray | None = None) -> np.ndarray:
        """Copy to a new host (NumPy) array, as CuPy's `get()`."""
        host = self._host_view().copy()
        if out is not None:
            out[...] = host
            return out
        return host

    def set(self, arr, stream=None) -> None:
        """Copy a host array of the same shape into this device array."""
        src = np.asarray(arr, dtype=self.dtype)
        if src.shape != self.shape:
            raise ValueError(f"shape mismatch: device array {self.shape}, host array {src.shape}")
        self._host_view()[...] = src

    def fill(self, value) -> None:
        self._host_view()[...] = value

    def copy(self) -> DeviceArray:
        out = DeviceArray(self.shape, self.dtype)
        out._host_view()[...] = self._host_view()
        return out

    def _view(self, shape, dtype, offset: int = 0) -> DeviceArray:
        """Another array over this one's allocation, `offset` bytes further in (keeps it alive)."""
        return DeviceArray(shape, dtype, _buffer=self._buffer, _ptr=self._ptr, _offset=self._offset + offset,
                           _owner=self._owner)

    def __copy__(self) -> DeviceArray:
        """copy.copy gives another view of the same device memory (as CuPy's does)."""
        return self._view(self.shape, self.dtype)

    def __deepcopy__(self, memo) -> DeviceArray:
        """copy.deepcopy gives a new allocation holding the same values."""
        return self.copy()

    def __reduce__(self):
        """Pickled as its values: unpickling allocates a new device array (as CuPy does)."""
        return asarray, (self.get(),)

    def reshape(self, *shape) -> DeviceArray:
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = tuple(int(s) for s in shape)
        if -1 in shape:
            known = int(np.prod([s for s in shape if s != -1]))
            shape = tuple(self.size // known if s == -1 else s for s in shape)
        if int(np.prod(shape)) != self.size:
            raise ValueError(f"cannot reshape array of size {self.size} into shape {shape}")
        return self._view(shape, self.dtype)

    def ravel(self) -> DeviceArray:
        return self.reshape(self.size)

    def view(self, dtype) -> DeviceArray:
        dt = np.dtype(dtype)
        if self.nbytes % dt.itemsize:
            raise ValueError("the new dtype does not divide the array's size in bytes")
        return self._view((self.nbytes // dt.itemsize,), dt)

    def astype(self, dtype) -> DeviceArray:
        return asarray(self._host_view().astype(dtype))

    def __getitem__(self, key) -> DeviceArray:
        """Contiguous slices along the first axis only (views, like CuPy)."""
        if isinstance(key, slice) and (key.step in (None, 1)) and self.ndim >= 1:
            start, stop, _ = key.indices(self.shape[0])
            stop = max(start, stop)
            row = self.nbytes // self.shape[0] if self.shape[0] else 0
            return self._view((stop - start,) + self.shape[1:], self.dtype, start * row)
        raise TypeError("simgpu device arrays support only contiguous slices a[i:j]; copy to the host with .get()")

    def __setitem__(self, key, value) -> None:
        """Write elements in place, as CuPy's `a[key] = value` (any NumPy index; a value on the device
        or the host, broadcast as NumPy would)."""
        if isinstance(value, DeviceArray):
            value = value.get()
        self._host_view()[key] = value

    def __array__(self, dtype=None, copy=None):
        raise TypeError("implicit conversion of a simgpu device array to NumPy is not allowed; use .get() "
                        "(as with CuPy)")

    def __repr__(self) -> str:
        return f"simgpu.DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr=0x{self.ptr:x})"


ndarray = DeviceArray


def asarray(a, dtype=None) -> DeviceArray:
    """Copy a host array (or anything NumPy accepts) to the device; device arrays pass through."""
    if isinstance(a, DeviceArray):
        return a if dtype is None or np.dtype(dtype) == a.dtype else a.astype(dtype)
    host = np.ascontiguousarray(np.asarray(a, dtype=dtype))
    out = DeviceArray(host.shape, host.dtype)
    out._host_view()[...] = host
    return out


array = asarray


def empty(shape, dtype=np.float32) -> DeviceArray:
    """An uninitialised device array (simgpu fills it with zeros, deterministically)."""
    return DeviceArray(shape, dtype)


def zeros(shape, dtype=np.float32) -> DeviceArray:
    return DeviceArray(shape, dtype)


def ones(shape, dtype=np.float32) -> DeviceArray:
    out = DeviceArray(shape, dtype)
    out.fill(1)
    return out


def full(shape, fill_value, dtype=None) -> DeviceArray:
    dt = np.dtype(dtype) if dtype is not None else np.asarray(fill_value).dtype
    out = DeviceArray(shape, dt)
    out.fill(fill_value)
    return out


def empty_like(a, dtype=None) -> DeviceArray:
    return DeviceArray(a.shape, dtype or a.dtype)


def zeros_like(a, dtype=None) -> DeviceArray:
    return DeviceArray(a.shape, dtype or a.dtype)


def ones_like(a, dtype=None) -> DeviceArray:
    return ones(a.shape, dtype or a.dtype)


def arange(*args, dtype=None) -> DeviceArray:
    return asarray(np.arange(*args, dtype=dtype))


def asnumpy(a) -> np.ndarray:
    """A host copy of a device array (NumPy arrays pass through), as `cupy.asnumpy`."""
    if isinstance(a, DeviceArray):
        return a.get()
    return np.asarray(a)
