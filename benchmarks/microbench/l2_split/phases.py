#!/usr/bin/env python3
"""How far apart do the CTAs that share a GEMM tile run, on the H200 (stamps.py under ncu) and in
simgpu's replay? Per variant: the median tile time, and for pairs of CTAs on SMs of one GPC that
share A (same grid row) or B (same grid column), and for the two CTAs of one SM, the |difference|
of their tile start cycles over all 16 tiles (p50, p90, share within 100 cycles). Also the L2 read
sectors simgpu counts for each variant of specs.py (to set beside results/split_*.json).

    python phases.py [--results results/stamps_ncu_GPU-293ebcea.jsonl.gz] [--sim] [--set KEY=JSON ...]
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import itertools
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from simgpu.memory.topology import H200_GPCS  # noqa: E402

GPC = {s: g for g, sms in enumerate(H200_GPCS) for s in sms}
VARIANTS = {("tiled", 0, 0): "tiled_shared_ab", ("tiled", 1, 0): "tiled_private_a", ("tiled", 0, 1): "tiled_private_b",
            ("cp", 0, 0): "cp_shared_ab", ("cp", 1, 0): "cp_private_a", ("cp", 0, 1): "cp_private_b"}


def pair_stats(starts: np.ndarray, sm: list[int]) -> str:
    """starts [256 CTAs, 16 tiles] in cycles; the CTAs' SMs."""
    groups: dict[str, list] = {"A": [], "B": [], "same SM": []}
    for c1, c2 in itertools.combinations(range(len(sm)), 2):
        s1, s2 = sm[c1], sm[c2]
        if s1 == s2:
            groups["same SM"].append((c1, c2))
        elif s1 in GPC and s2 in GPC and GPC[s1] == GPC[s2]:
            if c1 // 16 == c2 // 16:
                groups["A"].append((c1, c2))
            elif c1 % 16 == c2 % 16:
                groups["B"].append((c1, c2))
    out = [f"tile {np.median(np.diff(starts, axis=1)):5.0f}"]
    for name, pairs in groups.items():
        d = np.concatenate([np.abs(starts[a] - starts[b]) for a, b in pairs])
        out.append(f"{name} p50 {np.median(d):4.0f} p90 {np.percentile(d, 90):5.0f} <=100 {np.mean(d <= 100):.2f}")
    return " | ".join(out)


def hardware(path: Path) -> None:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            starts = np.array(r["clock"], float)[:, 1:17]
            name = VARIANTS[(r["body"], r["pa"], r["pb"])]
            print(f"H200   {name:16s} run {r['run']}: {pair_stats(starts, r['sm'])}")


def simulated(overrides: dict) -> None:
    import simgpu.timing.config as tc
    import simgpu.timing.model as tm

    tc._DEFAULT = dataclasses.replace(tc.default_config(), **overrides)
    tm.RECORD_AUTO_LIMIT = 10**9  # keep the per-entry record of these 2.5M-instruction launches
    import simgpu as sg
    from simgpu.crosscheck.cases import load_suite

    for name in VARIANTS.values():
        case = load_suite(HERE / "specs.py", [name])[0]
        kernel = sg.RawModule(code=case.source).get_function(case.kernel)
        args = [sg.asarray(a.copy()) if isinstance(a, np.ndarray) else a for a in case.args]
        rep = kernel(tuple(case.grid), tuple(case.block), tuple(args))
        rec = rep.timing.record
        loads = [pc for pc, m in enumerate(rec.linked.mem_class) if m in ("global_ld", "ldgsts")]
        starts, sm = np.zeros((256, 16)), [0] * 256
        for c in range(256):
            w = int(np.flatnonzero(rec.cta_of_warp == c)[0])  # the CTA's first warp
            e = slice(rec.warp_off[w], rec.warp_off[w + 1])
            t = rec.issue[e][np.isin(rec.pc[e], loads)][::2]  # A then B each tile (cp: the prologue first)
            starts[c] = t[-16:]
            sm[c] = int(rec.warp_sm[w])
        reads = rep.metrics["lts__t_sectors_srcunit_tex_op_read.sum"]
        print(f"simgpu {name:16s} {reads:9,.0f} L2 read sectors: {pair_stats(starts, sm)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", type=Path, default=HERE / "results" / "stamps_ncu_GPU-293ebcea.jsonl.gz")
    ap.add_argument("--sim", action="store_true", help="also replay the six variants in simgpu")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=JSON", help="TimingConfig override")
    a = ap.parse_args()
    hardware(a.results)
    if a.sim:
        simulated({k: json.loads(v) for k, v in (s.split("=", 1) for s in a.set)})


if __name__ == "__main__":
    main()
