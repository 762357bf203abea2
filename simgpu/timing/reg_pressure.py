"""Which PTX registers are live at each basic block's ends, and how many SASS registers each takes.

ptxas hoists loads and interleaves independent chains only while the values they keep live fit in
the registers it allocates: the block scheduler (isa.schedule_block) keeps the kernel's ptxas
register count as its budget, so it needs the live registers at a block's entry and exit. PTX is
not SASS here either (ptxas folds constants, rematerialises addresses, keeps some values in uniform
registers), so the counts are an estimate of ptxas's, with the same 32-bit units. PressureTracker
keeps the count while schedule_block issues a block's instructions.
"""

from __future__ import annotations

import copy

import numpy as np

from simgpu.exec.program import BRA, EXIT, RET, TRAP, LinkedKernel

# 32-bit registers a PTX register of each type occupies in SASS (predicates live in the separate
# predicate file; 16-bit values take a whole 32-bit register). 64-bit integers weigh nothing: in
# PTX they are mostly addresses, one per access (mul.wide, add.s64), where ptxas keeps one base and
# folds the rest into the instructions' immediate offsets (typical10 stencil_col_sliding, nvcc 13.0
# sm_90: a row's three neighbours from one base register at -4, 0 and +4). Counted as 2, that
# launch's schedule held its loads back and it went from -12 % to +44 % (2026-12-04).
_WIDE = {"b64", "u64", "s64", "f64"}
_ADDRESS = {"b64", "u64", "s64"}


def register_weights(lk: LinkedKernel, n_regs: int, dst: np.ndarray, folded: np.ndarray) -> np.ndarray:
    """Per register id of the StaticTable: the 32-bit SASS registers it takes (64-bit integers
    none, above). The pseudo registers past the kernel's weigh nothing, and so does a register only
    ops ptxas folds away write
    (`folded` per pc: a parameter, a converted address, %ctaid: SASS reads them from the constant
    bank where they are used)."""
    w = np.zeros(n_regs, np.int64)
    for i, t in enumerate(lk.reg_types[:n_regs]):
        w[i] = 0 if t == "pred" or t in _ADDRESS else 4 if t == "b128" else 2 if t in _WIDE else 1
    only_folded = np.ones(n_regs, bool)
    written = np.zeros(n_regs, bool)
    for pc in range(len(dst)):
        for r in row_registers(dst[pc]):
            written[r] = True
            only_folded[r] &= bool(folded[pc])
    w[written & only_folded] = 0
    return w


def row_registers(row: np.ndarray) -> list[int]:
    """Register ids of one StaticTable row (src[pc] or dst[pc]), as Python ints. Rows are padded
    with -1; build_static puts every register before the padding, so skipping the negatives (here)
    and stopping at the first one agree, and skipping stays right for any row. One reader for the
    scheduler, the tracker and the liveness, so they cannot disagree on a row."""
    return [r for r in row.tolist() if r >= 0]


def block_live_sets(lk: LinkedKernel, src: np.ndarray, dst: np.ndarray, blocks: list[tuple[int, int]],
                    converted: set[int] = frozenset()) -> tuple[list[set[int]], list[set[int]]]:
    """(live_in, live_out) register ids of each block of `blocks`, by the usual backward dataflow.
    A block falls through unless it ends in an unguarded branch, exit or return; a branch also
    goes to its target. A return has no successor (the caller's uses after it are not counted)."""
    n = len(lk.instructions)
    start_of = {a: j for j, (a, _) in enumerate(blocks)}
    succs: list[list[int]] = []
    use: list[set[int]] = []
    defs: list[set[int]] = []
    for a, b in blocks:
        u: set[int] = set()
        d: set[int] = set()
        for pc in range(a, b):
            u.update(r for r in row_registers(src[pc]) if r not in d)
            d.update(row_registers(dst[pc]))
        use.append(u)
        defs.append(d)
        last = b - 1
        k = int(lk.kinds[last])
        guarded = lk.instructions[last].guard is not None
        s = []
        if k == BRA and last not in converted and int(lk.target[last]) in start_of:
            s.append(start_of[int(lk.target[last])])
        ends = k in (EXIT, RET, TRAP) or (k == BRA and last not in converted)
        if b < n and b in start_of and (guarded or not ends):
            s.append(start_of[b])
        succs.append(s)
    live_in: list[set[int]] = [set(u) for u in use]
    live_out: list[set[int]] = [set() for _ in blocks]
    changed = True
    while changed:
        changed = False
        for j in range(len(blocks) - 1, -1, -1):
            out = set().union(*(live_in[s] for s in succs[j])) if succs[j] else set()
            if out != live_out[j]:
                live_out[j] = out
                live_in[j] = use[j] | (out - defs[j])
                changed = True
    return live_in, live_out


class PressureTracker:
    """Live 32-bit registers of a block while it is being scheduled: live-in at the start; an
    instruction makes its destinations live and frees the sources it reads for the last time.

    Takes each instruction's source and destination register ids (row_registers of the
    StaticTable's rows, which schedule_block has already read), so this module does not import
    isa.py, which imports it. Instruction i is the block's i-th."""

    def __init__(self, srcs: list[list[int]], dsts: list[list[int]],
                 pressure: tuple[np.ndarray, set[int], set[int], int]) -> None:
        self.w, live_in, self.live_out, self.budget = pressure
        self.src = srcs
        self.dst = dsts
        self.uses_left: dict[int, int] = {}
        for regs in self.src:
            for r in regs:
                self.uses_left[r] = self.uses_left.get(r, 0) + 1
        self.live = set(live_in)
        self.current = int(sum(self.w[r] for r in self.live))

    def delta(self, i: int) -> int:
        """Registers issuing instruction i now adds (negative: frees)."""
        d = 0
        for r in self.dst[i]:
            if r not in self.live and (self.uses_left.get(r, 0) > (r in self.src[i]) or r in self.live_out):
                d += int(self.w[r])
        for r in self.src[i]:
            if self.uses_left[r] == 1 and r in self.live and r not in self.live_out:
                d -= int(self.w[r])
        return d

    def over_budget(self, i: int) -> bool:
        """Whether issuing instruction i now would take the live registers past the budget."""
        return self.current + self.delta(i) > self.budget

    def fits(self, seq: list[int]) -> bool:
        """Whether issuing the instructions of seq now, in that order, keeps the live registers
        within the budget at every step (nothing is issued)."""
        trial = copy.copy(self)  # the mutable state copied, the rows and weights shared
        trial.uses_left, trial.live = dict(self.uses_left), set(self.live)
        for i in seq:
            if trial.over_budget(i):
                return False
            trial.issue(i)
        return True

    def issue(self, i: int) -> None:
        """Issue instruction i: count its change, free its last-read sources, make its results live."""
        self.current += self.delta(i)
        for r in self.src[i]:
            self.uses_left[r] -= 1
            if self.uses_left[r] == 0 and r not in self.live_out:
                self.live.discard(r)
        for r in self.dst[i]:
            if self.uses_left.get(r, 0) > 0 or r in self.live_out:
                self.live.add(r)
