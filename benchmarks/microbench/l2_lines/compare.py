"""lines.cu on simgpu beside the H200 (results/lines.txt): the time of each pattern and the L2
sectors and lines it served per ns, from a warm L2.    python compare.py [lane_bytes ...]"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

import simgpu as sg

HERE = Path(__file__).parent
CTAS, THREADS, ITERS, SPAN = 1056, 256, 64, 24 << 20


def main() -> None:
    real = {int(r[0]): [float(x) for x in r[1:]] for r in
            (line.split() for line in (HERE / "results" / "lines.txt").read_text().splitlines()) if r and r[0].isdigit()}
    lanes = [int(a) for a in sys.argv[1:]] or sorted(real)
    kernel = sg.RawModule(code=(HERE / "lines.cu").read_text()).get_function("read_lines")
    buf = sg.zeros((SPAN + 64 * 1024) // 4, np.float32)
    out = sg.zeros(16, np.float32)
    print(f"{'lane B':>6s} {'H200 ns':>9s} {'simgpu ns':>9s} {'error':>7s} {'H200 lines/ns':>13s} {'simgpu lines/ns':>15s}")
    for lane in lanes:
        ns, loads, sectors, lines = real[lane]
        args = (buf, out, np.int32(lane), np.int32(ITERS), np.int64(SPAN))
        m = kernel((CTAS,), (THREADS,), args, warm_caches=True)  # first run fills L1/L2, as the warm-up does
        m = kernel((CTAS,), (THREADS,), args, warm_caches=True)
        t = m.timing.time_ns
        print(f"{lane:6d} {ns:9.0f} {t:9.0f} {100 * (t - ns) / ns:+6.1f}% {lines / ns:13.1f} {lines / t:15.1f}")


if __name__ == "__main__":
    main()
