"""Which shfl.sync ptxas can prove the warp reaches converged, and which it guards.

A shfl.sync needs every lane of its member mask there. Where ptxas cannot prove the warp is
converged it guards the SHFL: a `WARPSYNC.ALL` before it, or a `BRA.DIV` to a slow path that
executes the block's shuffles one `WARPSYNC.COLLECTIVE` at a time and re-enters after the last one.
Either is a point nothing is scheduled across, which is what the timing model needs
(isa.scheduled_blocks). Proven-converged shuffles get neither and loads move up across them
freely (typical22 shfl_gain_filter: 16 LDGs ahead of its SHFLs).

The proof is a divergence analysis over the kernel's PTX, its rules read off NVRTC + nvdisasm
SASS of 22 probes (tests/timing/test_convergence.py) and of the recorded suites' kernels:

* varying values come from %tid, %laneid and the lane masks, atomics, loads from a varying
  address, shuffles other than an idx shuffle of a uniform lane, and registers written under a
  varying guard or inside a divergent region; kernel parameters, %ctaid / %ntid / %nctaid,
  immediates, loads from a uniform address (global, shared or constant), ballots, votes and
  reductions over the warp are uniform;
* a forward branch on a varying predicate makes the blocks it reaches before its immediate
  post-dominator divergent if its sides rejoin in code: after `if (i >= n) return;`, or in
  `if (lane < 16) { ..shfl..; return; }`, the SHFL is not guarded (lanes that leave do not count);
* a backward branch on a varying predicate makes its loop's body divergent, wherever the lanes
  that leave go (a thread-strided loop with nothing after it is guarded).

Over the recorded suites' 41 kernels with a shuffle this agrees with the SASS on every BRA.DIV.
Not modelled: ptxas also puts a WARPSYNC.ALL right after some convergence barriers (BSYNC) where a
SHFL follows, the warp just reconverged (an integer butterfly after a lane-strided loop: typical5
int8_gemv_dp4a, typical7 persistent_worklist; the same loop summing floats gets none). It stands
where a block already starts, so the schedule is the same without it.

The same analysis, with values told uniform among the lanes that compute them, says where ptxas
puts its convergence barriers (convergence_barriers): a BSSY before a region a branch may split the
warp in and a BSYNC where its sides meet, two SASS instructions the PTX does not have. Over the
recorded suites' 245 kernels NVRTC's SASS has 247 such BSSYs outside the regions of ptxas's own
slow-path calls, and the rule finds 194, the same number in 201 kernels; most of the rest are the
remainder loops ptxas adds when it unrolls a lane-strided loop (one region per copy, each entered
once: gemv_warp_rows 4 against 2), short if / else diamonds ptxas predicates (scan_warp_shfl) and
regions around warp-synchronous code (group8_votes 5 against 0); tests/timing/
test_convergence_barriers.py holds the probes.
"""

from __future__ import annotations

from simgpu.exec.program import _UNIFORM_SPECIALS, BRA, EXIT, RET, TRAP, LinkedKernel, _defs_uses
from simgpu.frontend.cfg import build_cfg
from simgpu.frontend.ptx.ast import Addr, Imm, Reg, Special, Sym, Vec

_WARP_WIDE = {"vote", "redux", "activemask"}  # one result for the whole warp
# special registers one warp reads as one value besides the CTA-wide ones: its SM, its warp slot and
# the clocks, read by the whole warp at once (ptxas guards no shuffle under a branch or loop on
# them: tests/timing/test_convergence.py smid_if, warpid_if, clock_if, clock64_loop, globaltimer_if)
_WARP_SPECIALS = _UNIFORM_SPECIALS + ("%smid", "%warpid", "%clock", "%globaltimer")
_ALWAYS_VARYING = {"atom", "red", "match", "elect", "call"}
_END = (EXIT, RET, TRAP)


def _operand_uniform(op, varying: set[str]) -> bool:
    if isinstance(op, (Imm, Sym)) or op is None:
        return True
    if isinstance(op, Special):
        return op.name.startswith(_WARP_SPECIALS)
    if isinstance(op, Reg):
        return op.name.lstrip("!") not in varying
    if isinstance(op, Addr):
        return _operand_uniform(op.base, varying)
    if isinstance(op, Vec):
        return all(_operand_uniform(e, varying) for e in op.elems)
    return False


def _result_uniform(ins, varying: set[str], n_defs: int) -> bool:
    """Whether an unguarded instruction of uniform control writes one value across the warp."""
    op = ins.opcode
    if op in _WARP_WIDE:
        return True
    if op in _ALWAYS_VARYING or (op == "ld" and "local" in ins.mods):
        return False
    if op == "shfl":  # shfl.sync.idx d[|p], a, lane, c, mask: every lane reads the same lane
        return "idx" in ins.mods and all(_operand_uniform(x, varying) for x in ins.operands[n_defs + 1:])
    return all(_operand_uniform(x, varying) for x in ins.operands[n_defs:])


class _Graph:
    """The linked kernel's basic blocks (frontend/cfg.py, as the linker builds them: a guarded
    ret / exit falls through), its conditional branches and the blocks that only end the thread."""

    def __init__(self, lk: LinkedKernel):
        n = len(lk.instructions)
        kinds = [int(k) for k in lk.kinds]
        guarded = [int(g) >= 0 for g in lk.guard_reg]
        targets = {pc: int(lk.target[pc]) for pc in range(n) if kinds[pc] == BRA and 0 <= int(lk.target[pc]) < n}
        cfg = build_cfg(0, n, targets, {pc for pc in range(n) if kinds[pc] in _END and not guarded[pc]},
                        {pc for pc in targets if guarded[pc]})
        self.starts, self.ends, self.succs, self.ipdom = cfg.starts, cfg.ends, cfg.succs, cfg.ipdom
        self.block_of = cfg.block_of
        # pc of each block's conditional branch, -1 if none
        self.branch = [e - 1 if e - 1 in targets and guarded[e - 1] else -1 for e in self.ends]
        # blocks that only end the thread: lanes that meet there do not reconverge
        self.exits = {b for b, (s, e) in enumerate(zip(self.starts, self.ends))
                      if all(kinds[pc] in _END and not guarded[pc] for pc in range(s, e))}

    def reconverges(self, b: int) -> bool:
        """Whether the lanes block b's branch splits meet again in code: a branch whose sides
        meet only at the exit divides nothing ptxas cares about (the lanes on the side without
        the SHFL will have left)."""
        return self.ipdom[b] >= 0 and self.ipdom[b] not in self.exits

    def region(self, b: int) -> set[int]:
        """Blocks reached from block b's successors before its immediate post-dominator."""
        stop = self.ipdom[b]
        seen: set[int] = set()
        stack = [s for s in self.succs[b] if s != stop]
        while stack:
            x = stack.pop()
            if x in seen:
                continue
            seen.add(x)
            stack.extend(s for s in self.succs[x] if s != stop and s not in seen)
        return seen


def divergent_pcs(lk: LinkedKernel) -> set[int]:
    """pcs of the kernel a warp may reach with some of its lanes elsewhere (module docstring)."""
    g = _Graph(lk)
    ins_list = lk.instructions
    defs = [_defs_uses(ins)[0] for ins in ins_list]
    varying: set[str] = set()
    divergent: set[int] = set()  # block ids
    while True:
        grew = False
        for pc, ins in enumerate(ins_list):
            if not defs[pc] or all(d in varying for d in defs[pc]):
                continue
            guarded = ins.guard is not None and ins.guard.name in varying
            if guarded or g.block_of[pc] in divergent or not _result_uniform(ins, varying, len(defs[pc])):
                new = set(defs[pc]) - varying
                if new:
                    varying |= new
                    grew = True
        for b, pc in enumerate(g.branch):
            if pc < 0 or len(g.succs[b]) < 2 or lk.instructions[pc].guard.name not in varying:
                continue
            if "uni" in lk.instructions[pc].mods:
                continue
            if int(lk.target[pc]) > pc and not g.reconverges(b):
                continue  # a forward branch whose sides only meet at the exit
            new_blocks = g.region(b) - divergent
            if new_blocks:
                divergent |= new_blocks
                grew = True
        if not grew:
            break
    return {pc for b in divergent for pc in range(g.starts[b], g.ends[b])}


def guarded_shuffles(lk: LinkedKernel) -> set[int]:
    """pcs of the shfl.sync ptxas guards with WARPSYNC or BRA.DIV: those at divergent pcs, and
    those of device functions (not analysed across calls)."""
    shuffles = [pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "shfl" and "sync" in ins.mods]
    if not shuffles:
        return set()
    div = divergent_pcs(lk)
    return {pc for pc in shuffles if pc in div or lk.func_of_pc[pc] != lk.name}


def _exit_blocks(lk: LinkedKernel, g: _Graph) -> set[int]:
    """Blocks that only end the thread, or only jump to such a block (NVRTC's `bra.uni` to a shared
    `ret` after a loop): lanes that meet there have nothing left to run together."""
    out = set(g.exits)
    grew = True
    while grew:
        grew = False
        for b, (s, e) in enumerate(zip(g.starts, g.ends)):
            if b not in out and e - s == 1 and int(lk.kinds[s]) == BRA and int(lk.guard_reg[s]) < 0 \
                    and g.succs[b] and g.succs[b][0] in out:
                out.add(b)
                grew = True
    return out


def varying_branches(lk: LinkedKernel) -> tuple[_Graph, dict[int, set[int]]]:
    """The blocks whose conditional branch may split a warp, each with its region (the blocks
    before its immediate post-dominator), by a divergence analysis that tells values uniform
    among the lanes that compute them: a register written inside a divergent region is varying
    only where it is read outside that region (the lanes arrive there with different values: an
    if's result at its join, a value out of a loop the lanes left at different trips). So a loop on
    kernel parameters nested in a lane-strided loop is not divergent, which is how ptxas sees it
    (typical3 mlp_relu: one BSSY, for the lane-strided loop before the barrier; the shuffle guard
    analysis above is the coarser one its 41 SASS kernels were checked with)."""
    g = _Graph(lk)
    ins_list = lk.instructions
    du = [_defs_uses(ins) for ins in ins_list]
    read_in: dict[str, set[int]] = {}
    for pc, (_, uses) in enumerate(du):
        for r in uses:
            read_in.setdefault(r, set()).add(g.block_of[pc])
    varying: set[str] = set()
    regions: dict[int, set[int]] = {}
    while True:
        grew = False
        for pc, ins in enumerate(ins_list):
            defs = du[pc][0]
            if not defs or all(d in varying for d in defs):
                continue
            if (ins.guard is not None and ins.guard.name in varying) or not _result_uniform(ins, varying, len(defs)):
                new = set(defs) - varying
            else:
                b = g.block_of[pc]
                new = {d for d in defs if d not in varying and any(
                    b in region and not read_in.get(d, set()) <= region for region in regions.values())}
            if new:
                varying |= new
                grew = True
        for b, pc in enumerate(g.branch):
            if b in regions or pc < 0 or len(g.succs[b]) < 2 or ins_list[pc].guard.name not in varying \
                    or "uni" in ins_list[pc].mods:
                continue
            regions[b] = g.region(b)
            grew = True
        if not grew:
            return g, regions


def _barrier_regions(lk: LinkedKernel, converted: set[int]) -> list[tuple[int, int, int]]:
    """(branch pc, entry pc, meeting block) of every branch that may split the warp (not
    if-converted) whose sides meet in code (convergence_barriers says where the entry is)."""
    g, regions = varying_branches(lk)
    exits = _exit_blocks(lk, g)
    out = []
    for b in regions:
        pc = g.branch[b]
        if pc in converted or g.ipdom[b] < 0 or g.ipdom[b] in exits:
            continue
        entry = pc
        tgt = int(lk.target[pc])
        if tgt <= pc:  # a loop's back branch: the region begins before the loop's head
            entry = tgt - 1
            if entry < 0 or (int(lk.kinds[entry]) == BRA and int(lk.target[entry]) <= entry):
                continue
        out.append((pc, entry, g.ipdom[b]))
    return out


def convergence_barriers(lk: LinkedKernel, converted: set[int] = frozenset()) -> dict[int, int]:
    """Issue slots ptxas's convergence barriers add, by pc: a BSSY where a region lanes may split
    in begins and a BSYNC where they meet again, for every branch that may split the warp (not
    if-converted) whose sides meet in code, one pair per meeting point. Both are counted at the
    region's entry, which every warp that runs the pair passes once: the first such branch, or for
    a loop entered without one the instruction before its head (where that is not a loop's own
    back branch). Regions that meet only at the exit get none (typical3 mlp_relu's lane-strided
    loop to the end of the kernel)."""
    entries: dict[int, int] = {}  # meeting block -> entry pc of its region
    for _, entry, join in _barrier_regions(lk, converted):
        entries[join] = min(entries.get(join, entry), entry)
    out: dict[int, int] = {}
    for pc in entries.values():
        out[pc] = out.get(pc, 0) + 2
    return out


def splitting_branches(lk: LinkedKernel, converted: set[int] = frozenset()) -> set[int]:
    """The forward branches that open a convergence-barrier region (convergence_barriers): where
    the lanes of a warp that go different ways split, to meet again at the region's BSYNC. Whether a
    warp really split there is the trace's to say (its active mask shrank at the next entry:
    timing/prepare.py); a split costs time the BSSY / BSYNC alone do not (config
    lat_divergent_split). A loop's back branch is left out: lanes leaving a loop early wait at
    its BSYNC, no second path runs."""
    return {pc for pc, entry, _ in _barrier_regions(lk, converted) if entry == pc}
