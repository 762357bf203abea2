"""What the device-vs-simgpu scripts under benchmarks/microbench share (gpc_inflight, int64_chain):
one JSON object a line in and out, and their three commands.

    python run.py device OUT CUBIN   # on the device: the GPU's numbers into OUT
    python run.py sim [OUT]          # anywhere: simgpu's, into OUT (default the script's results/)
    python run.py table [DIR]        # both side by side
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path


def write_jsonl(path: Path, rows: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def read_jsonl(path: Path) -> list[dict]:
    """The rows of a .jsonl file; none where it is missing (a side not measured yet)."""
    return [json.loads(x) for x in path.read_text().splitlines()] if path.exists() else []


def main(device: Callable[[Path, str], None], sim: Callable[[Path], None], table: Callable[[Path], None],
         results: Path, doc: str | None = None) -> None:
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="what", required=True)
    d = sub.add_parser("device", help="on the device: the GPU's numbers")
    d.add_argument("out", type=Path)
    d.add_argument("cubin")
    for name, help_ in (("sim", "simgpu's numbers"), ("table", "both side by side")):
        sub.add_parser(name, help=help_).add_argument("dir", type=Path, nargs="?", default=results)
    opts = ap.parse_args()
    if opts.what == "device":
        device(opts.out, opts.cubin)
    elif opts.what == "sim":
        sim(opts.dir)
    else:
        table(opts.dir)


def clock_cycles_per_step(report, steps: int) -> float:
    """simgpu's cycles a step: the median over warps of the replay's two clock64 reads, apart, over
    `steps` (a kernel that reads clock64 before and after its loop of `steps`)."""
    import numpy as np

    return float(np.median([r[1] - r[0] for r in report.timing.clock_reads()])) / steps


def cycles_table(gpu_path: str, sim_path: str) -> None:
    """Cycles a step, case by case: the GPU's JSON ({case: cycles}) beside simgpu's, as markdown."""
    g, s = json.loads(Path(gpu_path).read_text()), json.loads(Path(sim_path).read_text())
    print("| case | GPU cycles a step | simgpu |")
    print("|---|---|---|")
    for name, v in g.items():
        sv = s.get(name)
        print(f"| {name} | {v:.1f} | {'-' if sv is None else f'{sv:.1f}'} |")
