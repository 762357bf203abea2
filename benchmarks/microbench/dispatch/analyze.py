#!/usr/bin/env python3
"""Where the H200 put the CTAs of launches of 8-256 CTAs (results/ from run.sh) and whether
simgpu.core.dispatch puts every CTA on the same SM (up to the launch-to-launch swap of SMs 124-127
and 128-131). Prints, per launch, the CTAs per GPC in CTA order and the match.

    python benchmarks/microbench/dispatch/analyze.py
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
from simgpu.core.dispatch import wave_sms  # noqa: E402
from simgpu.memory.topology import H200_GPCS  # noqa: E402

SWAP = {s: (s + 4 if s < 128 else s - 4) for s in range(124, 132)}
LABEL = {s: str(g) for g, sms in enumerate(H200_GPCS) for s in sms} | {s: "a" for s in range(124, 128)} | {
    s: "b" for s in range(128, 132)}


def runs(smids: list[int]) -> str:
    """CTAs per unit in CTA order, e.g. 'a:4 b:4 0:4 1:8'."""
    out: list[list] = []
    for s in smids:
        if out and out[-1][0] == LABEL[s]:
            out[-1][1] += 1
        else:
            out.append([LABEL[s], 1])
    return " ".join(f"{u}:{n}" for u, n in out)


def main() -> None:
    for path in sorted((HERE / "results").glob("*.txt")):
        print(f"== {path.name}")
        for line in path.read_text().splitlines():
            if line.startswith("RESULT "):
                r = json.loads(line[7:])
                sim = wave_sms(r["n"], 132).tolist()
                same = r["smid"] in (sim, [SWAP.get(s, s) for s in sim])
                odd = sum(s % 2 for s in r["smid"])
                print(f"{r['n']:4d}{' 2-D' if r['two_d'] else '    '} odd SMs {odd:3d}  simgpu "
                      f"{'same' if same else 'DIFFERENT'}  {runs(r['smid'])}")


if __name__ == "__main__":
    main()
