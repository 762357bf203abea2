#!/usr/bin/env python3
"""Where the chip put the CTAs of launches of several full rounds (results_rounds/ from
run_rounds.sh): per launch, the CTA positions at which SMs 124-131 (the walk's head unit) take a
CTA, and per round how far simgpu.core.dispatch's placement differs (CTAs on another SM).

    python benchmarks/microbench/dispatch/rounds.py [RESULTS_FOLDER]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from simgpu.core.dispatch import wave_sms  # noqa: E402

HEAD = range(124, 132)


def head_visits(smids: list[int]) -> list[tuple[int, int]]:
    """(first CTA, CTAs) of each run of consecutive CTAs placed on SMs 124-131."""
    out: list[list[int]] = []
    for i, s in enumerate(smids):
        if s in HEAD:
            if out and out[-1][0] + out[-1][1] == i:
                out[-1][1] += 1
            else:
                out.append([i, 1])
    return [(a, n) for a, n in out]


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "results_rounds"
    print((folder / "gpu.txt").read_text().strip())
    for path in sorted(folder.glob("plain_*.txt")):
        print(f"== {path.name}   launch (CTAs:threads:dynamic shared B): runs on SMs 124-131 (first CTA x CTAs); "
              "CTAs on another SM than simgpu's, per round of 132")
        for line in path.read_text().splitlines():
            if not line.startswith("RESULT "):
                continue
            r = json.loads(line[7:])
            n, smids = r["n"], r["smid"]
            sim = wave_sms(n, 132).tolist()
            differ = [sum(a != b for a, b in zip(smids[k:k + 132], sim[k:k + 132])) for k in range(0, n, 132)]
            visits = " ".join(f"{a}x{c}" for a, c in head_visits(smids))
            print(f"{n}:{r['threads']}:{r['smem']:<6d} {visits:48s} {differ}")


if __name__ == "__main__":
    main()
