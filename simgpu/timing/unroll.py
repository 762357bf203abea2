"""Loops ptxas unrolls again, and the order of their unrolled instances.

NVRTC's optimiser unrolls a counted loop with a run-time trip count by 4 (a 4-copy main loop) and
marks what it must not touch again, the remainder loop and every loop a `#pragma unroll` already
unrolled, with `.pragma "nounroll"`. ptxas unrolls the unmarked main loop by another 4 when its
body is small, so the SASS keeps 16 loads of the CUDA loop in flight where the PTX has 4.

Evidence, nvcc 13.0 -arch=sm_90 SASS of every recorded suite (validation/*/results/sass.txt.gz) against
NVRTC's PTX of the same source, the 146 innermost one-block loops with a global load, each PTX loop
matched to the SASS loops in order:
- all 51 marked nounroll kept one copy;
- none of the 54 that are not counted (the step a register: grid-stride loops; a data-dependent
  exit: binary searches, merge paths) was unrolled, whatever their size;
- of the 41 counted ones (an induction register stepped by an immediate and compared with a
  loop-invariant bound), the 32 with a SASS body of at most 41 instructions came out 4 times
  unrolled (softmax_warp_rows, spmv_csr, gemv_cols, col_softmax's first two passes, half2_gemv_rows
  ...), the 9 of 46 or more kept one copy (matvec_ldg4 62, with 20 loads; online_softmax 66;
  bf16_rmsnorm_vec8 105 ...).
The rule below (sass_estimate at most 56, at most 16 loads) gives 144 of the 146: it unrolls
typical softmax_warp_rows' and typical20 col_softmax's store passes (estimated 41 and 48, 46 and
58 SASS: their 64-bit store addresses take more SASS than the estimate counts), which ptxas did
not. With the estimate's limit under 41 it would miss ell_spmv, wmma_gemm_f16 and half2_gemv_rows
(estimated 45, 47 and 53, 38, 27 and 34 SASS) instead.

The timing model replays the PTX; where ptxas unrolled a loop, four consecutive instances of its
block are scheduled as one run (isa.schedule_sequence), each instance but the last writing
registers of its own as ptxas renames them (renamed_registers), and issue at pcs of their own
(with_copies) so that the replay's scoreboard sees those registers; the inner instances' back
branches do not issue (the SASS has none). Loads of later instances move up past the uses of
earlier ones, as in the SASS. Left-over instances (fewer than four) keep the one-instance
schedule, as ptxas's remainder loop does. The functional counters come from the trace, which runs
the PTX as written, except the requests and SASS instruction counts of these loops, which
sass_counts.py takes to the SASS's where the lanes leave the loop at different trips.
"""

from __future__ import annotations

import numpy as np

from simgpu.exec.program import BRA, LinkedKernel, _defs_uses
from simgpu.frontend.ptx.ast import Imm, Reg
from simgpu.frontend.sass import SassLoop
from simgpu.timing.config import TimingConfig
from simgpu.timing.isa import K_GLD, StaticTable, dependent_loads, hoisted_sequence, loaded_weights, schedule_sequence
from simgpu.timing.reg_pressure import row_registers

_STEP_OPS = ("add", "sub")


def _counted(lk: LinkedKernel, a: int, b: int) -> bool:
    """Whether the loop a..b-1 (its back branch at b-1) exits on a comparison of an induction
    register stepped by an immediate with a loop-invariant register or an immediate: a trip count
    ptxas can compute on entry."""
    bra = lk.instructions[b - 1]
    if bra.guard is None:
        return False
    written: dict[str, list] = {}
    for pc in range(a, b - 1):
        ins = lk.instructions[pc]
        for name in _defs_uses(ins)[0]:
            written.setdefault(name, []).append(ins)
    setps = [ins for ins in written.get(bra.guard.name, []) if ins.opcode == "setp"]
    if len(setps) != 1 or len(setps[0].operands) < 3:
        return False
    x, y = setps[0].operands[1], setps[0].operands[2]

    def stepped(o) -> bool:
        if not isinstance(o, Reg) or len(written.get(o.name, [])) != 1:
            return False
        w = written[o.name][0]
        ops = w.operands
        return (w.opcode in _STEP_OPS and len(ops) == 3 and isinstance(ops[1], Reg) and ops[1].name == o.name
                and isinstance(ops[2], Imm))

    def invariant(o) -> bool:
        return isinstance(o, Imm) or (isinstance(o, Reg) and o.name not in written)

    return (stepped(x) and invariant(y)) or (stepped(y) and invariant(x))


def loops_with_loads(lk: LinkedKernel, blocks: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(start, end, global loads) of each block of `blocks` that is a whole loop (it ends in a
    branch back to its own start) with at least one global load, in block order."""
    out = []
    for a, b in blocks:
        if int(lk.kinds[b - 1]) != BRA or int(lk.target[b - 1]) != a:
            continue
        loads = sum(lk.mem_class[pc] == "global_ld" for pc in range(a, b))
        if loads:
            out.append((a, b, loads))
    return out


def unrolled_loops(lk: LinkedKernel, st: StaticTable, blocks: list[tuple[int, int]],
                   cfg: TimingConfig) -> list[tuple[int, int]]:
    """The blocks of `blocks` that are a whole loop ptxas unrolls by cfg.ptxas_unroll_factor: the
    block ends in a guarded branch back to its own start, NVVM did not mark it nounroll, it has
    1 to cfg.ptxas_unroll_max_loads global loads, its SASS estimate (sass_estimate) is at most
    cfg.ptxas_unroll_max_slots, and it is counted (_counted)."""
    if not cfg.ptxas_unroll or cfg.ptxas_unroll_factor < 2:
        return []
    out = []
    for a, b, loads in loops_with_loads(lk, blocks):  # a load and the back branch: b - a >= 2
        if any(lk.instructions[pc].nounroll for pc in range(a, b)):
            continue
        if loads > cfg.ptxas_unroll_max_loads:
            continue
        if sass_estimate(lk, st, a, b) > cfg.ptxas_unroll_max_slots or not _counted(lk, a, b):
            continue
        out.append((a, b))
    return out


def matched_sass_loops(lk: LinkedKernel, blocks: list[tuple[int, int]],
                       loops: tuple[SassLoop, ...]) -> dict[tuple[int, int], tuple[bool, SassLoop]]:
    """The SASS loop (frontend/sass.py) of each one-block PTX loop with global loads, and whether
    ptxas unrolled it: the PTX loops, in order, each take the next SASS loop with 4 L or L loads
    (L the PTX loop's global loads), and the remainder loop ptxas puts after an unrolled one (L
    loads) is skipped. A PTX loop with no such SASS loop left is not in the result."""
    out: dict[tuple[int, int], tuple[bool, SassLoop]] = {}
    cur = 0
    for a, b, loads in loops_with_loads(lk, blocks):
        for q in range(cur, len(loops)):
            if loops[q].loads in (loads, 4 * loads):
                unrolled, cur = loops[q].loads == 4 * loads != loads, q + 1
                out[(a, b)] = (unrolled, loops[q])
                if unrolled and cur < len(loops) and loops[cur].loads == loads:
                    cur += 1  # the remainder loop
                break
    return out


def sass_loaded_ahead(lk: LinkedKernel, blocks: list[tuple[int, int]],
                      loops: tuple[SassLoop, ...] | None) -> dict[tuple[int, int], int]:
    """Per PTX loop that ptxas unrolled, the registers of loaded values its SASS issues ahead of
    their first use (where that is at least one load's worth): unrolled_order's loaded_registers
    for that loop, in place of the config's one number for all."""
    if not loops:
        return {}
    return {ab: m.loaded_ahead for ab, (unrolled, m) in matched_sass_loops(lk, blocks, loops).items()
            if unrolled and m.loaded_ahead > 0}


def sass_estimate(lk: LinkedKernel, st: StaticTable, a: int, b: int) -> int:
    """SASS instructions of pcs a..b-1, as ptxas's unroll limit counts them: the issue slots
    (isa.sass_slots), and 4 for an `ex2.approx.f32` without .ftz, which ptxas wraps in a range
    check and two predicated FMULs for subnormal results (typical3 online_softmax: 8 such ex2 and
    32 other PTX instructions, 66 SASS in its loop)."""
    n = 0
    for pc in range(a, b):
        ins = lk.instructions[pc]
        n += int(st.slots[pc]) if st.slots is not None else 1
        if ins.opcode == "ex2" and "approx" in ins.mods and "f32" in ins.mods and "ftz" not in ins.mods:
            n += 3
    return n


def renamed_registers(st: StaticTable, a: int, b: int, factor: int, first_id: int
                      ) -> tuple[list[list[int]], list[list[int]], dict[int, int]]:
    """Register ids of `factor` consecutive instances of the loop block a..b-1, as ptxas's copies
    use them: per instance position k * (b - a) + j (pc a + j) its sources and destinations. The
    instances before the last write new ids (first_id, first_id + 1, ...), the last one writes the
    loop's own registers, so what the loop carries and leaves behind is where the next instance
    (or the code after the loop) reads it; a source is the newest version of its register. Also
    returns each new id's register."""
    srcs: list[list[int]] = []
    dsts: list[list[int]] = []
    current: dict[int, int] = {}
    origin: dict[int, int] = {}
    fresh = first_id
    for k in range(factor):
        for pc in range(a, b):
            srcs.append([current.get(r, r) for r in row_registers(st.src[pc])])
            names = []
            for r in row_registers(st.dst[pc]):
                if k < factor - 1:
                    origin[fresh] = r
                    current[r] = fresh
                    fresh += 1
                else:
                    current[r] = r
                names.append(current[r])
            dsts.append(names)
    return srcs, dsts, origin


def unrolled_order(st: StaticTable, a: int, b: int, factor: int, load_latency: int,
                   shadows: dict[int, int] | None = None,
                   pressure: tuple[np.ndarray, set[int], set[int], int] | None = None,
                   in_time: bool = False, loaded_registers: int = 0, ready_first: bool = False) -> list[int]:
    """The issue order of `factor` consecutive instances of the loop block a..b-1 as ptxas's
    unrolled loop issues them: positions k * (b - a) + j (instance k, pc a + j) in order, without
    the back branches of all but the last instance. The instances' registers are renamed as
    renamed_registers does, so only true dependencies (and memory order) hold them apart;
    `shadows` (if-converted branch -> target) predicate each instance's own shadow. With
    `loaded_registers` (and `pressure`'s weights) the copies keep program order and each load is
    hoisted while the loaded values not yet used take at most that many registers
    (isa.hoisted_sequence; with `ready_first` a load whose address is ready goes before one whose
    address is still to compute), unless a load's address comes from another load
    (isa.dependent_loads); otherwise they are list-scheduled within `pressure`'s budget."""
    n = b - a
    shadows = shadows or {}
    all_srcs, all_dsts, origin = renamed_registers(st, a, b, factor, st.n_regs)
    keep = [p for p in range(factor * n) if not (p % n == n - 1 and p < (factor - 1) * n)]
    place = {p: i for i, p in enumerate(keep)}
    guards = [[place[p - p % n + (bpc - a)] for bpc, tgt in shadows.items() if a <= bpc < a + p % n < tgt]
              for p in keep]
    if pressure is not None:
        weights, live_in, live_out, budget = pressure
        w = np.zeros(st.n_regs + len(origin), np.int64)
        w[:len(weights)] = weights[:len(w)]
        for new, r in origin.items():
            w[new] = weights[r] if r < len(weights) else 0
        pressure = (w, set(live_in), set(live_out), budget)
    seq, srcs, dsts = [a + p % n for p in keep], [all_srcs[p] for p in keep], [all_dsts[p] for p in keep]
    if loaded_registers and pressure is not None and not dependent_loads(st, seq, srcs, dsts):
        w, _, live_out, _ = pressure
        order = hoisted_sequence(st, seq, srcs, dsts, (loaded_weights(st, seq, dsts, w), set(), live_out,
                                                       loaded_registers), guards, ready_first)
    else:
        order = schedule_sequence(st, seq, srcs, dsts, load_latency, guards, pressure, in_time)
    return [keep[i] for i in order]


def scoreboard_groups(st: StaticTable, a: int, b: int, factor: int, order: list[int], n_barriers: int
                      ) -> tuple[dict[int, int], dict[int, list[int]]]:
    """The scoreboards ptxas gives the global loads of an unrolled loop laid out in `order` (positions
    k * (b - a) + j, as unrolled_order returns them), and the scoreboards each position waits on.
    A consumer waits until every load on its scoreboard has landed, so loads that share one are
    waited for together. The rule: a load joins its first consumer's group while that group's
    scoreboard is the one opened last and no wait has freed another since; otherwise it takes a
    free scoreboard of `n_barriers` (opening a group), else joins the one opened last. A
    scoreboard is free again once an instruction waits on it, which it does when it reads a
    loaded register whose scoreboard no earlier wait covered. A load whose value is first read
    past the loop's end keeps no scoreboard here. On the recorded SASS loops (validation/
    sass_barriers.py) this gives ptxas's grouping for 90 of 113, 97.7 % of load pairs; the rule
    that joins any busy group of the consumer gives 99 and 97.9 %, but on the model's layouts it
    adds loads issued after a wait to an older group (ptxas puts them on the freed scoreboard)
    and made gemm_naive's full grid 24.3 us (this rule 19.6, the H200 19.9)."""
    n = b - a
    srcs, dsts, _ = renamed_registers(st, a, b, factor, st.n_regs)
    first_use: dict[int, int] = {}
    for i, p in enumerate(order):
        if int(st.kind[a + p % n]) == K_GLD and dsts[p]:
            written = set(dsts[p])
            use = next((q for q in order[i + 1:] if written & set(srcs[q])), None)
            if use is not None:
                first_use[p] = use
    free = list(range(n_barriers))
    busy: set[int] = set()
    opened_for: dict[int, int] = {}  # first consumer -> its group's scoreboard
    pending: dict[int, int] = {}  # loaded register -> its scoreboard, until a wait covers it
    last_opened = 0
    freed_since_open = False
    load_sb: dict[int, int] = {}
    waits: dict[int, list[int]] = {}
    for p in order:
        need = sorted({pending[r] for r in srcs[p] if r in pending})
        if need:
            waits[p] = need
            pending = {r: sb for r, sb in pending.items() if sb not in need}
            busy.difference_update(need)
            free += need  # each was busy, so none is in free
            freed_since_open = True
        if p in first_use:
            use = first_use[p]
            if opened_for.get(use) == last_opened and last_opened in busy and not (freed_since_open and free):
                sb = last_opened
            elif free:
                sb = last_opened = free.pop(0)
                freed_since_open = False
            else:
                sb = last_opened
            busy.add(sb)
            opened_for[use] = sb
            load_sb[p] = sb
            pending.update((r, sb) for r in dsts[p])
    return load_sb, waits


def block_scoreboard_waits(st: StaticTable, a: int, b: int, order: list[int], n_barriers: int) -> dict[int, list[int]]:
    """For a block a..b-1 that is not an unrolled loop, laid out in `order` (pcs): the registers
    each instruction must also wait for because ptxas puts its loads' values on shared scoreboards
    (scoreboard_groups' rule, one instance): per waiting pc, the destination registers of the
    last load (in `order`) on each scoreboard it waits on, where that is not one of its own
    sources. That load lands last, so a consumer that reads its registers waits, as on the GPU,
    until every load of its scoreboard has landed; the block keeps the kernel's register names,
    so no copies are needed (a register a pending load writes is not written again before it is
    read)."""
    if np.count_nonzero(st.kind[a:b] == K_GLD) < 2:  # nothing to share a scoreboard with
        return {}
    pos = [pc - a for pc in order]
    load_sb, waits = scoreboard_groups(st, a, b, 1, pos, n_barriers)
    if not waits:
        return {}
    members: dict[int, list[int]] = {}
    extra: dict[int, list[int]] = {}
    for p in pos:
        for s in waits.get(p, ()):
            group = members.pop(s, [])
            if len(group) > 1:
                own = set(row_registers(st.src[a + p]))
                regs = [r for r in row_registers(st.dst[a + group[-1]]) if r not in own]
                if regs:
                    extra.setdefault(a + p, []).extend(regs)
        if p in load_sb:
            members.setdefault(load_sb[p], []).append(p)
    return extra


def with_copies(st: StaticTable, loops: list[tuple[int, int, int]],
                scoreboards: list[tuple[dict[int, int], dict[int, list[int]]]] | None = None,
                n_sb: int = 0) -> tuple[StaticTable, np.ndarray, list[int]]:
    """The static table with a row of its own for every instance position of every unrolled loop
    (start pc, length n, factor f: f * n rows past the kernel's pcs, position p of loop i at pc
    first[i] + p), with the renamed registers of renamed_registers, so the replay's scoreboard
    sees ptxas's copies write registers of their own. The new register ids go before the three
    cp.async pseudo registers, which stay the last three (isa.build_static). With `scoreboards`
    (per loop, scoreboard_groups' result) `n_sb` scoreboard pseudo registers go just before those
    three: each load writes its scoreboard's, each waiting position reads the ones it waits on
    (the replay keeps the latest landing on each). Returns the table, each pc's kernel pc (pc_of:
    the copies' per-pc inputs are their pc's, and their per-pc counts fold back onto it) and each
    loop's first pc."""
    n_pc = len(st.kind)
    pc_of = [np.arange(n_pc, dtype=np.int64)]
    first: list[int] = []
    rows: list[tuple[list[list[int]], list[list[int]]]] = []
    n_new = 0
    base = st.n_regs - 3
    nxt = n_pc
    for a, n, f in loops:
        first.append(nxt)
        pc_of.append(np.tile(np.arange(a, a + n, dtype=np.int64), f))
        nxt += f * n
        srcs, dsts, origin = renamed_registers(st, a, a + n, f, st.n_regs + n_new)  # past every id
        rows.append((srcs, dsts))
        n_new += len(origin)
    pc_map = np.concatenate(pc_of)

    n_sb = n_sb if scoreboards else 0
    move = n_new + n_sb  # the cp.async pseudo registers move past the new ids and the scoreboards

    def shifted(table: np.ndarray) -> np.ndarray:
        return np.where(table >= base, table + move, table).astype(table.dtype)

    src, dst = shifted(st.src[pc_map]), shifted(st.dst[pc_map])
    for i, ((srcs, dsts), pc0) in enumerate(zip(rows, first)):
        load_sb, waits = scoreboards[i] if scoreboards else ({}, {})
        for p, (rs, ds) in enumerate(zip(srcs, dsts)):
            sb_src = [base + n_new + b for b in waits.get(p, ())]
            sb_dst = [base + n_new + load_sb[p]] if p in load_sb else []
            for table, regs, extra in ((src, rs, sb_src), (dst, ds, sb_dst)):
                row = [r - st.n_regs + base if r >= st.n_regs else r + move if r >= base else r for r in regs]
                if len(row) + len(extra) <= table.shape[1]:  # a full row (wmma's 8) keeps its own waits
                    row += extra
                if len(row) > table.shape[1]:
                    raise ValueError("unrolled copy: more registers than a table row holds")
                table[pc0 + p] = -1
                table[pc0 + p, :len(row)] = row
    ext = st.remapped(pc_map, src, dst, st.n_regs + move)
    return ext, pc_map, first
