"""In-kernel malloc and free (exec/device_malloc.py): CUDA's device heap, reserved at its first use,
first fit at 16-byte alignment, NULL when full, living across launches; a bad free stops the launch
naming the thread."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.exec.device_malloc import MALLOC_ALIGN, DeviceMallocHeap
from simgpu.runtime.device import fresh_device

SRC = r'''
extern "C" __global__ void grab(unsigned long long* ptrs, int nbytes) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int* p = (int*)malloc(nbytes);
    ptrs[t] = (unsigned long long)p;
    if (p) for (int i = 0; i < nbytes / 4; ++i) p[i] = t * 1000 + i;
}
extern "C" __global__ void check_and_free(const unsigned long long* ptrs, int nbytes, int* sums) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int* p = (int*)ptrs[t];
    int s = 0;
    if (p) for (int i = 0; i < nbytes / 4; ++i) s += p[i] - t * 1000;
    sums[t] = s;
    free(p);
}
extern "C" __global__ void free_twice(int* out) {
    void* p = malloc(64);
    free(p);
    if (threadIdx.x == 5) free(p);
    out[threadIdx.x] = 1;
}
'''


@pytest.fixture(autouse=True)
def _own_device():
    with fresh_device():
        yield


@pytest.mark.parametrize("engine", ["fast", "reference"])
def test_each_thread_gets_its_own_block_that_lives_until_freed_in_a_later_launch(engine):
    mod = sg.RawModule(code=SRC)
    n, nbytes = 256, 40
    ptrs, sums = sg.zeros(n, np.uint64), sg.zeros(n, np.int32)
    with sg.use_engine(engine):
        mod.get_function("grab")((2,), (128,), (ptrs, np.int32(nbytes)), timing=False)
        p = ptrs.get().astype(np.int64)
        mod.get_function("check_and_free")((2,), (128,), (ptrs, np.int32(nbytes), sums), timing=False)
    heap = sg.runtime.device.current_device().malloc_heap()
    assert (p > 0).all() and (p % MALLOC_ALIGN == 0).all()
    assert (p >= heap.base).all() and (p + nbytes <= heap.base + heap.size).all()
    order = np.sort(p)
    assert (np.diff(order) >= nbytes).all()  # no two blocks overlap
    # first fit, lanes in order: thread t's block is the t-th, each 40 bytes rounded up to 48
    assert order.tolist() == p.tolist() and np.diff(p).tolist() == [48] * (n - 1)
    assert sums.get().tolist() == [sum(range(nbytes // 4))] * n
    assert heap.bytes_in_use == 0  # every block came back


def test_a_full_heap_gives_null_and_the_size_is_fixed_once_used():
    sg.set_malloc_heap_size(4096)
    ptrs = sg.zeros(64, np.uint64)
    sg.RawModule(code=SRC).get_function("grab")((1,), (64,), (ptrs, np.int32(128)), timing=False)
    p = ptrs.get()
    assert (p[:32] != 0).all() and (p[32:] == 0).all()  # 32 x 128 bytes fill 4 KiB
    with pytest.raises(sg.LaunchError, match="cannot change once a kernel that calls malloc"):
        sg.set_malloc_heap_size(1 << 20)


def test_a_second_free_of_a_block_names_the_thread():
    k = sg.RawModule(code=SRC).get_function("free_twice")
    with pytest.raises(sg.KernelRuntimeError, match=r"which device malloc did not return.*thread \(5, 0, 0\)"):
        k((1,), (32,), (sg.zeros(32, np.int32),), timing=False)


def test_malloc_with_timing_and_counters():
    """The calls run inside a timed launch; they are no memory instructions of their own (the
    allocator's traffic is not modelled), the stores through the pointers are."""
    ptrs = sg.zeros(32, np.uint64)
    rep = sg.RawModule(code=SRC).get_function("grab")((1,), (32,), (ptrs, np.int32(16)))
    assert rep.metrics["smsp__sass_inst_executed_op_global_st.sum"] == 1 + 4  # ptrs[t] and four ints
    assert rep.metrics["gpu__time_duration.sum"] > 0


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(0, 700)), max_size=80))
def test_the_heap_never_overlaps_and_merges_back(ops):
    """Random malloc / free sequences: blocks stay aligned, inside the heap and apart; freeing
    everything leaves one free range, the whole heap."""
    heap = DeviceMallocHeap(1 << 20, 8192)
    live: dict[int, int] = {}
    for is_free, n in ops:
        if is_free and live:
            addr = sorted(live)[n % len(live)]
            heap.free(addr)
            del live[addr]
            continue
        addr = heap.malloc(n)
        if n == 0:
            assert addr == 0
            continue
        if addr == 0:  # no room: then no gap of the rounded size is free
            need = -(-n // MALLOC_ALIGN) * MALLOC_ALIGN
            assert all(length < need for _, length in heap._free)
            continue
        assert addr % MALLOC_ALIGN == 0 and heap.base <= addr and addr + n <= heap.base + heap.size
        assert all(addr + n <= a or a + s <= addr for a, s in live.items())
        live[addr] = n
    for addr in list(live):
        heap.free(addr)
    assert heap._free == [(heap.base, heap.size)]
    with pytest.raises(ValueError, match="did not return"):
        heap.free(heap.base)


def test_the_unsimulated_allocator_is_said_once_per_kernel():
    src = SRC.replace("grab(", "grab_warned(")
    k = sg.RawModule(code=src).get_function("grab_warned")
    args = ((1,), (32,), (sg.zeros(32, np.uint64), np.int32(16)))
    with pytest.warns(sg.FidelityWarning, match=r"kernel grab_warned calls device malloc/free: the allocator itself "
                      r"is not simulated\. On an H200, 8,192 threads .* 1\.46 ms") as record:
        k(*args, timing=False)
        k(*args, timing=False)
    assert len([w for w in record if issubclass(w.category, sg.FidelityWarning)]) == 1
    assert record[0].filename == __file__  # the user's line, not simgpu's
