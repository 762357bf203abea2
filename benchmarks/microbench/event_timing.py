"""Event timing shared by the device scripts under benchmarks/microbench (CuPy on the device)."""

from __future__ import annotations

from collections.abc import Callable

import cupy as cp


def event_times(fn: Callable[[], object], reps: int = 5, before: Callable[[], object] | None = None,
                warm: bool = True) -> list[float]:
    """Event times in ms of reps calls of fn(); `before()` (untimed: an L2 flush, a warming launch)
    ahead of each, one untimed fn() first where `warm`."""
    if warm:
        fn()
    ts = []
    for _ in range(reps):
        if before is not None:
            before()
        a, b = cp.cuda.Event(), cp.cuda.Event()
        a.record()
        fn()
        b.record()
        b.synchronize()
        ts.append(cp.cuda.get_elapsed_time(a, b))
    return ts


def timed(fn: Callable[[], object], reps: int = 5) -> float:
    """Median event time in ms of fn() over reps calls, after one warm call."""
    ts = event_times(fn, reps)
    return sorted(ts)[len(ts) // 2]
