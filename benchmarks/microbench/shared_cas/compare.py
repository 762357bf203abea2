"""cas.cu's launches in simgpu beside the H200's counters (results/ncu_1.csv, from run.sh): shared
atomics (CAS trips), shared loads and instructions per warp-level atomic, wavefronts per shared
atomic and per shared load, and the kernel time, with
simgpu's shared atomic adds as CAS loops (the default) and as single atomics
(`shared_cas_loops=False`, as before).

    python benchmarks/microbench/shared_cas/compare.py [CASE ...]
"""

import sys
from pathlib import Path

import numpy as np

import simgpu as sg

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from analyze import ATOMS, CASES, INST, ITERS, LDS, TIME, WF_ATOM, WF_LD, rows, values, warp_atomics  # noqa: E402


def main() -> None:
    src = (HERE / "cas.cu").read_text()
    mod = sg.RawModule(code="#define NO_MAIN\n" + src)
    h200 = {name: values(r) for (name, *_), r in zip(CASES, rows(HERE / "results" / "ncu_1.csv"))}
    want = sys.argv[1:] or [c[0] for c in CASES]
    print(f"{'case':20s} {'ATOMS/op sim':>12s} {'H200':>7s} {'err':>7s} {'LDS/op sim':>10s} {'H200':>7s} "
          f"{'inst/op sim':>11s} {'H200':>7s} {'wf/ATOMS sim':>12s} {'H200':>6s} {'wf/LDS sim':>10s} {'H200':>6s} "
          f"{'us sim':>7s} {'H200':>6s} {'err':>6s} | {'no loops: ATOMS/op':>18s} {'us':>6s}")
    for name, kernel, grid, block, bins in CASES:
        if name not in want:
            continue
        out = sg.zeros(1024 * grid * 2, np.float64)
        args = (out, np.int32(ITERS)) + ((np.uint32(bins),) if bins else ())
        got = {}
        for loops in (True, False):
            rep = mod.get_function(kernel)((grid,), (block,), args, shared_cas_loops=loops)
            got[loops] = rep.metrics
        ops = warp_atomics(grid, block)
        m, hw = got[True], h200[name]
        print(f"{name:20s} {m[ATOMS] / ops:12.3f} {hw[ATOMS] / ops:7.3f} {100 * (m[ATOMS] / hw[ATOMS] - 1):+6.1f}% "
              f"{m[LDS] / ops:10.3f} {hw[LDS] / ops:7.3f} {m[INST] / ops:11.2f} {hw[INST] / ops:7.2f} "
              f"{m[WF_ATOM] / m[ATOMS]:12.3f} {hw[WF_ATOM] / hw[ATOMS]:6.3f} {m[WF_LD] / m[LDS]:10.3f} "
              f"{hw[WF_LD] / hw[LDS]:6.3f} "
              f"{m[TIME] / 1000:7.2f} {hw[TIME] / 1000:6.2f} {100 * (m[TIME] / hw[TIME] - 1):+5.0f}% | "
              f"{got[False][ATOMS] / ops:18.3f} {got[False][TIME] / 1000:6.2f}")


if __name__ == "__main__":
    main()
