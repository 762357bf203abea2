"""simgpu's L1 on geometry.cu's sweeps, beside the H200 (results/ from run.sh): per launch the share of
the re-reads (every round after the first) that missed, simulated and measured, and per kind of sweep
the mean |difference|. The sweeps go straight to simgpu's memory system (one SM, one warp, 32 lines a
load in lane order, the carveout the H200's driver chose), so no 8 GB buffer is needed.

    python compare.py [results/]
"""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

import numpy as np
from table import CARVEOUT, HITS, ROUNDS, SECTORS, rows

from simgpu.arch import get_preset
from simgpu.memory.system import MemorySystem

BASE = 1 << 40  # the buffer's allocation starts here (2 MB aligned, as cudaMalloc's 8 GB one)


def simulated_lost(gpu, carveout: int, base: int, lines: int, stride: int, rounds: int = ROUNDS) -> float:
    """Percent of the re-reads that miss when one warp sweeps `lines` lines `stride` apart from
    line `base` of the allocation `rounds` times, each lane one line of each load."""
    ms = MemorySystem(gpu)
    ms.begin_kernel(0, 1, carveout_bytes=carveout, heap_bases=[BASE])
    one = base + np.arange(lines, dtype=np.int64) * stride
    pad = -len(one) % 32
    lanes = np.concatenate([one, np.full(pad, -1)]).reshape(-1, 32)
    for _ in range(rounds):
        for row in lanes:
            live = row >= 0
            addr = (BASE + np.where(live, row, 0) * 128).astype(np.uint64)[None, :]
            ms.global_access("ld", 0, np.zeros(1, np.int64), addr, live[None, :], 4)
    hit = ms.metrics()["l1tex__t_sector_hit_rate.pct"]
    best = 100.0 * (rounds - 1) / rounds
    return 100.0 * (best - hit) / best


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent / "results"
    gpu = get_preset("h200")
    best = 100.0 * (ROUNDS - 1) / ROUNDS
    seen: dict[tuple, float] = {}
    diffs = defaultdict(list)
    print(f"{'sweep':9s} {'L1 KB':>6s} {'base':>6s} {'KB':>4s} {'stride':>7s} {'lost % H200':>12s} {'simgpu':>7s}")
    for d in rows(folder):
        carve = int(d[CARVEOUT])
        key = (carve, d["base"], d["lines"], d["stride"])
        if key not in seen:
            seen[key] = simulated_lost(gpu, carve, d["base"], d["lines"], d["stride"])
        h200 = 100.0 * (best - 100.0 * d[HITS] / d[SECTORS]) / best
        sim = seen[key]
        kind = d["what"] if d["what"] != "capacity" else ("fits" if h200 < 0.5 else "overflows")
        diffs[kind].append(abs(sim - h200))
        print(f"{d['what']:9s} {256 - carve // 1024:6d} {d['base']:6d} {d['lines'] // 8:4d} {d['stride']:7d} "
              f"{h200:12.2f} {sim:7.2f}")
    print("\nmean |simgpu - H200| of the lost share (points):")
    for kind, v in diffs.items():
        print(f"  {kind:10s} {np.mean(v):6.2f}  over {len(v)} launches (largest {max(v):.2f})")


if __name__ == "__main__":
    main()
