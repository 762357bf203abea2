#!/usr/bin/env python3
"""How far apart do the CTAs of the register-blocked SGEMM run that share rows of A (same grid row,
SMs of one GPC) or columns of B, and the two CTAs of one SM: on the H200 (results/, stamps.py under
ncu) and in simgpu's replay (--sim), with the L2 read sectors of each variant beside them.

    python analyze.py [--sim]
"""

from __future__ import annotations

import argparse
import csv
import gzip
import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from phases import pair_stats  # noqa: E402  (the same pairs: grid rows / columns of 16 CTAs)


def hardware() -> None:
    rows = list(csv.reader((HERE / "results" / "ncu.csv").open()))
    h = next(i for i, r in enumerate(rows) if "Kernel Name" in r)
    col = rows[h].index("lts__t_sectors_srcunit_tex_op_read.sum")
    tcol = rows[h].index("gpu__time_duration.sum")
    launches = [r for r in rows[h + 1:] if len(r) > col and r[rows[h].index("Kernel Name")] == "regblock"]
    with gzip.open(HERE / "results" / "stamps.jsonl.gz", "rt") as f:
        for line, ncu in zip(f, launches):
            r = json.loads(line)
            starts = np.array(r["clock"], float)
            print(f"H200   {r['variant']:18s} run {r['run']} ok {r['ok']}: L2 reads {ncu[col]:>9s} time {ncu[tcol]:>7s} ns"
                  f" | {pair_stats(starts, r['sm'])}")


def simulated() -> None:
    import simgpu.timing.model as tm

    tm.RECORD_AUTO_LIMIT = 10**9
    import simgpu as sg
    from simgpu.crosscheck.cases import load_suite

    for case in load_suite(HERE / "specs.py"):
        kernel = sg.RawModule(code=case.source).get_function(case.kernel)
        args = [sg.asarray(a.copy()) if isinstance(a, np.ndarray) else a for a in case.args]
        rep = kernel(tuple(case.grid), tuple(case.block), tuple(args))
        # the replay's issue cycle of each CTA's first warp's first global load, every tile (simgpu's
        # clock64 is the functional engine's step count, not the replay's cycles)
        rec = rep.timing.record
        first_load = min(pc for pc, m in enumerate(rec.linked.mem_class) if m == "global_ld")
        n = int(rec.cta_of_warp.max()) + 1
        clk, sm = np.zeros((n, 32)), [0] * n
        for c in range(n):
            w = int(np.flatnonzero(rec.cta_of_warp == c)[0])
            e = slice(rec.warp_off[w], rec.warp_off[w + 1])
            clk[c] = rec.issue[e][rec.pc[e] == first_load][:32]
            sm[c] = int(rec.warp_sm[w])
        m = rep.metrics
        print(f"simgpu {case.name:18s}: L2 reads {m['lts__t_sectors_srcunit_tex_op_read.sum']:9,.0f} time "
              f"{m['gpu__time_duration.sum']:7,.0f} ns | {pair_stats(clk, sm)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sim", action="store_true", help="also run the three variants in simgpu")
    a = ap.parse_args()
    hardware()
    if a.sim:
        simulated()


if __name__ == "__main__":
    main()
