"""Every recorded launch simulated once, its metrics beside the H200's, written to one JSON: the
snapshot that validation/score.py scores and compares with another (a model change's before and
after, side by side), so that the 255 launches are simulated once per variant, not once per question.

    python validation/snapshot.py OUT.json [--jobs N] [--suite NAME ...] [--set FIELD=VALUE ...]

``--set`` replaces a TimingConfig or MemoryConfig field for every launch
(simgpu.timing.config.overridden, simgpu.memory.config.overridden), e.g. ``--set
ptxas_layout_from_sass=False`` or ``--set l1_victim_pool=16``; the values are Python literals.
"""

from __future__ import annotations

import argparse
import ast
import json
import subprocess
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from l2_reads import SUITES  # this folder: the recorded suites
from shared_sass import DEFAULT_RECORD as SHARED_SASS
from shared_sass import sass_metric

HERE = Path(__file__).resolve().parent
# the H200's shared wavefronts as ncu attributes them to the SASS, recorded apart
# (validation/shared_sass.py), stored under their own names beside the hardware counters
SASS_METRICS = [sass_metric(op) for op in ("ld", "st")]


def split_changes(changes: dict[str, object]) -> tuple[dict[str, object], dict[str, object]]:
    """``changes`` as (TimingConfig fields, MemoryConfig fields); a name that is neither raises
    ValueError."""
    from dataclasses import fields

    from simgpu.memory.config import MemoryConfig
    from simgpu.timing.config import TimingConfig

    timing = {f.name for f in fields(TimingConfig)}
    memory = {f.name for f in fields(MemoryConfig)}
    unknown = sorted(set(changes) - timing - memory)
    if unknown:
        raise ValueError(f"no TimingConfig or MemoryConfig field {', '.join(map(repr, unknown))}")
    return ({k: v for k, v in changes.items() if k in timing},
            {k: v for k, v in changes.items() if k in memory})


def suite_launches(name: str, changes: dict[str, object] | None = None) -> dict[str, dict[str, list[float]]]:
    """{"suite:case#i": {metric: [simulated, H200]}} for every launch of one recorded suite, with
    TimingConfig or MemoryConfig fields replaced by ``changes``; only metrics the H200 measured are kept."""
    from simgpu.crosscheck import crosscheck
    from simgpu.memory.config import overridden as memory_overridden
    from simgpu.timing.config import overridden

    suite, recorded = SUITES[name]
    timing, memory = split_changes(changes or {})
    with overridden(**timing), memory_overridden(**memory):
        report = crosscheck(suite=suite, recorded=recorded, echo=None)
    sass = json.loads(SHARED_SASS.read_text()).get(name, {}) if SHARED_SASS.exists() else {}
    launches: dict[str, dict[str, list[float]]] = {}
    for case in report.cases:
        for i, launch in enumerate(case.launches):
            row = {m.metric: [float(m.simulated), float(m.real)] for m in launch.metrics
                   if m.real is not None and m.simulated is not None and m.status != "n/a"}
            runs = sass.get(case.name, [])[i:i + 1]
            if runs and runs[0]:
                simulated = {m.metric: m.simulated for m in launch.metrics}
                for metric in SASS_METRICS:
                    real = runs[0][0].get(metric)
                    if real is not None and simulated.get(metric) is not None:
                        row[metric] = [float(simulated[metric]), float(real)]
            launches[f"{name}:{case.name}#{i}"] = row
    return launches


def _revision() -> str:
    """The checkout's commit, with "+changes" when the working tree differs from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=HERE, capture_output=True,
                              text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=HERE,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+changes" if dirty else "")


def _parse_set(items: list[str]) -> dict[str, object]:
    changes: dict[str, object] = {}
    for item in items:
        field, sep, value = item.partition("=")
        if not sep or not field:
            raise SystemExit(f"--set {item!r}: expected FIELD=VALUE")
        try:
            changes[field] = ast.literal_eval(value)
        except (ValueError, SyntaxError):
            raise SystemExit(f"--set {item!r}: {value!r} is not a Python literal") from None
    return changes


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path, help="the JSON to write")
    ap.add_argument("--jobs", type=int, default=2, help="suites simulated side by side (default 2)")
    ap.add_argument("--suite", nargs="+", action="extend", choices=list(SUITES), metavar="NAME",
                    help=f"only these suites (names: {', '.join(SUITES)})")
    ap.add_argument("--set", nargs="+", action="extend", default=[], metavar="FIELD=VALUE",
                    help="replace a TimingConfig or MemoryConfig field for every launch")
    opts = ap.parse_args()
    changes = _parse_set(opts.set)
    import simgpu.crosscheck  # noqa: F401 - the workers fork with every module loaded: a tree edited mid-run is not mixed in

    try:  # an unknown field fails here, before any simulation
        split_changes(changes)
    except ValueError as exc:
        raise SystemExit(f"--set: {exc}") from None
    names = [n for n in (opts.suite or SUITES) if all(p.exists() for p in SUITES[n])]
    start = time.time()
    with ProcessPoolExecutor(max_workers=opts.jobs) as pool:
        launches = {k: v for suite in pool.map(suite_launches, names, [changes] * len(names))
                    for k, v in suite.items()}
    opts.out.write_text(json.dumps({"revision": _revision(), "set": changes, "suites": names,
                                    "seconds": round(time.time() - start), "launches": launches}, indent=0))
    print(f"{len(launches)} launches of {len(names)} suites in {time.time() - start:.0f} s -> {opts.out}")


if __name__ == "__main__":
    main()
