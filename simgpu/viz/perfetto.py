"""Chrome / Perfetto trace JSON of a launch: one track per warp, grouped by SM, one slice per instruction.

Open the file at https://ui.perfetto.dev (or chrome://tracing). With a timing result the slices sit
at the simulated cycles (converted to microseconds at the preset's SM clock) and last until the
warp's next issue; without one, at the functional engine's issue steps (1 step shown as 1 us).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from simgpu.viz._common import CLASSES, classes_of, need_trace, opcode_of, resolve


def perfetto_events(source, timing=None, max_events: int = 2_000_000) -> dict:
    """The trace as a dict in the Chrome Trace Event format (what export_perfetto writes)."""
    src = resolve(source)
    trace = need_trace(src, "export_perfetto()")
    lk = src.linked
    cls = classes_of(lk)
    if timing is True:
        from simgpu.viz.pictures import simulate

        timing = simulate(src)
    warps, pcs, steps = trace.warp_streams()
    active = {}
    for i, (ws, act) in enumerate(zip(trace.step_warps, trace.step_active)):
        for w, a in zip(ws.tolist(), act.tolist()):
            active[(w, i)] = a
    unit = "issue step"
    times = steps.astype(np.float64)
    if timing is not None and getattr(timing, "issue_cycle", None) is not None:
        from simgpu.timing.config import default_config
        from simgpu.timing.isa import K_FREE, build_static

        keep = build_static(lk, default_config()).kind[pcs] != K_FREE
        cyc = np.asarray(timing.issue_cycle)
        if len(cyc) == int(keep.sum()):
            warps, pcs, steps = warps[keep], pcs[keep], steps[keep]
            clock_mhz = src.gpu.sm_clock_mhz if src.gpu is not None else 1980.0
            times = cyc.astype(np.float64) / clock_mhz  # cycles -> microseconds
            unit = "cycle"
    sm_of = trace.sm_of_warp()
    cta_of = trace.cta_of_warp()
    events: list[dict] = []
    for sm in np.unique(sm_of):
        events.append({"ph": "M", "name": "process_name", "pid": int(sm), "args": {"name": f"SM {int(sm)}"}})
        events.append({"ph": "M", "name": "process_sort_index", "pid": int(sm), "args": {"sort_index": int(sm)}})
    for w in range(trace.num_warps):
        events.append({"ph": "M", "name": "thread_name", "pid": int(sm_of[w]), "tid": int(w),
                       "args": {"name": f"CTA {int(cta_of[w])} warp {int(w)}"}})
    n = min(len(warps), max_events)
    for i in range(n):
        w, p, t = int(warps[i]), int(pcs[i]), float(times[i])
        nxt = float(times[i + 1]) if i + 1 < len(warps) and int(warps[i + 1]) == w else t + (
            1.0 if unit == "issue step" else 1.0 / (src.gpu.sm_clock_mhz if src.gpu is not None else 1980.0))
        ins = lk.instructions[p]
        a = active.get((w, int(steps[i])), 0)
        events.append({"ph": "X", "name": opcode_of(ins.text), "cat": CLASSES[int(cls[p])], "pid": int(sm_of[w]),
                       "tid": w, "ts": t, "dur": max(nxt - t, 1e-3),
                       "args": {"pc": p, "line": ins.line, "text": ins.text, "active_lanes": bin(int(a)).count("1"),
                                "step": int(steps[i])}})
    return {"traceEvents": events, "displayTimeUnit": "ns",
            "otherData": {"kernel": lk.name, "time_unit": unit,
                          "note": "ts in microseconds of simulated time" if unit == "cycle"
                          else "ts = functional issue step (1 step drawn as 1 us); no cycle timing",
                          "truncated": len(warps) > n}}


def export_perfetto(source, path, timing=None) -> Path:
    """Write the launch's warp timeline as Chrome/Perfetto trace JSON at `path`; returns the path."""
    p = Path(path)
    p.write_text(json.dumps(perfetto_events(source, timing=timing)))
    return p
