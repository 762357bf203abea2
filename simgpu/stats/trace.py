"""ExecutionTrace: a compact record of every issue step of the functional engine.

The engine issues one PTX instruction for a group of warps per step. Recording (pc, warps) per
step, plus what the memory system answered for each memory access (sectors, L1/L2 hits,
shared-memory wavefronts), is enough to replay the launch through a timing model or to draw
it (which lanes were active when, which accesses missed), without running the kernel again.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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


@dataclass
class ExecutionTrace:
    """Steps in issue order. Warp ids are global to the launch (wave base + index in the wave)."""

    step_pc: list[int] = field(default_factory=list)
    step_warps: list[np.ndarray] = field(default_factory=list)
    step_active: list[np.ndarray] = field(default_factory=list)  # uint32 active masks per warp
    memory: list[MemoryEvent] = field(default_factory=list)
    warp_cta: list[np.ndarray] = field(default_factory=list)  # per wave: CTA id of each warp
    warp_sm: list[np.ndarray] = field(default_factory=list)  # per wave: SM of each warp
    wave_base: list[int] = field(default_factory=list)

    def add_wave(self, base: int, cta_of_warp_global: np.ndarray, sm_of_warp: np.ndarray) -> None:
        self.wave_base.append(base)
        self.warp_cta.append(np.asarray(cta_of_warp_global, np.int64))
        self.warp_sm.append(np.asarray(sm_of_warp, np.int64))

    def add_step(self, pc: int, warps: np.ndarray, active: np.ndarray) -> int:
        self.step_pc.append(pc)
        self.step_warps.append(np.asarray(warps, np.int64))
        self.step_active.append(np.asarray(active, np.uint32))
        return len(self.step_pc) - 1

    def add_memory(self, space: str, op: str, warps: np.ndarray, summary: dict) -> None:
        self.memory.append(MemoryEvent(
            step=len(self.step_pc) - 1, space=space, op=op, warps=np.asarray(warps, np.int64),
            sectors=summary.get("sectors"), l1_hit_sectors=summary.get("l1_hit_sectors"),
            l2_hit_sectors=summary.get("l2_hit_sectors"), wavefronts=summary.get("wavefronts")))

    @property
    def num_warps(self) -> int:
        return int(sum(len(c) for c in self.warp_cta))

    def cta_of_warp(self) -> np.ndarray:
        return np.concatenate(self.warp_cta) if self.warp_cta else np.zeros(0, np.int64)

    def sm_of_warp(self) -> np.ndarray:
        return np.concatenate(self.warp_sm) if self.warp_sm else np.zeros(0, np.int64)

    def warp_streams(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Per-warp instruction streams: (warp id, pc, step) sorted by warp then step."""
        if not self.step_pc:
            z = np.zeros(0, np.int64)
            return z, z, z
        counts = np.array([len(w) for w in self.step_warps])
        warps = np.concatenate(self.step_warps)
        pcs = np.repeat(np.asarray(self.step_pc, np.int64), counts)
        steps = np.repeat(np.arange(len(self.step_pc), dtype=np.int64), counts)
        order = np.lexsort((steps, warps))
        return warps[order], pcs[order], steps[order]
