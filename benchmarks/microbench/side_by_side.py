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


def gpu_cycles_per_step(src: str, kernels, shapes: dict[str, tuple[int, int]],
                        make_args: Callable, steps: int) -> dict[str, float]:
    """On the device (CuPy): each kernel of `src` at each (grid, block) shape, launched twice (the
    first warms), gives the median over warps of the cycles its lanes 0 wrote into `out`, over
    `steps`, as {"kernel/shape": cycles}. make_args(xp, kernel, grid, block) -> (out, args)."""
    import cupy as cp
    import numpy as np

    mod = cp.RawModule(code=src)
    res = {}
    for k in kernels:
        for shape, (grid, block) in shapes.items():
            out, args = make_args(cp, k, grid, block)
            f = mod.get_function(k)
            f((grid,), (block,), args)
            f((grid,), (block,), args)
            cp.cuda.Device().synchronize()
            res[f"{k}/{shape}"] = float(np.median(out.get())) / steps
    return res


def sim_cycles_per_step(src: str, kernels, shapes: dict[str, tuple[int, int]],
                        make_args: Callable, steps: int) -> dict[str, float]:
    """gpu_cycles_per_step's cases in simgpu: the median over warps of the replay's two clock64
    reads, apart, over `steps` (each kernel reads clock64 before and after its loop of `steps`)."""
    import sys

    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    import simgpu as sg

    mod = sg.RawModule(code=src)
    res = {}
    for k in kernels:
        for shape, (grid, block) in shapes.items():
            _, args = make_args(sg, k, grid, block)
            rep = mod.get_function(k)((grid,), (block,), args)
            res[f"{k}/{shape}"] = float(np.median([r[1] - r[0] for r in rep.timing.clock_reads()])) / steps
    return res


def cycles_table(gpu_path: str, sim_path: str) -> None:
    """Cycles a step, case by case: the GPU's JSON ({case: cycles}) beside simgpu's, as markdown."""
    g, s = json.loads(Path(gpu_path).read_text()), json.loads(Path(sim_path).read_text())
    print("| case | GPU cycles a step | simgpu |")
    print("|---|---|---|")
    for name, v in g.items():
        sv = s.get(name)
        print(f"| {name} | {v:.1f} | {'-' if sv is None else f'{sv:.1f}'} |")


def cycles_per_step_main(src: str, kernels, shapes: dict[str, tuple[int, int]], make_args: Callable,
                         steps: int, argv: list[str]) -> None:
    """The three commands of a cycles-a-step script: `gpu OUT.json` (gpu_cycles_per_step),
    `sim OUT.json` (sim_cycles_per_step), `table GPU.json SIM.json` (cycles_table)."""
    what, *rest = argv
    if what == "table":
        cycles_table(*rest)
        return
    run = {"gpu": gpu_cycles_per_step, "sim": sim_cycles_per_step}[what]
    Path(rest[0]).write_text(json.dumps(run(src, kernels, shapes, make_args, steps), indent=1))
