"""Shared-memory wavefronts of every recorded launch with shared memory, two ways on the H200: the
hardware counter (l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st, what the recordings hold) and
the count ncu attributes to the SASS instructions (sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*),
beside simgpu's. The hardware counter also counts wavefronts that other traffic costs the banks
(benchmarks/microbench/smem_arbitration: CTA launches beside running shared loads, shared stores
beside other warps' loads), which depend on timing; the SASS-attributed count is what the access
patterns need, the quantity simgpu's bank model computes.

    python validation/shared_sass.py --record results.json     # GPU host with ncu: profile only
    python validation/shared_sass.py [results.json]            # anywhere: simgpu beside the record
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from l2_reads import SUITES  # this folder: the recorded suites

HERE = Path(__file__).resolve().parent
DEFAULT_RECORD = HERE / "shared_sass" / "h200_shared_sass.json"
OPS = ("ld", "st", "ldsm", "stsm", "atom", "ldgsts")


def sass_metric(op: str) -> str:
    """ncu's shared wavefronts of one SASS instruction class."""
    return f"sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"


def hw_metric(op: str) -> str:
    """The hardware counter of one operation's shared wavefronts (arbitration included)."""
    return f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"


HW = [hw_metric(op) for op in ("ld", "st", "atom")]
HW += [f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum" for op in ("ld", "st")]
SASS = [sass_metric(op) for op in OPS]
METRICS = HW + SASS + ["smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_st.sum"]


def shared_specs(recorded: Path) -> list[str]:
    """The spec cases of a recording whose H200 launches had shared-memory load or store wavefronts."""
    data = json.loads(recorded.read_text())
    names = []
    for case in data["cases"]:
        if case.get("kind") != "spec":
            continue
        for launch in case["launches"]:
            if any(r["metric"].startswith("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_") and r.get("real")
                   for r in launch["metrics"]):
                names.append(case["name"])
                break
    return names


def record(out: Path) -> None:
    """Profile the shared-memory launches of every recorded suite under ncu (no simulation)."""
    from simgpu.crosscheck.cases import load_suite
    from simgpu.crosscheck.gpu import profile_with_ncu

    result: dict[str, dict] = {}
    for suite, (specs, recorded) in SUITES.items():
        if not (specs.exists() and recorded.exists()):
            continue
        names = shared_specs(recorded)
        if not names:
            continue
        cases = load_suite(specs, names)
        rows, status = profile_with_ncu(cases, METRICS, timeout=300)
        print(f"{suite}: {len(cases)} cases; {status or 'ok'}", flush=True)
        if rows is None:
            continue
        result[suite] = {case.name: [[run.numeric() for run in launch] for launch in per_case]
                         for case, per_case in zip(cases, rows)}
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=1))


def simulated(suite: str, names: list[str]) -> dict[str, list[dict[str, float]]]:
    """simgpu's metrics of the named specs of one suite, per launch."""
    from simgpu.crosscheck import crosscheck

    specs, recorded = SUITES[suite]
    report = crosscheck(suite=specs, specs=names, recorded=recorded, echo=None)
    return {case.name: [{m.metric: m.simulated for m in launch.metrics} for launch in case.launches]
            for case in report.cases}


def show(path: Path) -> None:
    """simgpu beside the H200's SASS-attributed and hardware shared wavefronts, per launch."""
    record_ = json.loads(path.read_text())
    print(f"{'launch':40s} {'op':4s} {'simgpu':>11s} {'H200 sass':>11s} {'H200 hw':>11s} {'hw extra':>9s}")
    exact = total = hw_exact = 0
    for suite, cases in record_.items():
        sims = simulated(suite, list(cases))
        for name, launches in cases.items():
            for i, runs in enumerate(launches):
                if not runs:
                    continue
                real = runs[0]
                sim = sims[name][i]
                for op in OPS:
                    sass, hw, mine = real.get(sass_metric(op)), real.get(hw_metric(op)), sim.get(sass_metric(op))
                    if not sass and not mine:
                        continue
                    total += 1
                    exact += mine == sass
                    hw_exact += hw is not None and sim.get(hw_metric(op)) == hw
                    flag = "" if mine == sass else "  differs"
                    extra = "" if hw is None else f"{hw - (sass or 0):+9,.0f}"
                    print(f"{suite + ':' + name + '#' + str(i):40s} {op:4s} {mine or 0:11,.0f} {sass or 0:11,.0f} "
                          f"{'-' if hw is None else f'{hw:,.0f}':>11s} {extra:>9s}{flag}")
    print(f"\n{total} (launch, op) pairs: simgpu equals the H200's SASS-attributed wavefronts in {exact}, "
          f"its hardware counter (l1tex__: ld, st, atom) in {hw_exact}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("path", nargs="?", type=Path, default=DEFAULT_RECORD, help="the recording (JSON)")
    ap.add_argument("--record", action="store_true", help="profile on this GPU host and write PATH")
    opts = ap.parse_args()
    if opts.record:
        record(opts.path)
    else:
        show(opts.path)


if __name__ == "__main__":
    main()
