"""The cycle level of a launch: which warp each scheduler issued, and why the others waited.

    report = kernel(grid, block, args)             # functional run, then the timing replay
    view = report.timing.cycle_view()              # or stepper.cycles() after stepper.run()
    view.at(1200)                                  # per SM sub-partition: the issued warp and every warp's state
    view.step()                                    # the next cycle; view.step(10): ten cycles on
    view.run_until(line=57)                        # the next cycle at which PTX line 57 issues
    view.warp(3)                                   # warp 3's history: cycle ranges and their states
    view.states(cycles=(1000, 1400))               # [warps, cycles] state codes of view.first_sm

Two models, one launch. simgpu runs a launch twice over: first the *functional* engine executes
every PTX instruction for every warp (values, masks, memory, counters; inspect its registers with
simgpu.core.stepper), recording each warp's instruction stream; then the *timing* replay
(simgpu.timing.replay) orders those same instructions in cycles: 4 schedulers per SM, a
scoreboard, pipes and memory queues. A CycleView looks at the second: it knows when each
instruction issued and why a warp waited, not what values it computed. So: registers with the
stepper, time with the cycle view.

Warp states use ncu's names (smsp__average_warp_latency_issue_stalled_<name>): `selected` (the
warp this sub-partition's scheduler issued this cycle), `not_selected` (eligible, another warp
was picked), `wait` (a fixed-latency dependency: the previous ALU result is not there yet),
`short_scoreboard` (waiting on a shared-memory / MUFU result), `long_scoreboard` (waiting on a
global / local memory result), `barrier` (at bar.sync), `branch_resolving`, `membar` (at a
memory fence: __threadfence() and its kin), `math_pipe_throttle`
(the pipe is busy), `lg_throttle` / `mio_throttle` (the SM's L1TEX queue for global / shared
accesses is full) and `drain` (exited, its stores still in flight). A warp is resident from its
CTA's arrival on the SM to its exit; while resident it is in exactly one state each cycle.

The replay accounts each wait in O(1) (see replay.py): the cycles before an instruction issues are
split, in order, into the reason its operands (or barrier, or branch) were late, then a throttle,
then not_selected. The view rebuilds each cycle from that split, so the states summed over all
cycles equal TimingResult.stalls exactly; the order inside one wait is the model's attribution,
not a cycle-by-cycle re-simulation.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import numpy as np

from simgpu.timing.isa import R_DRAIN, R_NOINST, R_NOT_SELECTED, R_SELECTED, REASONS

__all__ = ["CycleState", "CycleView", "STATES", "SchedulerCycle", "WarpCycle", "WarpHistory"]

STATES = REASONS  # state code -> ncu name ("selected" = issued this cycle)
NOT_RESIDENT = -1

_COLORS = {"selected": "#2e7d32", "not_selected": "#cfe3f3", "wait": "#d9d9d9", "short_scoreboard": "#f7d6a0",
           "long_scoreboard": "#f4b6b6", "barrier": "#c9b3e6", "math_pipe_throttle": "#b8e0c2",
           "lg_throttle": "#f2c6e0", "mio_throttle": "#e8e0a8", "branch_resolving": "#d6cbb8", "drain": "#bdbdbd",
           "no_instruction": "#e0e0e0", "dispatch_stall": "#c0c0c0", "membar": "#8c564b"}


def state_color(name: str) -> str:
    """The colour a state is drawn in (HTML tables and simgpu.viz.pictures.scheduler_timeline)."""
    return _COLORS.get(name, "#dddddd")


@dataclass
class WarpCycle:
    """One resident warp at one cycle."""

    warp: int  # warp id of the launch (the trace's warp uid)
    cta: int
    sm: int
    sub_partition: int  # which of the SM's schedulers owns it
    state: str  # ncu's name; "selected" when it issued this cycle
    pc: int  # the instruction it issued, waits to issue, or (drain) issued last; -1: none
    line: int  # PTX line of pc (0: none)
    text: str


@dataclass
class SchedulerCycle:
    """One scheduler (SM sub-partition) at one cycle: what it issued and why its other warps waited."""

    sm: int
    sub_partition: int
    issued: WarpCycle | None  # None: no warp was eligible (or none resident)
    warps: list[WarpCycle]

    def waiting(self) -> dict[str, int]:
        """State -> number of resident warps in it (the issued warp counts as selected)."""
        out: dict[str, int] = {}
        for w in self.warps:
            out[w.state] = out.get(w.state, 0) + 1
        return out


class CycleState:
    """Every resident warp's state at one cycle (CycleView.at); arrays are per resident warp."""

    def __init__(self, view: CycleView, cycle: int, warp, state, entry, sms=None):
        self.view = view
        self.cycle = int(cycle)
        rec = view.record
        self.warp = warp
        self.state = state  # codes into STATES
        self.entry = entry  # the entry it issued / waits for / drains after (-1: none)
        self.sm = rec.warp_sm[warp]
        self.sub_partition = rec.warp_slot[warp] % rec.n_sub
        self.cta = rec.cta_of_warp[warp]
        self.pc = np.where(entry >= 0, rec.pc[np.maximum(entry, 0)] if len(rec.pc) else 0, -1)
        self._show_sms = sms

    def __len__(self) -> int:
        return len(self.warp)

    def _row(self, i: int) -> WarpCycle:
        pc = int(self.pc[i])
        line, text = self.view._line_text(pc)
        return WarpCycle(int(self.warp[i]), int(self.cta[i]), int(self.sm[i]), int(self.sub_partition[i]),
                         STATES[int(self.state[i])], pc, line, text)

    def warps(self, sm: int | None = None, sub_partition: int | None = None, state: str | None = None
              ) -> list[WarpCycle]:
        """The resident warps (optionally of one SM, one sub-partition, one state), by SM, sub-partition, warp."""
        sel = np.ones(len(self.warp), bool)
        if sm is not None:
            sel &= self.sm == sm
        if sub_partition is not None:
            sel &= self.sub_partition == sub_partition
        if state is not None:
            sel &= self.state == STATES.index(state)
        idx = np.flatnonzero(sel)
        idx = idx[np.lexsort((self.warp[idx], self.sub_partition[idx], self.sm[idx]))]
        return [self._row(int(i)) for i in idx]

    def schedulers(self, sm: int | None = None) -> list[SchedulerCycle]:
        """Per SM sub-partition with resident warps (of one SM if given): the issued warp and the rest."""
        out = []
        sms = np.unique(self.sm) if sm is None else [sm]
        for s in sms:
            for p in range(self.view.record.n_sub):
                ws = self.warps(sm=int(s), sub_partition=p)
                if not ws and sm is None:
                    continue
                issued = next((w for w in ws if w.state == "selected"), None)
                out.append(SchedulerCycle(int(s), p, issued, ws))
        return out

    def issued(self) -> list[WarpCycle]:
        """The warps that issued this cycle (at most one per scheduler)."""
        return self.warps(state="selected")

    def counts(self) -> dict[str, int]:
        """State -> number of resident warps in it (all SMs)."""
        c = np.bincount(self.state, minlength=len(STATES)) if len(self.state) else np.zeros(len(STATES), int)
        return {STATES[i]: int(v) for i, v in enumerate(c) if v}

    def _sms_to_show(self, max_sms: int) -> list[int]:
        if self._show_sms is not None:
            return list(self._show_sms)
        return [int(s) for s in np.unique(self.sm)[:max_sms]]

    def __str__(self) -> str:
        lines = [f"cycle {self.cycle:,} of {self.view.cycles:,} ({self.view.policy} scheduler): "
                 f"{len(self.warp)} resident warps, {int((self.state == R_SELECTED).sum())} issued"]
        for sm in self._sms_to_show(2):
            for sc in self.schedulers(sm):
                if sc.issued is not None:
                    head = f"issued w{sc.issued.warp} line {sc.issued.line}: {sc.issued.text}"
                else:
                    head = "issued nothing"
                lines.append(f"  SM{sm} SP{sc.sub_partition}: {head}")
                for w in sc.warps:
                    if w.state != "selected":
                        lines.append(f"      w{w.warp:<5d} {w.state:18s} line {w.line}: {w.text}")
        more = len(np.unique(self.sm)) - len(self._sms_to_show(2))
        if more > 0:
            lines.append(f"  ... {more} more SMs with resident warps (at(cycle, sm=...) picks one)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return str(self)

    def _repr_html_(self, max_sms: int = 2) -> str:
        h = [f"<div><b>cycle {self.cycle:,}</b> of {self.view.cycles:,} ({html.escape(self.view.policy)} "
             f"scheduler): {len(self.warp)} resident warps, {int((self.state == R_SELECTED).sum())} issued"]
        c = self.counts()
        h.append("<br>" + ", ".join(f"<span style='background:{state_color(k)}'>&nbsp;{k}&nbsp;</span> {v}"
                                    for k, v in sorted(c.items(), key=lambda kv: -kv[1])))
        shown = self._sms_to_show(max_sms)
        for sm in shown:
            scs = self.schedulers(sm)
            h.append(f"<table style='font-size:85%;margin-top:6px'><tr><th>SM{sm}</th>"
                     + "".join(f"<th>sub-partition {sc.sub_partition}</th>" for sc in scs) + "</tr><tr><td>issued</td>")
            for sc in scs:
                if sc.issued is None:
                    h.append("<td><i>nothing</i></td>")
                else:
                    i = sc.issued
                    h.append(f"<td style='background:{state_color('selected')};color:white'>w{i.warp} "
                             f"line {i.line}<br><code style='color:white'>{html.escape(i.text)}</code></td>")
            h.append("</tr><tr><td>warps</td>")
            for sc in scs:
                cell = "<br>".join(
                    f"<span style='background:{state_color(w.state)}'>w{w.warp} {w.state}</span> "
                    f"<small>l{w.line}</small>" for w in sc.warps)
                h.append(f"<td style='vertical-align:top'>{cell}</td>")
            h.append("</tr></table>")
        more = len(np.unique(self.sm)) - len(shown)
        if more > 0:
            h.append(f"<small>{more} more SMs with resident warps: view.at(cycle, sm=N)</small>")
        h.append("</div>")
        return "".join(h)


class WarpHistory:
    """One warp's life in cycles: run-length rows (start, end, state, pc), end exclusive."""

    def __init__(self, view: CycleView, warp: int, start, end, state, entry):
        self.view = view
        self.warp = int(warp)
        self.start, self.end, self.state, self.entry = start, end, state, entry
        rec = view.record
        self.pc = np.where(entry >= 0, rec.pc[np.maximum(entry, 0)] if len(rec.pc) else 0, -1)
        self.sm = int(rec.warp_sm[warp])
        self.sub_partition = int(rec.warp_slot[warp] % rec.n_sub)
        self.cta = int(rec.cta_of_warp[warp])

    def rows(self) -> list[tuple[int, int, str, int, str]]:
        """(start, end, state, PTX line, text) per run."""
        out = []
        for s, e, st, pc in zip(self.start, self.end, self.state, self.pc):
            line, text = self.view._line_text(int(pc))
            out.append((int(s), int(e), STATES[int(st)], line, text))
        return out

    def totals(self) -> dict[str, int]:
        """State -> cycles."""
        c = np.bincount(self.state, weights=self.end - self.start, minlength=len(STATES))
        return {STATES[i]: int(v) for i, v in enumerate(c) if v}

    def state_at(self, cycle: int) -> str | None:
        i = int(np.searchsorted(self.start, cycle, "right")) - 1
        if i < 0 or cycle >= self.end[i]:
            return None
        return STATES[int(self.state[i])]

    def __len__(self) -> int:
        return len(self.start)

    def __str__(self, max_rows: int = 40) -> str:
        rows = self.rows()
        lines = [f"warp {self.warp} (CTA {self.cta}, SM{self.sm} sub-partition {self.sub_partition}): "
                 f"cycles {int(self.start[0]) if len(rows) else 0}-{int(self.end[-1]) if len(rows) else 0}, "
                 f"{len(rows)} runs"]
        for s, e, st, line, text in rows[:max_rows]:
            lines.append(f"  {s:>8d}-{e - 1:<8d} {st:18s} line {line}: {text}")
        if len(rows) > max_rows:
            lines.append(f"  ... {len(rows) - max_rows} more runs")
        return "\n".join(lines)

    __repr__ = __str__

    def _repr_html_(self, max_rows: int = 60) -> str:
        rows = self.rows()
        h = [f"<div><b>warp {self.warp}</b> (CTA {self.cta}, SM{self.sm} sub-partition {self.sub_partition}), "
             f"{len(rows)} runs<table style='font-size:85%'><tr><th>cycles</th><th>state</th><th>line</th>"
             "<th>instruction</th></tr>"]
        for s, e, st, line, text in rows[:max_rows]:
            span = f"{s}" if e - s == 1 else f"{s}-{e - 1}"
            h.append(f"<tr><td>{span}</td><td style='background:{state_color(st)}'>{st}</td><td>{line}</td>"
                     f"<td><code>{html.escape(text)}</code></td></tr>")
        h.append("</table>")
        if len(rows) > max_rows:
            h.append(f"<small>{len(rows) - max_rows} more runs</small>")
        return "".join(h) + "</div>"


class CycleView:
    """A cursor over the timing replay's cycles; see the module docstring.

    view.cycle is the current cycle; at(), step() and run_until() move it and return the
    CycleState there. sm= (here or in at()) limits what a state shows to one SM.
    """

    def __init__(self, timing, sm: int | None = None):
        rec = getattr(timing, "record", None)
        if rec is None:
            raise ValueError("this replay kept no per-cycle record: replay it with "
                             "simulate_timing(..., record=True) (launch() records launches under "
                             "simgpu.timing.model.RECORD_AUTO_LIMIT warp instructions)")
        self.timing = timing
        self.record = rec
        self.linked = rec.linked
        self.cycles = int(timing.cycles)
        self.policy = str(timing.extra.get("policy", "gto"))
        self.sm = sm
        self.cycle = 0
        W = len(rec.warp_off) - 1
        self.num_warps = W
        self._K = np.int64(self.cycles + 2)
        # globally sorted key: warp-major, issue cycle within a warp
        self._ew = rec.warp  # warp of each entry
        self._key = self._ew.astype(np.int64) * self._K + rec.issue
        if len(self._key) > 1 and np.any(np.diff(self._key) <= 0):
            raise ValueError("replay record: issue cycles are not increasing within a warp")
        self._n_entries = np.diff(rec.warp_off)
        lk = self.linked
        if lk is not None:
            self._lines = np.array([ins.line for ins in lk.instructions], np.int64)
            self._texts = [ins.text for ins in lk.instructions]
        else:
            self._lines, self._texts = np.zeros(0, np.int64), []

    # --------------------------------------------------------------------------- helpers
    def _line_text(self, pc: int) -> tuple[int, str]:
        if 0 <= pc < len(self._texts):
            return int(self._lines[pc]), str(self._texts[pc])
        return 0, ""

    def _classify(self, warps: np.ndarray, c: np.ndarray):
        """State code and entry of each (warp, cycle) pair; the warps must be resident at c."""
        rec = self.record
        off = rec.warp_off
        e = np.searchsorted(self._key, warps * self._K + c, "left")
        lo, hi = off[warps], off[warps + 1]
        has = e < hi
        n = len(rec.pc)
        ec = np.minimum(e, max(n - 1, 0))
        state = np.full(len(warps), R_NOINST, np.int64)
        entry = np.full(len(warps), -1, np.int64)
        if n:
            iss = rec.issue[ec]
            prev = np.where(ec > lo, rec.issue[np.maximum(ec - 1, 0)] + 1, rec.warp_start[warps])
            pos = c - prev
            dep = rec.dep[ec].astype(np.int64)
            thr = rec.thr[ec].astype(np.int64)
            st = np.where(iss == c, R_SELECTED,
                          np.where(pos < dep, rec.reason[ec],
                                   np.where(pos < dep + thr, rec.thr_reason[ec], R_NOT_SELECTED)))
            state = np.where(has, st, np.where(hi > lo, R_DRAIN, R_NOINST)).astype(np.int64)
            entry = np.where(has, e, np.where(hi > lo, hi - 1, -1))
        return state, entry

    def _resident(self, cycle: int, sm: int | None) -> np.ndarray:
        rec = self.record
        sel = (rec.warp_start <= cycle) & (cycle < rec.warp_end) & (rec.warp_sm >= 0)
        if sm is not None:
            sel &= rec.warp_sm == sm
        return np.flatnonzero(sel)

    # --------------------------------------------------------------------------- moving
    def at(self, cycle: int, sm: int | None = None) -> CycleState:
        """The state at `cycle` (the cursor moves there): every resident warp (of one SM if sm= or
        view.sm is set) with its state, and per scheduler the warp it issued."""
        cycle = int(cycle)
        self.cycle = cycle
        sm = self.sm if sm is None else sm
        ws = self._resident(cycle, sm)
        state, entry = self._classify(ws, np.full(len(ws), cycle, np.int64))
        return CycleState(self, cycle, ws, state, entry, sms=None if sm is None else [sm])

    @property
    def now(self) -> CycleState:
        return self.at(self.cycle)

    def step(self, n: int = 1) -> CycleState:
        """Move `n` cycles on (or back, n < 0) and return that cycle's state."""
        return self.at(min(max(self.cycle + int(n), 0), self.cycles))

    def run_until(self, cycle: int | None = None, line: int | None = None, pc: int | None = None,
                  warp: int | None = None, sm: int | None = None) -> CycleState:
        """Move forward to the first cycle after the current one at which the condition holds.

        cycle: that cycle. line / pc: an instruction of that PTX line / pc issues (of `warp`, of
        `sm` if given). warp alone: that warp issues. Stays at the end if nothing matches."""
        if cycle is None and line is None and pc is None and warp is None:
            raise ValueError("run_until needs cycle=, line=, pc= or warp=")
        rec = self.record
        cands = []
        if cycle is not None:
            cands.append(max(int(cycle), self.cycle + 1))
        if line is not None or pc is not None or warp is not None:
            sel = rec.issue > self.cycle
            if line is not None:
                if line not in set(self._lines.tolist()):
                    raise ValueError(f"PTX line {line} holds no instruction")
                sel &= self._lines[rec.pc] == line
            if pc is not None:
                sel &= rec.pc == pc
            if warp is not None:
                sel &= self._ew == warp
            sm_ = self.sm if sm is None else sm
            if sm_ is not None:
                sel &= rec.warp_sm[self._ew] == sm_
            hit = rec.issue[sel]
            cands.append(int(hit.min()) if len(hit) else self.cycles)
        return self.at(min(min(cands), self.cycles))

    # --------------------------------------------------------------------------- histories
    def segments(self, warps=None) -> dict[str, np.ndarray]:
        """Run-length record of the warps' states (all warps if None): arrays warp, start, end
        (exclusive), state (code into STATES; STATES[code] is the name), entry (the replayed
        instruction it waits for / issued / drains after), sorted by warp then start."""
        rec = self.record
        W = self.num_warps
        ws = np.arange(W) if warps is None else np.atleast_1d(np.asarray(warps, np.int64))
        idx = np.concatenate([np.arange(rec.warp_off[w], rec.warp_off[w + 1]) for w in ws]) if len(ws) else \
            np.zeros(0, np.int64)
        idx = idx.astype(np.int64)
        ew = self._ew[idx]
        first = idx == rec.warp_off[ew]
        g0 = np.where(first, rec.warp_start[ew], rec.issue[np.maximum(idx - 1, 0)] + 1)
        dep, thr = rec.dep[idx].astype(np.int64), rec.thr[idx].astype(np.int64)
        iss = rec.issue[idx]
        a1, a2 = g0 + dep, g0 + dep + thr
        parts = [(ew, g0, a1, rec.reason[idx], idx), (ew, a1, a2, rec.thr_reason[idx], idx),
                 (ew, a2, iss, np.full(len(idx), R_NOT_SELECTED), idx),
                 (ew, iss, iss + 1, np.full(len(idx), R_SELECTED), idx)]
        # after the last issue: drain until the exit; a warp with nothing to run: no_instruction
        n_e = self._n_entries[ws]
        has = n_e > 0
        last = rec.warp_off[ws + 1] - 1
        tail_start = np.where(has, rec.issue[np.maximum(last, 0)] + 1 if len(rec.issue) else 0, rec.warp_start[ws])
        parts.append((ws, tail_start, rec.warp_end[ws], np.where(has, R_DRAIN, R_NOINST), np.where(has, last, -1)))
        w_, s_, e_, r_, n_ = (np.concatenate([p[i] for p in parts]) for i in range(5))
        keep = (e_ > s_) & (rec.warp_sm[w_] >= 0)
        w_, s_, e_, r_, n_ = w_[keep], s_[keep], e_[keep], r_[keep], n_[keep]
        o = np.lexsort((s_, w_))
        return dict(warp=w_[o].astype(np.int64), start=s_[o].astype(np.int64), end=e_[o].astype(np.int64),
                    state=r_[o].astype(np.int64), entry=n_[o].astype(np.int64))

    def warp(self, w: int) -> WarpHistory:
        """Warp w's history: consecutive cycles in one state (and waiting for one instruction) as one run."""
        if not 0 <= int(w) < self.num_warps:
            raise IndexError(f"warp {w} is not a warp of this launch ({self.num_warps} warps)")
        s = self.segments([int(w)])
        return WarpHistory(self, int(w), s["start"], s["end"], s["state"], s["entry"])

    def totals(self) -> dict[str, float]:
        """State -> warp-cycles over the whole launch; equals TimingResult.stalls."""
        rec = self.record
        n = len(STATES)
        tot = np.bincount(rec.reason, weights=rec.dep, minlength=n) + np.bincount(rec.thr_reason, weights=rec.thr,
                                                                                  minlength=n)
        gaps = self._gaps()
        tot[R_NOT_SELECTED] += float((gaps - rec.dep - rec.thr).sum())
        tot[R_SELECTED] += len(rec.issue)
        ws = np.flatnonzero(self._n_entries > 0)
        last = rec.warp_off[ws + 1] - 1
        tot[R_DRAIN] += float((rec.warp_end[ws] - rec.issue[last] - 1).sum())
        return {STATES[i]: float(tot[i]) for i in range(n)}

    def _gaps(self) -> np.ndarray:
        rec = self.record
        if not len(rec.issue):
            return np.zeros(0, np.int64)
        ew = self._ew
        idx = np.arange(len(rec.issue))
        first = idx == rec.warp_off[ew]
        g0 = np.where(first, rec.warp_start[ew], rec.issue[np.maximum(idx - 1, 0)] + 1)
        return rec.issue - g0

    @property
    def first_sm(self) -> int:
        """The SM the launch's first CTA ran on (the block scheduler's first SM: 124 on the H200,
        core/dispatch.py), where the pictures look by default."""
        rec = self.record
        return int(rec.warp_sm[0]) if len(rec.warp_sm) else 0

    def states(self, sm: int | None = None, cycles: tuple[int, int] | None = None, warps=None):
        """(warps, codes): the warps resident on `sm` (default: first_sm) during [a, b) (or the given warps), ordered by
        sub-partition then warp, and an int8 [len(warps), b - a] array of their state codes
        (NOT_RESIDENT = -1 where a warp is not on the SM)."""
        rec = self.record
        a, b = (0, self.cycles) if cycles is None else (int(cycles[0]), int(cycles[1]))
        if b <= a:
            raise ValueError("cycles=(a, b) needs a < b")
        if warps is None:
            if sm is None:
                sm = self.first_sm
            sel = (rec.warp_sm == sm) & (rec.warp_start < b) & (rec.warp_end > a)
            warps = np.flatnonzero(sel)
            warps = warps[np.lexsort((warps, rec.warp_slot[warps] % rec.n_sub))]
        warps = np.asarray(warps, np.int64)
        out = np.full((len(warps), b - a), NOT_RESIDENT, np.int8)
        if len(warps):
            seg = self.segments(warps)
            row = {int(w): i for i, w in enumerate(warps)}
            for w, s, e, st in zip(seg["warp"], seg["start"], seg["end"], seg["state"]):
                lo, hi = max(int(s), a), min(int(e), b)
                if hi > lo:
                    out[row[int(w)], lo - a:hi - a] = st
        return warps, out

    def issues(self, sm: int | None = None, cycles: tuple[int, int] | None = None) -> dict[str, np.ndarray]:
        """Every issue (of one SM, in [a, b)): arrays cycle, sm, sub_partition, warp, pc, line; by cycle."""
        rec = self.record
        ew = self._ew
        sel = np.ones(len(rec.issue), bool)
        if sm is not None:
            sel &= rec.warp_sm[ew] == sm
        if cycles is not None:
            sel &= (rec.issue >= cycles[0]) & (rec.issue < cycles[1])
        idx = np.flatnonzero(sel)
        idx = idx[np.argsort(rec.issue[idx], kind="stable")]
        pcs = rec.pc[idx].astype(np.int64)
        w = ew[idx]
        return dict(cycle=rec.issue[idx], sm=rec.warp_sm[w], sub_partition=rec.warp_slot[w] % rec.n_sub, warp=w,
                    pc=pcs, line=self._lines[pcs] if len(self._lines) else np.zeros(len(idx), np.int64))

    # --------------------------------------------------------------------------- display
    def __repr__(self) -> str:
        return (f"CycleView({self.linked.name if self.linked is not None else '?'}: {self.cycles:,} cycles, "
                f"{self.num_warps} warps, {len(self.record.issue):,} warp instructions, {self.policy}; "
                f"at cycle {self.cycle:,})")

    def _repr_html_(self) -> str:
        return f"<div><code>{html.escape(repr(self))}</code></div>" + self.now._repr_html_()
