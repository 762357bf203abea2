"""atom_requests.py's launches in simgpu beside what ncu counted on the H200
(results/atom_requests_*_GPU-4183bef7): per case, L1TEX requests, L1TEX sectors and L2 sectors of
the atomics. Prints a table and the cases that differ; exits 1 if any does.

    python compare_atom_requests.py [--every N]   # every Nth case (default all 232)
"""

import argparse
import csv
import gzip
import json
import sys
from pathlib import Path

import numpy as np

import simgpu as sg

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from atom_requests import BLOCK, SRC, WARPS, buffer_words  # noqa: E402

RESULTS = HERE / "results"
CHIP = "GPU-4183bef7"
METRICS = ("l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum",
           "lts__t_sectors_srcunit_tex_op_{op}.sum")


def recorded() -> list[tuple[dict, dict[str, float]]]:
    """(case, ncu metric -> value) in launch order."""
    cases = json.load(open(RESULTS / f"atom_requests_cases_{CHIP}.json"))
    with gzip.open(RESULTS / f"atom_requests_ncu_{CHIP}.csv.gz", "rt") as f:
        rows = list(csv.DictReader(line for line in f if line.startswith('"')))
    by_id: dict[str, dict[str, float]] = {}
    for r in rows:
        by_id.setdefault(r["ID"], {})[r["Metric Name"]] = float(r["Metric Value"].replace(",", ""))
    return list(zip(cases, by_id.values(), strict=True))


def simulate(mod, case: dict) -> dict[str, float]:
    buf = sg.zeros(buffer_words(), np.int32)
    out = sg.zeros(WARPS * 32, np.int32)
    rep = mod.get_function(case["kernel"])((WARPS * 32 // BLOCK,), (BLOCK,),
                                            (buf, out, np.int32(case["lanes"]), np.int32(case["stride"])))
    return rep.metrics


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=1, help="simulate every Nth case")
    a = ap.parse_args()
    mod = sg.RawModule(code=SRC)
    bad = 0
    print(f"{'kernel':8s} {'lanes':>5s} {'stride B':>8s} | requests sim / H200 | L1 sectors | L2 sectors")
    for i, (case, real) in enumerate(recorded()):
        if i % a.every:
            continue
        op = "red" if case["kernel"].startswith("red") else "atom"
        sim = simulate(mod, case)
        names = [m.format(op=op) for m in METRICS]
        pairs = [(sim[n], real[n]) for n in names]
        off = any(s != r for s, r in pairs)
        bad += off
        print(f"{case['kernel']:8s} {case['lanes']:5d} {case['stride_bytes']:8d} | "
              + " | ".join(f"{s:,.0f} / {r:,.0f}" for s, r in pairs) + ("   DIFFERS" if off else ""))
    print(f"{bad} case(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
