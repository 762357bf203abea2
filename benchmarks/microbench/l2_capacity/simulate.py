"""The launches of capacity.cu (results/launches.txt) on simgpu, beside what the H200 measured
(results/ncu.csv): DRAM bytes read and written, L2 tex and fabric read lookups and hits.

Each multi-pass kernel runs as one launch per pass, the later ones with warm caches: the L2 kept,
the L1s empty as at every launch (the GPU runs the passes in one launch with a spin barrier between
them; the H200's second passes miss L1 too: the same accesses in the same order).

    python benchmarks/microbench/l2_capacity/simulate.py [--only KERNEL] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
MB = 1 << 20
METRICS = ("dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
           "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", "lts__t_sectors_srcunit_ltcfabric_op_read.sum",
           "lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum")
SHORT = ("DRAMrd MB", "DRAMwr MB", "texRd", "texRdHit", "fabRd", "fabRdHit")


def launches() -> list[tuple[str, int, int, int, int]]:
    """(kernel, ctas, bytes read, bytes written, shift) of every launch, in launch order."""
    out = []
    for line in (HERE / "results" / "launches.txt").read_text().splitlines():
        f = line.split()
        if len(f) == 5 and not line.startswith("=="):
            out.append((f[0], int(f[1]), int(f[2]), int(f[3]), int(f[4])))
    return out


def measured() -> list[dict]:
    from simgpu.crosscheck.ncu import parse_ncu_csv

    return [r.metrics for r in parse_ncu_csv((HERE / "results" / "ncu.csv").read_text())]


def simulate(launch: tuple[str, int, int, int, int], module, bufs) -> dict:
    """The summed counters of one launch's passes on simgpu."""
    kernel, ctas, rbytes, wbytes, shift = launch
    a, b, o, bar = bufs
    opts = dict(timing=False)
    if kernel == "reuse":
        k = module.get_function("reuse")
        passes = [((ctas,), (1024,), (a, np.int64(rbytes // 16), np.int32(p), np.int32(p + 1), np.int32(shift), bar, o))
                  for p in range(2)]
    elif kernel in ("write_read", "write_reread"):
        k = module.get_function("write_read")
        src = a if kernel == "write_reread" else b
        passes = [((ctas,), (1024,), (a, np.int64(wbytes // 16), src, np.int64(rbytes // 16), np.int32(p),
                                      np.int32(p + 1), np.int32(shift), bar, o)) for p in range(2)]
    else:  # vadd: n floats, c at a + 8M floats (capacity.cu)
        k = module.get_function("vadd")
        n = wbytes // 4
        passes = [((ctas,), (256,), (a[: n], b[: n], a[8 << 20: (8 << 20) + n], np.int32(n)))]
    total = dict.fromkeys(METRICS, 0.0)
    for i, (grid, block, args) in enumerate(passes):
        rep = k(grid, block, args, warm_caches=i > 0, **opts)
        for m in METRICS:
            total[m] += float(rep.metrics[m])
    return total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", help="simulate only this kernel's launches")
    ap.add_argument("--json", help="write the rows (launch, simulated, measured) here")
    opts = ap.parse_args()
    import simgpu as sg

    module = sg.RawModule(code=(HERE / "capacity.cu").read_text(), options=("-DSIMGPU_NO_MAIN",))
    bufs = (sg.zeros(18 << 20, np.float32), sg.zeros(18 << 20, np.float32), sg.zeros(1 << 18, np.float32),
            sg.zeros(1024, np.uint32))
    rows = []
    head = f"{'kernel':13s} {'ctas':>5s} {'R MB':>5s} {'W MB':>5s} {'sh':>3s} |"
    print(head + "".join(f" {s:>19s}" for s in SHORT) + "   (simgpu / H200)")
    for launch, real in zip(launches(), measured()):
        if opts.only and launch[0] != opts.only:
            continue
        sim = simulate(launch, module, bufs)
        rows.append((launch, sim, {m: real[m] for m in METRICS}))
        cells = []
        for m in METRICS:
            s, r = sim[m], real[m]
            if m.startswith("dram"):
                s, r = s / MB, r / MB
                cells.append(f" {s:9.2f}/{r:9.2f}")
            else:
                cells.append(f" {s:9.0f}/{r:9.0f}")
        kernel, ctas, rb, wb, sh = launch
        print(f"{kernel:13s} {ctas:5d} {rb / MB:5.0f} {wb / MB:5.0f} {sh:3d} |" + "".join(cells), flush=True)
    for m in METRICS[:2]:
        diff = [abs(sim[m] - real[m]) / MB for _, sim, real in rows]
        if diff:
            print(f"{m}: mean |simgpu - H200| {sum(diff) / len(diff):.2f} MB over {len(diff)} launches, "
                  f"{sum(d <= 0.5 for d in diff)} within 0.5 MB, worst {max(diff):.2f} MB")
    if opts.json:
        Path(opts.json).write_text(json.dumps(rows))


if __name__ == "__main__":
    main()
