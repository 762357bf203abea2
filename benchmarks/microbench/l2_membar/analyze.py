#!/usr/bin/env python3
"""The table of README.md from results/ (membar.cu under ncu on the H200).

    python analyze.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from simgpu.crosscheck.ncu import parse_ncu_csv  # noqa: E402

P = "lts__t_sectors_"


def main() -> None:
    rows = [launch.metrics for launch in parse_ncu_csv((HERE / "results" / "ncu.csv").read_text())]
    launches = [ln.split() for ln in (HERE / "results" / "launches.txt").read_text().splitlines() if ln.strip()]

    def f(r, k):
        return float(r[k])

    print(f"{'kernel':16s} {'CTAs':>5s} {'bytes':>9s} {'spin':>7s} | {'sectors':>8s} {'hits':>8s} | {'tex':>7s} "
          f"{'fabric':>7s} {'gcc':>4s} | {'membar':>7s} {'of them fabric':>14s} {'sysmem':>7s} | {'ns':>7s}")
    for r, (kernel, ctas, _, nbytes, spin) in zip(rows, launches):
        print(f"{kernel:16s} {ctas:>5s} {nbytes:>9s} {spin:>7s} | {f(r, 'lts__t_sectors.sum'):8.0f} "
              f"{f(r, 'lts__t_sectors_lookup_hit.sum'):8.0f} | {f(r, P + 'srcunit_tex.sum'):7.0f} "
              f"{f(r, P + 'srcunit_ltcfabric.sum'):7.0f} {f(r, P + 'srcunit_gcc.sum'):4.0f} | "
              f"{f(r, P + 'op_membar.sum'):7.0f} {f(r, P + 'srcunit_ltcfabric_op_membar.sum'):14.0f} "
              f"{f(r, P + 'aperture_sysmem.sum'):7.0f} | {f(r, 'gpu__time_duration.sum'):7.0f}")


if __name__ == "__main__":
    main()
