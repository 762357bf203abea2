"""simgpu's side of run.py: the instrumented launches in the timing replay, each warp's clock64 reads
taken at the cycle the replay issues them (sim_stamps), beside the H200's stamps
(results/stamps.npz), step by step. `python sim.py [RESULTS]` prints the table."""
import sys
from pathlib import Path

import numpy as np
from cases import CASES, STRIDE, suite_spec, warps_of

import simgpu as sg
import simgpu.timing.model as timing_model

HERE = Path(__file__).resolve().parent


def sim_stamps(rep, warps: int) -> tuple[np.ndarray, np.ndarray]:
    """Per warp the issue cycle of each clock64 read of lane 0's stamps, and its SM (the replay's)."""
    out = np.zeros((warps, STRIDE), np.int64)
    for w, t in enumerate(rep.timing.clock_reads()[:warps]):
        out[w, :len(t)] = t + 1  # + 1: a stamp of 0 reads as "not written" below
    return out, np.asarray(rep.timing.timeline["warp_sm"])


def summary(stamps: np.ndarray, sm: np.ndarray) -> dict:
    """Cycles per step (medians over warps), and where warps start and end relative to their SM's
    first stamp."""
    k = int((stamps != 0).sum(axis=1).max())
    s = stamps[:, :k].astype(np.float64)
    first = {int(m): s[sm == m, 0].min() for m in np.unique(sm)}
    base = np.array([first[int(m)] for m in sm])
    return {"steps": k, "step_median": np.median(np.diff(s, axis=1), axis=0),
            "start_median": float(np.median(s[:, 0] - base)), "start_max": float((s[:, 0] - base).max()),
            "end_median": float(np.median(s[:, -1] - base)), "end_max": float((s[:, -1] - base).max()),
            "warps_per_sm": float(np.median(np.bincount(sm)[np.bincount(sm) > 0]))}


def main() -> None:
    res = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "results"
    real = np.load(res / "stamps.npz") if (res / "stamps.npz").exists() else None
    timing_model.RECORD_AUTO_LIMIT = 10**9  # keep the per-entry record
    mod = sg.RawModule(code=(HERE / "kernels.cu").read_text())
    for case, (folder, kname) in CASES.items():
        spec = suite_spec(folder, case)
        warps = warps_of(spec)
        args = [sg.asarray(a) if isinstance(a, np.ndarray) else a for a in spec["args"]]
        rep = mod.get_function(kname)(tuple(spec["grid"]), tuple(spec["block"]),
                                      tuple(args) + (sg.zeros(warps * STRIDE, np.int64), sg.zeros(warps, np.uint32)))
        sim = summary(*sim_stamps(rep, warps))
        print(f"\n{case}: simgpu {rep.metrics['gpu__time_duration.sum']:,.0f} ns")
        rows = [("simgpu", sim)]
        if real is not None:
            rows.append(("H200", summary(real[f"{case}_stamps"], real[f"{case}_sm"])))
        for who, s in rows:
            print(f"  {who:7s} warps/SM {s['warps_per_sm']:.0f}; start median {s['start_median']:,.0f} max "
                  f"{s['start_max']:,.0f}; end median {s['end_median']:,.0f} max {s['end_max']:,.0f} cycles")
            print("          cycles per step (median over warps): "
                  + " ".join(f"{x:,.0f}" for x in s["step_median"]))


if __name__ == "__main__":
    main()
