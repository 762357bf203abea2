"""waves.cu on the H200 (results/waves.txt, three runs) beside simgpu's replay: per wave of 1,056
CTAs, how many of the six pairs in each group of 4 data-sharing CTAs sit in one merge domain, how far
apart they start, and how long a CTA runs.    python waves.py"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import simgpu as sg
from simgpu.memory.topology import H200_MERGE_DOMAINS

HERE = Path(__file__).parent
CTAS, WAVE, SHARE, GHZ = 4224, 1056, 4, 1.98


def domains() -> np.ndarray:
    dom = np.zeros(132, np.int64)
    for i, d in enumerate(H200_MERGE_DOMAINS):
        dom[list(d)] = i
    return dom


def per_wave(sm: np.ndarray, start_ns: np.ndarray, end_ns: np.ndarray) -> list[tuple[float, float, float, float]]:
    """Per wave: same-domain pairs per group (of 6), median and p90 start spread in a group (ns),
    median CTA duration (ns)."""
    dom = domains()
    out = []
    for wave in range(CTAS // WAVE):
        lo = wave * WAVE
        pairs, spread = [], []
        for g in range(lo, lo + WAVE, SHARE):
            d = dom[sm[g:g + SHARE]]
            pairs.append(sum(int(d[i] == d[j]) for i in range(SHARE) for j in range(i + 1, SHARE)))
            spread.append(start_ns[g:g + SHARE].max() - start_ns[g:g + SHARE].min())
        dur = (end_ns - start_ns)[lo:lo + WAVE]
        out.append((float(np.mean(pairs)), float(np.median(spread)), float(np.percentile(spread, 90)),
                    float(np.median(dur))))
    return out


def main() -> None:
    rows = np.loadtxt(HERE / "results" / "waves.txt", dtype=np.int64)
    print(f"{'':10s} {'wave':>4s} {'same-domain pairs':>17s} {'start spread p50 / p90 ns':>26s} {'CTA ns p50':>10s}")
    for rep in range(3):
        r = rows[rows[:, 0] == rep]
        for w, (p, s50, s90, dur) in enumerate(per_wave(r[:, 2], r[:, 3].astype(float), r[:, 4].astype(float))):
            print(f"{'H200 ' + str(rep):10s} {w:4d} {p:17.2f} {s50:12.0f} / {s90:<12.0f} {dur:10.0f}")
    kernel = sg.RawModule(code=(HERE / "waves.cu").read_text()).get_function("waves")
    a = sg.zeros(CTAS * 8 * 8 * 1024, np.float32)
    report = kernel((CTAS,), (256,), (a, sg.zeros(16, np.float32), np.int32(SHARE), np.int32(8),
                                      sg.zeros(CTAS * 3, np.int64)))
    tl = report.timing.timeline
    for w, (p, s50, s90, dur) in enumerate(per_wave(tl["cta_sm"], tl["cta_start"] / GHZ, tl["cta_end"] / GHZ)):
        print(f"{'simgpu':10s} {w:4d} {p:17.2f} {s50:12.0f} / {s90:<12.0f} {dur:10.0f}")


if __name__ == "__main__":
    main()
