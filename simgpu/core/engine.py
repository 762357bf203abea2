"""The reference engine: run a linked kernel over a grid, warp instruction by warp instruction.

CTAs run in waves of as many as the GPU holds at once (occupancy); CTA j of a wave goes to
SM j mod num_sms. Within a wave the scheduler picks the lowest PC among ready warps and issues
that instruction for every ready warp sitting at it, as one vectorised step: warps that run the
same code stay together, which keeps NumPy busy and the Python overhead per warp small.

Lowest-PC-first alone would starve a warp that waits for another warp's store while it spins in
a loop at a lower PC (a decoupled look-back scan, a lock, an mbarrier wait): Volta and later
guarantee such code forward progress. Two rules give it here, and leave ordinary kernels'
counters as they were:

* A spinning warp sleeps. Once some ready warp has waited `SPIN_CHECK_WAIT` steps, a warp that
  branches back to a loop head compares its registers and mask with those it had the last time
  it took that branch; unchanged, the iteration did nothing but wait for memory, so the warp is
  not picked again until an instruction writes memory (a store, an atomic, a barrier arrival:
  `LinkedKernel.writes_memory`) or no other warp is ready. It polls once per change, as a real
  spinner polls once per memory round trip while the others run, instead of thousands of times.
* When a ready warp has not issued for `STARVED_STEPS` steps, the scheduler turns fair for
  `FAIR_STEPS` steps: it issues the group of the longest-waiting ready warp first (ties: lowest
  PC). So no ready warp falls more than `STARVED_STEPS` issue steps behind the others, as on the GPU,
  where all resident warps progress together. The bound is twice `SPIN_CHECK_WAIT` (512), so the
  spin check acts first (a sleeping spinner polls once per memory write). It was 20,000,
  enough for spins whose registers change (a back-off counter) but not for a loop whose
  iterations each wait on memory that warps past the loop write: typical8's decoupled look-back
  (each tile walks back over its predecessors until one has published its inclusive prefix) let
  every tile walk to tile 0 before any published, 164,759 warp loads and 103.6 us where the H200
  made 52,929 in 24.6 us; with 512: 54,193 loads, 14.1 us (2,000: 96,795; 256: 47,457; 100:
  44,249: the engine counts the lag in issue steps, not cycles, so the count depends on the bound).
  Of the 136 recorded launches (validation/) no other counter moved; two others wait longer than
  64 steps (mandelbrot 3,315, whose uneven loops now take turns; persistent_worklist 192). No loop
  of theirs repeats its registers.

SIMT: each warp has a current entry (pc, active mask, reconvergence pc) and a stack of saved
entries. A divergent branch saves the reconvergence entry and the not-taken path and continues
with the taken path; an entry is popped when its pc reaches its reconvergence pc (the branch's
immediate post-dominator) or when its lanes have all exited or returned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from simgpu.core import dispatch
from simgpu.core.wave import WaveContext
from simgpu.errors import KernelRuntimeError
from simgpu.exec.ops import run_paired
from simgpu.exec.program import _SYNC_OPCODES as _SYNC_OPS
from simgpu.exec.program import ALU, BAR, BRA, CALL, EXIT, RET, TRAP, IndirectCallSite, LinkedKernel

LANE_BITS = np.uint32(1) << np.arange(32, dtype=np.uint32)
FULL = np.uint32(0xFFFFFFFF)
SPIN_CHECK_WAIT = 256  # a ready warp has waited this long: loop heads check for spinning warps
# steps a ready warp may wait before the scheduler turns fair: after the spin check has had its
# chance (a spinner it puts to sleep polls once per memory write, fewer polls than fair turns give)
STARVED_STEPS = 2 * SPIN_CHECK_WAIT
FAIR_STEPS = 20_000  # steps it then stays fair
# Scheduler state shared by both engines (one int64 array per wave, `Engine.sched`): the step, the
# step the fair turn ends, fair turns, the longest wait, the two limits, the memory-write epoch
# (sleeping warps wake when it moves), the longest wait at this step's pick, spin sleeps
S_STEP, S_FAIR_UNTIL, S_FAIR_TURNS, S_LONGEST_WAIT, S_STARVED, S_FAIR, S_EPOCH, S_PICK_WAIT, S_SLEEPS = range(9)
CLUSTER_BARRIER = 16  # at_bar of a warp in barrier.cluster.wait (CTA barriers are 0-15)
_MASK_MULT = np.uint64(0x9E3779B97F4A7C15)


def spin_hash_multipliers(num_regs: int) -> np.ndarray:
    """Fixed odd multipliers, one per register lane: a warp's state hash is sum(value * multiplier)
    modulo 2**64 (both engines compute the same)."""
    rng = np.random.default_rng(0x5EED)
    return rng.integers(0, 2**63, size=(max(1, num_regs), 32), dtype=np.uint64) * np.uint64(2) + np.uint64(1)


def clock_steps_of(lk: LinkedKernel) -> np.ndarray:
    """timing.isa.clock_steps of the kernel with the default timing config, cached on it: the
    functional clock is the same whether or not the launch is replayed. A kernel that reads no
    timer cannot see its clock: it gets ones, without building the replay's table."""
    steps = getattr(lk, "_clock_steps", None)
    if steps is None:
        from simgpu.timing.isa import clock_steps, timer_reads  # the replay's table (timing imports exec)

        steps = clock_steps(lk) if timer_reads(lk).any() else np.ones(len(lk.instructions), np.int64)
        lk._clock_steps = steps
    return steps


def mask_to_bool(bits: np.ndarray) -> np.ndarray:
    return (bits[:, None] & LANE_BITS[None, :]) != 0


def bool_to_mask(b: np.ndarray) -> np.ndarray:
    return (b.astype(np.uint32) * LANE_BITS[None, :]).sum(axis=1, dtype=np.uint64).astype(np.uint32)


def popcount32(bits: np.ndarray) -> np.ndarray:
    return np.bitwise_count(bits) if hasattr(np, "bitwise_count") else \
        np.array([bin(int(x)).count("1") for x in bits], dtype=np.int64)


@dataclass
class ExecStats:
    """What the engine counts itself (instruction counters); the memory system counts the rest."""

    inst_executed: int = 0
    thread_inst_executed: int = 0
    thread_inst_pred_on: int = 0
    by_class: dict[str, int] = field(default_factory=dict)
    per_pc_warps: np.ndarray | None = None
    per_pc_threads: np.ndarray | None = None
    divergent_branches: int = 0
    branches: int = 0
    barriers: int = 0
    longest_wait: int = 0  # the most steps a ready warp waited (lowest-PC-first keeps others waiting)
    fair_turns: int = 0  # times the scheduler turned fair for a starved warp (module docstring)
    spin_sleeps: int = 0  # times a warp was found spinning and put to sleep (module docstring)


class Engine:
    """Runs one launch: waves of CTAs, each wave to completion."""

    name = "reference"

    def __init__(self, lk: LinkedKernel, heap, const_buf: np.ndarray, kparams: np.ndarray,
                 grid: tuple[int, int, int], block: tuple[int, int, int], shared_bytes: int,
                 dynamic_shared: int, ctas_per_wave: int, num_sms: int, memsys=None,
                 progress: Callable[[int], None] | None = None, max_warps_per_wave: int = 8192,
                 trace=None, fuse_vectors: bool = True, local_in_registers: bool = False, malloc_heap=None,
                 grid_workspace: int = 0) -> None:
        self.lk = lk
        self.heap = heap
        self.const_buf = const_buf
        self.kparams = kparams
        self.grid, self.block = grid, block
        self.shared_bytes = shared_bytes
        self.dynamic_shared = dynamic_shared
        threads = block[0] * block[1] * block[2]
        wpc = -(-threads // 32)
        self.ctas_per_wave = max(1, min(ctas_per_wave, max(1, max_warps_per_wave // wpc)))
        dims = lk.cluster_dims or (1, 1, 1)
        if dims[0] * dims[1] * dims[2] > 1:  # a cluster's CTAs are resident together: never split one
            total = grid[0] * grid[1] * grid[2]
            if dims[1] == dims[2] == 1:  # 1-D clusters are consecutive CTAs
                self.ctas_per_wave = max(dims[0], self.ctas_per_wave // dims[0] * dims[0])
            elif total > self.ctas_per_wave:
                self.ctas_per_wave = total  # 2-D / 3-D clusters: the whole grid as one wave
        self.resident_ctas = ctas_per_wave
        self.num_sms = num_sms
        self.memsys = memsys
        self.progress = progress
        self.trace = trace
        self.fuse_vectors = fuse_vectors
        self.local_in_registers = local_in_registers
        self.grid_workspace = grid_workspace  # a cooperative launch's grid-sync words (runtime/launch.py)
        self.malloc_heap = malloc_heap  # device malloc / free's heap (exec/device_malloc.py), if the kernel calls them
        n = len(lk.instructions)
        self.clock_step = clock_steps_of(lk)  # per pc: how far an issue advances the warp's %clock
        self.stats = ExecStats(per_pc_warps=np.zeros(n, np.int64), per_pc_threads=np.zeros(n, np.int64))
        self.printed: list[str] = []  # device printf output, in execution order (exec/printf.py)

    def run(self) -> ExecStats:
        for _ in self.steps():
            pass
        return self.stats

    def steps(self):
        """Issue the launch step by step: yields (pc, warps of the wave that issued) after each step.

        `self.ctx` is the wave being executed; the stepper inspects it between steps."""
        total = self.grid[0] * self.grid[1] * self.grid[2]
        start = 0
        warp_uid = 0
        while start < total:
            n = min(self.ctas_per_wave, total - start)
            cta_ids = np.arange(start, start + n, dtype=np.int64)
            sm_of_cta = dispatch.sm_of_cta(cta_ids, self.resident_ctas, self.num_sms, total)
            ctx = WaveContext(self.lk, self.heap, self.const_buf, self.kparams, cta_ids, self.grid, self.block,
                              self.shared_bytes, self.dynamic_shared, sm_of_cta, warp_uid, self.memsys,
                              self.num_sms)
            ctx.trace = self.trace
            ctx.class_counts = self.stats.by_class
            ctx.fuse_vectors = self.fuse_vectors
            ctx.local_in_registers = self.local_in_registers
            ctx.grid_workspace = self.grid_workspace
            ctx.printf_sink = self.printed
            ctx.malloc_heap = self.malloc_heap
            if self.trace is not None:
                self.trace.add_wave(warp_uid, cta_ids[ctx.cta_of_warp], ctx.sm_of_warp)
            yield from self.wave_steps(ctx)
            warp_uid += ctx.W
            start += n
            if self.progress is not None:
                self.progress(n)

    # ------------------------------------------------------------------------------------ wave
    def init_wave(self, ctx: WaveContext) -> None:
        """Fresh SIMT state for the warps of a new wave (every warp at pc 0 with its valid lanes)."""
        W = ctx.W
        self.ctx = ctx
        self.saved_frames: dict[int, list] = {}  # per warp, the recursive activations it suspended
        self.pc = np.zeros(W, np.int64)
        self.mask = bool_to_mask(ctx.thread_valid)
        self.rpc = np.full(W, -1, np.int64)
        self.depth = 8
        self.sp = np.zeros(W, np.int64)
        self.st_pc = np.zeros((W, self.depth), np.int64)
        self.st_mask = np.zeros((W, self.depth), np.uint32)
        self.st_rpc = np.zeros((W, self.depth), np.int64)
        self.st_frame = np.full((W, self.depth), -1, np.int64)
        self.exited = ~self.mask
        ctx.exited_lanes = self.exited  # the same array: .sync ops tell live lanes from exited ones (exec/ops.py)
        ctx.exiting_lanes = self.exiting_lanes
        self.done = self.mask == 0
        self.at_bar = np.full(W, -1, np.int64)  # barrier id a warp waits at, -1 = not waiting
        self.bar_count = np.zeros(W, np.int64)  # the thread count a waiting warp asked for (0 = all)
        self.bar_pc = np.zeros(W, np.int64)
        self.bar_contrib = np.zeros(W, np.int64)  # bar.red contribution
        self.bar_arrived = np.zeros((len(ctx.cta_ids), 16), np.int64)  # threads that did bar.arrive, per CTA
        # cluster barriers: lanes of each warp that arrived in the current phase, the phase each warp
        # arrived in, each cluster's phase
        self.cluster_of_warp = ctx.cluster_of_cta[ctx.cta_of_warp]
        self.cl_arrived = np.zeros(W, np.uint32)
        self.cl_arrived_in = np.full(W, -1, np.int64)
        self.cl_phase = np.zeros(len(ctx.cta_of_cluster_rank), np.int64)
        self.valid_lanes = bool_to_mask(ctx.thread_valid)
        self._full_bool = np.ones((W, 32), dtype=bool)
        self._ready = None  # warps that may issue; recomputed when a warp finishes or a barrier changes
        self.waited = np.zeros(W, np.int64)  # steps since each warp last issued while it was ready
        self.sched = np.array([0, 0, 0, 0, STARVED_STEPS, FAIR_STEPS, 0, 0, 0], np.int64)
        self.spin_pc = np.full(W, -1, np.int64)  # the backward branch a warp last checked itself at
        self.spin_hash = np.zeros(W, np.uint64)  # and its state hash there
        self.sleep_epoch = np.full(W, -1, np.int64)  # asleep while this equals sched[S_EPOCH]
        self.hash_mult = spin_hash_multipliers(self.lk.num_regs)

    def _end_wave_stats(self) -> None:
        st = self.stats
        st.longest_wait = max(st.longest_wait, int(self.sched[S_LONGEST_WAIT]))
        st.fair_turns += int(self.sched[S_FAIR_TURNS])
        st.spin_sleeps += int(self.sched[S_SLEEPS])

    def next_step(self, commit: bool = True) -> tuple[int, np.ndarray] | None:
        """The scheduler's pick: (lowest pc among ready warps, the ready warps at it); None when the
        wave has finished. Releases barriers, or reports a deadlock, when no warp is ready. With
        `commit`, the pick is a step: the waits of the warps left ready grow (module docstring)."""
        while True:
            ready = self._ready
            if ready is None:
                ready = self._ready = ~self.done & (self.at_bar < 0)
            if ready.any():
                sched = self.sched
                awake = ready & (self.sleep_epoch != sched[S_EPOCH])
                if not awake.any():  # only sleepers left: they all poll again
                    sched[S_EPOCH] += 1
                    awake = ready
                ready = awake
                waited = self.waited[ready]
                longest = int(waited.max())
                step = sched[S_STEP]
                if step >= sched[S_FAIR_UNTIL] and longest > sched[S_STARVED]:
                    sched[S_FAIR_UNTIL] = step + sched[S_FAIR]
                    sched[S_FAIR_TURNS] += 1
                if step < sched[S_FAIR_UNTIL]:
                    p = int(self.pc[ready][waited == longest].min())
                else:
                    p = int(self.pc[ready].min())
                sel = np.flatnonzero(ready & (self.pc == p))
                if commit:
                    sched[S_PICK_WAIT] = longest
                    sched[S_LONGEST_WAIT] = max(sched[S_LONGEST_WAIT], longest)
                    sched[S_STEP] = step + 1
                    self.waited[ready] += 1
                    self.waited[sel] = 0
                return p, sel
            if self.done.all():
                return None
            self.release_barriers(np.unique(self.ctx.cta_of_warp[~self.done]))
            self.release_cluster_barriers(np.unique(self.cluster_of_warp[self.at_bar == CLUSTER_BARRIER]))
            self._ready = None
            if not (~self.done & (self.at_bar < 0)).any():
                self.report_deadlock()

    def wave_steps(self, ctx: WaveContext):
        self.init_wave(ctx)
        with np.errstate(all="ignore"):
            while True:
                pick = self.next_step()
                if pick is None:
                    self._end_wave_stats()
                    break
                self.issue(*pick)
                yield pick

    def issue(self, p: int, sel: np.ndarray) -> None:
        """Issue the instruction at pc p for the ready warps `sel` (one vectorised step)."""
        ctx = self.ctx
        lk = self.lk
        parts = getattr(lk.execs[p], "sync_parts", None)
        if parts is not None and lk.guard_reg[p] < 0:
            sel = self.pair_sync(p, sel, parts)
            if not len(sel):
                return
        stats = self.stats
        k = len(sel)
        ws = slice(int(sel[0]), int(sel[-1]) + 1) if sel[-1] - sel[0] + 1 == k else sel
        ctx.pc = p
        cur = self.mask[sel]  # a copy: branches and exits change self.mask
        n_threads = int(popcount32(cur).sum())
        active = self._full_bool[:k] if n_threads == 32 * k else mask_to_bool(cur)
        g = lk.guard_reg[p]
        if g >= 0:
            gv = ctx.regs[ws, g] != 0
            m = active & (~gv if lk.guard_neg[p] else gv)
        else:
            m = active
        ctx.issued[ws] += self.clock_step[p]
        if self.trace is not None:
            self.trace.add_step(p, ctx.warp_uid[sel], cur)
        stats.inst_executed += k
        stats.thread_inst_executed += n_threads
        stats.per_pc_warps[p] += k
        stats.per_pc_threads[p] += n_threads
        if lk.writes_memory[p]:
            self.sched[S_EPOCH] += 1  # sleeping spinners wake (module docstring)
        kind = lk.kinds[p]
        if kind == ALU:
            n_on = int(m.sum()) if g >= 0 else n_threads
            stats.thread_inst_pred_on += n_on
            if g < 0 or n_on:
                lk.execs[p](ctx, ws, m)
                if ctx.failed_polls is not None:  # an mbarrier wait that failed: the warps sleep
                    self.sleep_epoch[ctx.failed_polls] = self.sched[S_EPOCH]
                    self.sched[S_SLEEPS] += len(ctx.failed_polls)
                    ctx.failed_polls = None
            self.advance(p, sel)
        elif kind == BRA:
            stats.thread_inst_pred_on += int(m.sum())
            self.branch(p, sel, cur, m, g >= 0)
        elif kind == BAR:
            stats.thread_inst_pred_on += int(m.sum())
            self.barrier(p, sel, ws, m)
        elif kind == EXIT:
            stats.thread_inst_pred_on += int(m.sum())
            self.exit_lanes(p, sel, bool_to_mask(m))
        elif kind == RET:
            stats.thread_inst_pred_on += int(m.sum())
            self.ret(p, sel, bool_to_mask(m))
        elif kind == CALL:
            stats.thread_inst_pred_on += int(m.sum())
            self.call(p, sel, ws, m)
        elif kind == TRAP:
            if m.any():
                hint = ""
                if not self.grid_workspace and any(ins.opcode == "mov" and any(
                        str(getattr(o, "name", "")).startswith("%envreg") for o in ins.operands)
                        for ins in lk.instructions):
                    hint = (" (the kernel reads the grid-sync workspace, %envreg1/%envreg2, which is 0: "
                            "cooperative groups' grid.sync() needs a cooperative launch, "
                            "RawModule(..., enable_cooperative_groups=True) or launch(..., cooperative=True))")
                raise KernelRuntimeError(f"trap executed in {ctx.where(ws, m)}{hint}")
            self.advance(p, sel)

    # ---------------------------------------------------------------------------- .sync pairing
    def pair_sync(self, p: int, sel: np.ndarray, parts) -> np.ndarray:
        """Warp-synchronous ops in the two arms of a divergent branch meet, as on the GPU (sm_70+:
        ptxas's WARPSYNC.COLLECTIVE; benchmarks/microbench/sync_pairing, an H100): where the
        .sync op at p names lanes of the sibling path waiting on top of the SIMT stack (same
        reconvergence point), the warp either switches to that path until it reaches its own .sync
        op (the current path waits at p on the stack), or, if the sibling already stands at one of
        the same kind (opcode and qualifiers), runs both instructions' lanes as one op
        (exec/ops.py run_paired) and moves both paths past them. Returns the warps of `sel` left
        to issue p as usual."""
        lk, ctx = self.lk, self.ctx
        live = ~self.exited[sel]
        cand = np.flatnonzero((self.mask[sel] != live) & (self.sp[sel] > 0))
        if not len(cand):
            return sel
        keep = np.ones(len(sel), bool)
        ins_p = lk.instructions[p]
        for i in cand:
            w = int(sel[i])
            d = int(self.sp[w]) - 1
            if self.st_rpc[w, d] != self.rpc[w] or self.st_pc[w, d] == self.rpc[w] or self.st_frame[w, d] >= 0:
                continue  # the entry on top is not a sibling path (a reconvergence entry, a call's return)
            sib = np.uint32(self.st_mask[w, d] & ~self.exited[w])
            cur = np.uint32(self.mask[w])
            ws = slice(w, w + 1)
            m_cur = mask_to_bool(np.array([cur], np.uint32))
            ctx.pc = p
            mk = np.broadcast_to(np.asarray(parts.mask(ctx, ws)).astype(np.uint32), (1, 32))
            named = np.bitwise_or.reduce(np.where(m_cur, mk, np.uint32(0)), axis=1)[0]
            if not sib & named:
                continue
            q = int(self.st_pc[w, d])
            other = getattr(lk.execs[q], "sync_parts", None) if lk.guard_reg[q] < 0 else None
            if other is None and lk.instructions[q].opcode not in _SYNC_OPS:
                # the sibling path runs first, up to its own .sync op; this one waits at p
                self.st_pc[w, d], self.pc[w] = p, q
                self.st_mask[w, d], self.mask[w] = cur, sib
                keep[i] = False
                continue
            ins_q = lk.instructions[q]
            if other is None or (ins_q.opcode, ins_q.mods) != (ins_p.opcode, ins_p.mods):
                continue  # a .sync op of another kind: each runs alone (exec/ops.py warns)
            m_sib = mask_to_bool(np.array([sib], np.uint32))
            self._count_issue(p, w, cur)
            self._count_issue(q, w, sib)
            ctx.pc = p
            run_paired(ctx, ws, parts, m_cur, other, m_sib)
            self.stats.thread_inst_pred_on += int(popcount32(np.array([cur | sib], np.uint32))[0])
            self.st_pc[w, d] = q + 1
            keep[i] = False
            self.advance(p, np.array([w], np.int64))
        return sel[keep]

    def _count_issue(self, p: int, w: int, lanes) -> None:
        """The counters and trace entry of instruction p issued by warp w for `lanes` (pair_sync)."""
        ctx, stats = self.ctx, self.stats
        ctx.issued[w] += self.clock_step[p]
        if self.trace is not None:
            self.trace.add_step(p, ctx.warp_uid[[w]], np.array([lanes], np.uint32))
        n = int(popcount32(np.array([lanes], np.uint32))[0])
        stats.inst_executed += 1
        stats.thread_inst_executed += n
        stats.per_pc_warps[p] += 1
        stats.per_pc_threads[p] += n

    # ------------------------------------------------------------------------------- SIMT stack
    def exiting_lanes(self, ws) -> np.ndarray:
        """Per warp of `ws` (uint32): the lanes waiting on the SIMT stack whose next path only runs
        on to exit (LinkedKernel.quiet_exit): as good as exited for a .sync op (exec/ops.py)."""
        warps = np.arange(len(self.pc))[ws]
        quiet = self.lk.quiet_exit
        out = np.zeros(len(warps), np.uint32)
        for i, w in enumerate(warps):
            seen = np.uint32(0)
            for d in range(int(self.sp[w]) - 1, -1, -1):  # the top entry holding a lane runs it next
                lanes = self.st_mask[w, d] & ~seen & ~self.mask[w]
                if lanes and quiet[self.st_pc[w, d]]:
                    out[i] |= lanes
                seen |= self.st_mask[w, d]
        return out

    def advance(self, p: int, sel: np.ndarray) -> None:
        """Fall through to p + 1; a path that falls into its reconvergence point rejoins there."""
        self.pc[sel] = p + 1
        if (self.rpc[sel] == p + 1).any():
            self.settle(sel)

    def _grow(self) -> None:
        extra = self.depth
        self.st_pc = np.concatenate([self.st_pc, np.zeros((self.ctx.W, extra), np.int64)], axis=1)
        self.st_mask = np.concatenate([self.st_mask, np.zeros((self.ctx.W, extra), np.uint32)], axis=1)
        self.st_rpc = np.concatenate([self.st_rpc, np.zeros((self.ctx.W, extra), np.int64)], axis=1)
        self.st_frame = np.concatenate([self.st_frame, np.full((self.ctx.W, extra), -1, np.int64)], axis=1)
        self.depth += extra

    def push(self, w: np.ndarray, pc, mask, rpc, frame=-1) -> None:
        """Save (pc, mask, rpc) entries under the current entry of warps w."""
        if len(w) == 0:
            return
        if int(self.sp[w].max()) >= self.depth:
            self._grow()
        d = self.sp[w]
        self.st_pc[w, d] = pc
        self.st_mask[w, d] = mask
        self.st_rpc[w, d] = rpc
        self.st_frame[w, d] = frame
        self.sp[w] = d + 1

    def settle(self, w: np.ndarray) -> None:
        """Pop entries that reached their reconvergence point or have no live lanes left."""
        while len(w):
            empty = self.mask[w] == 0
            reconv = self.pc[w] == self.rpc[w]
            need = (empty | reconv)
            finished = w[need & (self.sp[w] == 0)]
            if len(finished):
                self._ready = None
                self.done[finished] = True
                self.mask[finished] = 0
                self.release_barriers(np.unique(self.ctx.cta_of_warp[finished]))
            pop = w[need & (self.sp[w] > 0)]
            if not len(pop):
                return
            d = self.sp[pop] - 1
            self.sp[pop] = d
            frames = self.st_frame[pop, d]
            self.pc[pop] = self.st_pc[pop, d]
            self.mask[pop] = self.st_mask[pop, d] & ~self.exited[pop]
            self.rpc[pop] = self.st_rpc[pop, d]
            self.st_frame[pop, d] = -1
            if (frames >= 0).any():
                self.return_values(pop[frames >= 0], frames[frames >= 0])
            w = pop

    def branch(self, p: int, sel: np.ndarray, cur: np.ndarray, m: np.ndarray, guarded: bool) -> None:
        lk = self.lk
        tgt = lk.target[p]
        self.stats.branches += len(sel)
        if not guarded:
            self.pc[sel] = tgt
            self.settle(sel)
            self.check_spinning(p, sel)
            return
        taken = bool_to_mask(m)
        all_taken = taken == cur
        none = taken == 0
        self.pc[sel[all_taken]] = tgt
        self.pc[sel[none]] = p + 1
        div = sel[~all_taken & ~none]
        if len(div):
            self.stats.divergent_branches += len(div)
            r = lk.rpc[p]
            t = taken[~all_taken & ~none]
            c = cur[~all_taken & ~none]
            # the current entry becomes the reconvergence entry; save it, then the not-taken path
            self.push(div, r, c, self.rpc[div])
            self.push(div, p + 1, c & ~t, r)
            self.pc[div] = tgt
            self.mask[div] = t
            self.rpc[div] = r
        self.settle(sel)
        self.check_spinning(p, sel)

    def check_spinning(self, p: int, sel: np.ndarray) -> None:
        """Warps that branched back to the loop head at p's target with the registers and mask they
        had the last time they did go to sleep (module docstring); only while some warp starves."""
        tgt = self.lk.target[p]
        sched = self.sched
        if tgt > p or sched[S_PICK_WAIT] <= SPIN_CHECK_WAIT:
            return
        back = sel[self.pc[sel] == tgt]
        if not len(back):
            return
        h = (self.ctx.regs[back] * self.hash_mult[None]).sum(axis=(1, 2), dtype=np.uint64) \
            + self.mask[back].astype(np.uint64) * _MASK_MULT
        same = (self.spin_pc[back] == p) & (self.spin_hash[back] == h)
        self.sleep_epoch[back[same]] = sched[S_EPOCH]
        sched[S_SLEEPS] += int(same.sum())
        self.spin_pc[back] = p
        self.spin_hash[back] = h

    def exit_lanes(self, p: int, sel: np.ndarray, bits: np.ndarray) -> None:
        self.exited[sel] |= bits
        self.mask[sel] &= ~bits
        self.pc[sel] = p + 1
        self.settle(sel)

    def call(self, p: int, sel: np.ndarray, ws, m: np.ndarray) -> None:
        site = self.lk.call_sites[p]
        if isinstance(site, IndirectCallSite):
            self.indirect_call(p, sel, ws, m, site)
            return
        bits = bool_to_mask(m)
        if site.save is not None:
            self.save_frames(sel, m, site.save)
        for src, dst, n in site.copy_in:
            self._copy_fparam(sel, m, src, dst, n)
        calling = sel[bits != 0]
        skip = sel[bits == 0]
        self.advance(p, skip)
        if len(calling):
            b = bits[bits != 0]
            self.push(calling, p + 1, self.mask[calling], self.rpc[calling], frame=p)
            self.pc[calling] = site.callee_entry
            self.mask[calling] = b
            self.rpc[calling] = -1

    def indirect_call(self, p: int, sel: np.ndarray, ws, m: np.ndarray, site: IndirectCallSite) -> None:
        """A call through a register. The lanes of a warp that call one function go together; with
        several functions in one warp, the lanes of the lowest address go first and the others issue
        the call again when they are back (an entry at p, reconverging at p + 1), as a divergent
        branch would. The call frame records which function it is (frame = p + (index + 1) << 32)."""
        addrs = np.asarray(self.ctx.regs[ws, site.target_reg], np.uint64)
        for i, w in enumerate(sel):
            lanes = m[i]
            if not lanes.any():
                self.advance(p, sel[i:i + 1])
                continue
            k_of = [site.by_address.get(int(a), -1) for a in addrs[i][lanes]]
            if min(k_of) < 0:
                bad = np.zeros(m.shape, bool)
                bad[i, np.flatnonzero(lanes)[k_of.index(-1)]] = True
                a = int(addrs[i][bad[i]][0])
                raise KernelRuntimeError(f"indirect call to 0x{a:x}, which is not the address of a device function "
                                         f"the module takes the address of ({', '.join(site.names)}) "
                                         f"({self.ctx.where(ws, bad)})")
            first = min(k_of, key=site.addresses.__getitem__)
            group = np.zeros(32, bool)
            group[np.flatnonzero(lanes)[np.asarray(k_of) == first]] = True
            g = bool_to_mask(group[None, :])[0]
            call = sel[i:i + 1]
            if site.sites[first].save is not None:
                self.save_frames(call, group[None, :], site.sites[first].save)
            for src, dst, n in site.sites[first].copy_in:
                self._copy_fparam(call, group[None, :], src, dst, n)
            frame = p + ((first + 1) << 32)
            rest = bool_to_mask(lanes[None, :])[0] & ~g
            if rest:  # the other functions' lanes call again once this one's are back
                self.push(call, p + 1, self.mask[w], self.rpc[w])
                self.push(call, p, rest, p + 1)
                self.push(call, p + 1, g, p + 1, frame=frame)
            else:
                self.push(call, p + 1, self.mask[w], self.rpc[w], frame=frame)
            self.pc[w] = site.sites[first].callee_entry
            self.mask[w] = g
            self.rpc[w] = -1

    def _copy_fparam(self, w: np.ndarray, m: np.ndarray, src: int, dst: int, n: int) -> None:
        self._write_fparam(w, m, dst, n, self._read_fparam(w, m, src, n))

    def return_values(self, w: np.ndarray, call_pcs: np.ndarray) -> None:
        for cp in np.unique(call_pcs):
            ww = w[call_pcs == cp]
            m = mask_to_bool(self.mask[ww])
            site = self.lk.call_sites[int(cp) & 0xFFFFFFFF]
            if isinstance(site, IndirectCallSite):  # which function: indirect_call's frame
                site = site.sites[(int(cp) >> 32) - 1]
            if site.save is None:
                for src, dst, n in site.copy_out:
                    self._copy_fparam(ww, m, src, dst, n)
                continue
            # a recursive callee: take its results, give the outer activation its state back, then
            # hand the results over (the caller's result slot may lie in the restored state)
            results = [self._read_fparam(ww, m, src, n) for src, _, n in site.copy_out]
            self.restore_frames(ww, site.save)
            for (_, dst, n), vals in zip(site.copy_out, results):
                self._write_fparam(ww, m, dst, n, vals)

    def save_frames(self, w: np.ndarray, m: np.ndarray, ranges) -> None:
        """Push, per warp, what a recursive callee's activation holds (its registers, local bytes and
        function-param bytes for all 32 lanes) before a call starts a new activation of it. Not
        counted as memory traffic: ptxas would spill this to the stack (local memory)."""
        ctx = self.ctx
        (r0, r1), (l0, l1), (f0, f1) = ranges
        ls, fs = ctx.local_stride, ctx.fparam_stride
        for i, wi in enumerate(w):
            if not m[i].any():
                continue
            t = int(wi) * 32 + np.arange(32)
            loc = ctx.local.reshape(-1, ls)[t, l0:l1].copy() if ls > 0 and l1 > l0 else None
            par = ctx.fparam.reshape(-1, fs)[t, f0:f1].copy() if fs > 0 and f1 > f0 else None
            self.saved_frames.setdefault(int(wi), []).append((ctx.regs[wi, r0:r1].copy(), loc, par))

    def restore_frames(self, w: np.ndarray, ranges) -> None:
        """Pop what save_frames pushed for each warp of w (a frame of the same function returns)."""
        ctx = self.ctx
        (r0, r1), (l0, l1), (f0, f1) = ranges
        ls, fs = ctx.local_stride, ctx.fparam_stride
        for wi in w:
            regs, loc, par = self.saved_frames[int(wi)].pop()
            t = int(wi) * 32 + np.arange(32)
            ctx.regs[wi, r0:r1] = regs
            if loc is not None:
                ctx.local.reshape(-1, ls)[t, l0:l1] = loc
            if par is not None:
                ctx.fparam.reshape(-1, fs)[t, f0:f1] = par

    def _fparam_bytes(self, w: np.ndarray, m: np.ndarray, offset: int, n: int) -> np.ndarray:
        """Indices into ctx.fparam of n bytes at `offset` of each active lane's parameter storage."""
        thread = (w[:, None] * 32 + np.arange(32)[None, :])[m]
        return (thread * self.ctx.fparam_stride + offset)[:, None] + np.arange(n)

    def _read_fparam(self, w: np.ndarray, m: np.ndarray, src: int, n: int) -> np.ndarray:
        return self.ctx.fparam[self._fparam_bytes(w, m, src, n)]

    def _write_fparam(self, w: np.ndarray, m: np.ndarray, dst: int, n: int, vals: np.ndarray) -> None:
        self.ctx.fparam[self._fparam_bytes(w, m, dst, n)] = vals

    def ret(self, p: int, sel: np.ndarray, bits: np.ndarray) -> None:
        """Lanes in `bits` leave the current function: drop them from every entry above the
        nearest call frame; the frame is popped (and return values copied) once none are left."""
        for i, w in enumerate(sel):
            b = bits[i]
            if b == 0:
                self.pc[w] = p + 1
                continue
            sp = int(self.sp[w])
            frame = -1
            for d in range(sp - 1, -1, -1):
                if self.st_frame[w, d] >= 0:
                    frame = d
                    break
            if frame < 0:
                raise KernelRuntimeError(f"ret outside a call ({self.lk.where(p)})")
            self.st_mask[w, frame + 1:sp] &= ~b
            self.mask[w] &= ~b
            self.pc[w] = p + 1
        self.settle(sel)

    # --------------------------------------------------------------------------------- barriers
    def barrier(self, p: int, sel: np.ndarray, ws, m: np.ndarray) -> None:
        info = self.lk.barriers[p]
        ctx = self.ctx
        self.stats.barriers += len(sel)
        if info.kind.startswith("cluster_"):
            self.advance(p, sel)
            self.cluster_barrier(info.kind == "cluster_arrive", p, sel, m)
            return
        bid = np.broadcast_to(np.asarray(info.barrier_id(ctx, ws)), m.shape)[:, 0].astype(np.int64)
        cnt = (np.broadcast_to(np.asarray(info.count(ctx, ws)), m.shape)[:, 0].astype(np.int64)
               if info.count is not None else np.zeros(len(sel), np.int64))
        self.advance(p, sel)
        if info.kind == "arrive":
            # bar.arrive counts a whole warp (PTX ISA) and does not wait
            np.add.at(self.bar_arrived, (ctx.cta_of_warp[sel], bid), 32)
            self._ready = None
            self.release_barriers(np.unique(ctx.cta_of_warp[sel]))
            return
        if info.kind == "red":
            v = np.broadcast_to(info.red_src(ctx, ws), m.shape) & m
            self.bar_contrib[sel] = v.sum(axis=1) if info.red_op == "popc" else \
                (np.all(v | ~m, axis=1) if info.red_op == "and" else v.any(axis=1))
        self._ready = None
        self.at_bar[sel] = bid
        self.bar_count[sel] = cnt
        self.bar_pc[sel] = p
        self.release_barriers(np.unique(ctx.cta_of_warp[sel]))

    def cluster_barrier(self, arrive: bool, p: int, sel: np.ndarray, m: np.ndarray) -> None:
        """barrier.cluster.arrive: the executing lanes arrive (no wait); barrier.cluster.wait: a warp
        waits until the phase it arrived in completes, i.e. every live thread of the cluster arrived.
        Completion is checked here and when no warp is ready (not when a warp exits, so that both
        engines release at the same step)."""
        cl = self.cluster_of_warp[sel]
        if arrive:
            self.cl_arrived[sel] |= bool_to_mask(m)
            self.cl_arrived_in[sel] = self.cl_phase[cl]
        else:
            waiting = sel[self.cl_phase[cl] <= self.cl_arrived_in[sel]]
            self.at_bar[waiting] = CLUSTER_BARRIER
            self.bar_pc[waiting] = p
            self._ready = None
        self.release_cluster_barriers(np.unique(cl))

    def release_cluster_barriers(self, clusters: np.ndarray) -> None:
        for c in clusters:
            w = np.flatnonzero(self.cluster_of_warp == c)
            need = self.valid_lanes[w] & ~self.exited[w]
            if not self.cl_arrived[w].any() or ((self.cl_arrived[w] & need) != need).any():
                continue
            self.cl_phase[c] += 1
            self.cl_arrived[w] = 0
            self.at_bar[w[self.at_bar[w] == CLUSTER_BARRIER]] = -1
            self._ready = None

    def release_barriers(self, ctas: np.ndarray) -> None:
        ctx = self.ctx
        wpc = ctx.warps_per_cta
        for c in ctas:
            lo = int(c) * wpc
            w = np.arange(lo, lo + wpc)
            waiting = self.at_bar[w]
            live = ~self.done[w]
            for bid in np.unique(waiting[(waiting >= 0) & (waiting < CLUSTER_BARRIER)]):
                at = w[waiting == bid]
                counts = self.bar_count[at]
                need = int(counts.max()) if counts.max() > 0 else None
                arrived_threads = len(at) * 32
                if need is not None:
                    only_arrived = int(self.bar_arrived[c, bid])
                    ok = arrived_threads + only_arrived >= need
                    if ok:  # arrivals past the count belong to the barrier's next use
                        self.bar_arrived[c, bid] = min(only_arrived, arrived_threads + only_arrived - need)
                else:
                    ok = np.all((waiting == bid) | ~live)
                if ok:
                    self.finish_barrier(at)

    def finish_barrier(self, at: np.ndarray) -> None:
        p = int(self.bar_pc[at[0]])
        info = self.lk.barriers[p]
        if info.kind == "red":
            ctx = self.ctx
            contrib = self.bar_contrib[at]
            if info.red_op == "popc":
                val = np.uint64(int(contrib.sum()))
            elif info.red_op == "and":
                val = np.uint64(int(contrib.all()))
            else:
                val = np.uint64(int(contrib.any()))
            m = mask_to_bool(self.mask[at])
            ctx.write_reg(at, info.red_dst, m, np.full(m.shape, val, np.uint64))
        self.at_bar[at] = -1
        self._ready = None

    def report_deadlock(self) -> None:
        ctx = self.ctx
        lines = []
        for w in np.flatnonzero(self.at_bar >= 0)[:8]:
            c = ctx.cta_of_warp[w]
            ins = self.lk.instructions[int(self.bar_pc[w])]
            lines.append(f"  block ({ctx.ctaid_x[c]}, {ctx.ctaid_y[c]}, {ctx.ctaid_z[c]}) warp {ctx.warp_in_cta[w]} "
                         f"waits at {'the cluster barrier' if self.at_bar[w] == CLUSTER_BARRIER else 'barrier'}"
                         f"{'' if self.at_bar[w] == CLUSTER_BARRIER else ' ' + str(self.at_bar[w])} "
                         f"(PTX line {ins.line}: {ins.text})")
        others = np.flatnonzero(~self.done & (self.at_bar < 0))
        raise KernelRuntimeError(
            f"barrier deadlock in kernel {self.lk.name}: no warp can make progress\n" + "\n".join(lines)
            + (f"\n  ({len(others)} other warps are not at a barrier)" if len(others) else ""))
