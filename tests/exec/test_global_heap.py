"""The device heap: arrays free their allocation when the last view is gone, freed ranges are
reused lowest address first and merge with their neighbours, so a program that frees everything
leaves the heap (and the next kernel's addresses) as a fresh process has them."""

from __future__ import annotations

import gc

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.exec.memory import ALLOC_ALIGN, GLOBAL_BASE, GlobalHeap
from simgpu.runtime.device import current_device, fresh_device


@pytest.fixture(autouse=True)
def _own_device():
    """Each test on a device of its own: the exact addresses and byte counts below must not depend
    on what other tests left allocated or on a launch of theirs not yet collected."""
    with fresh_device():
        yield


def test_dropping_the_last_view_frees_the_allocation():
    heap = current_device().heap
    before = heap.bytes_in_use
    a = sg.asarray(np.arange(1 << 16, dtype=np.float32))
    view = a[100:200]
    assert heap.bytes_in_use == before + (1 << 18)
    del a
    gc.collect()
    assert heap.bytes_in_use == before + (1 << 18)  # the slice still holds it
    np.testing.assert_array_equal(view.get(), np.arange(100, 200, dtype=np.float32))
    del view
    gc.collect()
    assert heap.bytes_in_use == before


def test_a_freed_range_is_reused_and_the_top_given_back():
    heap = current_device().heap
    top = heap.next_addr
    a = sg.zeros(1000, np.float32)
    b = sg.zeros(1000, np.float32)
    pa, pb = a.data.ptr, b.data.ptr
    assert pb == pa + 4096  # 4000 B padded to 256-B granules
    del a
    gc.collect()
    c = sg.zeros(500, np.float32)  # fits the freed range: lowest address first
    assert c.data.ptr == pa
    assert sg.ones(10).get().sum() == 10  # a new allocation is zero-filled, then set
    del b, c
    gc.collect()
    assert heap.next_addr == top


def test_a_kernel_sees_the_same_addresses_after_earlier_work_is_freed():
    """Counters that depend on addresses (L1 sets, L2 slices) must not depend on what an earlier,
    finished piece of the program allocated."""
    src = r'''extern "C" __global__ void addr(const float* x, unsigned long long* out) {
        out[threadIdx.x] = (unsigned long long)(x + threadIdx.x); }'''
    k = sg.RawModule(code=src).get_function("addr")

    def run() -> int:
        x, out = sg.zeros(32, np.float32), sg.zeros(32, np.uint64)
        k((1,), (32,), (x, out))
        return int(out.get()[0])

    first = run()
    junk = [sg.zeros(n, np.float32) for n in (7, 70_000, 300)]
    del junk
    gc.collect()
    assert run() == first


def test_freeing_an_unknown_address_names_it():
    heap = GlobalHeap()
    with pytest.raises(ValueError, match="0x7f0000000100"):
        heap.free(GLOBAL_BASE + 256)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.booleans(), st.integers(1, 5000)), min_size=1, max_size=40))
def test_heap_against_a_reference(ops):
    """Random allocate/free sequences: live allocations never overlap, each is aligned and
    zero-filled, `locate` finds every byte of each, and freeing everything restores the heap."""
    heap = GlobalHeap()
    live: list[tuple[int, int]] = []
    for is_free, n in ops:
        if is_free and live:
            addr, _ = live.pop(n % len(live))
            heap.free(addr)
        else:
            addr, buf = heap.allocate(n)
            assert addr % ALLOC_ALIGN == 0 and not buf.any()
            buf[:] = 1
            live.append((addr, n))
        spans = sorted((a, a + n) for a, n in live)
        assert all(e <= s for (_, e), (s, _) in zip(spans, spans[1:]))
        for a, n in live:
            idx, ok = heap.locate(np.array([a, a + n - 1], np.uint64), 1)
            assert ok.all() and heap.bases[idx[0]] == a == heap.bases[idx[1]]
    for addr, _ in live:
        heap.free(addr)
    assert heap.next_addr == GLOBAL_BASE and not heap.bases and not heap._free


def test_a_paused_launch_keeps_its_temporary_arguments():
    """`stepper.start(k, ..., (sg.asarray(x), out))`: the caller holds no reference to the input,
    the paused launch must (freeing it under the kernel would be a use-after-free)."""
    from simgpu.core import stepper

    src = r'''extern "C" __global__ void twice(const float* x, float* y) {
        y[threadIdx.x] = 2.f * x[threadIdx.x]; }'''
    k = sg.RawModule(code=src).get_function("twice")
    out = sg.zeros(32, np.float32)
    s = stepper.start(k, (1,), (32,), (sg.asarray(np.arange(32, dtype=np.float32)), out))
    gc.collect()
    sg.zeros(1 << 12, np.float32).fill(7)  # would land on the freed input
    s.run()
    np.testing.assert_array_equal(out.get(), 2 * np.arange(32, dtype=np.float32))


def test_an_allocation_past_the_device_memory_is_refused_by_name():
    with pytest.raises(sg.OutOfMemoryError, match=r"out of device memory allocating 1,099,511,627,776 bytes.*"
                                                  r"NVIDIA H200's 150,109,880,320 bytes"):
        sg.zeros(1 << 38, np.float32)
    with sg.use_gpu("teaching"), pytest.raises(MemoryError):  # also a MemoryError, as CuPy's is
        sg.empty((1 << 36, 4), np.float32)
    a = sg.zeros(8)  # nothing was reserved by the refused ones
    assert a.get().sum() == 0


def test_the_memory_pool_answers_as_cupys_does():
    pool = sg.get_default_memory_pool()
    used = pool.used_bytes()
    a = sg.zeros(1000, np.float32)  # 4,000 B in 4,096
    b = sg.zeros(10, np.float32)
    assert pool.used_bytes() == used + 4096 + 256
    del a
    gc.collect()
    assert pool.used_bytes() == used + 256 and pool.free_bytes() >= 4096 and pool.n_free_blocks() >= 1
    pool.set_limit(size=used + 4096)
    try:
        assert pool.get_limit() == used + 4096
        with pytest.raises(sg.OutOfMemoryError, match="limit is"):
            sg.zeros(1024, np.float32)
        c = sg.zeros(64, np.float32)  # under the limit
        del c
    finally:
        pool.set_limit(size=0)
    assert pool.get_limit() == 0
    pool.free_all_blocks()
    del b


def test_copies_and_pickles_of_device_arrays():
    import copy
    import pickle

    a = sg.asarray(np.arange(16, dtype=np.int32))
    shallow, deep, back = copy.copy(a), copy.deepcopy(a), pickle.loads(pickle.dumps(a[4:8]))
    assert shallow.data.ptr == a.data.ptr and deep.data.ptr != a.data.ptr
    a.fill(7)  # the shallow copy sees it, the deep copy and the unpickled slice do not
    np.testing.assert_array_equal(shallow.get(), np.full(16, 7))
    np.testing.assert_array_equal(deep.get(), np.arange(16))
    np.testing.assert_array_equal(back.get(), np.arange(4, 8))
    del a
    gc.collect()
    np.testing.assert_array_equal(shallow.get(), np.full(16, 7))  # still allocated through the copy


def test_a_fresh_device_starts_from_an_empty_heap():
    """simgpu compare runs each case so: its addresses do not depend on what the process holds."""
    hold = sg.zeros(1000, np.float32)
    outer = current_device()
    with fresh_device() as dev:
        assert current_device() is dev and dev is not outer
        a = sg.zeros(10, np.float32)
        assert a.data.ptr == GLOBAL_BASE and dev.heap.bytes_in_use == 256
    assert current_device() is outer and hold.get().sum() == 0


def test_frees_wait_while_a_launch_is_under_way():
    """The engines index allocations by position: a garbage collection in the middle of a launch
    must not shift them, so its frees happen when the launch ends (or fails)."""
    heap = GlobalHeap()
    a, _ = heap.allocate(100)
    b, _ = heap.allocate(100)
    heap.hold()
    heap.free(a)
    assert heap.bases == [a, b]  # still there, at the same position
    heap.release()
    assert heap.bases == [b]


def test_a_failed_launch_holds_back_no_frees():
    src = r'''extern "C" __global__ void oob(float* y) { y[threadIdx.x + 1000000] = 1.f; }'''
    k = sg.RawKernel(src, "oob")
    heap = current_device().heap
    y = sg.zeros(32, np.float32)
    with pytest.raises(sg.KernelRuntimeError):
        k((1,), (32,), (y,))
    before = heap.bytes_in_use
    del y
    gc.collect()
    assert heap.bytes_in_use == before - 256
