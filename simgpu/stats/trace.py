"""ExecutionTrace: a compact record of every issue step of the functional engine.

The engine issues one PTX instruction for a group of warps per step. Recording (pc, warps) per
step, plus what the memory system answered for each memory access (sectors, L1/L2 hits,
shared-memory wavefronts), is enough to replay the launch through a timing model or to draw
it (which lanes were active when, which accesses missed), without running the kernel again.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class MemoryEvent:
    step: int
    space: str  # "global", "shared", "local"
    op: str  # "ld", "st", "atom", "red"
    warps: np.ndarray  # global warp ids that made a request
    sectors: np.ndarray | None = None
    l1_hit_sectors: np.ndarray | None = None
    l2_hit_sectors: np.ndarray | None = None
    wavefronts: np.ndarray | None = None
    # global stores: per warp, the cycles it holds its CTA's write path (coalescer.store_write_cycles)
    write_cycles: np.ndarray | None = None
    # global atomics and stores: one row per (warp, line) that takes passes on the L2's line unit --
    # the warp's index in `warps`, the line and its passes (memory/line_units.py); for the replay
    unit_warp: np.ndarray | None = None
    unit_line: np.ndarray | None = None
    unit_passes: np.ndarray | None = None
    # global loads: one row per (warp, line) with an L1 miss -- the warp's index in `warps`, the line,
    # and the sector masks (memory.l1.hierarchy_batch's g_info: L1 misses in bits 0-3) -- for
    # timing/l2_merge.py; the groups that hit too (bits 0-3 zero) where the launch asked for them
    # (MemorySystem.record_load_hits, for timing/l1_order.py)
    ld_warp: np.ndarray | None = None
    ld_line: np.ndarray | None = None
    ld_info: np.ndarray | None = None
    # global stores: one row per (warp, line) -- the warp's index in `warps`, the line, and its
    # sectors | line resident << 4 | counted as L1 hits << 5 (memory.l1.hierarchy_batch's g_info);
    # for the replay's store sequencer (timing/store_lines.py)
    st_warp: np.ndarray | None = None
    st_line: np.ndarray | None = None
    st_info: np.ndarray | None = None


class ExecutionTrace:
    """Steps in issue order. Warp ids are global to the launch (wave base + index in the wave).

    Steps are stored flat (one growing array each, appended by either engine): step s issued
    `step_pc[s]` for warps `warps[off[s]:off[s+1]]` with active masks `active[off[s]:off[s+1]]`.
    `step_pc`, `step_warps` and `step_active` give the per-step view (lists) for pictures."""

    def __init__(self) -> None:
        self._pc = np.zeros(1024, np.int64)
        self._cnt = np.zeros(1024, np.int64)
        self._warps = np.zeros(4096, np.int64)
        self._active = np.zeros(4096, np.uint32)
        self.n_steps = 0
        self.n_entries = 0
        self.memory: list[MemoryEvent] = []
        self.warp_cta: list[np.ndarray] = []  # per wave: CTA id of each warp
        self.warp_sm: list[np.ndarray] = []  # per wave: SM of each warp
        self.wave_base: list[int] = []
        # start addresses of the global allocations at the launch (sorted): the timing model takes
        # a line's L2 partition from its offset in its allocation (timing/l2_sides.py)
        self.heap_bases: np.ndarray | None = None
        # whether the loads' all-hit (warp, line) groups are in `memory` (MemorySystem.record_load_hits):
        # the timed L1 walk (timing/l1_order.py) needs them and refuses a trace without them
        self.load_hit_groups = False
        # the pcs whose warp accesses had a lane in another CTA's shared memory (distributed shared
        # memory, thread-block clusters): the timing model gives them the SM-to-SM latency
        self.dsmem_pcs: set[int] = set()

    def add_wave(self, base: int, cta_of_warp_global: np.ndarray, sm_of_warp: np.ndarray) -> None:
        self.wave_base.append(base)
        self.warp_cta.append(np.asarray(cta_of_warp_global, np.int64))
        self.warp_sm.append(np.asarray(sm_of_warp, np.int64))

    def _reserve(self, steps: int, entries: int) -> None:
        if self.n_steps + steps > len(self._pc):
            n = max(2 * len(self._pc), self.n_steps + steps)
            self._pc = _grown(self._pc, self.n_steps, n)
            self._cnt = _grown(self._cnt, self.n_steps, n)
        if self.n_entries + entries > len(self._warps):
            n = max(2 * len(self._warps), self.n_entries + entries)
            self._warps = _grown(self._warps, self.n_entries, n)
            self._active = _grown(self._active, self.n_entries, n)

    def add_step(self, pc: int, warps: np.ndarray, active: np.ndarray) -> int:
        k = len(warps)
        self._reserve(1, k)
        s, e = self.n_steps, self.n_entries
        self._pc[s] = pc
        self._cnt[s] = k
        self._warps[e:e + k] = warps
        self._active[e:e + k] = active
        self.n_steps += 1
        self.n_entries += k
        return s

    def add_steps(self, pcs: np.ndarray, counts: np.ndarray, warps: np.ndarray, active: np.ndarray) -> None:
        """Append many steps at once (the fast engine's buffers)."""
        S, N = len(pcs), len(warps)
        self._reserve(S, N)
        self._pc[self.n_steps:self.n_steps + S] = pcs
        self._cnt[self.n_steps:self.n_steps + S] = counts
        self._warps[self.n_entries:self.n_entries + N] = warps
        self._active[self.n_entries:self.n_entries + N] = active
        self.n_steps += S
        self.n_entries += N

    def flat_steps(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(step pc [S], warps per step [S], warp ids [N], active masks [N]) in issue order (views)."""
        return (self._pc[:self.n_steps], self._cnt[:self.n_steps], self._warps[:self.n_entries],
                self._active[:self.n_entries])

    def _split(self, arr: np.ndarray) -> list[np.ndarray]:
        off = np.cumsum(self._cnt[:self.n_steps])[:-1]
        return np.split(arr[:self.n_entries], off) if self.n_steps else []

    @property
    def step_pc(self) -> list[int]:
        return self._pc[:self.n_steps].tolist()

    @property
    def step_warps(self) -> list[np.ndarray]:
        return self._split(self._warps)

    @property
    def step_active(self) -> list[np.ndarray]:
        return self._split(self._active)

    def last_step_active(self) -> np.ndarray:
        """Active masks of the warps of the last step."""
        k = int(self._cnt[self.n_steps - 1]) if self.n_steps else 0
        return self._active[self.n_entries - k:self.n_entries].copy()

    def add_memory(self, space: str, op: str, warps: np.ndarray, summary: dict) -> None:
        self.memory.append(MemoryEvent(
            step=self.n_steps - 1, space=space, op=op, warps=np.asarray(warps, np.int64),
            sectors=summary.get("sectors"), l1_hit_sectors=summary.get("l1_hit_sectors"),
            l2_hit_sectors=summary.get("l2_hit_sectors"), wavefronts=summary.get("wavefronts"),
            write_cycles=summary.get("write_cycles"), unit_warp=summary.get("unit_warp"),
            unit_line=summary.get("unit_line"), unit_passes=summary.get("unit_passes"),
            ld_warp=summary.get("ld_warp"), ld_line=summary.get("ld_line"),
            ld_info=summary.get("ld_info"), st_warp=summary.get("st_warp"), st_line=summary.get("st_line"),
            st_info=summary.get("st_info")))

    @property
    def num_warps(self) -> int:
        return int(sum(len(c) for c in self.warp_cta))

    def cta_of_warp(self) -> np.ndarray:
        return np.concatenate(self.warp_cta) if self.warp_cta else np.zeros(0, np.int64)

    def sm_of_warp(self) -> np.ndarray:
        return np.concatenate(self.warp_sm) if self.warp_sm else np.zeros(0, np.int64)

    def warp_streams(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per-warp instruction streams: (warp id, pc, step) sorted by warp then step."""
        if not self.n_steps:
            z = np.zeros(0, np.int64)
            return z, z, z
        step_pc, counts, warps, _ = self.flat_steps()
        warps = warps.copy()
        pcs = np.repeat(step_pc, counts)
        steps = np.repeat(np.arange(self.n_steps, dtype=np.int64), counts)
        order = np.lexsort((steps, warps))
        return warps[order], pcs[order], steps[order]


def _grown(a: np.ndarray, used: int, n: int) -> np.ndarray:
    """a with room for n items, its first `used` kept (np.resize would also fill the rest by
    repeating a, a second pass over hundreds of MB on a large trace)."""
    out = np.empty(n, a.dtype)
    out[:used] = a[:used]
    return out
