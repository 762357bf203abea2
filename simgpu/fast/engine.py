"""FastEngine: the reference engine's model, with its step loop compiled by numba.

Same waves, same scheduler pick, same SIMT stack, same memory-system calls in the same order,
so outputs, counters, traces and cycles are bit-identical to `core.engine.Engine` (tests/fast
checks that on every program, every calibration kernel and random kernels). The compiled loop
(`kernel.run_wave`) runs the native instruction forms of `decode.py`; any other step — a rare
instruction, a faulting access, a device-function call — is handed to the reference engine's
`issue`, on the same state arrays, so there is one implementation of those.
"""

from __future__ import annotations

import numpy as np
from numba.typed import List

from simgpu.core.engine import Engine
from simgpu.core.wave import WaveContext
from simgpu.fast import kernel as K
from simgpu.fast.decode import N_LD, SP_GLOBAL, SP_SHARED, Decoded, decode
from simgpu.memory.l2 import N_COUNTERS
from simgpu.stats.trace import MemoryEvent

_SPACE_NAME = {SP_GLOBAL: "global", SP_SHARED: "shared", 2: "param", 3: "const"}
_TRACE_STEPS, _TRACE_ENTRIES = 1 << 14, 1 << 18


def decoded(lk) -> Decoded:
    """The decoded form of a linked kernel (cached on it)."""
    dk = getattr(lk, "_fast_decoded", None)
    if dk is None:
        dk = lk._fast_decoded = decode(lk)
    return dk


class FastEngine(Engine):
    """Drop-in replacement for Engine (same constructor, same `run`, same `stats`)."""

    name = "fast"

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.dk = decoded(self.lk)
        dk = self.dk
        self._d = (dk.sk, dk.sv, dk.sneg, dk.abits, dk.asign, dk.bbits, dk.bsign, dk.cmp, dk.bop, dk.moff,
                   dk.d0, dk.d1, dk.space, dk.msize, dk.mvec, dk.mreg, dk.vreg, dk.mwrap)
        heap = self.heap
        self._heap = List()
        for b in heap.buffers:
            self._heap.append(b)
        if not len(heap.buffers):
            self._heap.append(np.zeros(1, np.uint8))
        self._bases = np.asarray(heap.bases, np.uint64) if heap.bases else np.zeros(0, np.uint64)
        self._ends = np.asarray([b + s for b, s in zip(heap.bases, heap.sizes)], np.uint64)
        self._cnt = np.zeros(6, np.int64)
        self._out = np.zeros(2, np.int64)
        if self.trace is not None:
            self._tr_pc = np.zeros(_TRACE_STEPS, np.int64)
            self._tr_cnt = np.zeros(_TRACE_STEPS, np.int64)
            self._tr_warps = np.zeros(_TRACE_ENTRIES, np.int64)
            self._tr_active = np.zeros(_TRACE_ENTRIES, np.uint32)
        else:
            self._tr_pc = self._tr_cnt = self._tr_warps = np.zeros(0, np.int64)
            self._tr_active = np.zeros(0, np.uint32)
        self._tr_n = np.zeros(2, np.int64)
        # shared accesses counted in compiled code (needs the memory system)
        n = len(self.lk.instructions)
        self._sh = np.array([self.memsys is not None, bool(self.fuse_vectors)], np.bool_)
        self._sh_cnt = np.zeros((n, 3), np.int64)
        self._cls_cnt = np.zeros(n, np.int64)
        ev = _TRACE_STEPS if self.trace is not None else 0
        self._ev_step = np.zeros(ev, np.int64)
        self._ev_pc = np.zeros(ev, np.int64)
        self._ev_k = np.zeros(ev, np.int64)
        self._ev_uid = np.zeros(_TRACE_ENTRIES if ev else 0, np.int64)
        self._ev_wf = np.zeros(_TRACE_ENTRIES if ev else 0, np.int64)
        self._ev_n = np.zeros(3, np.int64)
        # a load's L1-miss groups (warp in the event, line, info; groups per event): sized per wave
        self._ev_groups = (np.zeros(0, np.int32), np.zeros(0, np.int64), np.zeros(0, np.uint16),
                           np.zeros(ev, np.int64))
        self._ev_space = np.zeros(ev, np.int8)
        self._ev_sec, self._ev_h1, self._ev_h2 = (np.zeros(_TRACE_ENTRIES if ev else 0, np.int64) for _ in range(3))
        self._gl_cnt = np.zeros((n, 3 + N_COUNTERS), np.int64)

    def _flush(self, final: bool = False) -> None:
        """Move the compiled loop's counters and trace steps into stats / the ExecutionTrace. Trace
        steps and events go before any Python step (their order matters); the memory counters are
        sums, added once at the end of the wave."""
        c = self._cnt
        if c.any():
            st = self.stats
            st.inst_executed += int(c[K.C_INST])
            st.thread_inst_executed += int(c[K.C_THREAD])
            st.thread_inst_pred_on += int(c[K.C_PRED_ON])
            st.branches += int(c[K.C_BRANCH])
            st.divergent_branches += int(c[K.C_DIVERGENT])
            st.barriers += int(c[K.C_BARRIER])
            c[:] = 0
        base = self.trace.n_steps if self.trace is not None else 0
        s, e = self._tr_n
        if s:
            self.trace.add_steps(self._tr_pc[:s], self._tr_cnt[:s], self._tr_warps[:e], self._tr_active[:e])
            self._tr_n[:] = 0
        nev = int(self._ev_n[0])
        if nev:
            ne = int(self._ev_n[1])
            uid = self._ev_uid[:ne].copy()  # one copy each; the events hold views into it
            wf, sec, h1, h2 = (a[:ne].copy() for a in (self._ev_wf, self._ev_sec, self._ev_h1, self._ev_h2))
            ops = np.where(self.dk.nat[self._ev_pc[:nev]] == N_LD, "ld", "st")
            steps = (base + self._ev_step[:nev]).tolist()
            ends = np.cumsum(self._ev_k[:nev]).tolist()
            ng = int(self._ev_n[2])
            gw, gl, gi, gk = self._ev_groups
            gw, gl, gi = gw[:ng].copy(), gl[:ng].copy(), gi[:ng].copy()
            g_ends = np.cumsum(gk[:nev]).tolist()
            gk[:nev] = 0
            append = self.trace.memory.append
            off = 0
            g_off = 0
            for i in range(nev):
                end = ends[i]
                if self._ev_space[i] == 0:
                    append(MemoryEvent(step=steps[i], space="shared", op=str(ops[i]), warps=uid[off:end],
                                       wavefronts=wf[off:end]))
                else:
                    g_end = g_ends[i]
                    ev = MemoryEvent(step=steps[i], space="global", op=str(ops[i]), warps=uid[off:end],
                                     sectors=sec[off:end], l1_hit_sectors=h1[off:end], l2_hit_sectors=h2[off:end])
                    if ops[i] == "ld":
                        ev.wavefronts = wf[off:end]
                        ev.ld_warp, ev.ld_line, ev.ld_info = gw[g_off:g_end], gl[g_off:g_end], gi[g_off:g_end]
                    else:  # a store: its CTA write-path cycles, the lines it leaves partly written
                        ev.write_cycles = wf[off:end]
                        w_, l_, i_ = gw[g_off:g_end], gl[g_off:g_end], gi[g_off:g_end]
                        st = (i_ & K.ST_GROUP) != 0
                        ev.unit_warp, ev.unit_line, ev.unit_passes = w_[~st], l_[~st], i_[~st]
                        ev.st_warp, ev.st_line, ev.st_info = w_[st], l_[st], i_[st] & ~K.ST_GROUP
                    append(ev)
                    g_off = g_end
                off = end
            self._ev_n[:] = 0
        if not final:
            return
        if self._gl_cnt[:, 0].any():
            for p in np.flatnonzero(self._gl_cnt[:, 0]):
                row = self._gl_cnt[p]
                self.memsys.add_counts("global", "ld" if self.dk.nat[p] == N_LD else "st", int(p), int(row[0]),
                                       int(row[1]), int(row[2]), row[3:].copy())
            self._gl_cnt[:] = 0
        if self._cls_cnt.any():
            for p in np.flatnonzero(self._sh_cnt[:, 0]):
                inst, wf, ideal = (int(x) for x in self._sh_cnt[p])
                self.memsys.add_shared_counts("ld" if self.dk.nat[p] == N_LD else "st", int(p), inst, wf, ideal)
            for p in np.flatnonzero(self._cls_cnt):
                cls = self.lk.mem_class[p]
                if cls is not None:
                    self.stats.by_class[cls] = self.stats.by_class.get(cls, 0) + int(self._cls_cnt[p])
            self._sh_cnt[:] = 0
            self._cls_cnt[:] = 0

    def wave_steps(self, ctx: WaveContext):
        self.init_wave(ctx)
        W = ctx.W
        lk, dk = self.lk, self.dk
        tid = np.stack([ctx.tid_x, ctx.tid_y, ctx.tid_z])
        ctaid = np.stack([ctx.ctaid_x, ctx.ctaid_y, ctx.ctaid_z])
        consts = np.array(list(self.block) + list(self.grid) + [self.num_sms], np.int64)
        ctl = np.array([ctx.warps_per_cta], np.int64)
        mem = (np.int64(ctx.smem_stride), np.int64(ctx.shared_bytes), np.int64(0), self.kparams, self.const_buf,
               self._bases, self._ends)
        sel = np.zeros(W, np.int64)
        lanes_on = np.zeros((W, 32), np.bool_)
        acc_addr = np.zeros((W, 32), np.uint64)
        g_addr = np.zeros((W, 32), np.int64)
        g_mask = np.zeros((W, 32), np.bool_)
        g_sm = np.zeros(W, np.int64)
        sectors, lines, w_l1, w_l2 = (np.zeros(W, np.int64) for _ in range(4))
        trace_on = self.trace is not None
        g_warp = np.zeros(2 * W * 32, np.int64)
        g_line = np.zeros(2 * W * 32, np.int64)
        g_m8 = np.zeros(2 * W * 32, np.uint16)  # sectors, and a store's partial ones (mark_partial_sectors)
        g_info = np.zeros(2 * W * 32, np.uint16)
        if trace_on and self._ev_groups[1].shape[0] < 64 * W + _TRACE_ENTRIES:  # room for any one step
            n = 64 * W + _TRACE_ENTRIES
            self._ev_groups = (np.zeros(n, np.int32), np.zeros(n, np.int64), np.zeros(n, np.uint16),
                               self._ev_groups[3])
        ms = self.memsys
        if ms is not None:
            l1, l2 = ms.l1, ms.l2
            caches = (l1.tags, l1.valid, l1.lru, l1.wreq, l1.req, l1.stamp,
                      l2.tags, l2.valid, l2.dirty, l2.lru, l2.stamp, np.asarray(ms.merge_dom, np.int64),
                      np.asarray(ms.sm_side, np.int8), np.asarray(ms.heap_lines, np.int64))
            geo = np.array([l1.nways, l2.nsets, l2.fetch_pair, l2.write_hit, ms.merge_cap, ms.record_load_hits,
                            l1.victim_rule], np.int64)
        else:
            z3 = np.zeros((1, 1, 1), np.int64)
            z2 = np.zeros((1, 1), np.int64)
            caches = (z3, z3.astype(np.uint8), z3, z3, np.zeros((1, 4), np.int64), np.zeros(1, np.int64),
                      z2, z2.astype(np.uint8), z2.astype(np.uint8), z2, np.zeros(1, np.int64), np.zeros(0, np.int64),
                      np.zeros(0, np.int8), np.zeros(0, np.int64))
            geo = np.zeros(7, np.int64)
        st = self.stats
        with np.errstate(all="ignore"):
            while True:
                code = K.run_wave(
                    lk.kinds, lk.guard_reg, lk.guard_neg, lk.target, lk.rpc, dk.nat, self._d, mem, self._heap, ctl,
                    self.waited, self.sched, lk.writes_memory, self.spin_pc, self.spin_hash, self.sleep_epoch,
                    self.hash_mult,
                    self.pc, self.mask, self.rpc, self.sp, self.st_pc, self.st_mask, self.st_rpc, self.exited,
                    self.done, self.at_bar, self.bar_count, self.bar_pc,
                    ctx.regs_by_reg, ctx.issued, self.clock_step, ctx.smem, tid, ctaid, ctx.cta_of_warp,
                    ctx.warp_in_cta, ctx.sm_of_warp,
                    consts, self._cnt, st.per_pc_warps, st.per_pc_threads, trace_on,
                    self._tr_pc, self._tr_cnt, self._tr_warps, self._tr_active, self._tr_n, int(ctx.warp_uid[0]),
                    sel, lanes_on, acc_addr, self._out,
                    self._sh, dk.vg_size, dk.vg_delta, dk.vg_leader, self._sh_cnt, self._cls_cnt,
                    self._ev_step, self._ev_pc, self._ev_k, self._ev_uid, self._ev_wf, self._ev_n,
                    caches, geo, self._gl_cnt, g_addr, g_mask, g_sm, sectors, lines, w_l1, w_l2, g_warp, g_line, g_m8,
                    self._ev_space, self._ev_sec, self._ev_h1, self._ev_h2, self._ev_groups, g_info)
                self._flush()
                self._ready = None
                p, k = int(self._out[0]), int(self._out[1])
                if code == K.R_NOREADY:
                    if self.next_step(commit=False) is None:
                        self._flush(final=True)
                        self._end_wave_stats()
                        break
                    continue
                if code == K.R_TRACE_FULL:
                    continue
                ws = sel[:k].copy()
                if code == K.R_FALLBACK:
                    self.issue(p, ws)
                    yield p, ws
                    continue
                # R_ACCOUNT: a native load/store step is done; count it like the reference engine does
                ctx.pc = p
                space = _SPACE_NAME[int(dk.space[p])]
                m = lanes_on[:k].copy()
                addr = acc_addr[:k].copy()
                if dk.nat[p] == N_LD:
                    ctx.account_read(space, ws, m, addr, int(dk.msize[p]), int(dk.mvec[p]))
                else:
                    ctx.account_write(space, ws, m, addr, int(dk.msize[p]), int(dk.mvec[p]))
