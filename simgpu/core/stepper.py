"""Step through a launch on the real engine: pause, issue steps, inspect warps, registers, shared memory.

    from simgpu.core import stepper
    s = stepper.start(kernel, (1,), (64,), (x, y, np.int32(64)), gpu="teaching")
    s.step()                      # issue one step (one PTX instruction for a group of warps)
    s.run_until(line=42)          # run until a step has issued PTX line 42
    s.warps()                     # per warp: CTA, SM, pc, PTX line, active mask, SIMT stack, barrier, done
    s.registers(0, ["%r1", "%f2"])  # warp 0's registers by PTX name, typed, one value per lane
    s.shared(0, np.float32)       # CTA 0's shared memory
    s.last_step                   # which pc issued, for which warps, and why those
    report = s.run()              # the rest of the launch: the same LaunchReport as a plain launch

This drives `Engine.steps()` (the same generator `launch()` runs to the end), so stepping to the
end gives exactly the outputs and counters of a plain launch. One *step* is what the functional
engine issues at once: it picks the lowest pc among the ready warps of the wave (not waiting at a
barrier, not finished) and issues that instruction for every ready warp standing there. This is the
functional engine's order, which fixes *what* each warp computes; *when* each warp issues on its SM
sub-partition is the timing model's business (simgpu.timing), not the stepper's.

Masks are written lane 0 first: ``1`` active, ``.`` inactive (its path waits on the SIMT stack or it
is predicated off by divergence), ``x`` exited (or not a thread of the block).
"""

from __future__ import annotations

import html
import time
from dataclasses import dataclass, field

import numpy as np

from simgpu.exec.program import BAR
from simgpu.exec.values import from_raw
from simgpu.stats.report import LaunchReport

__all__ = ["Access", "Stepper", "StepInfo", "WarpState", "mask_string", "slider", "start"]


def mask_string(active: int, exited: int = 0) -> str:
    """32 characters, lane 0 first: '1' active, 'x' exited, '.' inactive."""
    active, exited = int(active), int(exited)
    return "".join("1" if active >> i & 1 else ("x" if exited >> i & 1 else ".") for i in range(32))


@dataclass
class StackEntry:
    """A saved SIMT entry: the path (pc, lanes) that runs when the entry above it reconverges."""

    pc: int
    line: int
    mask: str
    rpc: int  # reconvergence pc of the entry (-1: none)
    call_frame: bool  # pushed by a call (a return address), not by a divergent branch


@dataclass
class WarpState:
    """One warp of the current wave, between two steps."""

    warp: int  # index in the wave (what registers()/shared() take)
    uid: int  # warp id over the whole launch
    cta: int  # linear CTA id in the grid
    cta_xyz: tuple[int, int, int]
    warp_in_cta: int
    sm: int
    subpartition: int  # the SM sub-partition (scheduler) the warp belongs to: its slot on the SM mod 4
    pc: int
    line: int
    text: str
    mask: str  # 32 chars, lane 0 first
    active_lanes: int
    stack_depth: int
    stack: list[StackEntry]
    reconverge_pc: int  # where the current path rejoins its sibling (-1: none)
    status: str  # "ready", "barrier", "done"
    barrier: int  # barrier id waited at, -1 if none
    issued_last_step: bool

    def as_row(self) -> dict:
        return {"warp": self.warp, "cta": self.cta, "warp_in_cta": self.warp_in_cta, "sm": self.sm,
                "pc": self.pc, "line": self.line, "text": self.text, "mask": self.mask,
                "stack_depth": self.stack_depth, "status": self.status}


@dataclass
class StepInfo:
    """What the last step issued and why the scheduler picked it."""

    index: int  # 0-based step number over the launch
    wave: int
    pc: int
    line: int
    text: str
    warps: np.ndarray  # wave indices of the warps that issued
    uids: np.ndarray  # launch-wide warp ids
    masks: list[str]  # their active masks when they issued
    why: str

    def __str__(self) -> str:
        return (f"step {self.index}: PTX line {self.line} `{self.text}` issued for {len(self.warps)} warp(s) "
                f"{_short_list(self.warps)}\n  why: {self.why}")


@dataclass
class Access:
    """One memory instruction's addresses as the memory system saw them (for bank and sector maps).

    addr/mask are [k, 32] (k warps that had an active lane; for local memory the physical,
    lane-interleaved addresses with 32 x words columns); `result` is what the memory system answered
    per warp (wavefronts / sectors, L1 and L2 hits).
    """

    space: str
    op: str
    pc: int
    line: int
    text: str
    size: int
    addr: np.ndarray
    mask: np.ndarray
    sm: np.ndarray | None = None
    warps: np.ndarray | None = None  # launch-wide warp ids of the rows, when known
    result: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        k = self.addr.shape[0]
        what = (f"wavefronts {self.result['wavefronts'].tolist()}" if "wavefronts" in self.result
                else f"sectors {self.result.get('sectors', np.zeros(0)).tolist()}")
        return (f"<Access {self.space} {self.op} {self.size} B/lane at PTX line {self.line} `{self.text}`: "
                f"{k} warp(s), {what}>")


class _RecordingMemory:
    """Forwards everything to the launch's memory system; keeps the addresses of each access."""

    def __init__(self, inner, lk, engine, per_pc_keep: int = 4):
        self._inner = inner
        self._lk = lk
        self._engine = engine
        self._keep = per_pc_keep
        self.last: Access | None = None
        self.by_pc: dict[int, Access] = {}

    def __getattr__(self, name):
        return getattr(self._inner, name)

    def _record(self, space, op, pc, addr, mask, size, sm=None):
        ins = self._lk.instructions[pc]
        trace = getattr(self._engine, "trace", None)
        acc = Access(space, op, int(pc), ins.line, ins.text, int(size), np.array(addr, copy=True),
                     np.array(mask, dtype=bool, copy=True), None if sm is None else np.array(sm, copy=True))
        acc.result = {k: np.array(v, copy=True) for k, v in self._inner.last_warp_summary().items()}
        if trace is not None:
            acc.result["_event"] = len(trace.memory)  # the trace event this access is about to become
        self.last = acc
        if pc not in self.by_pc:
            k = min(self._keep, acc.addr.shape[0])
            first = Access(space, op, acc.pc, acc.line, acc.text, acc.size, acc.addr[:k], acc.mask[:k],
                           None if acc.sm is None else acc.sm[:k],
                           result={kk: (v[:k] if isinstance(v, np.ndarray) else v) for kk, v in acc.result.items()})
            self.by_pc[pc] = first

    def shared_access(self, op, pc, addr, mask, size, min_wavefronts=None, fixed_wavefronts=None):
        out = self._inner.shared_access(op, pc, addr, mask, size, min_wavefronts, fixed_wavefronts)
        self._record("shared", op, pc, addr, mask, size)
        return out

    def global_access(self, op, pc, sm, addr, mask, size, warp_uid=None):
        out = self._inner.global_access(op, pc, sm, addr, mask, size, warp_uid)
        self._record("global", "ld" if op.startswith("ld") else op, pc, addr, mask, size, sm)
        return out

    def local_access(self, op, pc, sm, warp_uid, addr, mask, size):
        out = self._inner.local_access(op, pc, sm, warp_uid, addr, mask, size)
        phys, m2, sz = self._inner.local_physical(warp_uid, addr, mask, size)
        self._record("local", op, pc, phys, m2, sz, sm)
        return out


def _short_list(a, n: int = 12) -> str:
    a = [int(x) for x in np.asarray(a).ravel()]
    if len(a) > 2 and a == list(range(a[0], a[-1] + 1)):
        return f"{a[0]}..{a[-1]}"
    return "[" + ", ".join(map(str, a[:n])) + (", ..." if len(a) > n else "") + "]"


class Stepper:
    """A launch paused between issue steps of the real engine; see the module docstring."""

    def __init__(self, prepared, record_accesses: bool = True):
        self.prepared = prepared
        self.engine = prepared.engine
        self.linked = prepared.linked
        self.gpu = prepared.gpu
        self.trace = prepared.trace
        self.memory = None
        if record_accesses and self.engine.memsys is not None:
            # the engine hands its memsys to each wave's context when the wave starts: a recording
            # proxy placed here sees every access without changing what the memory system counts
            self.memory = _RecordingMemory(self.engine.memsys, self.linked, self.engine)
            self.engine.memsys = self.memory
        self._gen = self.engine.steps()
        self.steps_done = 0
        self.wave = -1
        self._wave_ctx = None
        self.finished = False
        self.last_step: StepInfo | None = None
        self._report: LaunchReport | None = None
        self._host = 0.0

    # ------------------------------------------------------------------------------ driving
    @property
    def started(self) -> bool:
        return self.steps_done > 0

    @property
    def ctx(self):
        return getattr(self.engine, "ctx", None) if self.started else None

    def _snapshot(self):
        e = self.engine
        if not self.started or e.done.all():
            return None
        return e.pc.copy(), e.done.copy(), e.at_bar.copy()

    def _one(self) -> bool:
        if self.finished:
            return False
        before = self._snapshot()
        t0 = time.perf_counter()
        try:
            p, sel = next(self._gen)
        except StopIteration:
            self._host += time.perf_counter() - t0
            self._close()
            return False
        self._host += time.perf_counter() - t0
        ctx = self.engine.ctx
        if ctx is not self._wave_ctx:
            self._wave_ctx = ctx
            self.wave += 1
            before = None
        sel = np.asarray(sel, np.int64)
        ins = self.linked.instructions[p]
        issued_masks = [mask_string(m) for m in self._issued_masks(sel)]
        self.last_step = StepInfo(self.steps_done, self.wave, int(p), ins.line, ins.text, sel,
                                  ctx.warp_uid[sel].copy(), issued_masks, self._why(before, int(p), sel))
        self.steps_done += 1
        return True

    def _issued_masks(self, sel):
        tr = self.trace
        if tr is not None and tr.n_steps:
            return tr.last_step_active()
        return self.engine.mask[sel]  # after the step (differs from issue time only for branches/exits)

    def _why(self, before, p: int, sel: np.ndarray) -> str:
        lk = self.linked
        line = lk.instructions[p].line
        if before is None:
            n = len(self.engine.ctx.cta_ids)
            return (f"first instruction of wave {self.wave} ({n} CTA(s) resident together): every warp starts at "
                    f"pc {p}, so all {len(sel)} warps issue it together")
        pc, done, at_bar = before
        ready = ~done & (at_bar < 0)
        n_bar, n_done = int((~done & (at_bar >= 0)).sum()), int(done.sum())
        tail = ""
        if n_bar or n_done:
            tail = f" ({n_bar} warp(s) were waiting at a barrier, {n_done} had finished)"
        if not ready.any():
            return ("no warp was ready: every live warp waited at a barrier; the barrier completed (all live warps "
                    f"of the CTA arrived), which released them, then the lowest pc among them was pc {p} (line "
                    f"{line}), issued for the {len(sel)} warp(s) there{tail}")
        pcs = np.unique(pc[ready])
        if len(pcs) == 1:
            return (f"all {int(ready.sum())} ready warps stood at the same pc {p} (line {line}) and issued it "
                    f"together{tail}")
        lines = ", ".join(str(lk.instructions[int(q)].line) for q in pcs[:8]) + (", ..." if len(pcs) > 8 else "")
        return (f"the {int(ready.sum())} ready warps stood at {len(pcs)} different pcs (PTX lines {lines}); the "
                f"scheduler picks the lowest pc, {p} (line {line}), and issues it for every ready warp standing "
                f"there: {len(sel)} warp(s){tail}")

    def step(self, n: int = 1) -> Stepper:
        """Issue `n` steps (fewer if the launch ends). Returns self, so a notebook cell shows the state."""
        for _ in range(int(n)):
            if not self._one():
                break
        return self

    def run_until(self, line: int | None = None, pc: int | None = None, barrier: bool = False,
                  step: int | None = None, max_steps: int | None = None) -> Stepper:
        """Issue steps until one matches, then stop right after it (its effects are visible).

        line / pc: a step issued that PTX line / pc. barrier: a step issued a barrier instruction
        (bar.sync / __syncthreads). step: `steps_done` reached this number. Stops at the end of the
        launch if nothing matches (`finished` is then True). Several conditions: the first that holds.
        """
        if line is None and pc is None and not barrier and step is None:
            raise ValueError("run_until needs line=, pc=, barrier=True or step=")
        if line is not None and line not in {ins.line for ins in self.linked.instructions}:
            raise ValueError(f"PTX line {line} holds no instruction of {self.linked.name}; "
                             f"see stepper.listing() for the instruction lines")
        count = 0
        kinds = self.linked.kinds
        while not self.finished:
            if step is not None and self.steps_done >= step:
                break
            if not self._one():
                break
            count += 1
            ls = self.last_step
            if (line is not None and ls.line == line) or (pc is not None and ls.pc == pc) or \
                    (barrier and kinds[ls.pc] == BAR):
                break
            if max_steps is not None and count >= max_steps:
                break
        return self

    def run(self) -> LaunchReport:
        """Run to the end and return the launch's LaunchReport (identical to a plain launch's)."""
        if not self.finished:
            t0 = time.perf_counter()
            n = 0
            for _ in self._gen:  # the rest without per-step bookkeeping
                n += 1
            self._host += time.perf_counter() - t0
            self.steps_done += n
            if n:
                self.last_step = None
            self._close()
        return self.report

    def _close(self) -> None:
        if self.finished:
            return
        self.finished = True
        if self.memory is not None:
            self.engine.memsys = self.memory._inner
        self._report = self.prepared.finish(self._host)

    def cycles(self, sm: int | None = None):
        """The cycle level of this launch (a simgpu.timing.cycles.CycleView), after run().

        The functional run (what the stepper steps: values, registers, masks) happens first; the
        timing model then replays the same instructions in cycles. So a CycleView exists once the
        launch has finished: inspect registers here, and when each warp issued (and why the others
        waited) with `stepper.cycles().at(cycle)`."""
        if not self.finished:
            raise RuntimeError("the cycle view needs the finished launch (the timing model replays it "
                               "after the functional run): call run() first")
        timing = self.report.timing
        if timing is None:
            raise RuntimeError("this launch ran without the timing model (timing=False)")
        return timing.cycle_view(sm=sm)

    @property
    def report(self) -> LaunchReport:
        if self._report is None:
            raise RuntimeError("the launch has not finished: call run() first")
        return self._report

    # ------------------------------------------------------------------------------ inspecting
    def _require_ctx(self):
        ctx = self.ctx
        if ctx is None:
            raise RuntimeError("the launch is paused before its first instruction: call step() first "
                               "(each wave's state exists once its first instruction has issued)")
        return ctx

    def _warp_index(self, warp) -> int:
        ctx = self._require_ctx()
        if isinstance(warp, tuple):
            cta, w = warp
            hit = np.flatnonzero((ctx.cta_ids[ctx.cta_of_warp] == cta) & (ctx.warp_in_cta == w))
            if not len(hit):
                raise IndexError(f"CTA {cta} warp {w} is not in the current wave (CTAs {_short_list(ctx.cta_ids)})")
            return int(hit[0])
        w = int(warp)
        if not 0 <= w < ctx.W:
            raise IndexError(f"warp {w} is not in the current wave of {ctx.W} warps")
        return w

    def _subpartitions(self, ctx) -> np.ndarray:
        sub = np.zeros(ctx.W, np.int64)
        nsub = self.gpu.sub_partitions_per_sm
        for sm in np.unique(ctx.sm_of_warp):
            idx = np.flatnonzero(ctx.sm_of_warp == sm)
            sub[idx] = np.arange(len(idx)) % nsub
        return sub

    def warps(self, sm: int | None = None, cta: int | None = None, status: str | None = None) -> list[WarpState]:
        """The warps of the current wave (optionally of one SM, one CTA, or one status)."""
        if not self.started:
            return []
        e, ctx, lk = self.engine, self.engine.ctx, self.linked
        sub = self._subpartitions(ctx)
        issued = set(self.last_step.warps.tolist()) if self.last_step is not None else set()
        out = []
        n_ins = len(lk.instructions)
        for w in range(ctx.W):
            c = int(ctx.cta_of_warp[w])
            if sm is not None and ctx.sm_of_warp[w] != sm:
                continue
            if cta is not None and ctx.cta_ids[c] != cta:
                continue
            st = "done" if e.done[w] else ("barrier" if e.at_bar[w] >= 0 else "ready")
            if status is not None and st != status:
                continue
            pc = int(e.pc[w])
            ins = lk.instructions[pc] if 0 <= pc < n_ins else None
            exited = int(e.exited[w])
            stack = []
            for d in range(int(e.sp[w]) - 1, -1, -1):  # top of the stack first
                spc = int(e.st_pc[w, d])
                stack.append(StackEntry(spc, lk.instructions[spc].line if 0 <= spc < n_ins else -1,
                                        mask_string(e.st_mask[w, d], exited), int(e.st_rpc[w, d]),
                                        bool(e.st_frame[w, d] >= 0)))
            out.append(WarpState(
                warp=w, uid=int(ctx.warp_uid[w]), cta=int(ctx.cta_ids[c]),
                cta_xyz=(int(ctx.ctaid_x[c]), int(ctx.ctaid_y[c]), int(ctx.ctaid_z[c])),
                warp_in_cta=int(ctx.warp_in_cta[w]), sm=int(ctx.sm_of_warp[w]), subpartition=int(sub[w]),
                pc=pc, line=ins.line if ins else -1, text=ins.text if ins else "(finished)",
                mask=mask_string(e.mask[w], exited), active_lanes=bin(int(e.mask[w])).count("1"),
                stack_depth=int(e.sp[w]), stack=stack, reconverge_pc=int(e.rpc[w]), status=st,
                barrier=int(e.at_bar[w]), issued_last_step=w in issued))
        return out

    def registers(self, warp, names=None, lanes=None) -> dict[str, np.ndarray]:
        """A warp's registers by PTX name, typed (f32 as float32, pred as bool, ...), one value per lane.

        warp: index in the wave, or (cta id, warp in CTA). names: a list of names, one name, a prefix
        such as "%f" (every register starting with it), or None for all. lanes: optional lane subset.
        """
        ctx = self._require_ctx()
        w = self._warp_index(warp)
        lk = self.linked
        if names is None:
            idx = list(range(len(lk.reg_names)))
        else:
            if isinstance(names, str):
                names = [names]
            idx = []
            pos = {n: i for i, n in enumerate(lk.reg_names)}
            for n in names:
                if n in pos:
                    idx.append(pos[n])
                else:
                    pref = [i for i, rn in enumerate(lk.reg_names) if rn.startswith(n)]
                    if not pref:
                        raise KeyError(f"no register {n!r} in {lk.name}; registers: "
                                       f"{', '.join(lk.reg_names[:20])}{' ...' if len(lk.reg_names) > 20 else ''}")
                    idx.extend(pref)
        out = {}
        for i in idx:
            v = from_raw(ctx.regs[w, i].copy(), lk.reg_types[i])
            out[lk.reg_names[i]] = v if lanes is None else v[lanes]
        return out

    def shared(self, cta: int = 0, dtype=np.uint8, shape=None) -> np.ndarray:
        """A copy of one CTA's shared memory (CTA: linear id in the grid, resident in this wave)."""
        ctx = self._require_ctx()
        hit = np.flatnonzero(ctx.cta_ids == cta)
        if not len(hit):
            raise IndexError(f"CTA {cta} is not resident in the current wave (CTAs {_short_list(ctx.cta_ids)})")
        i = int(hit[0])
        raw = ctx.smem[i * ctx.smem_stride: i * ctx.smem_stride + ctx.shared_bytes].copy()
        dt = np.dtype(dtype)
        arr = raw[: len(raw) // dt.itemsize * dt.itemsize].view(dt)
        return arr.reshape(shape) if shape is not None else arr

    def _resolve_warps(self, acc: Access | None) -> Access | None:
        if acc is not None and acc.warps is None and self.trace is not None:
            ev = acc.result.get("_event")
            if ev is not None and ev < len(self.trace.memory):
                acc.warps = self.trace.memory[ev].warps[: acc.addr.shape[0]]
        return acc

    @property
    def last_access(self) -> Access | None:
        """The last memory access (addresses and the memory system's answer), or None."""
        return self._resolve_warps(self.memory.last) if self.memory is not None else None

    def accesses(self) -> dict[int, Access]:
        """pc -> the first access each memory instruction made (up to 4 warps of it)."""
        if self.memory is None:
            return {}
        return {pc: self._resolve_warps(a) for pc, a in sorted(self.memory.by_pc.items())}

    def access_at(self, line: int | None = None, pc: int | None = None) -> Access | None:
        """The first access made by a PTX line / pc so far (up to 4 warps of it), or None."""
        if self.memory is None:
            return None
        for p, acc in self.memory.by_pc.items():
            if (pc is not None and p == pc) or (line is not None and acc.line == line):
                return self._resolve_warps(acc)
        return None

    def listing(self, around: int | None = None, context: int = 6) -> str:
        """The kernel's PTX instructions with their lines (optionally only around one line)."""
        rows = []
        cur = {ws.pc for ws in self.warps()} if self.started else {0}
        for pc, ins in enumerate(self.linked.instructions):
            if around is not None and abs(ins.line - around) > context:
                continue
            mark = ">" if pc in cur else " "
            rows.append(f"{mark} pc {pc:>4}  line {ins.line:>4}  {ins.text}")
        return "\n".join(rows)

    # ------------------------------------------------------------------------------ display
    def summary(self) -> str:
        lk = self.linked
        if self.finished:
            return f"{lk.name}: finished after {self.steps_done} steps"
        if not self.started:
            return (f"{lk.name}: paused before the first instruction (grid {self.prepared.grid}, block "
                    f"{self.prepared.block}, {self.prepared.occupancy.ctas_per_sm} CTAs/SM on {self.gpu.name}); "
                    "call step()")
        ws = self.warps()
        n = {s: sum(w.status == s for w in ws) for s in ("ready", "barrier", "done")}
        return (f"{lk.name}: {self.steps_done} steps issued, wave {self.wave} ({len(ws)} warps: {n['ready']} ready, "
                f"{n['barrier']} at a barrier, {n['done']} done)")

    def __repr__(self) -> str:
        lines = [self.summary()]
        if self.last_step is not None and not self.finished:
            lines.append(str(self.last_step))
            for w in self.warps()[:16]:
                lines.append(f"  warp {w.warp:>3} cta {w.cta:>3} sm {w.sm} line {w.line:>4} {w.mask} "
                             f"depth {w.stack_depth} {w.status:<7} {w.text[:40]}")
        return "\n".join(lines)

    def _repr_html_(self, max_warps: int = 32) -> str:
        h = [f"<div><b>{html.escape(self.summary())}</b>"]
        if self.last_step is not None and not self.finished:
            ls = self.last_step
            h.append(f"<p>Last step {ls.index}: PTX line {ls.line} <code>{html.escape(ls.text)}</code> for "
                     f"{len(ls.warps)} warp(s) {_short_list(ls.warps)}.<br><i>Why:</i> {html.escape(ls.why)}</p>")
            rows = []
            for w in self.warps()[:max_warps]:
                cells = "".join(
                    f"<span style='display:inline-block;width:7px;height:12px;margin-right:1px;background:"
                    f"{'#2a9d4b' if ch == '1' else ('#d9534f' if ch == 'x' else '#ddd')}'></span>"
                    for ch in w.mask)
                stack = "<br>".join(f"pc {s.pc} (line {s.line}) {s.mask.count('1')} lanes"
                                    + (" [call]" if s.call_frame else f", rejoin pc {s.rpc}")
                                    for s in w.stack) or "&ndash;"
                style = " style='background:#fff6d5'" if w.issued_last_step else ""
                rows.append(f"<tr{style}><td>{w.warp}</td><td>{w.cta}</td><td>{w.warp_in_cta}</td><td>{w.sm}.{w.subpartition}"
                            f"</td><td>{w.line}</td><td><code>{html.escape(w.text[:48])}</code></td><td>{cells}</td>"
                            f"<td>{w.stack_depth}</td><td style='font-size:80%'>{stack}</td><td>{w.status}</td></tr>")
            more = len(self.warps()) - max_warps
            h.append("<table style='font-size:85%'><tr><th>warp</th><th>CTA</th><th>warp in CTA</th><th>SM.sub</th>"
                     "<th>line</th><th>next instruction</th><th>active lanes (0..31)</th><th>stack</th>"
                     "<th>stack entries (top first)</th><th>status</th></tr>" + "".join(rows) + "</table>")
            if more > 0:
                h.append(f"<p>... and {more} more warps (stepper.warps() lists them all)</p>")
            h.append("<p style='font-size:80%'>green: active lane, grey: inactive (waiting on the SIMT stack), "
                     "red: exited. Highlighted rows issued in the last step.</p>")
        elif self.finished:
            h.append(self.report._repr_html_())
        h.append("</div>")
        return "".join(h)


def start(kernel, grid, block, args, *, record_accesses: bool = True, trace: bool = True, **launch_options) -> Stepper:
    """Prepare a launch (as `kernel(grid, block, args, **launch_options)` would) and pause it before
    its first instruction. `trace=True` (default) records the ExecutionTrace the pictures use."""
    from simgpu.runtime.launch import prepare_launch

    launch_options.setdefault("progress", False)
    launch_options["engine"] = "reference"  # stepping needs the step-by-step engine (same results)
    prepared = prepare_launch(kernel, grid, block, args, trace=trace, **launch_options)
    return Stepper(prepared, record_accesses=record_accesses)


def slider(kernel, grid, block, args, max_steps: int = 300, **launch_options):
    """An ipywidgets slider over the first `max_steps` steps of a launch (needs ipywidgets).

    The launch is stepped once up front and each step's state table kept, so moving the slider
    back and forth is instant. Raises ImportError when ipywidgets is not installed.
    """
    try:
        import ipywidgets as widgets
    except ImportError as exc:  # optional dependency
        raise ImportError("the stepper slider needs ipywidgets (pip install ipywidgets); "
                          "stepper.start(...).step() works without it") from exc
    s = start(kernel, grid, block, args, **launch_options)
    pages = []
    while len(pages) < max_steps and s.step().last_step is not None and not s.finished:
        pages.append(s._repr_html_())
    out = widgets.HTML(pages[0] if pages else "")
    sl = widgets.IntSlider(value=0, min=0, max=max(0, len(pages) - 1), description="step")

    def show(change):
        out.value = pages[change["new"]]

    sl.observe(show, names="value")
    return widgets.VBox([sl, out])
