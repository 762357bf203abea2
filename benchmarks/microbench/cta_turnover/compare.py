"""simgpu's replay of turnover.py's vector adds beside the H200's stamps (results/stamps.npz):
kernel time, warp lifetimes by wave and the gap from a CTA's last store to the next CTA on its
slot, on simgpu's cycles. Runs anywhere (~10 s per launch).

    python compare.py [--set KEY=VALUE ...]     # TimingConfig fields, e.g. cta_launch_ns=0.2
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
import types
from pathlib import Path

import numpy as np
from analyze import cta_times, slot_gaps

import simgpu as sg
import simgpu.timing.config as timing_config

HERE = Path(__file__).resolve().parent
N = 1 << 22
Q = (10, 50, 90)


def _device_source() -> str:
    """turnover.py's kernels (the device run's vadd is the one simulated here)."""
    sys.modules.setdefault("cupy", types.ModuleType("cupy"))  # turnover.py imports CuPy for the device run
    from turnover import SRC

    return SRC


def waves(life_by_cta: np.ndarray, slots: int) -> str:
    """Median warp lifetime of the first, second, middle and last wave of CTAs."""
    n = len(life_by_cta)
    parts = [(0, slots), (slots, 2 * slots), (n // 2, n // 2 + slots), (n - slots, n)]
    return " / ".join(f"{np.median(life_by_cta[a:b]):.0f}" for a, b in parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", action="append", default=[], help="TimingConfig field=JSON value")
    opts = ap.parse_args()
    fields = {k: json.loads(v) for k, v in (s.split("=", 1) for s in opts.set)}
    if fields:
        timing_config._DEFAULT = dataclasses.replace(timing_config.default_config(), **fields)
    h200 = np.load(HERE / "results" / "stamps.npz")
    kernel = sg.RawModule(code=_device_source()).get_function("vadd")
    rng = np.random.default_rng(0)
    a = sg.asarray(rng.random(N, dtype=np.float32))
    b = sg.asarray(rng.random(N, dtype=np.float32))
    print("per launch: simulated ns; warp life (first issue to the store, H200: first to last clock read)"
          " median by wave first / second / middle / last; slot gap p10/50/90 (cycles)")
    for block in (256, 1024):
        wpc = block // 32
        c = sg.zeros(N, np.float32)
        r = kernel((N // block,), (block,), (a, b, c, np.int32(N)))
        assert np.array_equal(c.get(), a.get() + b.get())
        rec, tl = r.timing.record, r.timing.timeline
        first = rec.issue[rec.warp_off[:-1]]
        store = rec.issue[rec.warp_off[1:] - 2]  # the entry before the exit
        life = (store - first).reshape(-1, wpc)
        slots = r.ctas_per_sm * 132
        gaps = slot_gaps(tl["cta_sm"], tl["cta_start"], store.reshape(-1, wpc).max(1), r.ctas_per_sm)
        print(f"simgpu vadd {block:4d}: {r.metrics['gpu__time_duration.sum']:7.0f} ns; "
              f"warp life {waves(np.median(life, 1), slots)}; slot gap {np.percentile(gaps, Q).round()}")
        sm, start, end = cta_times(h200[f"vadd_{block}_0_sm"], h200[f"vadd_{block}_0_w0"], h200[f"vadd_{block}_0_w1"])
        hl = (h200[f"vadd_{block}_0_w1"] - h200[f"vadd_{block}_0_w0"]).reshape(-1, wpc)
        print(f"H200   vadd {block:4d}:   (ncu)   ; warp life {waves(np.median(hl, 1), slots)}; "
              f"slot gap {np.percentile(slot_gaps(sm, start, end, slots // 132), Q).round()}")


if __name__ == "__main__":
    main()
