"""int64_chain: cycles a link of a 64-bit address chain, and cycles a global load when one warp (or
several warps of one sub-partition) issue loads with no arithmetic between them, on the device or
in simgpu.

    python run.py device OUT CUBIN   # device (CuPy): OUT/int64_chain.jsonl, the median of 5 launches
    python run.py sim [OUT]          # anywhere: OUT/simgpu.jsonl (default results/)
    python run.py table [RESULTS]    # both side by side
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
from side_by_side import main, read_jsonl, write_jsonl  # noqa: E402

LINKS = 64
CHAINS = ("chain_ptr", "chain_i64")  # ptxas: an IMAD.WIDE a link; IADD3 + IMAD.X a link
ISSUES = (4, 8, 16, 32)
WARPS = (1, 4, 16)  # 16 warps: 4 on each sub-partition
REPS = 5


def cases():
    for name in CHAINS:
        yield name, 1, 32
    for n in ISSUES:
        for w in WARPS:
            yield f"issue_{n}", n, 32 * w


def _args(xp, name: str, threads: int):
    st = xp.zeros(2 * max(1, threads // 32), np.int64)
    if name == "chain_ptr":
        return (xp.zeros(1, np.float32), np.int32(3), xp.zeros(threads, np.uint32), st), st
    if name == "chain_i64":
        return (np.int64(5), np.int64(3), xp.zeros(threads, np.uint32), st), st
    return (xp.ones(64 * 32, np.float32), xp.zeros(1, np.float32), st), st


def _row(name: str, n: int, threads: int, per_warp: list[float]) -> dict:
    per = LINKS if name.startswith("chain") else n
    return {"case": name, "n": n, "warps": threads // 32, "cycles": float(np.median(per_warp)),
            "per_link_or_load": float(np.median(per_warp)) / per, "max": float(max(per_warp))}


def run_device(out: Path, cubin: str) -> None:
    import cupy as cp
    mod = cp.RawModule(path=cubin)
    rows = []
    for name, n, threads in cases():
        k = mod.get_function(name)
        reps = []
        for _ in range(REPS):
            args, st = _args(cp, name, threads)
            k((1,), (threads,), args)
            s = cp.asnumpy(st).reshape(-1, 2)
            reps.append([float(b - a) for a, b in s[: max(1, threads // 32) if name.startswith("issue") else 1]])
        best = sorted(reps, key=lambda r: np.median(r))[REPS // 2]
        rows.append(_row(name, n, threads, best))
        print(json.dumps(rows[-1]), flush=True)
    write_jsonl(out / "int64_chain.jsonl", rows)


def run_sim(out: Path) -> None:
    import simgpu as sg
    mod = sg.RawModule(code=(HERE / "kernels.cu").read_text())
    rows = []
    for name, n, threads in cases():
        args, _ = _args(sg, name, threads)
        rep = mod.get_function(name)((1,), (threads,), args)
        reads = [t for t in rep.timing.clock_reads() if len(t) == 2]
        rows.append(_row(name, n, threads, [float(t[1] - t[0]) for t in reads]))
        print(json.dumps(rows[-1]), flush=True)
    write_jsonl(out / "simgpu.jsonl", rows)


def table(res: Path) -> None:
    def load(name):
        return {(r["case"], r["warps"]): r for r in read_jsonl(res / name)}
    real, sim = load("int64_chain.jsonl"), load("simgpu.jsonl")
    print(f"{'case':>10s} {'warps':>5s} {'dev cycles':>11s} {'a link/load':>11s} {'simgpu':>7s} {'a link/load':>11s}")
    for key in real or sim:
        r, s = real.get(key, {}), sim.get(key, {})
        print(f"{key[0]:>10s} {key[1]:5d} {r.get('cycles', float('nan')):11.0f} {r.get('per_link_or_load', float('nan')):11.2f} "
              f"{s.get('cycles', float('nan')):7.0f} {s.get('per_link_or_load', float('nan')):11.2f}")


if __name__ == "__main__":
    main(run_device, run_sim, table, HERE / "results", __doc__)
