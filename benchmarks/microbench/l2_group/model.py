"""simgpu's merge rule (simgpu.timing.load_lines / answer_opened) on l2_group's pattern, for comparison
with analyze.py: K SMs of one merge domain, member j issuing at j*d, one sector; cold: the first
request fetches it from DRAM (done = t + lat_dram), warm: near L2 hits (done = t + lat_l2_near).
Prints the copies that reach L2 (requests), per K and d, cold and warm.

    python benchmarks/microbench/l2_group/model.py [least window in cycles, default 13]
"""

from __future__ import annotations

import sys

import numpy as np

from simgpu.timing.load_lines import answer_opened, load_lines, merge_state

NEAR, FAR, DRAM = 280, 515, 656  # TimingConfig lat_l2_near, lat_l2_far, lat_dram
DELAYS = (0, 10, 25, 50, 75, 100, 150, 200, 300, 400, 800)


def copies(k: int, d: int, cold: bool, w_min: int = 13) -> int:
    """Requests that reach L2 when k SMs of one domain ask for one sector, member j at cycle j*d."""
    # member j is SM j, all of domain 0
    mg = merge_state(True, np.zeros(k, np.int64), 4, w_min, np.array([1 if cold else 0], np.int64), 16, 1, 1)
    g_row = np.arange(k, dtype=np.int64)
    g_li = np.zeros(k, np.int64)
    home = np.zeros(k, np.int8)
    info = np.full(k, 1 | 16, np.int64)  # sector 0 missed in L1 and sent
    copy_at = np.full((1, 2), -1, np.int64)
    back = np.zeros(1, np.int64)
    dram_left = np.array([1 if cold else 0], np.int64)
    scratch = [np.zeros(64, np.int64) for _ in range(5)]
    lats = (NEAR, FAR, DRAM, DRAM, 0)  # one-sector requests: no per-sector DRAM cycles
    for j in range(k):
        t = j * d
        own, _, _, n_open, _, _ = load_lines(j, j, t, j, 0, 0, 0, g_row, g_li, home, info, copy_at, back, dram_left,
                                             lats, True, True, mg, *scratch, 0.0)
        answer_opened(mg, *scratch, n_open, t, t + (own if own >= 0 else NEAR), NEAR)
    return k - int(round(mg.merged_t.sum()))


def main() -> None:
    w = int(sys.argv[1]) if len(sys.argv) > 1 else 13
    for cold in (True, False):
        print(f"\n{'cold (DRAM)' if cold else 'warm (L2 hits)'}, least window {w}: requests per group of K")
        print("| K \\\\ d | " + " | ".join(map(str, DELAYS)) + " |")
        print("| --- " * (len(DELAYS) + 1) + "|")
        for k in (2, 4, 8, 16):
            print(f"| {k} | " + " | ".join(str(copies(k, d, cold, w)) for d in DELAYS) + " |")


if __name__ == "__main__":
    main()
