"""What ptxas does to a function's loads and stores before any of them runs, in the order it
matters: loop-invariant loads out of their loops (hoist_loads.py), then loads that reuse an
earlier load's register or a stored value (reuse_loads.py), then stores a later one overwrites
(dead_stores.py). The linker executes the result (exec/program.py); the counters then count what
the SASS issues, not what NVRTC's PTX spelled out."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from simgpu.exec.dead_stores import dropped_store, find_dead_stores
from simgpu.exec.hoist_loads import hoist_invariant_loads
from simgpu.exec.reuse_loads import copy_instruction, find_reused_loads
from simgpu.frontend.ptx.ast import Function, Instruction


@dataclass(frozen=True)
class MemoryRewrite:
    """A function as ptxas leaves its memory accesses. `function` has the hoisted loads in its
    preheaders (its labels and registers follow); `body` is its body with each load ptxas does not
    issue as a register copy and each store it drops as a nop; `reused` maps such a load's index to
    the load or store whose value it takes, `dropped` holds the dropped stores' indices."""

    function: Function
    body: list[Instruction]
    reused: dict[int, int]
    dropped: set[int]


def rewrite_memory_ops(fn: Function, defs_uses: Callable) -> MemoryRewrite:
    fn, reused = hoist_invariant_loads(fn, defs_uses)
    body = list(fn.body)
    for i, source in find_reused_loads(fn, defs_uses).items():
        body[i] = copy_instruction(fn, i, source)
        reused[i] = source if isinstance(source, int) else source[0][0]
    dropped = find_dead_stores(body, fn.labels, defs_uses)
    for i in dropped:
        body[i] = dropped_store(fn.body[i])
    return MemoryRewrite(fn, body, reused, dropped)
