"""Reads results/stamps.npz (turnover.py stamps): per launch the CTA lifetimes and the gap from a
CTA's last warp to the start of the CTA that takes its slot next, on the SM's clock (cycles)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def cta_times(sm: np.ndarray, w0: np.ndarray, w1: np.ndarray) -> tuple:
    """Per CTA: SM, first warp's start, last warp's end (cycles)."""
    wpc = len(w0) // len(sm)
    return sm, w0.reshape(-1, wpc).min(1), w1.reshape(-1, wpc).max(1)


def slot_gaps(sm: np.ndarray, start: np.ndarray, end: np.ndarray, slots: int) -> np.ndarray:
    """Per CTA past an SM's first `slots`: its start minus the end of the CTA whose slot it took
    (the SM's ends in order, first ended first refilled)."""
    gaps = []
    for m in np.unique(sm):
        idx = np.where(sm == m)[0]
        st = np.sort(start[idx])
        en = np.sort(end[idx])
        k = min(slots, len(st))
        gaps.append(st[k:] - en[: len(st) - k])
    return np.concatenate(gaps) if gaps else np.zeros(0)


def report(d, name: str, slots: int) -> None:
    sm, start, end = cta_times(d[f"{name}_sm"], d[f"{name}_w0"], d[f"{name}_w1"])
    life = end - start
    gaps = slot_gaps(sm, start, end, slots)
    per_sm_span = [end[sm == m].max() - start[sm == m].min() for m in np.unique(sm)]
    q = (5, 25, 50, 75, 95)
    print(f"{name:14s} CTAs {len(sm):6d}  life p{q} {np.percentile(life, q).round().astype(int)}"
          f"  slot gap {np.percentile(gaps, q).round().astype(int)}  SM span median {np.median(per_sm_span):.0f}")


def warp_offsets(d, name: str, wpc: int) -> None:
    """Median start of each warp of a CTA after the CTA's first warp (cycles)."""
    w0 = d[f"{name}_w0"].reshape(-1, wpc)
    print(f"{name:14s} warp starts after the CTA's first (median, by warp):",
          " ".join(str(int(x)) for x in np.median(w0 - w0.min(1, keepdims=True), 0).round()))


def main() -> None:
    d = np.load(Path(sys.argv[1] if len(sys.argv) > 1 else "results") / "stamps.npz")
    for block, slots in ((256, 8), (1024, 2)):
        for rep in range(2):
            report(d, f"vadd_{block}_{rep}", slots)
    for block in (32, 256, 1024):
        report(d, f"empty_{block}", min(32, 2048 // block))
    for name, wpc in (("vadd_256_0", 8), ("vadd_1024_0", 32), ("empty_1024", 32)):
        warp_offsets(d, name, wpc)


if __name__ == "__main__":
    main()
