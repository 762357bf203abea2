"""Timing model (cycle-approximate), fed by the functional engine's ExecutionTrace.

    from simgpu.timing import simulate_timing, TimingConfig
    rep = kernel(grid, block, args, trace=True)
    res = simulate_timing(rep.linked, rep.trace, gpu, grid=rep.grid, block=rep.block,
                          ctas_per_sm=rep.ctas_per_sm, registers_per_thread=rep.registers_per_thread,
                          per_pc=rep.per_pc, sass_loops=rep.sass_loops)

config.py (every number and its source) -> isa.py (PTX op -> pipe/latency/registers, ptxas-like
block scheduling) -> prepare.py (trace -> flat per-warp streams) -> replay.py (numba replay) ->
model.py (entry point, metrics, timeline); validate.py compares with the H200 calibration set.
`overridden(**fields)` runs the launches of a `with` block under a changed config.
"""

from simgpu.timing.config import TimingConfig, default_config, overridden
from simgpu.timing.model import TimingResult, simulate_timing

__all__ = ["TimingConfig", "TimingResult", "default_config", "overridden", "simulate_timing"]
