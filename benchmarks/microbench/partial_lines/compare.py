"""simgpu beside the H200 for partial_lines.py's launches: lines a ns by sectors a line (p) and words
a sector (w). simgpu runs 262,144 lines a launch (the H200 1,048,576; rates are steady-state).
`python compare.py` prints the table."""
import json
import sys
import types
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.modules.setdefault("cupy", types.ModuleType("cupy"))  # the device script imports CuPy
sys.path.insert(0, str(HERE))
import partial_lines as pl  # noqa: E402

import simgpu as sg  # noqa: E402

SMS = 132
LINES = 1 << 18


def main() -> None:
    rows = map(json.loads, next(HERE.glob("results/partial_lines_GPU-*.jsonl")).read_text().splitlines())
    real = {(r["p"], r["w"]): r for r in rows if "own" not in r}
    k = sg.RawModule(code=pl.SRC).get_function("st_pattern")
    buf = sg.zeros(pl.REGION_LINES * 32, np.float32)
    grid, block = 4 * SMS, 256
    nwarps = grid * block // 32
    print(f"{'p':>2s} {'w':>2s} {'H200 lines/ns':>14s} {'simgpu lines/ns':>16s} {'ratio':>6s}")
    for p, w in pl.PATTERNS:  # the first table of partial_lines.py (grid-stride, 16 MB)
        lps, iters = pl.shape(p, w, nwarps, LINES)
        args = (buf, np.int32(p), np.int32(w), np.int32(iters), np.int32(pl.REGION_LINES), np.int32(0))
        k((grid,), (block,), args)  # the region into L2, as the device run's untimed launch
        rep = k((grid,), (block,), args, warm_caches=True)
        lines = iters * nwarps * lps
        sim = lines / rep.metrics["gpu__time_duration.sum"]
        h = real[(p, w)]["lines_per_ns"]
        print(f"{p:2d} {w:2d} {h:14.1f} {sim:16.1f} {sim / h:6.2f}")


if __name__ == "__main__":
    main()
