#!/usr/bin/env python3
"""Print what results/rounds.txt (run.sh on an H200) holds: per launch the CTAs per unit in CTA order
(a = SMs 124-127, b = 128-131, 0-7 = GPCs), where SMs 124-131 come in the walk, and for the two
GEMMs how far apart the CTAs that share an A strip inside one GPC start and end.

    python benchmarks/microbench/dispatch_rounds/analyze.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from simgpu.memory.topology import H200_GPCS  # noqa: E402

LABEL = {s: str(g) for g, sms in enumerate(H200_GPCS) for s in sms} | {s: "a" for s in range(124, 128)} | {
    s: "b" for s in range(128, 132)}
SHARERS = {"batched_gemm_z": 16, "mma_ldmatrix_gemm": 64}  # consecutive CTAs that read one A strip


def units(smids: list[int]) -> list[list]:
    """[label, CTAs, first CTA] per run of CTAs on one unit, in CTA order."""
    out: list[list] = []
    for i, s in enumerate(smids):
        if out and out[-1][0] == LABEL[s]:
            out[-1][1] += 1
        else:
            out.append([LABEL[s], 1, i])
    return out


def spreads(sm: np.ndarray, t: np.ndarray, size: int) -> np.ndarray:
    """Per group of `size` consecutive CTAs and GPC, the spread of t over its CTAs (ns)."""
    out = []
    for s0 in range(0, len(sm), size):
        idx = np.arange(s0, min(len(sm), s0 + size))
        for unit in {LABEL[s] for s in sm[idx]}:
            sel = idx[[LABEL[s] == unit for s in sm[idx]]]
            if len(sel) > 1:
                out.append(t[sel].max() - t[sel].min())
    return np.asarray(out, np.float64)


def main() -> None:
    for line in (HERE / "results" / "rounds.txt").read_text().splitlines():
        if not line.startswith("RESULT "):
            continue
        d = json.loads(line[len("RESULT "):])
        run = units(d["smid"])
        print(f"== {d['name']} ({len(d['smid'])} CTAs)")
        print("   " + " ".join(f"{u}:{n}" for u, n, _ in run[:40]))
        print("   SMs 124-131 from CTA", [i for u, _, i in run if u in "ab"][:20])
        if d["name"] in SHARERS:
            sm, t0, t1 = np.asarray(d["smid"]), np.asarray(d["start"], np.float64), np.asarray(d["end"], np.float64)
            s0, s1 = spreads(sm, t0, SHARERS[d["name"]]), spreads(sm, t1, SHARERS[d["name"]])
            print(f"   kernel {t1.max() / 1e3:.1f} us; CTA time median {np.median(t1 - t0) / 1e3:.1f} us; "
                  f"A-sharers in one GPC start {np.median(s0):.0f} ns apart (median), end {np.median(s1):.0f} ns")


if __name__ == "__main__":
    main()
