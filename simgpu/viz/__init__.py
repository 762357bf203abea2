"""Pictures of what a launch did (matplotlib; each function returns a Figure), and trace export.

    report = kernel(grid, block, args, trace=True)       # or a Stepper, or a launch from capture()
    simgpu.viz.divergence(report, warp=0)                # active lanes over time for one warp
    simgpu.viz.bank_map(stepper.access_at(line=L))       # lanes -> banks, conflicts, wavefronts
    simgpu.viz.sector_map(stepper.access_at(line=L))     # lanes -> 32-B sectors / 128-B lines
    simgpu.viz.cache_hits(report)                        # L1 / L2 / DRAM sectors over time
    simgpu.viz.roofline(report, gpu="h200")              # the preset's roofline, the kernel on it
    simgpu.viz.occupancy(report)                         # which limit binds
    simgpu.viz.timeline(report, timing=True)             # warps over cycles (timing model) or steps
    simgpu.viz.scheduler_timeline(report)                # one SM's warps per scheduler, state per cycle
    simgpu.viz.export_perfetto(report, "k.json")         # open in ui.perfetto.dev
"""

from simgpu.viz._common import CLASSES, Captured, capture, instruction_class
from simgpu.viz.perfetto import export_perfetto, perfetto_events
from simgpu.viz.pictures import (
    bank_map,
    cache_hits,
    count_flops,
    divergence,
    occupancy,
    occupancy_limits,
    roofline,
    scheduler_timeline,
    sector_map,
    simulate,
    timeline,
)

__all__ = ["CLASSES", "Captured", "bank_map", "cache_hits", "capture", "count_flops", "divergence",
           "export_perfetto", "instruction_class", "occupancy", "occupancy_limits", "perfetto_events", "roofline",
           "scheduler_timeline",
           "sector_map", "simulate", "timeline"]
