"""Entry point of the timing model: (LinkedKernel, ExecutionTrace, GPUConfig, launch shape) -> time.

    report = kernel(grid, block, args, trace=True)
    res = simulate_timing(report.linked, report.trace, gpu, grid=report.grid, block=report.block,
                          ctas_per_sm=report.ctas_per_sm, registers_per_thread=report.registers_per_thread,
                          sass_loops=report.sass_loops)
    res.metrics["gpu__time_duration.sum"], res.stalls, res.timeline

Model (details and sources in config.py, isa.py, prepare.py, replay.py):
* GPU: a fixed launch overhead (empty-kernel duration) plus the replayed makespan; one
  dispatcher hands CTAs out at the measured device-wide rate to the SM with the most free CTA
  slots (occupancy from the launch), as slots free up: waves and tails fall out of it.
* SM: 4 sub-partitions (warp slot % 4), one issue per cycle each, GTO or LRR; a scoreboard on
  the PTX registers; per-sub-partition pipes with issue intervals and latencies from the
  microbenchmarks; barriers per CTA with the measured bar.sync cost.
* Memory: per-SM L1TEX at 1 wavefront/cycle (shared and global share it), device-wide token
  queues for L2 (9.67 TB/s), DRAM (4.55 TB/s) and global atomics; latency by where the slowest
  sector hit (L1 32, L2 near 280 / far 515 as an expectation over lines, DRAM 656 cycles) plus
  the queueing delay; lg/mio throttle when the SM's L1TEX backlog exceeds its queue.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from simgpu.core.dispatch import sm_of_cta, sm_order
from simgpu.memory.l2 import lines_in_allocation
from simgpu.memory.topology import H200_DISPATCH_UNITS, domain_of_sm
from simgpu.timing.config import TimingConfig, default_config
from simgpu.timing.dram_rows import activations, extra_cycles_per_sector, write_back_cycles_per_sector
from simgpu.timing.isa import (
    K_BAR,
    K_FREE,
    K_GATOM,
    K_GST,
    K_LLD,
    K_LST,
    K_SATOM,
    REASONS,
    SB_LONG,
    build_static,
    schedule_block,
    scheduled_blocks,
    timer_reads,
)
from simgpu.timing.l1_order import POLICY_CODES, POLICY_PLAIN, L1Counts, own_run_waits, run_order, timed_l1_hits
from simgpu.timing.l2_merge import MergeCounts, line_dram_sectors
from simgpu.timing.l2_sides import gpc_line_offsets, group_homes, side_copies_after, side_copies_before
from simgpu.timing.load_lines import MergeState, merge_state
from simgpu.timing.prepare import ROW_KINDS, build_streams
from simgpu.timing.reg_pressure import block_live_sets, register_weights, row_registers
from simgpu.timing.replay import N_REASONS, replay
from simgpu.timing.retime import changed_share, walked_streams
from simgpu.timing.store_lines import StoreCounts, pending_fills, store_history, store_rings
from simgpu.timing.unroll import (
    block_scoreboard_waits,
    sass_loaded_ahead,
    scoreboard_groups,
    unrolled_loops,
    unrolled_order,
    with_copies,
)

POLICIES = {"gto": 0, "lrr": 1}
RECORD_AUTO_LIMIT = 2_000_000  # record="auto" keeps the per-cycle record below this many warp instructions


@dataclass
class _Run:
    """One replay's state and answers (simulate_timing may replay twice: retime.py)."""

    e_issue: np.ndarray
    warp_start: np.ndarray
    warp_end: np.ndarray
    warp_sm: np.ndarray
    cta_start: np.ndarray
    cta_end: np.ndarray
    cta_sm: np.ndarray
    stall: np.ndarray
    sm_inst: np.ndarray
    e_dep: np.ndarray
    e_thr: np.ndarray
    e_rsn: np.ndarray
    e_thr_rsn: np.ndarray
    w_slot: np.ndarray
    e_waited: np.ndarray
    merge: MergeState
    store_counts: tuple
    cycles: int = 0
    side_copies: tuple | None = None  # the L2 side copies after this replay (l2_sides.side_copies_after)


@dataclass
class CycleRecord:
    """What the replay did, per replayed warp instruction (entry), compact enough to rebuild every
    warp's state at every cycle (simgpu.timing.cycles.CycleView).

    Entries are grouped by warp (warp w owns entries warp_off[w]:warp_off[w+1], in issue order).
    The cycles between entry e-1's issue (or the warp's arrival) and entry e's issue split, in this
    order, into dep[e] cycles of reason[e] (operands, barrier or branch not ready), thr[e] cycles of
    thr_reason[e] (a pipe or the L1TEX queue full), then not_selected, then the issue cycle
    (selected); after its last issue a warp drains until warp_end. Reasons index isa.REASONS."""

    pc: np.ndarray  # int32 per entry (after the ptxas-like reordering inside basic blocks)
    issue: np.ndarray  # int64 per entry: issue cycle (TimingResult.issue_cycle)
    dep: np.ndarray  # int32 per entry
    thr: np.ndarray  # int32 per entry
    reason: np.ndarray  # int8 per entry
    thr_reason: np.ndarray  # int8 per entry
    warp_off: np.ndarray  # int64 [W+1]
    warp_slot: np.ndarray  # int64 [W]: slot on its SM; sub-partition = slot % n_sub
    warp_sm: np.ndarray  # int64 [W]
    warp_start: np.ndarray  # int64 [W]: arrival cycle
    warp_end: np.ndarray  # int64 [W]: exit cycle (after its stores drained)
    cta_of_warp: np.ndarray  # int64 [W]
    n_sub: int
    linked: object = field(default=None, repr=False)  # the LinkedKernel (PTX lines and text)

    @property
    def warp(self) -> np.ndarray:
        """int64 per entry: the warp (trace uid) that issued it."""
        return np.repeat(np.arange(len(self.warp_off) - 1), np.diff(self.warp_off))

    @property
    def sub_partition(self) -> np.ndarray:
        """int64 per entry: the SM sub-partition (scheduler) that issued it."""
        return (self.warp_slot % self.n_sub)[self.warp]

    @property
    def sm(self) -> np.ndarray:
        """int64 per entry: the SM that issued it."""
        return self.warp_sm[self.warp]


@dataclass
class TimingResult:
    metrics: dict[str, float]
    sm_cycles: np.ndarray  # active cycles per SM (first CTA in to last CTA out)
    timeline: dict[str, np.ndarray]
    stalls: dict[str, float]  # reason -> warp-cycles
    cycles: int = 0  # replayed makespan (without the fixed launch overhead)
    time_ns: float = 0.0
    host_seconds: float = 0.0
    stalls_per_pc: np.ndarray | None = None  # [n_pc, reasons]
    issue_cycle: np.ndarray | None = None  # per replayed warp instruction
    extra: dict = field(default_factory=dict)
    record: CycleRecord | None = field(default=None, repr=False)  # per-entry split of the waits (record=True)
    # the L2 read merging redone on the issue cycles (l2_merge.py); None where not modelled
    l2_merging: MergeCounts | None = None
    # global-store L1 hits and combined L2 writes redone on the write path (store_lines.py); None
    # where not modelled
    store_merging: StoreCounts | None = None
    # global-load L1 hits in the replay's issue order (l1_order.py); None where not walked
    l1_loads: L1Counts | None = None
    # the L2 lines a partition holds a copy of besides their home after this launch (sorted line
    # numbers, a bit per side; l2_sides.side_copies_after), for the next warm launch; None: none
    l2_side_copies: tuple | None = field(default=None, repr=False)

    def cycle_view(self, sm: int | None = None):
        """A CycleView (simgpu.timing.cycles) over this replay: per cycle, which warp each scheduler
        issued and why every other resident warp waited. Needs the launch replayed with record=True
        (the default for launches under RECORD_AUTO_LIMIT warp instructions)."""
        from simgpu.timing.cycles import CycleView

        return CycleView(self, sm=sm)

    def clock_reads(self) -> list[np.ndarray]:
        """Per warp (trace uid, as in the record), the cycles at which it read %clock / %clock64 /
        %globaltimer, in order: what its clock64 stamps would read on the simulated GPU. The
        functional run, which computes the values a kernel stores, counts a warp's issued
        instructions there instead; cycles exist only after this replay. Needs record=True, like
        cycle_view()."""
        rec = self.record
        if rec is None:
            raise ValueError("this replay kept no per-cycle record: replay it with simulate_timing(..., "
                             "record=True) (launch() records launches under "
                             "simgpu.timing.model.RECORD_AUTO_LIMIT warp instructions)")
        at_timer = timer_reads(rec.linked)[rec.pc]
        return [rec.issue[a:b][at_timer[a:b]] for a, b in zip(rec.warp_off[:-1], rec.warp_off[1:])]

    def summary(self) -> str:
        m = self.metrics
        lines = [f"duration {m['gpu__time_duration.sum']:.0f} ns ({m['gpc__cycles_elapsed.max']:.0f} cycles), "
                 f"IPC {m['sm__inst_executed.avg.per_cycle_active']:.2f}, achieved occupancy "
                 f"{m['sm__warps_active.avg.pct_of_peak_sustained_active']:.1f} %"]
        tot = sum(self.stalls.values()) or 1.0
        top = sorted(self.stalls.items(), key=lambda kv: -kv[1])[:5]
        lines.append("warp states: " + ", ".join(f"{k} {100 * v / tot:.0f} %" for k, v in top))
        return "\n".join(lines)


@njit(cache=True)
def _sm_active(by_sm, cta_sm, cta_start, cta_end, num_sms):
    """Per SM, the cycles covered by the union of its CTAs' [start, end) intervals (by_sm: the CTAs
    ordered by SM, then start)."""
    out = np.zeros(num_sms, np.int64)
    k = 0
    n = by_sm.shape[0]
    while k < n and cta_sm[by_sm[k]] < 0:
        k += 1
    while k < n:
        sm = cta_sm[by_sm[k]]
        s0 = cta_start[by_sm[k]]
        run_end = cta_end[by_sm[k]]
        gap = 0
        k += 1
        while k < n and cta_sm[by_sm[k]] == sm:
            c = by_sm[k]
            if cta_start[c] > run_end:
                gap += cta_start[c] - run_end
            if cta_end[c] > run_end:
                run_end = cta_end[c]
            k += 1
        if sm < num_sms:
            out[sm] = run_end - s0 - gap
    return out


@njit(cache=True)
def _issued_per_bin(e_issue, warp_off, warp_sm, num_sms, nb, span):
    """Warp instructions issued per SM and timeline bin (bin = issue * nb // span, the last bin
    closed)."""
    out = np.zeros((num_sms, nb), np.int64)
    for w in range(warp_off.shape[0] - 1):
        for e in range(warp_off[w], warp_off[w + 1]):
            if e_issue[e] >= 0:
                out[warp_sm[w], min(e_issue[e] * nb // span, nb - 1)] += 1
    return out


@njit(cache=True)
def _resident_per_bin(warp_start, warp_end, warp_sm, edges, num_sms):
    """Warp-cycles resident per SM and timeline bin: the overlap of each warp's [start, end) with
    each bin, summed in warp order."""
    nb = edges.shape[0] - 1
    out = np.zeros((num_sms, nb), np.float64)
    for w in range(warp_sm.shape[0]):
        sm = warp_sm[w]
        if sm < 0:
            continue
        s = float(warp_start[w])
        e = float(warp_end[w])
        i = max(np.searchsorted(edges, s, side="right") - 1, 0)
        while i < nb and edges[i] < e:
            ov = min(e, edges[i + 1]) - max(s, edges[i])
            if ov > 0.0:
                out[sm, i] += ov
            i += 1
    return out


def _dram_write_costs(cfg: TimingConfig, dram_w: np.ndarray, clock_mhz: float, wb_extra: np.ndarray) -> tuple:
    """The replay's DRAM write inputs (config dram_write_bytes_per_s): per pc the sectors each
    execution writes back, a written sector's cycles, the turnaround cycles a written sector
    paired with a read costs (so that a 1:1 copy runs at dram_copy_bytes_per_s), per pc the
    cycles a written sector costs beyond those (wb_extra: its rows and write granules), and whether
    a store waits for the DRAM queue to take its write-backs."""
    if cfg.dram_write_bytes_per_s <= 0 or not dram_w.any():
        return np.zeros(len(dram_w), np.float64), 0.0, 0.0, np.zeros(len(dram_w), np.float64), False
    per_cycle = cfg.sector_bytes * clock_mhz * 1e6  # bytes a sector per cycle of rate
    w_cost = per_cycle / cfg.dram_write_bytes_per_s
    mix = 0.0
    if cfg.dram_copy_bytes_per_s > 0:
        mix = max(0.0, 2.0 * per_cycle / cfg.dram_copy_bytes_per_s - per_cycle / cfg.dram_bytes_per_s - w_cost)
    return dram_w, w_cost, mix, np.ascontiguousarray(wb_extra, np.float64), bool(cfg.stores_wait_for_write_backs)


def _miss_line_numbers(sr) -> np.ndarray:
    """Per distinct L1-miss line index of the streams, its line number (address >> 7)."""
    line_of = np.zeros(max(1, sr.n_miss_lines), np.int64)
    if sr.miss_line is not None and len(sr.miss_line):
        line_of[sr.miss_line_idx] = sr.miss_line
    return line_of


def _side_inputs(sr, cfg: TimingConfig, sm_side, num_sms: int, heap_bases, groups: bool,
                 copy_at: np.ndarray | None = None) -> tuple:
    """The replay's `sides` tuple (replay.py, load_lines.py): the L1-miss groups sorted by row, their
    line index, home partition and g_info, each warp's first group, the SMs' sides (sm_side None:
    near/far lines off), the latencies, the number of lines, per line the sectors the launch read
    from DRAM, and whether the first load in time fetches them (config l2_dram_fetch_in_time); no
    groups (same types) when neither near/far lines nor merging need them (`groups` False) or
    nothing missed. heap_bases: the start of each global allocation (the home partition is taken
    from a line's offset in its allocation). Last, per line and side when it holds a copy (`copy_at`:
    0 for the copies a warm launch finds, l2_sides.side_copies_before; None: none), which the
    replay fills in."""
    W = len(sr.warp_off) - 1
    gap = cfg.lat_l2_far - cfg.lat_l2_near
    dram_near = int(np.rint(cfg.lat_dram - gap * cfg.l2_far_fraction))
    lats = (int(cfg.lat_l2_near), int(cfg.lat_l2_far), dram_near, dram_near + int(gap), int(cfg.lat_dram_per_sector))
    in_time = bool(cfg.l2_dram_fetch_in_time)
    use_sides = sm_side is not None
    side = np.asarray(sm_side, np.int64) if use_sides else np.zeros(num_sms, np.int64)
    if not groups or sr.miss_row is None or not len(sr.miss_row):
        z = np.zeros(0, np.int64)
        return (False, z, z, np.zeros(0, np.int8), z, np.zeros(W, np.int64), side) + lats + (
            1, np.zeros(1, np.int64), in_time, np.full((1, 2), -1, np.int64))
    order = sr.miss_by_row
    g_row = np.ascontiguousarray(sr.miss_row[order], np.int64)
    g_li = np.ascontiguousarray(sr.miss_line_idx[order], np.int64)
    g_info = np.ascontiguousarray(sr.miss_info[order], np.int64)
    g_home = group_homes(lines_in_allocation(sr.miss_line[order], heap_bases))
    g_warp0 = np.searchsorted(g_row, sr.warp_row0[:-1]).astype(np.int64)
    n_lines = max(1, sr.n_miss_lines)
    return (use_sides, g_row, g_li, g_home, g_info, g_warp0, side) + lats + (
        n_lines, line_dram_sectors(g_li, g_info, n_lines), in_time,
        copy_at if copy_at is not None else np.full((n_lines, 2), -1, np.int64))


def _row_l2_lines(sr) -> np.ndarray:
    """Per memory row the lines it sends to L2: a load's L1-miss lines, a store's lines, an atomic's
    lines (its L2 line-unit requests); int32."""
    n = len(sr.rows)
    misses = np.bincount(sr.miss_row, minlength=n)[:n] if len(sr.miss_row) else np.zeros(n, np.int64)
    stores = np.diff(sr.store_off) if sr.store_off is not None else np.zeros(n, np.int64)
    units = np.diff(sr.unit_off) if sr.unit_off is not None else np.zeros(n, np.int64)
    return (misses + np.where(stores > 0, stores, units)).astype(np.int32)


def _gpc_offsets(sr, line_of: np.ndarray, cfg: TimingConfig, num_sms: int, heap_bases) -> tuple:
    """Per distinct L1-miss line (line_of: _miss_line_numbers) and GPC its extra L2 latency, and
    each SM's GPC (config l2_gpc_line_latency; (None, None) where off or the GPCs do not fit this
    GPU)."""
    gpc = domain_of_sm(H200_DISPATCH_UNITS, num_sms)
    if cfg.l2_gpc_line_latency is None or gpc is None or sr.miss_line is None or not len(sr.miss_line):
        return None, None
    return gpc_line_offsets(lines_in_allocation(line_of, heap_bases), int(gpc.max()) + 1,
                            cfg.l2_gpc_line_latency), gpc


def _request_log(merge, pc_of: np.ndarray) -> np.ndarray | None:
    """The replay's recorded L1-miss groups (load_lines.REQUEST_LOG_COLUMNS) with the kernel's pcs,
    or None where none were asked for."""
    if merge.log.shape[0] == 0:
        return None
    log = merge.log[:int(merge.log_n[0])].copy()
    log[:, -1] = pc_of[log[:, -1]]
    return log


def _merge_inputs(sides, cfg: TimingConfig, merge_dom, merge_cap: int, num_sms: int, n_pc: int,
                  offsets: tuple = (None, None)) -> MergeState:
    """The replay's MergeState (load_lines.py): off where no merge domains are given or nothing missed.
    offsets: _gpc_offsets's (GPC, line) latencies, which apply with or without merging."""
    g_li, n_lines, dram_lines = sides[2], sides[-4], sides[-3]
    on = merge_dom is not None and len(merge_dom) == num_sms and len(g_li) > 0
    # no fixed fetch window (w_miss 0): answer_opened sets the windows from the loads' own times
    return merge_state(on, merge_dom if on else np.zeros(num_sms, np.int64), merge_cap,
                       cfg.l2_merge_window_hit_cycles, dram_lines if on else np.zeros(1, np.int64),
                       len(g_li) if on else 0, n_lines if on else 1, n_pc,
                       together=cfg.l2_merge_release_together, floor=cfg.lat_l1_hit,
                       q0=cfg.l2_merge_inflight_half_lines, pend_short=cfg.l2_merge_pending_window_hit,
                       miss_lines_per_cycle=cfg.l1_miss_lines_per_cycle, line_off=offsets[0], sm_gpc=offsets[1],
                       w_hit_max=cfg.l2_merge_window_hit_max_cycles, log_groups=cfg.l2_request_log_groups)


def _l1_walkable(sr, st, row_entry: np.ndarray) -> bool:
    """Whether l1_order.py walks this launch (row_entry: each memory row's entry): global loads, no
    local memory, no atomic on a line that a load reads (l1_order.py's module docstring)."""
    if sr.load_line is None or not len(sr.load_line):
        return False
    row_kind = st.kind[sr.e_pc[row_entry]]
    if np.isin(row_kind, (K_LLD, K_LST)).any():
        return False
    if sr.unit_off is not None and len(sr.unit_line):
        unit_row = np.repeat(np.arange(len(row_kind)), np.diff(sr.unit_off))
        if np.isin(sr.unit_line[row_kind[unit_row] == K_GATOM], sr.load_line).any():
            return False
    return True


def _fold(per_pc: np.ndarray, pc_of: np.ndarray, n_pc: int) -> np.ndarray:
    """A per-pc count (first axis) over the unrolled copies' pcs too, added onto the kernel's pcs."""
    if len(per_pc) == n_pc:
        return per_pc
    out = np.zeros((n_pc,) + per_pc.shape[1:], per_pc.dtype)
    np.add.at(out, pc_of[:len(per_pc)], per_pc)
    return out


def _timed_l1_counts(sr, linked, row_entry, e_issue, warp_sm, num_sms: int,
                     l1_geometry: tuple, pc_of: np.ndarray) -> L1Counts:
    """l1_order.timed_l1_hits over the streams and the replay's SMs, in the order `e_issue` gives the
    entries (the replay's issue cycles, or each row's place in the functional order); pc_of: each
    pc's kernel pc (unrolled copies)."""
    sets, ways, heap_lines, rule = l1_geometry
    row_warp = np.repeat(np.arange(len(sr.warp_row0) - 1, dtype=np.int64), np.diff(sr.warp_row0))
    policy = np.zeros(len(linked.instructions), np.int64)
    for pc, name in getattr(linked, "l1_policy", {}).items():
        if 0 <= pc < len(policy):
            policy[pc] = POLICY_CODES.get(name, POLICY_PLAIN)
    return timed_l1_hits(e_issue, row_entry, pc_of[sr.e_pc[row_entry]], row_warp, warp_sm, policy,
                         (sr.load_off, sr.load_line, sr.load_info), (sr.store_off, sr.store_line, sr.store_info),
                         num_sms=num_sms, sets=int(sets), ways=int(ways), heap_lines=heap_lines,
                         rule=int(rule))


def _dim3(x):
    if isinstance(x, (int, np.integer)):
        x = (int(x),)
    t = tuple(int(v) for v in x)
    return t + (1,) * (3 - len(t))


def simulate_timing(linked, trace, gpu, *, grid, block, ctas_per_sm: int, registers_per_thread: int,
                    policy: str = "gto", config: TimingConfig | None = None,
                    per_pc: list[dict] | None = None, record: bool | str = "auto",
                    merge_domain_of_sm: np.ndarray | None = None, merge_cap: int = 0,
                    l1_geometry: tuple | None = None, sass_loops: tuple | None = None,
                    l2_side_copies: tuple | None = None) -> TimingResult:
    """Replay a launch's ExecutionTrace through the timing model; see the module docstring.

    record: keep the per-cycle record (TimingResult.record, for .cycle_view()): True, False, or
    "auto" (on below RECORD_AUTO_LIMIT warp instructions). It costs 10 bytes per warp instruction
    and changes no result.

    per_pc (optional, LaunchReport.per_pc): the memory system's per-instruction counters; their
    dram_bytes_read tells how many DRAM sectors each instruction's L2 misses fetched.

    merge_domain_of_sm / merge_cap (MemorySystem.merge_dom / merge_cap): with them (and
    config.l2_merge_in_time) the L1 -> L2 read merging is redone on the issue cycles
    (TimingResult.l2_merging; MemorySystem.apply_timed_merging applies it to the counters).

    l1_geometry (optional): (sets, ways, heap_lines, victim rule) of the launch's L1 (memory/l1.py); with it (and
    config.timed_l1_walk) the global loads' L1 hits are redone on the replay's SMs, in runs, in issue
    order or in the functional order (TimingResult.l1_loads; MemorySystem.apply_timed_l1), unless
    l1_order.py leaves the launch out.

    sass_loops (optional, LaunchReport.sass_loops): the kernel's SASS loops (frontend/sass.py);
    with them (and config.ptxas_layout_from_sass) each loop ptxas unrolled hoists as many
    registers of loaded values as its SASS does (unroll.sass_loaded_ahead).

    l2_side_copies (optional, MemorySystem.l2_side_copies): the L2 lines the previous launches left
    a copy of on a partition besides their home (l2_sides.py), for a launch with warm caches;
    TimingResult.l2_side_copies gives them after this launch."""
    t0 = time.perf_counter()
    cfg = config or default_config()
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {sorted(POLICIES)}, got {policy!r}")
    g, b = _dim3(grid), _dim3(block)
    n_ctas = g[0] * g[1] * g[2]
    threads = b[0] * b[1] * b[2]
    wpc = -(-threads // gpu.limits.warp_size)
    clock_ghz = gpu.sm_clock_mhz / 1000.0
    st = build_static(linked, cfg)
    for pc in getattr(trace, "dsmem_pcs", ()):  # another CTA's shared memory (config lat_dsmem)
        st.lat[pc] = max(int(st.lat[pc]), cfg.lat_dsmem)
        per_sm = cfg.dsmem_cycles_per_atomic if st.kind[pc] in (K_SATOM, K_GATOM) else cfg.dsmem_cycles_per_load
        st.ii[pc] = max(int(st.ii[pc]), int(round(per_sm * gpu.sub_partitions_per_sm)))
    schedules = []
    block_waits: dict[int, list[int]] = {}  # pc -> registers of loads sharing its scoreboards
    unrolled: list[tuple[int, int, int, list[int]]] = []
    shadows: dict[int, int] = {}
    if cfg.schedule_blocks:
        conv, blocks = scheduled_blocks(linked, st, cfg)
        shadows = {pc: int(linked.target[pc]) for pc in conv}
        budget = registers_per_thread if cfg.schedule_register_budget else None
        loops = set(unrolled_loops(linked, st, blocks, cfg))
        # ptxas keeps an unrolled loop's copies within its register count (unroll.py)
        unroll_budget = registers_per_thread if cfg.ptxas_unroll_register_budget else None
        # ptxas keeps at most this many registers of loaded, unread values in a block (isa.schedule_sequence)
        held_budget = cfg.ptxas_loaded_registers if cfg.ptxas_loaded_registers_in_blocks else 0
        ahead = sass_loaded_ahead(linked, blocks, sass_loops) if cfg.ptxas_layout_from_sass else {}
        if budget or (loops and unroll_budget) or held_budget:
            weights = register_weights(linked, st.n_regs, st.dst, st.kind == K_FREE)
            live_in, live_out = block_live_sets(linked, st.src, st.dst, blocks, conv)
        for j, (a, b_) in enumerate(blocks):
            inside = {p: t for p, t in shadows.items() if a <= p < b_}
            pressure = (weights, live_in[j], live_out[j], budget) if budget else None
            held = (weights, live_out[j], held_budget) if held_budget > 0 else None
            order = schedule_block(st, a, b_, cfg.schedule_load_latency, inside, pressure, cfg.schedule_in_time, held)
            if order != list(range(a, b_)):
                schedules.append((a, np.asarray(order, np.int64)))
            if (a, b_) not in loops and cfg.ptxas_shared_scoreboards_in_blocks and cfg.ptxas_shared_scoreboards:
                block_waits.update(block_scoreboard_waits(st, a, b_, order, cfg.ptxas_load_scoreboards))
            if (a, b_) in loops:
                f = cfg.ptxas_unroll_factor
                kept = (weights, live_in[j], live_out[j], unroll_budget) if unroll_budget else None
                unrolled.append((a, b_ - a, f, unrolled_order(st, a, b_, f, cfg.schedule_load_latency, inside,
                                                              kept, cfg.schedule_in_time,
                                                              ahead.get((a, b_), cfg.ptxas_loaded_registers),
                                                              cfg.ptxas_ready_load_first)))
    # ptxas's copies of an unrolled loop write registers of their own: they issue at pcs of their
    # own past the kernel's (unroll.with_copies); pc_of takes every pc to the kernel's, whose
    # per-pc inputs a copy repeats and onto which its per-pc counts fold back
    for pc, regs in block_waits.items():  # after the blocks are laid out: their order stays ptxas-like
        row = row_registers(st.src[pc])
        row += [r for r in dict.fromkeys(regs) if r not in row][:st.src.shape[1] - len(row)]
        st.src[pc, :len(row)] = row
    n_pc0 = len(st.kind)
    pc_of = np.arange(n_pc0, dtype=np.int64)
    n_sb = cfg.ptxas_load_scoreboards if (unrolled and cfg.ptxas_shared_scoreboards) else 0
    if unrolled:
        # which loads share a scoreboard, and so land for their consumers together (unroll.py)
        boards = ([scoreboard_groups(st, a, a + n, f, order, n_sb) for a, n, f, order in unrolled]
                  if n_sb else None)
        st, pc_of, firsts = with_copies(st, [(a, n, f) for a, n, f, _ in unrolled], boards, n_sb)
        unrolled = [(*u, first) for u, first in zip(unrolled, firsts)]
    dram_pc = None
    dram_w = np.zeros(len(st.kind), np.float64)  # per pc, DRAM sectors written back per execution
    st_fill = np.zeros(len(st.kind), np.float64)  # per store pc, the share of its sectors the L2 did not hold
    dram_sectors_pc = np.zeros(len(st.kind), np.float64)  # per pc, the DRAM sectors it read
    wb_read_share = np.zeros(len(st.kind), np.float64)  # per store pc, the reads' share of dram_w
    if per_pc:
        dram_pc = {int(r["pc"]): float(r["dram_bytes_read"]) for r in per_pc if "dram_bytes_read" in r}
        for r in per_pc:
            if not 0 <= int(r["pc"]) < len(dram_w):
                continue
            dram_sectors_pc[int(r["pc"])] = float(r.get("dram_bytes_read") or 0.0) / cfg.sector_bytes
            written = float(r.get("dram_bytes_write") or 0.0)
            if st.kind[int(r["pc"])] == K_GST:  # a store's DRAM reads: the partial sectors the L2 fills
                filled = float(r.get("dram_bytes_read") or 0.0)  # to write them back, on the same queue
                written += filled
                wb_read_share[int(r["pc"])] = filled / written if written else 0.0
            if written and r.get("warps"):
                dram_w[int(r["pc"])] = written / cfg.sector_bytes / float(r["warps"])
            if r.get("l2_write_fill_sectors") and r.get("sectors"):
                st_fill[int(r["pc"])] = min(1.0, float(r["l2_write_fill_sectors"]) / float(r["sectors"]))
    for per_pc_input in (dram_w, st_fill, dram_sectors_pc, wb_read_share):
        per_pc_input[:] = per_pc_input[pc_of]
    sm_side = None  # the measured partition sides (l2_sides.py), where they fit this GPU
    if cfg.l2_near_far_by_address and cfg.l2_sm_side is not None and len(cfg.l2_sm_side) == gpu.num_sms:
        sm_side = np.asarray(cfg.l2_sm_side, np.int64)
    timed_l1 = l1_geometry is not None and cfg.timed_l1_walk(n_ctas, ctas_per_sm * gpu.num_sms)
    if timed_l1 and not trace.load_hit_groups:
        # walking only the miss groups would count every hit of the launch as gone, silently
        raise ValueError(
            f"kernel {linked.name}: this timing config walks the global loads' L1 hits on the replay's SMs "
            "(l1_loads_in_runs / l1_loads_on_replay_sms / l1_loads_in_issue_order), but the trace was "
            "recorded without the loads' hit groups (its launch ran under a config that does not walk them); "
            "launch again under this config, or replay with the three switches off")
    sr = build_streams(trace, st, cfg, n_ctas, gpu.sm_clock_mhz, schedules, dram_pc, shadows, timed_l1=timed_l1,
                       unrolled=unrolled)
    merging_on = bool(cfg.l2_merge_in_time and merge_domain_of_sm is not None and len(merge_domain_of_sm))
    W = len(sr.warp_off) - 1
    N = len(sr.e_pc)
    n_sub = gpu.sub_partitions_per_sm
    num_sms = gpu.num_sms
    ctas_per_sm = max(1, int(ctas_per_sm))
    bar_lat = int(round(cfg.bar_base_cycles + cfg.bar_per_warp_cycles * wpc))
    l2_rate = cfg.l2_bytes_per_s / cfg.sector_bytes / (gpu.sm_clock_mhz * 1e6)
    dram_rate = cfg.dram_bytes_per_s / cfg.sector_bytes / (gpu.sm_clock_mhz * 1e6)
    fills = (st_fill, cfg.l2_fill_bytes_per_s / cfg.sector_bytes / (gpu.sm_clock_mhz * 1e6))
    # per pc, the DRAM cycles a sector costs beyond its bytes: its row activations (dram_rows.py)
    dram_act = extra_cycles_per_sector(activations(trace, len(st.kind), cfg), dram_sectors_pc, cfg,
                                       gpu.sm_clock_mhz)[pc_of]
    # and a sector written back behind it: the rows and 64 B writes of the dirty lines it evicted
    # (dram_rows.write_back_cycles_per_sector); a store's own DRAM reads (in dram_w) at its reads' cost
    wb_extra = write_back_cycles_per_sector(per_pc or [], len(st.kind), cfg, gpu.sm_clock_mhz)[pc_of]
    writes = _dram_write_costs(cfg, dram_w, gpu.sm_clock_mhz,
                               wb_read_share * dram_act + (1.0 - wb_read_share) * wb_extra)
    atom_rate = cfg.atomics_per_ns / clock_ghz
    rec = bool(N <= RECORD_AUTO_LIMIT) if record == "auto" else bool(record)
    walk_in_runs = timed_l1 and cfg.l1_loads_in_runs and not cfg.l1_loads_in_issue_order
    sm_lat_off = np.zeros(num_sms, np.int64)  # per SM, its distance to the L2 beyond the mean
    if cfg.l2_sm_latency is not None and len(cfg.l2_sm_latency) == num_sms:
        lat_sm = np.asarray(cfg.l2_sm_latency, np.float64)
        sm_lat_off = np.rint(lat_sm - lat_sm.mean()).astype(np.int64)
    pref_sm = np.full(n_ctas, -1, np.int64)  # the first wave's CTAs: the functional engine's SMs
    first_wave = min(n_ctas, ctas_per_sm * num_sms)
    pref_sm[:first_wave] = sm_of_cta(np.arange(first_wave), ctas_per_sm * num_sms, num_sms, n_ctas)
    # global stores meeting on their CTA's write path (store_lines.py), where the path is modelled
    stores_on = bool(cfg.store_sequencer and cfg.cta_store_queue_cycles > 0 and len(sr.store_line))
    n_pc = len(st.kind)
    slots = st.slots if st.slots is not None else np.ones(len(st.kind), np.int32)
    delay = st.delay if st.delay is not None else np.zeros(len(st.kind), np.int32)

    def replay_streams(sr, mark_waits: bool) -> _Run:
        """One replay of the streams `sr` (fresh state each time; mark_waits: fill e_waited for the
        walk in runs)."""
        line_of = _miss_line_numbers(sr)
        copy_at = side_copies_before(line_of, l2_side_copies if sm_side is not None else None)
        sides = _side_inputs(sr, cfg, sm_side, num_sms, trace.heap_bases, sm_side is not None or merging_on,
                             copy_at)
        merge = _merge_inputs(sides, cfg, merge_domain_of_sm if merging_on else None, merge_cap, num_sms,
                              n_pc, _gpc_offsets(sr, line_of, cfg, num_sms, trace.heap_bases))
        nr = N if rec else 0
        run = _Run(e_issue=np.full(N, -1, np.int64), warp_start=np.zeros(W, np.int64),
                   warp_end=np.zeros(W, np.int64), warp_sm=np.full(W, -1, np.int64),
                   cta_start=np.zeros(n_ctas, np.int64), cta_end=np.zeros(n_ctas, np.int64),
                   cta_sm=np.full(n_ctas, -1, np.int64), stall=np.zeros((n_pc, N_REASONS), np.int64),
                   sm_inst=np.zeros(num_sms, np.int64), e_dep=np.zeros(nr, np.int32), e_thr=np.zeros(nr, np.int32),
                   e_rsn=np.zeros(nr, np.int8), e_thr_rsn=np.zeros(nr, np.int8), w_slot=np.full(W, -1, np.int64),
                   e_waited=np.zeros(N if mark_waits else 0, np.int8), merge=merge,
                   store_counts=(np.zeros(n_pc, np.int64), np.zeros(n_pc, np.int64), np.zeros(n_pc, np.int64)))
        rings = store_rings(num_sms * ctas_per_sm, stores_on, cfg.store_join_max_lines, cfg.store_join_path_share)
        # a store into a line whose load is still on its way counts as a miss (store_lines.store_hits_lost)
        pend_on = bool(stores_on and cfg.store_misses_pending_fill and len(sides[1]))
        miss_lines = sr.miss_line[sr.miss_by_row] if pend_on else np.zeros(0, np.int64)
        miss_sectors = sr.miss_info[sr.miss_by_row] if pend_on else np.zeros(0, np.int64)  # its low 4 bits
        stores = (stores_on, sr.store_off, sr.store_line, sr.store_info, rings, *run.store_counts,
                  pending_fills(num_sms, pend_on, miss_lines, miss_sectors),
                  store_history(num_sms, cfg.store_two_back_cycles if stores_on else 0))
        run.cycles = int(replay(
            st.kind, st.pipe, st.lat, st.ii, slots, st.sb, st.src, st.dst, st.n_regs, n_sb,
            sr.e_pc, sr.rows, sr.warp_row0,
            sr.warp_off, sr.cta_warp0, sr.cta_nwarps,
            num_sms, sm_order(num_sms), pref_sm, sm_lat_off, ctas_per_sm, wpc, n_sub, POLICIES[policy],
            bool(cfg.fair_lsu_arbitration),
            (min(cfg.cta_launch_ns, cfg.cta_dispatch_ns) * clock_ghz,
             max(cfg.cta_dispatch_ns - cfg.cta_launch_ns, 0.0) * clock_ghz, float(cfg.warp_launch_cycles)),
            bar_lat, cfg.lsu_queue_cycles, cfg.mio_queue_cycles,
            cfg.cta_store_queue_cycles,
            (cfg.lat_branch_taken, pc_of, delay, sr.e_split if cfg.lat_divergent_split else np.zeros(0, np.int8),
             cfg.lat_divergent_split), cfg.l1_wavefronts_per_cycle, l2_rate, dram_rate, atom_rate,
            float(cfg.load_window_cycles),
            np.asarray(cfg.dram_load_util, np.float64), np.asarray(cfg.dram_load_extra_cycles, np.float64),
            np.asarray(cfg.l2_load_util, np.float64), np.asarray(cfg.l2_load_extra_cycles, np.float64),
            run.e_issue, run.warp_start, run.warp_end, run.warp_sm, run.cta_start, run.cta_end, run.cta_sm,
            run.stall, run.sm_inst,
            rec, run.e_dep, run.e_thr, run.e_rsn, run.e_thr_rsn, run.w_slot, run.e_waited, sides, merge,
            (sr.unit_off, lines_in_allocation(sr.unit_line, trace.heap_bases), sr.unit_cycles,
             int(cfg.l2_line_units)), stores, (_row_l2_lines(sr), cfg.l2_lines_per_ns / clock_ghz), writes, fills,
            dram_act))
        run.side_copies = side_copies_after(line_of, copy_at, l2_side_copies) if sides[0] else l2_side_copies
        return run

    t1 = time.perf_counter()
    first = replay_streams(sr, walk_in_runs)
    # the counters come from the first replay and the walk on it; the times from the last replay
    l1_loads = None
    retimed = 0.0
    run = first
    if timed_l1:
        row_entry = np.flatnonzero(np.isin(st.kind[sr.e_pc], ROW_KINDS))  # each memory row's entry
        if len(row_entry) != len(sr.rows):
            raise ValueError("timed L1: the memory rows do not match the entries that read one")
        if _l1_walkable(sr, st, row_entry):
            order = first.e_issue  # l1_loads_in_issue_order (off by default; where on, it wins)
            if walk_in_runs:
                waits = first.e_waited
                if cfg.l1_runs_end_on_own_loads:
                    waits = own_run_waits(waits, sr.e_pc, sr.warp_off, st.src, st.dst, st.sb == SB_LONG,
                                          st.kind == K_BAR, st.n_regs)
                order = run_order(sr.warp_off, sr.row_step, first.e_issue, waits, row_entry)
            elif not cfg.l1_loads_in_issue_order:  # the functional order, on the replay's SMs
                order = np.zeros(len(first.e_issue), np.int64)
                order[row_entry] = sr.row_flat
            l1_loads = _timed_l1_counts(sr, linked, row_entry, order, first.warp_sm, num_sms, l1_geometry,
                                        pc_of)
            if cfg.l1_walk_retime_min_share > 0:
                share = changed_share(sr, l1_loads.load_misses)
                if share >= cfg.l1_walk_retime_min_share:
                    run = replay_streams(walked_streams(sr, l1_loads.load_misses, cfg), False)
                    retimed = share
    e_issue, warp_start, warp_end, warp_sm = run.e_issue, run.warp_start, run.warp_end, run.warp_sm
    cta_start, cta_end, cta_sm, stall, sm_inst = run.cta_start, run.cta_end, run.cta_sm, run.stall, run.sm_inst
    e_dep, e_thr, e_rsn, e_thr_rsn, w_slot = run.e_dep, run.e_thr, run.e_rsn, run.e_thr_rsn, run.w_slot
    cycles = run.cycles
    t2 = time.perf_counter()
    overhead_cycles = cfg.launch_overhead_ns * clock_ghz
    total_cycles = cycles + overhead_cycles
    time_ns = total_cycles / clock_ghz

    # per-SM active cycles: union of its CTAs' [start, end) intervals
    by_sm = np.lexsort((cta_start, cta_sm))
    sm_active = _sm_active(by_sm, cta_sm, cta_start, cta_end, num_sms)
    warp_cycles_sm = np.bincount(warp_sm[warp_sm >= 0], weights=(warp_end - warp_start)[warp_sm >= 0],
                                 minlength=num_sms)
    max_warps = gpu.limits.max_warps_per_sm
    act = sm_active[sm_active > 0]
    inst = float(sm_inst.sum())
    stalls = {r: float(stall[:, i].sum()) for i, r in enumerate(REASONS)}
    warp_active_total = float((warp_end - warp_start).sum()) or 1.0

    metrics: dict[str, float] = {
        "gpu__time_duration.sum": time_ns,
        "gpc__cycles_elapsed.max": total_cycles,
        "sm__cycles_elapsed.avg": total_cycles,
        "sm__cycles_elapsed.max": total_cycles,
        "sm__cycles_active.avg": float(sm_active.mean()),
        "sm__cycles_active.max": float(sm_active.max(initial=0)),
        "sm__inst_executed.sum": inst,
        "sm__inst_executed.avg.per_cycle_active": float((sm_inst[sm_active > 0] / act).mean()) if len(act) else 0.0,
        "sm__warps_active.avg.pct_of_peak_sustained_active":
            100.0 * float(warp_cycles_sm[sm_active > 0].sum()) / (float(act.sum()) * max_warps) if len(act) else 0.0,
        "simgpu__timing_cycles": float(cycles),
        "simgpu__launch_overhead_cycles": overhead_cycles,
    }
    for r in REASONS:
        v = stalls[r]
        metrics[f"smsp__average_warp_latency_issue_stalled_{r}.ratio"] = v / inst if inst else 0.0
        metrics[f"smsp__average_warp_latency_issue_stalled_{r}.pct"] = 100.0 * v / inst if inst else 0.0
        metrics[f"smsp__warp_issue_stalled_{r}_per_warp_active.pct"] = 100.0 * v / warp_active_total
        metrics[f"smsp__pcsamp_warps_issue_stalled_{r}"] = v

    # timeline: per SM, binned issue counts and resident warps
    nb = max(1, cfg.timeline_bins)
    span = max(cycles, 1)
    edges = np.linspace(0, span, nb + 1)
    issued = _issued_per_bin(e_issue, sr.warp_off, warp_sm, num_sms, nb, span)
    width = span / nb
    warps_res = _resident_per_bin(warp_start, warp_end, warp_sm, edges, num_sms) / width
    timeline = {
        "bin_edges_cycles": edges, "issued": issued, "warps_resident": warps_res,
        "cta_sm": cta_sm, "cta_start": cta_start, "cta_end": cta_end,
        "warp_sm": warp_sm, "warp_start": warp_start, "warp_end": warp_end,
    }
    cycle_record = None
    if rec:
        has = np.flatnonzero(sr.cta_nwarps > 0)
        has = has[np.argsort(sr.cta_warp0[has], kind="stable")]  # CTAs hold contiguous warp ids
        cta_of_warp = np.repeat(has, sr.cta_nwarps[has]).astype(np.int64)
        cycle_record = CycleRecord(pc=pc_of[sr.e_pc].astype(sr.e_pc.dtype), issue=e_issue, dep=e_dep, thr=e_thr,
                                   reason=e_rsn,
                                   thr_reason=e_thr_rsn, warp_off=sr.warp_off, warp_slot=w_slot, warp_sm=warp_sm,
                                   warp_start=warp_start, warp_end=warp_end, cta_of_warp=cta_of_warp,
                                   n_sub=n_sub, linked=linked)
    merging = None
    if merging_on:
        merge = first.merge
        if merge.on:
            merging = MergeCounts(_fold(merge.merged_f, pc_of, n_pc0),
                                  np.rint(_fold(merge.merged_t, pc_of, n_pc0)).astype(np.int64), int(merge.evict[0]),
                                  _fold(merge.pend, pc_of, n_pc0) if cfg.l2_pending_fetch_is_miss else None,
                                  _request_log(merge, pc_of))
        else:  # no L1 miss recorded
            merging = MergeCounts(np.zeros(n_pc0, np.int64), np.zeros(n_pc0, np.int64), 0)
    store_merging = StoreCounts(*(_fold(c, pc_of, n_pc0) for c in first.store_counts)) if stores_on else None
    t3 = time.perf_counter()
    return TimingResult(metrics=metrics, sm_cycles=sm_active, timeline=timeline, stalls=stalls, cycles=cycles,
                        time_ns=time_ns, host_seconds=t3 - t0, stalls_per_pc=_fold(stall, pc_of, n_pc0),
                        issue_cycle=e_issue,
                        extra={"prepare_s": t1 - t0, "replay_s": t2 - t1, "post_s": t3 - t2,
                               "warp_instructions": N, "policy": policy, "retimed_share": retimed}, record=cycle_record,
                        l2_merging=merging, store_merging=store_merging, l1_loads=l1_loads,
                        l2_side_copies=run.side_copies)
