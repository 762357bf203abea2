"""DRAM row activations: what makes random accesses to HBM slower than streaming ones.

HBM serves a sector from a row of a bank that must be opened (activated) first; a stream reads a
row's sectors one after another, so it pays one activation per row, where accesses to random
addresses pay one each. validation/typical18 (H200, 2026-12-04): random 4-byte gathers over 256 MB
fetched 64 B pairs at 38 per ns (2.4 TB/s) where a stream reads 4.55 TB/s; random whole lines ran
at 26 per ns (3.0 TB/s); random atomics and word scatters (a read and a write-back each) at 18.5
and 16.8 per ns.

The functional walk knows which lines each instruction fetched from DRAM, in the order it ran
them. `activations` replays those lines through a table of open rows (config dram_banks banks,
rows of dram_row_bytes, a line's bank by a hash of its row) and counts, per pc, the fetches that
found their row closed; a line in the row of its warp's previous one counts as open (the walk runs
every warp's step together, where a warp walking its own row sends its lines together: the H200 ran
typical4's gemv_warp_x and typical13's cross_entropy_rows, a warp to a 16 KB row, at the
streaming rate). The replay charges each DRAM sector of a pc, beyond its bytes, the
activations per sector above a stream's (one per row) times dram_activation_ns: streaming launches
cost what they did, random ones pay for their rows.

Write-backs pay for their rows too, at dram_write_activation_ns (validation/typical19: random 64 B
pairs stored over 256 MB ran 2.6x slower than in order, whole lines 1.5x, lone sectors 4.9x), but
the functional walk's order is not theirs: the L2 writes a dirty line back when a later access
evicts it. The memory system counts them as they leave (memory/l2.py: the rows they open in a table
of their own, their 64 B DRAM writes) on the evicting instruction, and
`write_back_cycles_per_sector` turns those counts into each written-back sector's cost.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.memory.l1 import dram_sectors
from simgpu.memory.l2 import dram_bank
from simgpu.stats.trace import ExecutionTrace
from simgpu.timing.config import TimingConfig


@njit(cache=True)
def _scan(pcs, lines, warps, row_shift, n_banks, n_pc):
    """Per pc, the lines (in the order given) whose row was neither the open one of its bank nor the
    row of the same warp's previous line (a warp's back-to-back requests reach the controller
    together, and it serves a row's queued requests together)."""
    open_row = np.full(n_banks, -1, np.int64)
    last_row = np.full(warps.max() + 1 if warps.shape[0] else 1, -1, np.int64)
    acts = np.zeros(n_pc, np.int64)
    for i in range(lines.shape[0]):
        row = lines[i] >> row_shift
        b = dram_bank(row, n_banks)
        if open_row[b] != row and last_row[warps[i]] != row:
            acts[pcs[i]] += 1
        open_row[b] = row
        last_row[warps[i]] = row
    return acts


@njit(cache=True)
def _dram_lines(info):
    keep = np.zeros(info.shape[0], np.bool_)
    for i in range(info.shape[0]):
        keep[i] = dram_sectors(info[i]) != 0
    return keep


def activations(trace: ExecutionTrace, n_pc: int, cfg: TimingConfig) -> np.ndarray:
    """Per pc, the DRAM row activations of its fetches in the functional walk's order: a global
    load's lines that went to DRAM, and every line of a global atomic or reduction and every line a
    store writes part of a sector of (their misses are not told apart in the trace; lines the L2
    holds find their row open as often as the launch repeats them). int64 [n_pc]."""
    if not trace.n_steps or cfg.dram_activation_ns <= 0:
        return np.zeros(n_pc, np.int64)
    step_pc = trace.flat_steps()[0]
    pcs, lines, warps = [], [], []
    for ev in trace.memory:
        if ev.space != "global" or not len(ev.warps):
            continue
        if ev.op == "ld" and ev.ld_line is not None and len(ev.ld_line):
            keep = _dram_lines(np.asarray(ev.ld_info, np.uint16))
            picked, who = ev.ld_line[keep], ev.ld_warp[keep]
        elif ev.unit_line is not None and len(ev.unit_line):  # atomics, and stores of part of a sector
            picked, who = ev.unit_line, ev.unit_warp
        else:
            continue
        if len(picked):
            lines.append(np.asarray(picked, np.int64))
            warps.append(np.asarray(ev.warps, np.int64)[np.asarray(who, np.int64)])
            pcs.append(np.full(len(picked), step_pc[ev.step], np.int64))
    if not lines:
        return np.zeros(n_pc, np.int64)
    row_shift = int(cfg.dram_row_bytes).bit_length() - 1 - 7  # lines are 128 B
    return _scan(np.concatenate(pcs), np.concatenate(lines), np.concatenate(warps), max(0, row_shift),
                 int(cfg.dram_banks), n_pc)


def extra_cycles_per_sector(acts: np.ndarray, dram_sectors_pc: np.ndarray, cfg: TimingConfig,
                            clock_mhz: float) -> np.ndarray:
    """Per pc, the DRAM queue cycles each of its DRAM sectors costs beyond its bytes: its activations
    per sector above a stream's (one per row), at dram_activation_ns each; 0 where the pc fetched
    nothing or is no worse than a stream."""
    out = np.zeros(len(acts), np.float64)
    has = dram_sectors_pc > 0
    per_sector = np.minimum(1.0, acts[has] / dram_sectors_pc[has])
    stream = cfg.sector_bytes / float(cfg.dram_row_bytes)
    out[has] = np.maximum(0.0, per_sector - stream) * cfg.dram_activation_ns * clock_mhz / 1000.0
    return out


def write_back_cycles_per_sector(per_pc: list[dict], n_pc: int, cfg: TimingConfig, clock_mhz: float) -> np.ndarray:
    """Per pc, the DRAM queue cycles each sector it writes back (evicts dirty) costs beyond its
    bytes, from the memory system's count of those write-backs (memory/l2.py: the rows they opened
    in a table of their own, in the order the L2 evicted them, and their 64 B DRAM writes): the
    activations per sector above a stream's at dram_write_activation_ns each, and the bus time of
    the clean sectors its 64 B writes carry (a lone dirty sector takes a pair's) at the write rate.
    0 where it wrote nothing back."""
    out = np.zeros(n_pc, np.float64)
    if cfg.dram_write_bytes_per_s <= 0:
        return out
    stream = cfg.sector_bytes / float(cfg.dram_row_bytes)
    sector_ns = cfg.sector_bytes / cfg.dram_write_bytes_per_s * 1e9
    for r in per_pc:
        pc, sectors = int(r["pc"]), float(r.get("dram_bytes_write") or 0.0) / cfg.sector_bytes
        if not 0 <= pc < n_pc or sectors <= 0:
            continue
        acts = float(r.get("dram_write_activations") or 0.0)
        ns = max(0.0, min(1.0, acts / sectors) - stream) * cfg.dram_write_activation_ns
        granules = float(r.get("dram_write_granules") or 0.0)
        ns += max(0.0, 2.0 * granules / sectors - 1.0) * sector_ns
        out[pc] = ns * clock_mhz / 1000.0
    return out
