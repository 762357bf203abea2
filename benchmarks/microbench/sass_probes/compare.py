"""probes.cu and global_probes.cu on simgpu against the H200 (results/*.csv from run.sh):
instruction, wavefront, request and sector counts side by side, the ones that differ marked
(simulated|H200). Hit rates are marked when more than 3 points apart, L2 read sectors when more
than 2 % apart, DRAM sectors read when more than 5 % and 64 sectors (the tolerances of issue 3;
the machine code a launch fetches from DRAM varies by some 50 sectors between launches).

    python compare.py
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

import numpy as np

import simgpu as sg

HERE = Path(__file__).parent
N = 128
METRICS = [  # (column, ncu metric)
    ("sh ld inst", "smsp__sass_inst_executed_op_shared_ld.sum"),
    ("sh ld wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
    ("sh st inst", "smsp__sass_inst_executed_op_shared_st.sum"),
    ("sh st wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
    ("sh atom inst", "smsp__sass_inst_executed_op_shared_atom.sum"),
    ("sh atom wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"),
    ("gl ld inst", "smsp__sass_inst_executed_op_global_ld.sum"),
    ("gl ld sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
    ("gl st inst", "smsp__sass_inst_executed_op_global_st.sum"),
    ("gl st sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
    ("loc ld inst", "smsp__sass_inst_executed_op_local_ld.sum"),
    ("loc st inst", "smsp__sass_inst_executed_op_local_st.sum"),
    ("gl ld req", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"),
    ("gl atom req", "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"),
    ("gl atom sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum"),
    ("gl red req", "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"),
    ("gl red sect", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"),
    ("L1 ld hit", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"),
    ("L2 rd", "lts__t_sectors_srcunit_tex_op_read.sum"),
    ("L2 atom", "lts__t_sectors_srcunit_tex_op_atom.sum"),
    ("L2 red", "lts__t_sectors_srcunit_tex_op_red.sum"),
    ("DRAM rd", "dram__sectors_read.sum"),
    ("L1 hit %", "l1tex__t_sector_hit_rate.pct"),
    ("regs", "launch__registers_per_thread"),
]


def launches():
    """The launches of probes.cu's main(), in order: (kernel, grid, block, args)."""
    f = sg.zeros(1 << 18, dtype=np.float32)
    g = sg.zeros(1 << 18, dtype=np.float32)
    d = sg.zeros(1 << 17, dtype=np.float64)
    ia = sg.zeros(1 << 18, dtype=np.int32)
    ib = sg.zeros(1 << 18, dtype=np.int32)
    one = np.float32(1.0)
    calls = [("st_shared_4", (g, one)), ("st_shared_2", (g, one)), ("ld_shared_sym", (g, one)),
             ("ld_shared_unaligned", (g, one)), ("ld_global_4", (f, g)), ("st_global_4", (g, one)),
             ("ld_shared_bytes", (g, np.int32(1))), ("ld_shared_bytes", (g, np.int32(4))),
             ("ld_shared_bytes", (g, np.int32(5))), ("ld_shared_double", (d, np.int32(1))),
             ("ld_shared_double", (d, np.int32(2))), ("ld_shared_double", (d, np.int32(16))),
             ("warp_reduce_volatile", (g, f)), ("shared_atomics", (ib, ia, np.int32(7))),
             ("local_array", (g, ia)), ("ld_shared_loop", (g, np.int32(64))), ("ld_shared_2d", (g, one))]
    return [(name, (1,), (N,), args) for name, args in calls]


def global_launches():
    """The launches of global_probes.cu's main(), in order."""
    a = sg.zeros(16 << 20, dtype=np.float32)  # 64 MB, zeros
    b = sg.zeros(16 << 20, dtype=np.float32)
    c = sg.zeros(1 << 18, dtype=np.float32)
    g4 = ((4,), (128,))
    out = [("ld_float2", *g4, (a, b)), ("ld_float4", *g4, (a, b)),
           ("ld_bytes", *g4, (a, b, np.int32(1))), ("ld_bytes", *g4, (a, b, np.int32(3))),
           ("ld_misaligned", *g4, (a, b, np.int32(1))), ("ld_misaligned", *g4, (a, b, np.int32(8))),
           ("atomic_same", *g4, (c, a)), ("atomic_distinct_used", *g4, (c, b)),
           ("ld_cache_ops", *g4, (a, b, np.int32(0))), ("atomics_more", *g4, (c, c, c, b)),
           ("st_same_word", *g4, (b,))]
    out += [("reread", (1,), (1024,), (a, b, np.int32(kb * 256))) for kb in (32, 96, 160, 200, 240)]
    out += [("reread_strided", (1,), (32,), (a, b, np.int32(lines), np.int32(32768))) for lines in (16, 32, 64)]
    out += [("reread_strided", (1,), (32,), (a, b, np.int32(64), np.int32(4096))),
            ("stencil5", (8, 8), (32, 8), (a, b, np.int32(512)))]
    return out


def cache_launches():
    """The launches of cache_probes.cu's main(), in order (with launch options where needed)."""
    a = sg.zeros(50 << 20, dtype=np.float32)  # 200 MB, zeros
    b = sg.zeros(16 << 20, dtype=np.float32)
    smem = {"shared_mem": 100 * 1024}
    out = [("reread_smem", (1,), (1024,), (a, b, np.int32(kb * 256)), smem) for kb in (64, 96, 128, 160)]
    out += [("reread_big", (264,), (512,), (a, b, np.int64(mb << 16)), {"timing": False})
            for mb in (32, 48, 56, 64, 96)]
    out += [("shared_atomics_same", (2,), (128,), (b, a)), ("load_after_store", (4,), (128,), (a, b)),
            ("half_warp", (4,), (128,), (a, b)), ("generic_shared", (2,), (256,), (b, np.int32(1))),
            ("global_atomics_uniform", (4,), (128,), (b, b[16:], b[1024:], a)),
            ("global_atomics_more", (4,), (128,), (b, b[8:], b[16:], b[1024:], a))]
    return out


# Launches simgpu does not reproduce yet (kernel -> why); compare() reports their differences apart.
KNOWN_GAPS = {
    "reread_smem": "L1 replacement: beside the 228 KB carveout (a 21 KB L1 of 5 ways) the H200 kept none of "
                   "64-160 KB read twice, as LRU; simgpu's victim drawn among the 11 oldest ways (config "
                   "l1_victim_pool, fitted to sweeps through 29-54 ways, l1_replacement, l1_recency) draws among "
                   "all 5 here and keeps 120 of 4,096 sectors at 64 KB, 16 of 6,144 at 96 KB, 4 of 8,192 at 128 KB",
    "reread_big": "L2 and L1 replacement: on the H200 48 MB read twice by a wave of free-running CTAs costs "
                  "1.43x its size in DRAM reads, 64 MB 1.86x (simgpu's two LRU partitions with copies: 2.0x "
                  "from 48 MB, as the H200 itself for l2_capacity's lock-step reuse: 1.87x at 48 MB), "
                  "and 9-12 % of the second pass hits L1 (simgpu 3 %)",
    "shared_atomics_same": "a float atomicAdd on shared memory is a CAS loop in SASS (LDS + ATOMS.CAST.SPIN + "
                           "BRA), run as one (frontend/ptx/cas_loops.py); 4 warps of 32 lanes on one word "
                           "take more trips on the H200 (771 LDS for 8 warps) than simgpu's warps in step "
                           "(shared_cas README)",
}


SETS = [("probes.cu", "ncu.csv", launches), ("global_probes.cu", "global_ncu.csv", global_launches),
        ("cache_probes.cu", "cache_ncu.csv", cache_launches)]


def measured(path: Path) -> list[dict[str, str]]:
    rows = [r for r in csv.reader(path.open()) if r]
    head = next(i for i, r in enumerate(rows) if r[0] == "ID")
    return [dict(zip(rows[head], r)) for r in rows[head + 1:] if r[0].isdigit()]


def compare(source: str, results: str, make_launches, engine: str = "fast"
            ) -> tuple[list[str], list[str], list[str]]:
    """(table lines, differences, known differences) of one probe set: the counters (.sum) that are
    not equal (L2 / DRAM sectors: out of tolerance) and the hit rates more than 3 points apart, for
    the launches KNOWN_GAPS does not list and for those it does."""
    path = HERE / "results" / results
    if not path.exists():
        return [f"{source}: no {path.name} (run run.sh on a GPU host)"], [], []
    mod = sg.RawModule(code=(HERE / source).read_text())
    real = measured(path)
    metrics = [(c, m) for c, m in METRICS if m in real[0]]
    lines = [f"{source}", f"{'kernel':22} " + " ".join(f"{c:>12}" for c, _ in metrics)]
    differ, known = [], []
    for launch, r in zip(make_launches(), real):
        name, grid, block, args = launch[:4]
        options = dict(launch[4]) if len(launch) > 4 else {}
        kernel = mod.get_function(name)
        kernel.max_dynamic_shared_size_bytes = options.get("shared_mem", 0)
        rep = kernel(grid, block, args, engine=engine, **options)
        cells = []
        for _, m in metrics:
            sim, h200 = rep.metrics.get(m, 0.0), float(r[m].replace(",", ""))
            if m == "lts__t_sectors_srcunit_tex_op_read.sum":  # the tolerance
                same = abs(sim - h200) <= 0.02 * max(h200, 1.0)
            elif m == "dram__sectors_read.sum":  # 5 %, and the code fetch of a launch varies by ~50
                same = abs(sim - h200) <= max(0.05 * h200, 64.0)  # sectors (reread_strided: 360 vs 404)
            else:
                same = abs(sim - h200) < 0.5 if m.endswith(".sum") else abs(sim - h200) <= 3.0
            if not same and m != "launch__registers_per_thread":
                (known if name in KNOWN_GAPS else differ).append(f"{name} {m}: {sim:g} vs H200 {h200:g}")
            cells.append(f"{sim:g}" if same else f"{sim:g}|{h200:g}")
        lines.append(f"{name:22} " + " ".join(f"{c:>12}" for c in cells))
    return lines, differ, known


def main() -> int:
    for source, results, make in SETS:
        lines, differ, known = compare(source, results, make)
        print("\n".join(lines))
        print(f"simulated|H200 where they differ; {len(differ)} difference(s), {len(known)} in known gaps\n")
    for name, why in KNOWN_GAPS.items():
        print(f"known gap {name}: {why}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
