"""The replay: every warp's instruction stream through SMs, schedulers, pipes and memory queues.

One global clock over all SMs (shared resources: the CTA dispatcher, L2 and DRAM bandwidth, the
L2's fill bandwidth (sectors entering it: DRAM fills and writes of sectors it did not hold), the
global-atomic rate and the L2's atomic units, each CTA's write path), with skip-ahead: each
scheduler records the earliest cycle at which one of its warps could issue, and the clock jumps
to the earliest such cycle (or the next CTA dispatch) when nothing can issue now. A cycle visits
only the SMs that have a scheduler with something to wake up for (a list kept in SM order), and a
warp's operand-ready time is worked out when it changes (at its issue, arrival, barrier release),
not at every scan, so the cost grows with issued instructions and busy SMs, not with idle cycles
or the size of the GPU.
All times are known at issue: a memory instruction reserves its L1TEX cycles on its SM and its
sectors in the L2/DRAM token queues when it issues, so its completion time (queueing delay +
where-it-hit latency) is fixed then. A global load whose L1-miss lines are known joins the open L2
requests of its SM's merge domain or sends its lines on, near or far in the L2 by the line's home,
the SM's side and what that side loaded before, in issue order (load_lines.py, l2_merge.py,
l2_sides.py), and takes the latency of its slowest line. A global store first holds its CTA's
write path (memory/coalescer.store_write_cycles; a warp stops issuing stores while its CTA's
backlog is over st_q cycles); a global atomic's request to each line it touches, and a store's to
each line it leaves partly written, queue on that line's L2 unit for their passes
(memory/line_units.py), the atomic answered after the last.

Stall accounting is O(1) per issue: the cycles a warp spent between two issues are split into
the part before its operands / barrier / branch were ready (wait, short_scoreboard,
long_scoreboard, barrier, branch_resolving, membar), the part a pipe or queue held it (math_pipe_throttle,
lg_throttle, mio_throttle, recorded when a scan saw it blocked) and the rest (not_selected).

With `rec` the replay also keeps, per entry, that split (e_dep cycles of e_rsn, then e_thr cycles
of e_thr_rsn, then not_selected, then the issue cycle) and, per warp, its slot on the SM (its
sub-partition is slot % n_sub): simgpu.timing.cycles rebuilds every warp's state at every cycle
from it, and the sum over cycles is exactly `stall`. Where `e_waited` has one slot per entry (the
L1 walk in runs, l1_order.run_order, asks for it), an entry gets 1 if its warp waited on a
long-scoreboard result (a global or local load or atomic, a constant load) or a barrier before
issuing it.

Layout (the cost on wide launches is cache misses, ~8k resident warps each touching its own lines
between two of its issues, and calls): a warp's memory work is read from its own run of the
32-byte rows (prepare.MEM_ROW, in entry order) through a cursor, a slot's state is one 64-byte
line (int32 fields F_*), the scoreboard is one int32 per register (ready cycle << 2 | its class),
and the helpers are inlined. Cycles and completion times must stay below T_MAX = 2**29 - 1 (the
int32 fields and the scoreboard's 2 class bits); a launch that gets there raises OverflowError.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.timing.isa import (
    K_BAR,
    K_BRANCH,
    K_FENCE,
    K_GATOM,
    K_GLD,
    K_GST,
    K_LLD,
    K_LST,
    K_SATOM,
    K_SHFL,
    K_SLD,
    K_SST,
    MAX_DST,
    MAX_SRC,
    N_PIPES,
    R_BARRIER,
    R_BRANCH,
    R_DRAIN,
    R_LG,
    R_LONG,
    R_MATH,
    R_MEMBAR,
    R_MIO,
    R_NOT_SELECTED,
    R_SELECTED,
    R_SHORT,
    R_WAIT,
    REASONS,
    SB_LONG,
    SB_SHORT,
)
from simgpu.timing.load_lines import answer_opened, load_lines
from simgpu.timing.store_lines import fills_requested, store_arrives, store_hits_lost, store_leaves, store_two_back

INF = np.int64(1) << np.int64(62)
N_REASONS = len(REASONS)
T_MAX = (1 << 29) - 1  # the largest cycle the int32 slot fields and scoreboard hold (see above)
# fields of a slot's line (zs[z]): its warp, next entry and end of its entries, when its own state
# lets it issue next and why not before, its last issue, whether it waits at a barrier, when its
# memory work is done, how long a pipe or queue held it and why, its next memory row, why its next
# entry waits (with z_opr), that entry's pc, the warp's age, its CTA slot (sm * ctas_per_sm + cs)
F_WARP = 0
F_PTR = 1
F_END = 2
F_READY = 3
F_RREASON = 4
F_LAST = 5
F_ATBAR = 6
F_MEMDONE = 7
F_THR_UNTIL = 8
F_THR_RSN = 9
F_ROW = 10
F_RSN = 11
F_PC = 12
F_AGE = 13
F_G = 14
F_GRP = 15  # the warp's next L1-miss group (near/far L2 lines, l2_sides.py)
NF = 16  # 16 int32: 64 bytes, one line


@njit(cache=True)
def _slot_table(Z):
    """A zeroed int32 [Z, NF] table whose rows start on 64-byte lines (a slot's state in one line)."""
    buf = np.zeros(Z * NF + 16, np.int32)
    off = ((64 - buf.ctypes.data % 64) % 64) // 4
    return buf[off:off + Z * NF].reshape((Z, NF))


@njit(cache=True, inline="always")
def _sb_reason(sb):
    if sb == SB_LONG:
        return R_LONG
    if sb == SB_SHORT:
        return R_SHORT
    return R_WAIT


@njit(cache=True, inline="always")
def _interp(u, xs, ys):
    """ys at u, linear between the points xs (ascending), held at both ends."""
    n = xs.shape[0]
    if n == 0:
        return 0.0
    if u <= xs[0]:
        return ys[0]
    for i in range(1, n):
        if u <= xs[i]:
            return ys[i - 1] + (ys[i] - ys[i - 1]) * (u - xs[i - 1]) / (xs[i] - xs[i - 1])
    return ys[n - 1]


@njit(cache=True, inline="always")
def _operands_ready(gs, pc, zs, src, dst, reg_st, n_sb):
    """When the warp in slot gs can issue pc as far as its own state goes: its ready time, raised by
    every source or destination register still in flight; and why it waits (the last raise).
    reg_st[gs, reg]: the register's ready cycle << 2 | its scoreboard class (SB_*)."""
    r, reason = _regs_ready(gs, src, pc, MAX_SRC, reg_st, np.int64(zs[gs, F_READY]), np.int64(zs[gs, F_RREASON]),
                            reg_st.shape[1])
    # the last three registers are cp.async's group pseudo registers (isa.build_static), the n_sb
    # before them the scoreboards of unrolled loops' loads (unroll.scoreboard_groups): no
    # write-after-write wait on them
    return _regs_ready(gs, dst, pc, MAX_DST, reg_st, r, reason, reg_st.shape[1] - 3 - n_sb)


@njit(cache=True, inline="always")
def _is_taken(pc, next_pc, pc_of):
    """Whether a warp's branch at pc went somewhere other than the next instruction, in the kernel's
    order (pc_of: an unrolled loop's copies are rows of their own past the kernel's, model.py):
    copy k's back edge into copy k + 1 and a copy's exit to the loop's end fall through, as in
    ptxas's unrolled loop; only the last copy's back edge is taken."""
    return next_pc != pc + 1 and pc_of[next_pc] != pc_of[pc] + 1


@njit(cache=True, inline="always")
def _regs_ready(gs, regs, pc, n, reg_st, r, reason, limit):
    """(r, reason) raised by each of the first n registers of regs[pc] (-1 ends the list) still in
    flight, those from `limit` on left out."""
    for j in range(n):
        reg = regs[pc, j]
        if reg < 0:
            break
        if reg >= limit:
            continue
        v = reg_st[gs, reg]
        rt = np.int64(v >> 2)
        if rt > r:
            r = rt
            reason = _sb_reason(v & 3)
    return r, reason


@njit(cache=True, inline="always")
def _activate(act_sm, n_act, sm):
    """Insert sm into the ascending act_sm[:n_act] if it is not there; the new length."""
    i = n_act
    while i > 0 and act_sm[i - 1] > sm:
        i -= 1
    if i > 0 and act_sm[i - 1] == sm:
        return n_act
    for j in range(n_act, i, -1):
        act_sm[j] = act_sm[j - 1]
    act_sm[i] = sm
    return n_act + 1


# each SM's L1-miss lines in flight (l2_merge.py: how far two SMs' request streams drift apart), kept
# as a calendar of when they come back: _Q_BINS bins of _Q_BIN cycles, a ring per SM
_Q_BIN = 32
_Q_BINS = 4096


@njit(cache=True, inline="always")
def _lines_in_flight(q_cal, q_tot, q_head, sm, t):
    """The L1-miss lines of SM sm still in flight at cycle t (those back by then dropped first)."""
    now = t // _Q_BIN
    if now - q_head[sm] >= _Q_BINS:  # idle past the horizon: everything is back
        for i in range(_Q_BINS):
            q_cal[sm, i] = 0
        q_tot[sm] = 0
        q_head[sm] = now
    while q_head[sm] < now:
        i = q_head[sm] % _Q_BINS
        q_tot[sm] -= q_cal[sm, i]
        q_cal[sm, i] = 0
        q_head[sm] += 1
    return q_tot[sm]


@njit(cache=True, inline="always")
def _lines_sent(q_cal, q_tot, q_head, sm, done, n):
    """n L1-miss lines of SM sm, back at cycle `done` (held inside the calendar's horizon)."""
    b = done // _Q_BIN
    if b <= q_head[sm]:
        b = q_head[sm] + 1
    if b >= q_head[sm] + _Q_BINS:
        b = q_head[sm] + _Q_BINS - 1
    q_cal[sm, b % _Q_BINS] += n
    q_tot[sm] += n


@njit(cache=True, inline="always")
def line_unit(line, n_units):
    """The L2 atomic unit of a 128-byte line: lines whose addresses differ only in bits 7 and 9 share
    one (their group), and consecutive groups take consecutive units, so a histogram's contiguous
    bins spread over as many units as they have groups (config l2_line_units)."""
    group = ((line >> np.int64(3)) << np.int64(1)) | ((line >> np.int64(1)) & np.int64(1))
    return group % n_units


@njit(cache=True, inline="always")
def _line_units(u_off, u_line, u_cyc, n_units, unit_free, mr, st):
    """Memory row mr's requests to the L2's line units (memory/line_units.py), made at cycle st: each
    queues on its line's unit (line_unit) for its cycles; returns when the last is done (st if none)."""
    fin = st
    for i in range(u_off[mr], u_off[mr + 1]):
        u = line_unit(u_line[i], n_units)
        tu = unit_free[u] if unit_free[u] > st else st
        unit_free[u] = tu + u_cyc[i]
        if unit_free[u] > fin:
            fin = unit_free[u]
    return fin


@njit(cache=True)
def replay(kind, pipe, lat, ii, slots, sb, src, dst, n_regs, n_sb,
           e_pc, rows, warp_row0,
           warp_off, cta_warp0, cta_nwarps,
           num_sms, sm_order, pref_sm, sm_lat_off, ctas_per_sm, wpc, n_sub, policy, fair_lsu,
           dispatch, bar_lat, lsu_q, mio_q, st_q, branch_costs,
           l1_rate, l2_rate, dram_rate, atom_rate,
           load_win, dram_u, dram_x, l2_u, l2_x,
           e_issue, warp_start, warp_end, warp_sm, cta_start, cta_end, cta_sm, stall, sm_inst,
           rec, e_dep, e_thr, e_rsn, e_thr_rsn, w_slot, e_waited,
           sides, merge, units, stores, l2_lines, writes, fills, dram_act):
    C = cta_warp0.shape[0]
    # near/far L2 lines in issue order (l2_sides.py): the global loads' L1-miss groups sorted by row,
    # each warp's from g_warp0[w]; per group its line index, home partition and g_info; per SM its
    # side; the four latencies and the DRAM cycles per extra sector; per line the DRAM sectors no
    # load has asked for yet, when each side holds a copy (0 for the copies a warm launch finds in
    # L2; the caller reads the array after the replay) and when its DRAM fetch is back
    (use_sides, g_row, g_li, g_home, g_info, g_warp0, sm_side, l2_near, l2_far, dram_near, dram_far,
     dram_per_sector, n_lines, line_dram, in_time, copy_at) = sides
    dram_left = line_dram.copy()
    back = np.zeros(n_lines, np.int64)
    lats = (l2_near, l2_far, dram_near, dram_far, dram_per_sector)
    # the L2's line units (memory/line_units.py): row r's (line, cycles) requests are
    # unit_line / unit_cyc[unit_off[r]:unit_off[r + 1]]; a line's unit is line_unit's
    unit_off, unit_line, unit_cyc, n_units = units
    unit_free = np.zeros(max(1, n_units), np.float64)
    # stores that meet on their CTA's write path (store_lines.py): per store row its (line, info)
    # records, the per-slot rings, the per-pc hit and merged-sector counts, the pending fills and
    # each SM's last two store requests
    st_on, st_off, st_line, st_info, ring, sf_hit, st_hit, st_merged, pend, st_hist = stores
    join_share = ring[6]  # the share of its path cycles a joined store takes (store_join_path_share)
    # the L2's line requests (lookups) per cycle, besides its sectors: per row the lines it sends
    # to L2 (config l2_lines_per_ns; 0: no such limit)
    row_lines, l2_line_rate = l2_lines
    l2_line_free = 0.0
    # the L2's dirty-line write-backs on the DRAM queue (model._dram_write_costs): per pc the
    # sectors an execution writes back, a sector's cycles, the read/write turnaround per paired
    # sector, per pc a sector's cycles for its rows and granules, whether a store that writes back
    # waits for the DRAM to take it; recent read and written sectors decay with load_win
    dram_w, w_cost, mix_cost, wb_extra, wb_wait = writes
    # sectors entering the L2 (config l2_fill_bytes_per_s): a load's or atomic's DRAM sectors, and
    # per store pc the share of its written sectors the L2 did not hold; sectors per cycle (0: off)
    st_fill, fill_rate = fills
    fill_free = 0.0
    # dram_act: per pc, the DRAM cycles each of its sectors read costs beyond its bytes, for the rows
    # it opens (dram_rows.py); wb_extra: those of a sector written back behind it
    mix_r = 0.0
    mix_w = 0.0
    mix_t = 0
    # L1 -> L2 read merging at issue (merge: load_lines.MergeState)
    use_groups = use_sides or merge.on
    op_b = np.zeros(64, np.int64)
    op_w = np.zeros(64, np.int64)
    op_m = np.zeros(64, np.int64)
    op_l = np.zeros(64, np.int64)
    op_f = np.zeros(64, np.int64)
    if g_row.shape[0] >= 2**31:
        raise OverflowError("replay: 2**31 L1-miss groups or more (int32 slot fields)")
    if e_pc.shape[0] >= 2**31 or rows.shape[0] >= 2**31:
        raise OverflowError("replay: 2**31 entries or memory rows or more (int32 slot fields)")
    order_pos = np.empty(num_sms, np.int64)  # each SM's place in the block scheduler's order
    for k in range(num_sms):
        order_pos[sm_order[k]] = k
    max_slots = ctas_per_sm * wpc
    n_sched = num_sms * n_sub
    # ---- state
    # What the schedulers scan lives in slot order, a scheduler's slots side by side: slot s of SM
    # sm is z = (sm * n_sub + s % n_sub) * nq + s // n_sub (nq: the most slots of one scheduler).
    nq = (max_slots + n_sub - 1) // n_sub
    Z = n_sched * nq
    # (no divisions in the loop) per sub-partition its slot count; per slot s of an SM its z - sm * n_sub * nq
    nsl = np.empty(n_sub, np.int64)
    for sp in range(n_sub):
        nsl[sp] = (max_slots - sp + n_sub - 1) // n_sub
    zoff = np.empty(max_slots, np.int64)
    for s in range(max_slots):
        zoff[s] = (s % n_sub) * nq + s // n_sub
    zs = _slot_table(Z)
    # _operands_ready of the slot's warp's next entry (INF: no warp, or it is done or at a barrier),
    # kept up to date: it changes only when the warp issues, arrives or leaves a barrier (a warp's
    # registers are its own); its reason and the entry's pc are in zs (F_RSN, F_PC)
    z_opr = np.full(Z, INF, np.int64)
    cslot_cta = np.full(num_sms * ctas_per_sm, -1, np.int64)
    cslot_free_at = np.zeros(num_sms * ctas_per_sm, np.int64)
    reg_st = np.zeros((Z, n_regs), np.int32)
    bar_arrived = np.zeros(C, np.int64)
    live = cta_nwarps.copy()
    done_w = np.zeros(C, np.int64)
    sched_wake = np.full(n_sched, INF, np.int64)
    sched_busy = np.zeros(n_sched, np.int64)  # a scheduler issues an expanded op's SASS until then
    # the SMs some scheduler of which has a wake-up time (< INF), ascending: only they are visited
    act_sm = np.zeros(num_sms, np.int64)
    n_act = 0
    last_q = np.full(n_sched, -1, np.int64)  # the slot (its index among the scheduler's) that issued last
    pipe_free = np.zeros((n_sched, N_PIPES), np.int64)
    l1_free = np.zeros(num_sms, np.float64)
    # fair_lsu: the SM's L1TEX takes its sub-partitions' requests in turn (the scan of an SM's
    # schedulers starts after the one that last sent it a request), and a scheduler issues first
    # the warp that waited longest on the LSU / MIO queue (see config.fair_lsu_arbitration)
    l1_turn = np.zeros(num_sms, np.int64)
    st_free = np.zeros(num_sms * ctas_per_sm, np.float64)  # each CTA slot's write path (global stores)
    track_q = merge.on and merge.q0 > 0.0  # each SM's L1-miss lines in flight (_lines_in_flight)
    q_cal = np.zeros((num_sms if track_q else 1, _Q_BINS if track_q else 1), np.int64)
    q_tot = np.zeros(num_sms, np.int64)
    q_head = np.zeros(num_sms, np.int64)
    sm_ncta = np.zeros(num_sms, np.int64)
    l2_free = 0.0
    dram_free = 0.0
    atom_free = 0.0
    # loaded latency: decaying sector counts (time constant load_win cycles), last update time
    dram_acc = 0.0
    l2_acc = 0.0
    acc_t = np.int64(0)
    next_cta = 0
    disp_time = 0.0
    # the CTA dispatcher: busy launch_iv per CTA launched and done_iv per CTA retired (cycles; a
    # retirement is charged to the launch that reuses its slot, and every one of them to the kernel's
    # end, ret_free); a CTA's warps become ready warp_iv cycles apart
    launch_iv, done_iv, warp_iv = dispatch
    ret_free = 0.0
    ctas_done = 0
    age = 0
    rr = 0
    t = np.int64(0)
    while True:
        # ------------------------------------------------------------ CTA dispatch
        # a CTA of the first wave goes where the functional engine put it (pref_sm, core/dispatch.py:
        # so the SM ids of the timeline and of the L1s agree); a later one to the SM with the most
        # free CTA slots, scanning the block scheduler's SM order from after the last one used
        while next_cta < C and disp_time <= t:
            best = -1
            best_pos = 0
            best_free = 0
            best_cs = -1
            ps = pref_sm[next_cta]  # the functional engine's SM for a CTA of the first wave
            if ps >= 0:
                for cs in range(ctas_per_sm):
                    g = ps * ctas_per_sm + cs
                    if cslot_cta[g] < 0 or (cslot_free_at[g] <= t and cslot_free_at[g] > 0):
                        best = ps
                        best_cs = cs
                        best_free = 1
                        best_pos = order_pos[ps]
                        break
            for k in range(num_sms if best < 0 else 0):
                sm = sm_order[(rr + k) % num_sms]
                nfree = 0
                first = -1
                for cs in range(ctas_per_sm):
                    g = sm * ctas_per_sm + cs
                    if cslot_cta[g] < 0 or (cslot_free_at[g] <= t and cslot_free_at[g] > 0):
                        nfree += 1
                        if first < 0:
                            first = cs
                if nfree > best_free:
                    best_free = nfree
                    best = sm
                    best_pos = (rr + k) % num_sms
                    best_cs = first
                    if nfree == ctas_per_sm:
                        break
            if best < 0:
                # blocked: wait for the earliest CTA slot that frees
                nt = INF
                for g in range(num_sms * ctas_per_sm):
                    if cslot_cta[g] >= 0 and cslot_free_at[g] > t and cslot_free_at[g] < nt:
                        nt = cslot_free_at[g]
                disp_time = float(nt)
                break
            c = next_cta
            next_cta += 1
            rr = (best_pos + 1) % num_sms
            g = best * ctas_per_sm + best_cs
            reused = cslot_cta[g] >= 0  # its last CTA's retirement is charged to this launch
            cslot_cta[g] = c
            cslot_free_at[g] = 0
            st_free[g] = 0.0
            cta_start[c] = t
            cta_sm[c] = best
            cta_end[c] = t
            sm_ncta[best] += 1
            w0 = cta_warp0[c]
            nw = cta_nwarps[c]
            if nw == 0:
                cslot_free_at[g] = t + 1
                ctas_done += 1
                ret_free = max(ret_free, float(t + 1)) + done_iv
            for i in range(nw):
                w = w0 + i
                s = best_cs * wpc + i
                sc = best * n_sub + s % n_sub
                z = sc * nq + s // n_sub
                zs[z, F_WARP] = w
                zs[z, F_G] = g
                for r in range(n_regs):
                    reg_st[z, r] = 0
                zs[z, F_ROW] = warp_row0[w]  # the warp's memory rows follow its entries
                zs[z, F_GRP] = g_warp0[w] if use_groups else 0
                zs[z, F_PTR] = warp_off[w]
                zs[z, F_END] = warp_off[w + 1]
                t_w = t + np.int64(warp_iv * i)
                zs[z, F_READY] = t_w
                zs[z, F_RREASON] = R_WAIT
                zs[z, F_LAST] = t_w - 1
                zs[z, F_ATBAR] = False
                zs[z, F_MEMDONE] = 0
                zs[z, F_AGE] = age
                zs[z, F_THR_UNTIL] = 0
                zs[z, F_THR_RSN] = 0
                age += 1
                warp_start[w] = t_w
                warp_sm[w] = best
                w_slot[w] = s
                if sched_wake[sc] > t_w:
                    sched_wake[sc] = t_w
                    n_act = _activate(act_sm, n_act, best)
                if zs[z, F_PTR] < zs[z, F_END]:
                    pc0 = e_pc[zs[z, F_PTR]]
                    z_opr[z], zs[z, F_RSN] = _operands_ready(z, pc0, zs, src, dst, reg_st, n_sb)
                    zs[z, F_PC] = pc0
                else:
                    # a warp with nothing to run: done a cycle after it is ready (its own launch offset)
                    z_opr[z] = INF
                    warp_end[w] = t_w + 1
                    done_w[c] += 1
                    live[c] -= 1
                    if done_w[c] == nw:
                        cta_end[c] = max(cta_end[c], t_w + 1)
                        cslot_free_at[g] = cta_end[c]
                        ctas_done += 1
                        ret_free = max(ret_free, float(cta_end[c])) + done_iv
            disp_time = max(disp_time, float(t) - 1.0) + launch_iv + (done_iv if reused else 0.0)
        if ctas_done == C and next_cta >= C:
            break
        # ------------------------------------------------------------ schedulers
        # (in scheduler order; a scheduler of an SM outside act_sm has nothing to do before INF)
        for ai in range(n_act):
            sm = act_sm[ai]
            for k_sp in range(n_sub):
                sp = k_sp
                if fair_lsu:
                    sp = k_sp + l1_turn[sm]
                    if sp >= n_sub:
                        sp -= n_sub
                sc = sm * n_sub + sp
                if sched_wake[sc] > t:
                    continue
                if sched_busy[sc] > t:  # still issuing the SASS sequence of an expanded op
                    sched_wake[sc] = sched_busy[sc]
                    continue
                wake = INF
                chosen_age = INF
                chosen_q = -1
                greedy_q = -1
                queued_q = -1  # fair_lsu: the eligible warp the LSU / MIO queue held back longest ago
                queued_last = INF
                nslots = nsl[sp]
                zb = sc * nq
                lq = last_q[sc]
                start = 0
                if policy == 1 and lq >= 0:
                    start = lq + 1
                for q in range(nslots):
                    qi = q
                    if policy == 1:
                        qi = start + q
                        if qi >= nslots:
                            qi -= nslots
                    z = zb + qi
                    r = z_opr[z]
                    if r > t:
                        if r < wake:
                            wake = r
                        continue
                    pc = zs[z, F_PC]
                    p = pipe[pc]
                    blocked = 0
                    thr_reason = 0
                    if pipe_free[sc, p] > t:
                        blocked = pipe_free[sc, p]
                        thr_reason = R_MATH
                    k = kind[pc]
                    if k == K_GLD or k == K_GST or k == K_GATOM or k == K_LLD or k == K_LST:
                        lim = l1_free[sm] - lsu_q
                        if k == K_GST and st_q > 0 and st_free[zs[z, F_G]] - st_q > lim:
                            lim = st_free[zs[z, F_G]] - st_q
                        if lim > t:
                            b = np.int64(np.ceil(lim))
                            if b > blocked:
                                blocked = b
                                thr_reason = R_LG
                    elif k == K_SLD or k == K_SST or k == K_SATOM or k == K_SHFL:
                        lim = l1_free[sm] - mio_q
                        if lim > t:
                            b = np.int64(np.ceil(lim))
                            if b > blocked:
                                blocked = b
                                thr_reason = R_MIO
                    if blocked > t:
                        if blocked > T_MAX:
                            raise OverflowError("replay: a cycle past T_MAX = 2**29 - 1")
                        if blocked > zs[z, F_THR_UNTIL]:
                            zs[z, F_THR_UNTIL] = blocked
                            zs[z, F_THR_RSN] = thr_reason
                        if blocked < wake:
                            wake = blocked
                        continue
                    # eligible
                    if policy == 1:
                        chosen_q = qi
                        break
                    if qi == lq:
                        greedy_q = qi
                        if not fair_lsu:
                            break
                    if (fair_lsu and zs[z, F_THR_UNTIL] > 0 and (zs[z, F_THR_RSN] == R_LG or zs[z, F_THR_RSN] == R_MIO)
                            and zs[z, F_LAST] < queued_last):
                        queued_last = zs[z, F_LAST]
                        queued_q = qi
                    if zs[z, F_AGE] < chosen_age:
                        chosen_age = zs[z, F_AGE]
                        chosen_q = qi
                if policy != 1:
                    if queued_q >= 0:
                        chosen_q = queued_q
                    elif greedy_q >= 0:
                        chosen_q = greedy_q
                if chosen_q < 0:
                    sched_wake[sc] = wake
                    continue
                # ---------------------------------------------------- issue
                gs = zb + chosen_q
                w = zs[gs, F_WARP]
                chosen_r = z_opr[gs]
                chosen_reason = zs[gs, F_RSN]
                e = zs[gs, F_PTR]
                pc = zs[gs, F_PC]
                wl = zs[gs, F_LAST]
                L = t - wl - 1
                dep = chosen_r - (wl + 1)
                if dep < 0:
                    dep = 0
                if dep > L:
                    dep = L
                stall[pc, chosen_reason] += dep
                rest = L - dep
                lo = chosen_r if chosen_r > wl + 1 else wl + 1
                thr = zs[gs, F_THR_UNTIL] - lo
                if thr < 0:
                    thr = 0
                if thr > rest:
                    thr = rest
                if thr > 0:
                    stall[pc, zs[gs, F_THR_RSN]] += thr
                stall[pc, R_NOT_SELECTED] += rest - thr
                stall[pc, R_SELECTED] += 1
                if e_waited.shape[0] and dep > 0 and (chosen_reason == R_LONG or chosen_reason == R_BARRIER):
                    e_waited[e] = 1
                if rec:
                    e_dep[e] = dep
                    e_thr[e] = thr
                    e_rsn[e] = chosen_reason
                    e_thr_rsn[e] = zs[gs, F_THR_RSN]
                zs[gs, F_THR_UNTIL] = 0
                zs[gs, F_LAST] = t
                e_issue[e] = t
                sm_inst[sm] += slots[pc]
                if slots[pc] > 1:
                    sched_busy[sc] = t + slots[pc]
                last_q[sc] = chosen_q
                p = pipe[pc]
                pipe_free[sc, p] = t + ii[pc]
                k = kind[pc]
                done_t = t + lat[pc]
                is_mem = False
                if k == K_GLD or k == K_GST or k == K_GATOM or k == K_LLD or k == K_LST:
                    is_mem = True
                    mr = zs[gs, F_ROW]
                    zs[gs, F_ROW] = mr + 1
                    mlat = rows[mr].lat
                    if mlat < 0:
                        done_t = t + 1
                    else:
                        ml2 = rows[mr].l2
                        mdram = rows[mr].dram
                        t1 = l1_free[sm] if l1_free[sm] > t else float(t)
                        l1_free[sm] = t1 + rows[mr].wf / l1_rate
                        st = t1
                        joined = False
                        if k == K_GST and st_q > 0 and rows[mr].wr > 0:  # the CTA's write path
                            g = zs[gs, F_G]
                            if st_on:
                                joined = store_arrives(st_off, st_line, st_info, mr, g, t1, ring, pc, sf_hit,
                                                       st_hit, st_merged)
                                lost = 0
                                if not joined:  # hits on lines whose load is still on its way miss
                                    lost = store_hits_lost(pend, sm, st_off, st_line, st_info, mr, t1, w)
                                lost2 = store_two_back(st_hist, sm, st_off, st_line, st_info, mr, joined, t1)
                                st_hit[pc] -= lost if lost > 0 else lost2
                            if joined:  # it rides on the writes it joined: no L2 request
                                ml2 = 0.0
                            share = join_share if joined else 1.0  # of its own path cycles
                            if share > 0.0:
                                tw = st_free[g] if st_free[g] > st else st
                                st_free[g] = tw + share * float(rows[mr].wr)
                                st = tw
                            if st_on and not joined:
                                store_leaves(st_off, st_line, st_info, mr, g, st_free[g], ring)
                        if k == K_GST and n_units > 0 and not joined:  # its partly written lines, on their line units
                            st = _line_units(unit_off, unit_line, unit_cyc, n_units, unit_free, mr, st)
                        if ml2 > 0:
                            t2 = l2_free if l2_free > st else st
                            l2_free = t2 + ml2 / l2_rate
                            if l2_line_rate > 0.0 and row_lines[mr] > 0:
                                tl = l2_line_free if l2_line_free > st else st
                                l2_line_free = tl + row_lines[mr] / l2_line_rate
                                if tl > t2:
                                    t2 = tl
                            st = t2
                        if mdram > 0:
                            t3 = dram_free if dram_free > st else st
                            dram_free = t3 + mdram / dram_rate + mdram * dram_act[pc]
                            st = t3
                        if fill_rate > 0.0:
                            fill = ml2 * st_fill[pc] if k == K_GST else mdram
                            if fill > 0:
                                tf = fill_free if fill_free > st else st
                                fill_free = tf + fill / fill_rate
                                st = tf
                        if w_cost > 0.0 and (mdram > 0 or dram_w[pc] > 0):
                            if load_win > 0.0 and t > mix_t:
                                dec_m = np.exp(-(t - mix_t) / load_win)
                                mix_r *= dec_m
                                mix_w *= dec_m
                                mix_t = t
                            mix_r += mdram
                            wsec = dram_w[pc]
                            if wsec > 0:  # written back behind this access: DRAM time, not the warp's
                                mix_w += wsec
                                pair = mix_r / mix_w if mix_r < mix_w else 1.0
                                tw = dram_free if dram_free > t1 else t1
                                dram_free = tw + wsec * (w_cost + mix_cost * pair + wb_extra[pc])
                                if wb_wait and k == K_GST and tw > st:
                                    st = tw
                        if k == K_GATOM:
                            ta = atom_free if atom_free > st else st
                            atom_free = ta + float(rows[mr].lanes) / atom_rate
                            st = ta
                            if n_units > 0:  # each line's request queues on its unit; answered after the last
                                st = _line_units(unit_off, unit_line, unit_cyc, n_units, unit_free, mr, st)
                        jret = np.int64(-1)
                        slat = np.int64(-1)
                        sent_any = True
                        n_open = 0
                        n_miss_lines = 0
                        if use_groups and k == K_GLD:
                            q_sm = _lines_in_flight(q_cal, q_tot, q_head, sm, t) if track_q else 0
                            slat, jret, sent_any, n_open, zs[gs, F_GRP], n_miss_lines = load_lines(
                                zs[gs, F_GRP], mr, t, sm, sm_side[sm], merge.sm_dom[sm], pc, g_row, g_li, g_home,
                                g_info, copy_at, back, dram_left, lats, use_sides, in_time, merge, op_b, op_w, op_m,
                                op_l, op_f, float(q_sm))
                            if slat >= 0:
                                mlat = slat
                        extra = 0.0
                        if load_win > 0.0 and ml2 > 0:
                            if t > acc_t:
                                dec = np.exp(-(t - acc_t) / load_win)
                                dram_acc *= dec
                                l2_acc *= dec
                                acc_t = t
                            l2_acc += ml2
                            dram_acc += mdram
                            if k == K_GLD or k == K_LLD:
                                extra = _interp(l2_acc / load_win / l2_rate, l2_u, l2_x)
                            if mdram > 0 and (k == K_GLD or k == K_LLD):
                                xd = _interp(dram_acc / load_win / dram_rate, dram_u, dram_x)
                                if xd > extra:
                                    extra = xd
                        if ml2 > 0 or slat >= 0:  # past the L1: the SM's own distance to the L2
                            mlat += sm_lat_off[sm]
                        done_t = np.int64(np.ceil(st)) + mlat + np.int64(np.rint(extra))
                        if jret >= 0:  # lines answered with the requests they joined
                            jd = jret if jret > t + merge.floor else t + merge.floor
                            if not sent_any or jd > done_t:
                                done_t = jd
                        if n_open:
                            answer_opened(merge, op_b, op_w, op_m, op_l, op_f, n_open, t, done_t, l2_near)
                        if track_q and n_miss_lines:
                            _lines_sent(q_cal, q_tot, q_head, sm, done_t, n_miss_lines)
                        if n_miss_lines:
                            fills_requested(pend, sm, zs[gs, F_GRP] - n_miss_lines, zs[gs, F_GRP], done_t, w)
                elif k == K_SLD or k == K_SST or k == K_SATOM or k == K_SHFL:
                    is_mem = True
                    mlat = -1
                    wf = 1.0
                    if k != K_SHFL:
                        mr = zs[gs, F_ROW]
                        zs[gs, F_ROW] = mr + 1
                        mlat = rows[mr].lat
                        if mlat >= 0:
                            wf = rows[mr].wf
                    t1 = l1_free[sm] if l1_free[sm] > t else float(t)
                    l1_free[sm] = t1 + wf / l1_rate
                    base = mlat if (mlat >= 0 and k != K_SHFL) else lat[pc]
                    if k == K_SATOM and lat[pc] > base:  # a spinning CAS takes longer than its banks
                        base = lat[pc]
                    done_t = np.int64(np.ceil(t1)) + base
                for j in range(MAX_DST):
                    reg = dst[pc, j]
                    if reg < 0:
                        break
                    # a load's scoreboard (unroll.scoreboard_groups) or a cp.async copy's group:
                    # done when the latest of its loads or copies lands
                    if n_regs - 3 - n_sb <= reg <= n_regs - 3:
                        v = (done_t << 2) | sb[pc]
                        if v > reg_st[gs, reg]:
                            reg_st[gs, reg] = v
                    elif reg == n_regs - 1:  # cp.async.commit_group: the last group joins the older
                        if reg_st[gs, reg - 1] > reg_st[gs, reg]:  # ones, the uncommitted copies
                            reg_st[gs, reg] = reg_st[gs, reg - 1]  # become the last group
                        reg_st[gs, reg - 1] = reg_st[gs, reg - 2]
                        reg_st[gs, reg - 2] = 0
                    else:
                        reg_st[gs, reg] = (done_t << 2) | sb[pc]
                if done_t > T_MAX:
                    raise OverflowError("replay: a cycle past T_MAX = 2**29 - 1")
                if fair_lsu and is_mem:  # the next turn at the L1TEX starts after this sub-partition
                    l1_turn[sm] = sp + 1 if sp + 1 < n_sub else 0
                if is_mem and done_t > zs[gs, F_MEMDONE]:
                    zs[gs, F_MEMDONE] = done_t
                zs[gs, F_READY] = t + 1
                zs[gs, F_RREASON] = R_WAIT
                if k == K_BRANCH or k == K_FENCE:  # a branch (lat_branch) or a memory fence (isa.classify)
                    zs[gs, F_READY] = t + lat[pc]
                    zs[gs, F_RREASON] = R_BRANCH if k == K_BRANCH else R_MEMBAR
                    if k == K_BRANCH and e + 1 < zs[gs, F_END] and _is_taken(pc, e_pc[e + 1], branch_costs[1]):
                        zs[gs, F_READY] = t + branch_costs[0]  # config lat_branch_taken
                    if k == K_BRANCH and branch_costs[3].shape[0] > 0 and branch_costs[3][e]:
                        zs[gs, F_READY] += branch_costs[4]  # the warp split here (config lat_divergent_split)
                if branch_costs[2][pc] > 0:  # ptxas's BSSY / BSYNC there (isa.StaticTable.delay)
                    zs[gs, F_READY] += branch_costs[2][pc]
                    zs[gs, F_RREASON] = R_BRANCH
                zs[gs, F_PTR] = e + 1
                if e + 1 < zs[gs, F_END]:
                    pc1 = e_pc[e + 1]
                    z_opr[gs], zs[gs, F_RSN] = _operands_ready(gs, pc1, zs, src, dst, reg_st, n_sb)
                    zs[gs, F_PC] = pc1
                sched_wake[sc] = t + slots[pc]
                g = zs[gs, F_G]
                cta_slot = g - sm * ctas_per_sm
                c = cslot_cta[g]
                if k == K_BAR:
                    zs[gs, F_ATBAR] = True
                    z_opr[gs] = INF
                    bar_arrived[c] += 1
                finished = e + 1 >= zs[gs, F_END]
                if finished:
                    z_opr[gs] = INF
                    end = t + 1
                    if zs[gs, F_MEMDONE] > end:
                        stall[pc, R_DRAIN] += zs[gs, F_MEMDONE] - end
                        end = zs[gs, F_MEMDONE]
                    warp_end[w] = end
                    if zs[gs, F_ATBAR]:
                        zs[gs, F_ATBAR] = False
                        bar_arrived[c] -= 1
                    live[c] -= 1
                    done_w[c] += 1
                    if end > cta_end[c]:
                        cta_end[c] = end
                    if done_w[c] == cta_nwarps[c]:
                        cslot_free_at[g] = cta_end[c]
                        ctas_done += 1
                        sm_ncta[sm] -= 1
                        # retiring it keeps the dispatcher busy; the kernel ends once the last is retired
                        ret_free = max(ret_free, float(cta_end[c])) + done_iv
                        if disp_time > cta_end[c] and next_cta < C:
                            disp_time = float(cta_end[c])
                if bar_arrived[c] > 0 and bar_arrived[c] >= live[c]:
                    rel = t + bar_lat + (lat[pc] if k == K_BAR else 0)  # a cluster barrier's extra (isa.classify)
                    for i in range(cta_nwarps[c]):
                        s2 = cta_slot * wpc + i
                        z2 = sm * n_sub * nq + zoff[s2]
                        sc2 = z2 // nq
                        if zs[z2, F_ATBAR]:
                            zs[z2, F_ATBAR] = False
                            if rel > zs[z2, F_READY]:
                                zs[z2, F_READY] = rel
                                zs[z2, F_RREASON] = R_BARRIER
                            if zs[z2, F_PTR] < zs[z2, F_END]:
                                pc2 = e_pc[zs[z2, F_PTR]]
                                z_opr[z2], zs[z2, F_RSN] = _operands_ready(z2, pc2, zs, src, dst,
                                                                       reg_st, n_sb)
                                zs[z2, F_PC] = pc2
                            if sched_wake[sc2] > rel:
                                sched_wake[sc2] = rel
                    bar_arrived[c] = 0
        # ------------------------------------------------------------ advance the clock
        nt = INF
        n_keep = 0
        for i in range(n_act):
            sm = act_sm[i]
            sm_wake = INF
            for sc in range(sm * n_sub, (sm + 1) * n_sub):
                if sched_wake[sc] < sm_wake:
                    sm_wake = sched_wake[sc]
            if sm_wake < INF:  # keep it
                act_sm[n_keep] = sm
                n_keep += 1
                if sm_wake < nt:
                    nt = sm_wake
        n_act = n_keep
        if next_cta < C:
            d = np.int64(np.ceil(disp_time))
            if d < nt:
                nt = d
        if nt >= INF:
            if ctas_done == C and next_cta >= C:
                break
            # nothing can ever issue: a deadlock in the trace (should not happen)
            break
        if nt <= t:
            nt = t + 1
        if nt > T_MAX:
            raise OverflowError("replay: a cycle past T_MAX = 2**29 - 1")
        t = nt
    end = np.int64(np.ceil(ret_free))
    for c in range(C):
        if cta_end[c] > end:
            end = cta_end[c]
    return end
