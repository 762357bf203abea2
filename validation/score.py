"""Scores of one snapshot of validation/snapshot.py, or of two side by side (a model change's after
and before): kernel time against the H200 (mean |error|, launches within 10 % and 20 %, median
error), L2 read sectors, and issue 3's acceptance checks (validation/acceptance.py); with two,
also every launch whose time error moved or whose checks changed.

    python validation/score.py NEW.json [OLD.json] [--moved PT]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

from acceptance import checks, totals

TIME = "gpu__time_duration.sum"
READ = "lts__t_sectors_srcunit_tex_op_read.sum"


def errors(launches: dict[str, dict[str, list[float]]], metric: str) -> dict[str, float]:
    """Signed error in percent of ``metric`` for every launch the H200 measured it (non-zero) for."""
    return {k: 100.0 * (row[metric][0] - row[metric][1]) / row[metric][1]
            for k, row in launches.items() if metric in row and row[metric][1]}


def summary(launches: dict[str, dict[str, list[float]]]) -> dict[str, str]:
    """The scores of one snapshot as printable text, by name."""
    t = errors(launches, TIME)
    r = errors(launches, READ)
    acc = totals(checks(launches))
    out = {
        "time: launches": f"{len(t)}",
        "time: mean |error|": f"{statistics.fmean(abs(v) for v in t.values()):.2f} %" if t else "-",
        "time: within 10 %": f"{sum(abs(v) <= 10 for v in t.values())}",
        "time: within 20 %": f"{sum(abs(v) <= 20 for v in t.values())}",
        "time: median error": f"{statistics.median(t.values()):+.2f} %" if t else "-",
        "L2 reads: mean |error|": f"{statistics.fmean(abs(v) for v in r.values()):.2f} %" if r else "-",
        "checks: launches": f"{acc['launches']}",
        "checks: pass all": f"{acc['pass_all']}",
        "checks: pass all (SASS shared)": f"{acc['pass_all_sass']}",
    }
    for metric, (passed, of) in acc["per_metric"].items():
        out[f"  {metric}"] = f"{passed} of {of}"
    return out


def moved(new: dict, old: dict, threshold: float) -> list[str]:
    """Lines for the launches whose time error moved by more than ``threshold`` points or whose
    checks changed between two snapshots."""
    tn, to = errors(new, TIME), errors(old, TIME)
    cn = {(r[0], r[1]): r for r in checks(new)}
    co = {(r[0], r[1]): r for r in checks(old)}
    lines = []
    for k in sorted(set(tn) & set(to), key=lambda k: -abs(tn[k] - to[k])):
        if abs(tn[k] - to[k]) > threshold:
            lines.append(f"time  {k:44s} {to[k]:+8.1f} % -> {tn[k]:+8.1f} %")
    for key in sorted(set(cn) & set(co)):
        if cn[key][4] != co[key][4]:
            lines.append(f"check {key[0]:44s} {key[1]}: {co[key][5]} -> {cn[key][5]} "
                         f"({'now passes' if cn[key][4] else 'now fails'})")
    only = sorted(set(new) ^ set(old))
    if only:
        lines.append(f"in one snapshot only: {', '.join(only)}")
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("new", type=Path, help="a snapshot (validation/snapshot.py)")
    ap.add_argument("old", type=Path, nargs="?", help="the snapshot to compare it with")
    ap.add_argument("--moved", type=float, default=1.0,
                    help="list launches whose time error moved by more than this many points (default 1)")
    opts = ap.parse_args()
    snaps = [json.loads(p.read_text()) for p in (opts.old, opts.new) if p is not None]
    scores = [summary(s["launches"]) for s in snaps]
    heads = [f"{s['revision']} {s['set'] or ''}".strip() for s in snaps]
    width = max(len(k) for k in scores[0])
    print(f"{'':{width}s}" + "".join(f" {h:>22s}" for h in heads))
    for key in scores[-1]:
        print(f"{key:{width}s}" + "".join(f" {s.get(key, '-'):>22s}" for s in scores))
    if len(snaps) == 2:
        print()
        for line in moved(snaps[1]["launches"], snaps[0]["launches"], opts.moved):
            print(line)


if __name__ == "__main__":
    main()
