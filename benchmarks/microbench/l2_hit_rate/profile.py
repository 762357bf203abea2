#!/usr/bin/env python3
"""Device run: what makes up ncu's lts__t_sector_hit_rate.pct on the H200?

The recorded launches (validation/typical*) show the L2 hit rate 3-10 points above what their tex
reads and writes give (strided copies: reads 0.5 % hits, writes 100 %, overall 53.6 % where the two
make 50 %), and write hit rates above 100 % for kernels with atomics. This profiles chosen launches
with the L2 sectors split by source unit (tex, ltcfabric, ...), operation and lookup result, so the
counters the hit rate is made of can be read off (analyze.py).

    PYTHONPATH=. python benchmarks/microbench/l2_hit_rate/profile.py OUT.json      # on a GPU host
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "validation"))
sys.path.insert(0, str(ROOT))

TARGETS = {
    "typical": ["saxpy_gridstride", "add_float4", "copy_offset1", "reduce_tree_atomic", "histogram_shared",
                "histogram_global", "row_sum_naive", "spmv_csr", "col_major_read", "gemm_cp_async",
                "dot_double_atomic"],
    "typical2": ["add_partial_warps", "short_axpy", "warp_sum_redux", "fill_float4", "matvec_ldg4", "scatter_perm",
                 "shared_hist_int", "stencil3d", "transpose64", "store_stride2"],
    "typical3": ["dgemm_naive", "blelloch_scan", "hist_warp_private", "mandelbrot", "mlp_relu", "reduce6"],
    "typical4": ["spmv_banded_csr", "lut_gather", "stencil1d_r4"],
}
UNITS = ["tex", "ltcfabric", "fbp", "gcc", "host", "pe", "l1", "sm"]
METRICS = ["lts__t_sector_hit_rate.pct", "lts__t_sector_op_read_hit_rate.pct", "lts__t_sector_op_write_hit_rate.pct",
           "lts__t_sectors.sum", "lts__t_sectors_lookup_hit.sum", "lts__t_sectors_lookup_miss.sum",
           "lts__t_requests.sum", "lts__t_sectors_srcnode_gpc.sum", "lts__t_sectors_srcnode_gpc_lookup_hit.sum",
           "dram__sectors_read.sum", "dram__sectors_write.sum", "lts__d_sectors_fill_device.sum",
           "lts__d_sectors_fill_sysmem.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
           "lts__t_sectors_srcunit_tex_op_write.sum"]
for op in ("read", "write", "atom", "red"):
    METRICS += [f"lts__t_sectors_op_{op}.sum", f"lts__t_sectors_op_{op}_lookup_hit.sum",
                f"lts__t_sectors_op_{op}_lookup_miss.sum"]
for u in UNITS:
    METRICS += [f"lts__t_sectors_srcunit_{u}.sum", f"lts__t_sectors_srcunit_{u}_lookup_hit.sum",
                f"lts__t_sectors_srcunit_{u}_lookup_miss.sum", f"lts__t_requests_srcunit_{u}.sum"]
for op in ("read", "write", "atom", "red"):
    METRICS += [f"lts__t_sectors_srcunit_ltcfabric_op_{op}.sum",
                f"lts__t_sectors_srcunit_ltcfabric_op_{op}_lookup_hit.sum",
                f"lts__t_sectors_srcunit_tex_op_{op}_lookup_hit.sum"]


def main() -> None:
    from l2_reads import SUITES

    from simgpu.crosscheck.cases import load_suite
    from simgpu.crosscheck.gpu import profile_with_ncu

    cases, where = [], []
    for suite, specs in TARGETS.items():
        got = load_suite(SUITES[suite][0], specs)
        cases += got
        where += [(suite, c.name) for c in got]
    rows, status = profile_with_ncu(cases, METRICS, repeat=1, timeout=500)
    if rows is None:
        raise SystemExit(f"ncu failed: {status}")
    out = {"gpu": subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip(),
           "status": status, "launches": []}
    for (suite, name), per_launch in zip(where, rows):
        for i, runs in enumerate(per_launch):
            for r in runs:
                out["launches"].append({"suite": suite, "spec": name, "launch": i, "metrics": r.metrics})
    Path(sys.argv[1]).write_text(json.dumps(out, indent=1))
    print(status, len(out["launches"]), "launches")


if __name__ == "__main__":
    main()
