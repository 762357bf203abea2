"""How often ptxas's unrolled loops issue their instructions, where lanes leave at different trips.

A loop ptxas unrolls (unroll.py: NVRTC's 4-copy main loop, unrolled by 4 again) becomes, in the
SASS, a loop that runs 4 PTX iterations a trip while a lane has at least 4 left, then straight-line
steps of 2 and of 1 iteration, each taken by the lanes whose remaining count has that bit
(nvcc 13.0 sm_90 SASS of typical13 cross_entropy_rows, typical14 causal_softmax_rows, typical4
spmv_banded_csr: a 16-, 8- and 4-load block, or 48, 24 and 12). Each lane runs its own trip count,
so a warp whose lanes have M_l PTX iterations in one visit issues each instruction

    4 * max_l floor(M_l / 4) + OR_l (M_l mod 4)    times, where the PTX issues it  max_l M_l.

The two agree when every lane runs as many iterations, or the lanes' counts differ only within one
group of four and the larger count's remainder holds the smaller's bits; they part when a row or
segment length leaves some lanes a group short: a warp reading a 1,000-float row with
`for (c = lane; c < n; c += 32)` has lanes of 8 and 7 main-loop iterations (after NVRTC's
3-iteration prologue): 8 load instructions in the PTX, 11 in the SASS (2 trips of the unrolled loop,
the second for lanes 0-7, then the 2- and 1-iteration steps for lanes 8-31). Lanes with 5 and 6
iterations (remainders 1 and 2) take both steps: 4 + 3 where the PTX has 6.

Measured (ncu on the H200, global load requests = SASS load instructions; the PTX's count; this
one): cross_entropy_rows 786,432 (589,824; 786,432), typical's spmv_csr 48,640 (41,740; 48,640),
causal_softmax_rows 216,640 (208,704; 216,640), spmv_banded_csr 950,308 (950,284; 950,308).

Each such instruction is one request (and one SASS instruction) to ncu. What simgpu cannot take from
the trace is how the regrouped lanes' addresses fall into sectors (the trace keeps the active
masks, not the addresses), so sectors, L1/L2 lookups and shared-memory wavefronts stay those of the
PTX's grouping; they are the same wherever the lanes that part fall on separate sectors, as in the
rows above (cross_entropy_rows' sectors are equal). Nor does the timing replay issue the extra
steps: it groups the PTX's instances by four (unroll.py). A launch that records no trace (timing and
trace both off) keeps the PTX's counts.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.exec.program import LinkedKernel
from simgpu.timing.config import TimingConfig
from simgpu.timing.isa import build_static, scheduled_blocks
from simgpu.timing.unroll import unrolled_loops


def ptxas_unrolled_loops(lk: LinkedKernel, cfg: TimingConfig) -> list[tuple[int, int]]:
    """The one-block loops (first pc, end pc) ptxas unrolls, found on the blocks the timing model
    schedules (model.simulate_timing: if-convertible branches inside blocks)."""
    if not (cfg.schedule_blocks and cfg.ptxas_unroll and cfg.ptxas_unroll_factor >= 2):
        return []
    st = build_static(lk, cfg)
    _, blocks = scheduled_blocks(lk, st, cfg)
    return unrolled_loops(lk, st, blocks, cfg)


@njit(cache=True)
def _sass_trips(lanes, factor):
    """PTX iterations' worth of trips one warp's visit takes in the SASS: `factor` a trip of the
    unrolled loop while any lane has that many left, then the remainder steps of factor/2, ..., 1
    iterations, each taken if any lane has its bit (module docstring)."""
    big = 0
    rem = 0
    for lane in range(32):
        big = max(big, lanes[lane] // factor)
        rem |= lanes[lane] % factor
    return factor * big + rem


@njit(cache=True)
def _visits(step_pc, counts, warps, active, loop_of_pc, loop_start, factor, n_slots):
    """Per loop: its instances (PTX iterations issued) and the SASS loop's extra warp-level trips
    over all visits. Steps are in issue order; a warp's visit ends at its first pc outside the loop."""
    n_loops = len(loop_start)
    extra = np.zeros(n_loops, np.int64)
    instances = np.zeros(n_loops, np.int64)
    cur = np.full(n_slots, -1, np.int64)  # per warp slot: the loop it is in (-1: none)
    ptx = np.zeros(n_slots, np.int64)
    lanes = np.zeros((n_slots, 32), np.int64)
    e = 0
    for s in range(len(step_pc)):
        pc = step_pc[s]
        lp = loop_of_pc[pc]
        for _ in range(counts[s]):
            slot = warps[e] % n_slots
            m = np.uint32(active[e])
            e += 1
            if cur[slot] >= 0 and cur[slot] != lp:  # the visit ends: the SASS's trips against the PTX's
                extra[cur[slot]] += _sass_trips(lanes[slot], factor) - ptx[slot]
                cur[slot] = -1
            if lp < 0:
                continue
            if cur[slot] < 0:
                cur[slot] = lp
                ptx[slot] = 0
                lanes[slot, :] = 0
            if pc == loop_start[lp]:
                ptx[slot] += 1
                instances[lp] += 1
                for lane in range(32):
                    if (m >> np.uint32(lane)) & np.uint32(1):
                        lanes[slot, lane] += 1
    for slot in range(n_slots):  # a warp that ended inside a loop (cannot happen: it ends at a ret)
        if cur[slot] >= 0:
            extra[cur[slot]] += _sass_trips(lanes[slot], factor) - ptx[slot]
    return instances, extra


def loop_trips(trace, loops: list[tuple[int, int]], n_pc: int, factor: int) -> tuple[np.ndarray, np.ndarray]:
    """Per loop (first pc, end pc), over the whole trace: the PTX iterations warps issued and the
    warp-level trips the SASS's unrolled loop and remainder loop add to them (module docstring)."""
    loop_of_pc = np.full(n_pc, -1, np.int64)
    for i, (a, b) in enumerate(loops):
        loop_of_pc[a:b] = i
    step_pc, counts, warps, active = trace.flat_steps()
    # waves run one after another, so a slot per warp of the largest wave keeps each warp's visit apart
    n_slots = max((len(c) for c in trace.warp_cta), default=1)
    return _visits(step_pc, counts, warps, active, loop_of_pc, np.asarray([a for a, _ in loops], np.int64),
                   int(factor), n_slots)


def sass_extra_executions(lk: LinkedKernel, trace, per_pc_warps: np.ndarray, cfg: TimingConfig) -> dict[int, int]:
    """pc -> warp-level executions the SASS adds to the PTX's in ptxas's unrolled loops (module
    docstring), for the pcs a loop's every PTX iteration issues (an if-converted branch's shadow,
    issued in some iterations only, keeps the PTX's count). Empty without a trace or such a loop."""
    loops = ptxas_unrolled_loops(lk, cfg)
    f = cfg.ptxas_unroll_factor
    if not loops or trace is None or not trace.n_steps or f & (f - 1):  # the steps halve: a power of 2
        return {}
    instances, extra = loop_trips(trace, loops, len(lk.instructions), cfg.ptxas_unroll_factor)
    out: dict[int, int] = {}
    for i, (a, b) in enumerate(loops):
        if extra[i] <= 0:
            continue
        for pc in range(a, b):
            if int(per_pc_warps[pc]) == int(instances[i]):
                out[pc] = int(extra[i])
    return out
