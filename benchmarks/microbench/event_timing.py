"""Event timing shared by the device scripts under benchmarks/microbench (CuPy on the device)."""

from __future__ import annotations

from collections.abc import Callable

import cupy as cp


def timed(fn: Callable[[], object], reps: int = 5) -> float:
    """Median event time in ms of fn() over reps calls, after one warm call."""
    fn()
    ts = []
    for _ in range(reps):
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    return sorted(ts)[len(ts) // 2]
