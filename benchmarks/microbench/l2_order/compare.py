"""order.cu on simgpu against the H200 (results/ncu_*.csv from run.sh): L2 read sectors per shared
sector (1.00: every shared sector reached L2 once; 2.00: the two SMs' misses never merged), L1
hits and kernel time, side by side, and the mean |error| of block_pair and big_cta, the launches
config l2_merge_inflight_half_lines is fitted to (slot_read's slots come in an order simgpu does not
reproduce).    python compare.py [--results DIR] [--half-lines Q0] [--sim-only]"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

import numpy as np

import simgpu as sg
from simgpu.crosscheck.ncu import parse_ncu_csv
from simgpu.timing import config as timing_config

HERE = Path(__file__).parent
SMS = 132
READ = "lts__t_sectors_srcunit_tex_op_read.sum"
HIT = "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"
TIME = "gpu__time_duration.sum"


def launches(buf, out):
    """(label, kernel, grid, block, dynamic shared bytes, args, sectors read by the pairs) in main()'s
    order; slot_read's launches each get their own zeroed slot counters."""
    rows = []
    for k in (1, 2, 4, 8):
        for stride in (8, 32):
            rows.append((f"block_pair k {k} stride {stride}", "block_pair", SMS * k, 256, (200 // k) * 1024,
                         (buf, np.int32(stride), out), SMS * k * 2048))
    for n in (256, 512, 1024):
        for stride in (8, 32):
            rows.append((f"big_cta threads {n} stride {stride}", "big_cta", SMS, n, 200 * 1024,
                         (buf, np.int32(stride), out), SMS * 8 * n))
    for k in (1, 2, 4, 8):
        for stride in (8, 32):
            rows.append((f"slot_read k {k} stride {stride}", "slot_read", SMS * k, 256, (200 // k) * 1024,
                         (buf, sg.zeros(SMS, dtype=np.uint32), np.int32(k), np.int32(stride), out),
                         SMS * k * 2048))
    return rows


def mask_launches(buf, out):
    """mask_pair's launches in main()'s order: (label, args), each with its own zeroed barrier."""
    rows = []
    for mode in range(7):
        for preload_only in (0, 1):
            if preload_only and (mode == 2 or mode >= 4):
                continue
            rows.append((f"mask_pair mode {mode}" + (" preload only" if preload_only else ""),
                         (buf, np.int32(2), np.int32(3), np.int32(mode), np.int32(preload_only),
                          sg.zeros(1, dtype=np.uint32), out)))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sim-only", action="store_true", help="no H200 columns (before the device run)")
    ap.add_argument("--results", default=str(HERE / "results" / "run3"),
                    help="the folder of ncu_*.csv (default: results/run3, the run with every launch)")
    ap.add_argument("--half-lines", type=float, default=None,
                    help="config l2_merge_inflight_half_lines for this run (0: every join in full)")
    opts = ap.parse_args()
    if opts.half_lines is not None:
        timing_config._DEFAULT = replace(timing_config.default_config(), l2_merge_inflight_half_lines=opts.half_lines)
    runs = [] if opts.sim_only else [parse_ncu_csv(p.read_text()) for p in sorted(Path(opts.results).glob("ncu_*.csv"))]
    mod = sg.RawModule(code=(HERE / "order.cu").read_text())
    buf = sg.zeros(66 * 8 * 2048 * 32, dtype=np.float32)
    out = sg.zeros(65536, dtype=np.float32)
    errors = []
    print(f"{'launch':30s} {'L2 reads per shared sector':>34s} {'L1 hit sectors':>26s} {'time us':>22s}")
    print(f"{'':30s} {'simgpu | H200 runs':>34s} {'simgpu | H200 run 1':>26s} {'simgpu | H200 run 1':>22s}")
    rows = launches(buf, out)
    for i, (label, kernel, grid, block, shared, args, reads) in enumerate(rows):
        fn = mod.get_function(kernel)
        fn.max_dynamic_shared_size_bytes = 200 * 1024
        m = fn((grid,), (block,), args, shared_mem=shared).metrics
        per = 2 * m[READ] / reads
        real = ", ".join(f"{2 * r[i][READ] / reads:.2f}" for r in runs)
        if runs and kernel != "slot_read":
            errors.append(abs(per - float(np.mean([2 * r[i][READ] / reads for r in runs]))))
        hits = f"{m[HIT]:g}" + (f" | {runs[0][i][HIT]:g}" if runs else "")
        time = f"{m[TIME] / 1e3:.2f}" + (f" | {runs[0][i][TIME] / 1e3:.2f}" if runs else "")
        print(f"{label:30s} {f'{per:.2f} | {real}':>34s} {hits:>26s} {time:>22s}", flush=True)
    if errors:
        print(f"block_pair and big_cta: mean |error| {np.mean(errors):.3f}, largest {max(errors):.3f} "
              "copies per shared sector")
    first = len(rows)
    print(f"\n{'launch':34s} {'L2 read sectors, simgpu | H200 runs':>44s}")
    fn = mod.get_function("mask_pair")
    fn.max_dynamic_shared_size_bytes = 120 * 1024
    for j, (label, args) in enumerate(mask_launches(buf, out)):
        m = fn((SMS,), (256,), args, shared_mem=120 * 1024).metrics
        real = ", ".join(f"{r[first + j][READ]:g}" for r in runs if first + j < len(r))
        print(f"{label:34s} {f'{m[READ]:g} | {real}':>44s}", flush=True)


if __name__ == "__main__":
    main()
