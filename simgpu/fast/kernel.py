"""The fast engine's inner loop: the reference engine's scheduler and SIMT stack, compiled by numba.

`run_wave` repeats exactly what `core/engine.py` does per step — pick the lowest pc among the
ready warps (or, while the scheduler is fair, the pc of the longest-waiting one), issue it for
every ready warp there, update the SIMT stack, barriers and counters,
append the step to the trace — but lane by lane in compiled code. It returns to Python (the
driver in `fast/engine.py`) when:

* R_FALLBACK: the instruction at pc has no native form (decode.py), a memory access would fault,
  or the SIMT stack would have to grow; nothing of the step has been done yet, and the driver
  runs it through the reference engine's `issue`, so errors and rare instructions behave the same;
* R_ACCOUNT: a native load/store step finished; the driver gives its addresses and lane masks
  to the same accounting code the reference engine calls (instruction classes, memory system,
  trace events), in the same order relative to other steps;
* R_TRACE_FULL: the trace buffers are full; nothing of the step has been done yet;
* R_NOREADY: no warp is ready (wave done, or barrier release / deadlock handled by the driver).

Lane semantics are the primitive forms listed in decode.py: two's-complement integer arithmetic
on raw register bits, IEEE binary32 round-to-nearest add/sub/mul, and fma via `fma_rn_f32`, the
same single-rounding algorithm as `exec/alu.float_fma` (see lanes.py).

Registers arrive register-major, `regs[register, warp, lane]` (WaveContext.regs_by_reg): a step
reads and writes one register of each of its warps, so that is one contiguous pass over the file.
Per warp, sources are taken as rows in place (immediates and special registers go through a
scratch row) and results are written through a per-lane select, so the loops have no branch per
lane where the work is one operation.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.core.engine import (
    S_EPOCH,
    S_FAIR,
    S_FAIR_TURNS,
    S_FAIR_UNTIL,
    S_LONGEST_WAIT,
    S_PICK_WAIT,
    S_SLEEPS,
    S_STARVED,
    S_STEP,
    SPIN_CHECK_WAIT,
)
from simgpu.exec.lanes import (
    compare_truth,
    fma_rn_f32,
    fma_sum_near_tie,
    mask_bits,
    minmax_f32_bits,
    sext,
    shift_bits,
)
from simgpu.exec.memory import FUNC_PARAM_BASE, WINDOW_SIZE
from simgpu.fast.decode import (
    N_AND,
    N_BRA,
    N_CVTA_FROM,
    N_CVTA_ID,
    N_CVTA_TO,
    N_CVTII,
    N_FADD,
    N_FFMA,
    N_FMAX,
    N_FMIN,
    N_FMUL,
    N_FNEG,
    N_FSUB,
    N_IADD,
    N_IMAD,
    N_IMADW,
    N_IMAX,
    N_IMIN,
    N_IMUL,
    N_IMULW,
    N_INEG,
    N_ISUB,
    N_LD,
    N_MOV,
    N_MOVP,
    N_NONE,
    N_NOT,
    N_OR,
    N_PAND,
    N_PNOT,
    N_POR,
    N_PXOR,
    N_SELP,
    N_SETPF,
    N_SETPI,
    N_SHFL,
    N_SHL,
    N_SHR,
    N_ST,
    N_XOR,
    S_IMM,
    S_REG,
    S_SPECIAL,
    SP_CONST,
    SP_GLOBAL,
    SP_PARAM,
    SP_SHARED,
)
from simgpu.memory.banks import NUM_BANKS, warp_wavefronts_nb
from simgpu.memory.coalescer import coalesce_nb, load_wavefronts, store_write_cycles
from simgpu.memory.l1 import OP_LD, OP_ST, hierarchy_batch
from simgpu.memory.l2 import N_COUNTERS
from simgpu.memory.line_units import mark_partial_sectors, partial_store_lines

R_NOREADY, R_FALLBACK, R_ACCOUNT, R_TRACE_FULL = 0, 1, 2, 3
ST_GROUP = np.uint16(0x8000)  # ev_groups rows of a store's (warp, line) list, apart from its L2 line-unit rows
ALU_KIND, BRA_KIND, BAR_KIND, EXIT_KIND = 0, 1, 5, 4  # program.py: ALU, BRA, CALL, RET, EXIT, BAR, TRAP

# stats slots
C_INST, C_THREAD, C_PRED_ON, C_BRANCH, C_DIVERGENT, C_BARRIER = range(6)

_U32 = np.uint64(0xFFFFFFFF)
_NAN32 = np.uint64(0x7FFFFFFF)  # canonical binary32 NaN (exec/alu.canonical_nan)
_MASK_MULT = np.uint64(0x9E3779B97F4A7C15)  # core/engine._MASK_MULT


@njit(cache=True)
def _popc(x):
    """Set bits of a 32-bit mask (SWAR: a fixed dozen operations, not one per bit)."""
    x = np.uint32(x)
    x = x - ((x >> np.uint32(1)) & np.uint32(0x55555555))
    x = (x & np.uint32(0x33333333)) + ((x >> np.uint32(2)) & np.uint32(0x33333333))
    x = (x + (x >> np.uint32(4))) & np.uint32(0x0F0F0F0F)
    return np.int64(np.uint32(x * np.uint32(0x01010101)) >> np.uint32(24))


@njit(cache=True)
def _special(sid, w, lane, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts):
    if sid <= 2:
        return np.uint64(tid[sid, w, lane])
    if sid <= 5:
        return np.uint64(consts[sid - 3])
    if sid <= 8:
        return np.uint64(ctaid[sid - 6, cta_of_warp[w]])
    if sid <= 11:
        return np.uint64(consts[sid - 6])
    if sid == 12:
        return np.uint64(lane)
    if sid == 13:
        return np.uint64(warp_in_cta[w])
    if sid == 14:
        return np.uint64(64)
    if sid == 15:
        return np.uint64(sm_of_warp[w])
    return np.uint64(consts[6])


@njit(cache=True)
def _f32(raw):
    """The binary32 value in the low 32 bits of a register."""
    return np.uint32(raw & _U32).view(np.float32)


@njit(cache=True)
def _bits32(x):
    """Raw register bits of a binary32 value (zero-extended)."""
    return np.uint64(np.float32(x).view(np.uint32))


@njit(cache=True)
def _unary(op, a, bits, bbits, bsign, moff):
    """MOV, CVTA, integer CVT, NOT, NEG and binary32 NEG/ABS on raw bits."""
    if op == N_MOV:
        return a & mask_bits(bits)
    if op == N_CVTA_ID:
        return a
    if op == N_CVTA_TO:
        return (a - moff) & np.uint64(WINDOW_SIZE - 1) & mask_bits(bits)
    if op == N_CVTA_FROM:
        return a + moff
    if op == N_CVTII:
        src = sext(a, bbits) if bsign else a & mask_bits(bbits)
        return src & mask_bits(bits)
    if op == N_NOT:
        return ~a & mask_bits(bits)
    if op == N_INEG:
        return (np.uint64(0) - a) & mask_bits(bits)
    if (a & np.uint64(0x7FFFFFFF)) > np.uint64(0x7F800000):
        return _NAN32  # a NaN comes out canonical (ptxas lowers neg/abs to FADD; alu.canonical_nan)
    if op == N_FNEG:
        return (a ^ np.uint64(0x80000000)) & _U32
    return a & np.uint64(0x7FFFFFFF)  # N_FABS


@njit(cache=True)
def _binary(op, a, b, bits, signed, m):
    """Integer min/max and shifts on raw bits (result masked to `bits`); add/sub/mul/logic are in
    _alu_rows."""
    if op == N_IMIN or op == N_IMAX:
        if signed:
            lt = np.int64(sext(a, bits)) < np.int64(sext(b, bits))
        else:
            lt = (a & m) < (b & m)
        r = (a if lt else b) if op == N_IMIN else (b if lt else a)
    else:  # N_SHL, N_SHR (PTX's clamp of amounts >= the width: in lanes.shift_bits)
        r = shift_bits(op == N_SHL, signed, a, b & _U32, bits)
    return r & m


@njit(cache=True)
def _fetch(kind, val, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, out):
    """One source operand for the 32 lanes of warp w, into out (a register row is a plain copy)."""
    if kind == S_REG:
        r = np.int64(val)
        for lane in range(32):
            out[lane] = regs[r, w, lane]
    elif kind == S_IMM:
        for lane in range(32):
            out[lane] = val
    else:
        for lane in range(32):
            out[lane] = _special(np.int64(val), w, lane, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts)


@njit(cache=True)
def _alu_rows(op, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
              k0, v0, k1, v1, k2, v2, m, r0, A, B, C, R):
    """The hottest forms (integer add/sub/mul.lo/and/or/xor/mad.lo, binary32 add/sub/mul/fma) a warp
    at a time: take the source rows in place (A, B, C hold immediates and special registers),
    compute all 32 lanes without branches, then keep the result only in the active lanes. Rare
    binary32 cases (NaN, an fma tie) are redone lane by lane with the scalar functions, so the
    answer is the same."""
    three = op == N_IMAD or op == N_FFMA
    if k0 == S_IMM:
        _fetch(k0, v0, 0, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, A)
    if k1 == S_IMM:
        _fetch(k1, v1, 0, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, B)
    if three and k2 == S_IMM:
        _fetch(k2, v2, 0, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, C)
    for j in range(k):
        w = sel[j]
        if k0 == S_SPECIAL:
            _fetch(k0, v0, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, A)
        if k1 == S_SPECIAL:
            _fetch(k1, v1, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, B)
        if three and k2 == S_SPECIAL:
            _fetch(k2, v2, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, C)
        a = regs[np.int64(v0), w] if k0 == S_REG else A
        b = regs[np.int64(v1), w] if k1 == S_REG else B
        c = regs[np.int64(v2), w] if three and k2 == S_REG else C
        on = lanes_on[j]
        dst = regs[r0, w]
        # integer forms write straight through a select (each lane reads its sources first, so a
        # destination that is also a source is fine)
        if op == N_IADD:
            for lane in range(32):
                v = (a[lane] + b[lane]) & m
                dst[lane] = v if on[lane] else dst[lane]
        elif op == N_ISUB:
            for lane in range(32):
                v = (a[lane] - b[lane]) & m
                dst[lane] = v if on[lane] else dst[lane]
        elif op == N_IMUL:
            for lane in range(32):
                v = (a[lane] * b[lane]) & m
                dst[lane] = v if on[lane] else dst[lane]
        elif op == N_IMAD:
            for lane in range(32):
                v = (a[lane] * b[lane] + c[lane]) & m
                dst[lane] = v if on[lane] else dst[lane]
        elif op == N_AND:
            for lane in range(32):
                v = a[lane] & b[lane] & m
                dst[lane] = v if on[lane] else dst[lane]
        elif op == N_OR:
            for lane in range(32):
                v = (a[lane] | b[lane]) & m
                dst[lane] = v if on[lane] else dst[lane]
        elif op == N_XOR:
            for lane in range(32):
                v = (a[lane] ^ b[lane]) & m
                dst[lane] = v if on[lane] else dst[lane]
        else:
            slow = False
            for lane in range(32):
                x = np.float32(np.uint32(a[lane] & _U32).view(np.float32))
                y = np.float32(np.uint32(b[lane] & _U32).view(np.float32))
                if op == N_FADD:
                    r = x + y
                elif op == N_FSUB:
                    r = x - y
                elif op == N_FMUL:
                    r = x * y
                else:
                    z = np.float32(np.uint32(c[lane] & _U32).view(np.float32))
                    s = np.float64(x) * np.float64(y) + np.float64(z)
                    r = np.float32(s)
                    slow |= fma_sum_near_tie(s)
                slow |= r != r
                R[lane] = np.uint64(np.float32(r).view(np.uint32))
            if slow:  # NaN results and fma ties: the scalar functions decide
                for lane in range(32):
                    x = _f32(a[lane])
                    y = _f32(b[lane])
                    if op == N_FFMA:
                        R[lane] = _bits32(fma_rn_f32(x, y, _f32(c[lane])))
                    else:
                        rr = np.float32(x + y) if op == N_FADD else (np.float32(x - y) if op == N_FSUB
                                                                      else np.float32(x * y))
                        R[lane] = _bits32(rr) if rr == rr else _NAN32
            for lane in range(32):
                dst[lane] = R[lane] if on[lane] else dst[lane]


@njit(cache=True)
def _shfl_step(k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
               k0, v0, k1, v1, k2, v2, mode, r0, r1, A, B, C):
    """shfl.sync: each active lane reads lane j's value (any lane, active or not), as exec/ops.py
    defines it: j from the mode, the lane offset b and the clamp/segment word c; out of range -> own."""
    for jw in range(k):
        w = sel[jw]
        _fetch(k0, v0, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, A)
        _fetch(k1, v1, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, B)
        _fetch(k2, v2, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, C)
        for lane in range(32):
            if not lanes_on[jw, lane]:
                continue
            b = np.int64(B[lane] & _U32) & 0x1F
            c = np.int64(C[lane] & _U32)
            segmask = (c >> 8) & 0x1F
            max_lane = (lane & segmask) | ((c & 0x1F) & ~segmask)
            if mode == 0:
                j = lane - b
                ok = j >= max_lane
            elif mode == 1:
                j = lane + b
                ok = j <= max_lane
            elif mode == 2:
                j = lane ^ b
                ok = j <= max_lane
            else:
                j = (lane & segmask) | (b & ~segmask)
                ok = j <= max_lane
            src = (j if ok else lane) & 31
            if r0 >= 0:
                regs[r0, w, lane] = A[src]
            if r1 >= 0:
                regs[r1, w, lane] = np.uint64(1) if ok else np.uint64(0)


@njit(cache=True)
def _members_ok(p, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, sk, sv,
                exited):
    """Whether every active lane of a shfl.sync names itself in its member mask and the mask names no
    live lane that does not execute it (exec/ops.py's require_own_lane: the reference step reports
    the first lane that leaves itself out, and warns of the absent ones)."""
    M = np.empty(32, np.uint64)
    for j in range(k):
        w = sel[j]
        _fetch(sk[p, 3], sv[p, 3], w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, M)
        named = np.uint64(0)
        executing = np.uint64(0)
        for lane in range(32):
            if lanes_on[j, lane]:
                if ((M[lane] >> np.uint64(lane)) & np.uint64(1)) == np.uint64(0):
                    return False
                named |= M[lane] & np.uint64(0xFFFFFFFF)
                executing |= np.uint64(1) << np.uint64(lane)
        if named & ~np.uint64(exited[w]) & ~executing & np.uint64(0xFFFFFFFF):
            return False
    return True


@njit(cache=True)
def _minmax(op, a, b):
    """binary32 min/max on raw bits: lanes.minmax_f32_bits, the function the reference engine's
    ufunc is built from."""
    return np.uint64(minmax_f32_bits(op == N_FMAX, np.uint32(a), np.uint32(b)))


@njit(cache=True)
def _alu_step(op, p, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
              sk, sv, sneg, abits, asign, bbits, bsign, cmp, bop, moff, d0, d1):
    """Execute a native ALU instruction for the active lanes of the warps of one step (one tight
    loop per instruction family: a switch per lane would cost more than the work)."""
    k0, v0, n0 = sk[p, 0], sv[p, 0], sneg[p, 0]
    k1, v1, n1 = sk[p, 1], sv[p, 1], sneg[p, 1]
    k2, v2, n2 = sk[p, 2], sv[p, 2], sneg[p, 2]
    bits, signed, bb, bs, cc, bo, mo = abits[p], asign[p], bbits[p], bsign[p], cmp[p], bop[p], moff[p]
    r0, r1 = d0[p], d1[p]
    m = mask_bits(bits)
    if op == N_SHFL:
        A = np.empty(32, np.uint64)
        B = np.empty(32, np.uint64)
        C = np.empty(32, np.uint64)
        _shfl_step(k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
                   k0, v0, k1, v1, k2, v2, cc, r0, r1, A, B, C)
    elif (op == N_IADD or op == N_ISUB or op == N_IMUL or op == N_IMAD or op == N_AND or op == N_OR or op == N_XOR
            or op == N_FADD or op == N_FSUB or op == N_FMUL or op == N_FFMA):
        A = np.empty(32, np.uint64)
        B = np.empty(32, np.uint64)
        C = np.empty(32, np.uint64)
        R = np.empty(32, np.uint64)
        _alu_rows(op, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
                  k0, v0, k1, v1, k2, v2, m, r0, A, B, C, R)
    else:
        A = np.empty(32, np.uint64)
        B = np.empty(32, np.uint64)
        C = np.empty(32, np.uint64)
        setp = op == N_SETPI or op == N_SETPF
        two = (setp or op == N_SHL or op == N_SHR or op == N_IMIN or op == N_IMAX or op == N_FMIN or op == N_FMAX
               or op == N_IMULW or op == N_IMADW or op == N_SELP or op == N_PAND or op == N_POR or op == N_PXOR)
        three = op == N_IMADW or op == N_SELP or (setp and bo != 0)
        # "!" applies to predicate registers only (an immediate predicate is used as it is)
        neg0, neg1, neg2 = n0 and k0 == S_REG, n1 and k1 == S_REG, n2 and k2 == S_REG
        _alu_lanes(op, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
                   k0, v0, k1, v1, k2, v2, two, three, r0, r1, neg0, neg1, neg2, bits, signed, m, bb, bs, cc, bo, mo,
                   A, B, C)


@njit(cache=True)
def _setp_lanes(is_float, on, a, b, c, dst, dst2, has0, has1, n2, bits, signed, cc, bo):
    """setp for one warp: a < b, a == b and the NaN test per lane, turned into the result by
    lanes.compare_truth (the rule the reference engine's ufunc is built from), then combined with
    the optional predicate c."""
    m = mask_bits(bits)
    sh = np.uint64(64 - bits)
    for lane in range(32):
        if is_float:
            x = _f32(a[lane])
            y = _f32(b[lane])
            nan = (x != x) | (y != y)
            lt = x < y
            eq = x == y
        elif signed:  # sign-extend the low `bits` bits with two shifts
            xi = np.int64(a[lane] << sh) >> np.int64(sh)
            yi = np.int64(b[lane] << sh) >> np.int64(sh)
            nan = False
            lt = xi < yi
            eq = xi == yi
        else:
            xu = a[lane] & m
            yu = b[lane] & m
            nan = False
            lt = xu < yu
            eq = xu == yu
        t = compare_truth(cc, lt, eq, nan)
        if bo == 0:
            t1 = t
            t2 = not t
        else:
            cp = (c[lane] != 0) != n2
            if bo == 1:
                t1 = t & cp
                t2 = (not t) & cp
            elif bo == 2:
                t1 = t | cp
                t2 = (not t) | cp
            else:
                t1 = t != cp
                t2 = (not t) != cp
        if on[lane]:
            if has0:
                dst[lane] = np.uint64(1) if t1 else np.uint64(0)
            if has1:
                dst2[lane] = np.uint64(1) if t2 else np.uint64(0)


@njit(cache=True)
def _alu_lanes(op, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
               k0, v0, k1, v1, k2, v2, two, three, r0, r1, n0, n1, n2, bits, signed, m, bb, bs, cc, bo, mo, A, B, C):
    """The per-lane native forms, warp by warp: sources a, b, c (rows of 32, in place or in the
    scratch rows A, B, C), results into dst (and dst2, the second predicate of setp). Each lane
    reads its sources before writing, so a destination row may also be a source."""
    has0 = r0 >= 0
    has1 = r1 >= 0
    if k0 == S_IMM:
        _fetch(k0, v0, 0, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, A)
    if two and k1 == S_IMM:
        _fetch(k1, v1, 0, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, B)
    if three and k2 == S_IMM:
        _fetch(k2, v2, 0, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, C)
    for j in range(k):
        w = sel[j]
        # the source rows as in _alu_rows: registers in place, no call per warp unless a source is
        # a special register (a helper returning the row cost 2-3x the whole operation per warp)
        if k0 == S_SPECIAL:
            _fetch(k0, v0, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, A)
        if two and k1 == S_SPECIAL:
            _fetch(k1, v1, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, B)
        if three and k2 == S_SPECIAL:
            _fetch(k2, v2, w, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts, C)
        a = regs[np.int64(v0), w] if k0 == S_REG else A
        b = regs[np.int64(v1), w] if two and k1 == S_REG else B
        c = regs[np.int64(v2), w] if three and k2 == S_REG else C
        dst = regs[r0, w] if has0 else A
        dst2 = regs[r1, w] if has1 else B
        _warp_lanes(op, lanes_on[j], a, b, c, dst, dst2, has0, has1, n0, n1, n2, bits, signed, m, bb, bs, cc, bo, mo)


@njit(cache=True)
def _warp_lanes(op, on, a, b, c, dst, dst2, has0, has1, n0, n1, n2, bits, signed, m, bb, bs, cc, bo, mo):
    """One warp of _alu_lanes."""
    if op == N_SHL or op == N_SHR or op == N_IMIN or op == N_IMAX:
        for lane in range(32):
            if on[lane]:
                dst[lane] = _binary(op, a[lane], b[lane], bits, signed, m)
    elif op == N_FMIN or op == N_FMAX:
        for lane in range(32):
            if on[lane]:
                dst[lane] = _minmax(op, a[lane] & _U32, b[lane] & _U32)
    elif op == N_IMULW or op == N_IMADW:
        mw = mask_bits(bb)
        for lane in range(32):
            if on[lane]:
                x = a[lane]
                y = b[lane]
                r = sext(x, bits) * sext(y, bits) if signed else (x & m) * (y & m)
                if op == N_IMADW:
                    r = r + c[lane]
                dst[lane] = r & mw
    elif op == N_SETPI or op == N_SETPF:
        _setp_lanes(op == N_SETPF, on, a, b, c, dst, dst2, has0, has1, n2, bits, signed, cc, bo)
    elif op == N_SELP:
        for lane in range(32):
            if on[lane]:
                dst[lane] = (a[lane] if (c[lane] != 0) != n2 else b[lane]) & m
    elif op == N_MOVP or op == N_PAND or op == N_POR or op == N_PXOR or op == N_PNOT:
        for lane in range(32):
            if not on[lane]:
                continue
            x = (a[lane] != 0) != n0
            if op == N_MOVP:
                t = x
            elif op == N_PNOT:
                t = not x
            else:
                y = (b[lane] != 0) != n1
                t = (x and y) if op == N_PAND else ((x or y) if op == N_POR else (x != y))
            dst[lane] = np.uint64(1) if t else np.uint64(0)
    else:
        for lane in range(32):
            if on[lane]:
                dst[lane] = _unary(op, a[lane], bits, bb, bs, mo)


@njit(cache=True, inline="always")
def _locate(addr, size, bases, ends):
    """Allocation index of a global address, or -1 when [addr, addr + size) is not inside one."""
    lo = 0
    hi = bases.shape[0] - 1
    idx = -1
    while lo <= hi:
        mid = (lo + hi) // 2
        if bases[mid] <= addr:
            idx = mid
            lo = mid + 1
        else:
            hi = mid - 1
    if idx < 0 or addr + np.uint64(size) > ends[idx]:
        return -1
    return idx


@njit(cache=True, inline="always")
def _read(buf, off, size):
    v = np.uint64(0)
    for i in range(size):
        v |= np.uint64(buf[off + i]) << np.uint64(8 * i)
    return v


@njit(cache=True, inline="always")
def _write(buf, off, size, v):
    for i in range(size):
        buf[off + i] = np.uint8((v >> np.uint64(8 * i)) & np.uint64(0xFF))


@njit(cache=True)
def _mem_ok(p, k, sel, lanes_on, regs, d, mem, cta_of_warp, acc_addr):
    """Check every active lane's access before the step mutates anything; fill acc_addr."""
    space, msize, mvec, mreg, moff, mwrap = d[12], d[13], d[14], d[15], d[9], d[17]
    shared_bytes = mem[1]
    kparams, const_buf, bases, ends = mem[3], mem[4], mem[5], mem[6]
    size = msize[p]
    span = size * mvec[p]
    align = span if span & (span - 1) == 0 else size  # a vector access is aligned to its whole size
    sp = space[p]
    last = 0 if bases.shape[0] > 0 else -1  # allocation of the previous lane: most lanes share one
    for j in range(k):
        w = sel[j]
        for lane in range(32):
            a = moff[p]
            if mreg[p] >= 0:
                a = (regs[mreg[p], w, lane] + moff[p]) & mwrap[p]
            acc_addr[j, lane] = a
            if not lanes_on[j, lane]:
                continue
            if a & np.uint64(align - 1):
                return False
            if sp == SP_GLOBAL:
                if last >= 0 and bases[last] <= a and a + np.uint64(span) <= ends[last]:
                    continue
                for e in range(mvec[p]):  # element by element, as the reference engine checks
                    i = _locate(a + np.uint64(e * size), size, bases, ends)
                    if i < 0:
                        return False
                    if e == 0:
                        last = i
            elif sp == SP_SHARED:
                if a + np.uint64(span) > np.uint64(shared_bytes):
                    return False
            elif sp == SP_PARAM:
                if a >= np.uint64(FUNC_PARAM_BASE) or a + np.uint64(span) > np.uint64(kparams.shape[0]):
                    return False
            elif sp == SP_CONST:
                if a + np.uint64(span) > np.uint64(const_buf.shape[0]):
                    return False
    return True


@njit(cache=True)
def _load(sp, k, sel, lanes_on, acc_addr, regs, heap, bases, ends, buf0, cta_stride, cta_of_warp, size, nvec,
          signed, vr):
    """Native ld: every active lane reads `nvec` elements of `size` bytes into registers vr[0..nvec)."""
    ext = ~mask_bits(8 * size)
    sign = np.uint64(1) << np.uint64(8 * size - 1)
    cur = 0  # allocation (and buffer) of the previous lane; _mem_ok guaranteed every access has one
    buf = heap[0] if sp == SP_GLOBAL else buf0
    if sp == SP_SHARED and (size == 4 or size == 8):
        _load_shared_words(k, sel, lanes_on, acc_addr, regs, buf0, cta_stride, cta_of_warp, size, nvec, signed, vr)
        return
    for j in range(k):
        w = sel[j]
        base = np.int64(0)
        if sp == SP_SHARED:
            base = np.int64(cta_of_warp[w]) * cta_stride
        for lane in range(32):
            if not lanes_on[j, lane]:
                continue
            a0 = acc_addr[j, lane]
            for e in range(nvec):
                a = a0 + np.uint64(e * size)
                if sp == SP_GLOBAL:
                    if not (bases[cur] <= a and a + np.uint64(size) <= ends[cur]):
                        cur = _locate(a, size, bases, ends)
                        buf = heap[cur]
                    v = _read(buf, np.int64(a - bases[cur]), size)
                else:
                    v = _read(buf, base + np.int64(a), size)
                if signed and (v & sign) != 0:
                    v |= ext
                r = vr[e]
                if r >= 0:
                    regs[r, w, lane] = v


@njit(cache=True)
def _load_shared_words(k, sel, lanes_on, acc_addr, regs, smem, cta_stride, cta_of_warp, size, nvec, signed, vr):
    """_load for 4- and 8-byte shared elements, through a word view of shared memory (_mem_ok
    checked alignment; a CTA's window starts on 16 bytes): one load per element, not 4 or 8."""
    words4 = smem.view(np.uint32)
    words8 = smem[:smem.shape[0] - smem.shape[0] % 8].view(np.uint64)
    if size == 4 and nvec == 1 and not signed and vr[0] >= 0:  # ld.shared.{u32,b32,f32}: one word per lane
        for j in range(k):
            w = sel[j]
            base4 = (np.int64(cta_of_warp[w]) * cta_stride) >> 2
            on = lanes_on[j]
            adr = acc_addr[j]
            dst = regs[vr[0], w]
            for lane in range(32):
                if on[lane]:
                    dst[lane] = np.uint64(words4[base4 + np.int64(adr[lane] >> np.uint64(2))])
        return
    for j in range(k):
        w = sel[j]
        base = np.int64(cta_of_warp[w]) * cta_stride
        for lane in range(32):
            if not lanes_on[j, lane]:
                continue
            a0 = base + np.int64(acc_addr[j, lane])
            for e in range(nvec):
                r = vr[e]
                if r < 0:
                    continue
                if size == 4:
                    v = words4[(a0 >> 2) + e]
                    regs[r, w, lane] = np.uint64(np.int64(np.int32(v))) if signed else np.uint64(v)
                else:
                    regs[r, w, lane] = words8[(a0 >> 3) + e]


@njit(cache=True)
def _store(sp, k, sel, lanes_on, acc_addr, regs, heap, bases, ends, smem, cta_stride, cta_of_warp, size, nvec,
           skinds, svals):
    """Native st: element-major, then warps, then lanes (the reference engine's write order)."""
    vm = mask_bits(8 * size)
    cur = 0
    buf = heap[0] if sp == SP_GLOBAL else smem
    for e in range(nvec):
        for j in range(k):
            w = sel[j]
            base = np.int64(0)
            if sp == SP_SHARED:
                base = np.int64(cta_of_warp[w]) * cta_stride
            for lane in range(32):
                if not lanes_on[j, lane]:
                    continue
                a = acc_addr[j, lane] + np.uint64(e * size)
                if skinds[e] == S_REG:
                    v = regs[np.int64(svals[e]), w, lane] & vm
                else:
                    v = svals[e] & vm
                if sp == SP_GLOBAL:
                    if not (bases[cur] <= a and a + np.uint64(size) <= ends[cur]):
                        cur = _locate(a, size, bases, ends)
                        buf = heap[cur]
                    _write(buf, np.int64(a - bases[cur]), size, v)
                else:
                    _write(buf, base + np.int64(a), size, v)


@njit(cache=True)
def _mem_exec(op, p, k, sel, lanes_on, regs, d, mem, heap, smem, cta_of_warp, acc_addr, sk, sv):
    space, msize, mvec, asign, vreg = d[12], d[13], d[14], d[4], d[16]
    smem_stride = mem[0]
    kparams, const_buf, bases, ends = mem[3], mem[4], mem[5], mem[6]
    sp = space[p]
    if op == N_LD:
        buf0 = smem if sp == SP_SHARED else (kparams if sp == SP_PARAM else const_buf)
        _load(sp, k, sel, lanes_on, acc_addr, regs, heap, bases, ends, buf0, smem_stride, cta_of_warp, msize[p],
              mvec[p], asign[p], vreg[p])
    else:
        _store(sp, k, sel, lanes_on, acc_addr, regs, heap, bases, ends, smem, smem_stride, cta_of_warp, msize[p],
               mvec[p], sk[p], sv[p])


@njit(cache=True)
def _release(c, wpc, at_bar, bar_count, done):
    """core/engine.release_barriers for one CTA (sync barriers: no register writes)."""
    lo = c * wpc
    for bid in range(16):
        n_at = 0
        need = 0
        all_in = True
        for w in range(lo, lo + wpc):
            if at_bar[w] == bid:
                n_at += 1
                if bar_count[w] > need:
                    need = bar_count[w]
            elif not done[w]:
                all_in = False
        if n_at == 0:
            continue
        ok = (n_at * 32 >= need) if need > 0 else all_in
        if ok:
            for w in range(lo, lo + wpc):
                if at_bar[w] == bid:
                    at_bar[w] = -1


@njit(cache=True)
def _settle(w, pc, mask, rpc, sp, st_pc, st_mask, st_rpc, exited, done, at_bar, bar_count, cta_of_warp, wpc):
    """Pop entries of warp w that reached their reconvergence point or have no live lanes left."""
    while True:
        need = mask[w] == 0 or pc[w] == rpc[w]
        if not need:
            return
        if sp[w] == 0:
            done[w] = True
            mask[w] = 0
            _release(cta_of_warp[w], wpc, at_bar, bar_count, done)
            return
        dd = sp[w] - 1
        sp[w] = dd
        pc[w] = st_pc[w, dd]
        mask[w] = st_mask[w, dd] & ~exited[w]
        rpc[w] = st_rpc[w, dd]


@njit(cache=True)
def _account_shared(p, k, sel, lanes_on, acc_addr, size, fuse, vg_size, vg_delta, vg_leader, sh_cnt, cls_cnt,
                    trace_on, step, ev_step, ev_pc, ev_k, ev_space, ev_uid, ev_wf, ev_n,
                    uid_base):
    """WaveContext.account_read/account_write for a shared access, in compiled code: the LDS.64/128
    group rule, the instruction class count, the bank model and the trace's memory event."""
    nb = size
    delta = np.uint64(0)
    if fuse and vg_size[p] > 0:
        vs = vg_size[p]
        dl = np.uint64(vg_delta[p])
        aligned = True
        for j in range(k):
            for lane in range(32):
                if lanes_on[j, lane] and ((acc_addr[j, lane] - dl) & np.uint64(vs - 1)) != 0:
                    aligned = False
        if aligned:
            if not vg_leader[p]:
                return
            nb = vs
            delta = dl
    words = np.empty(64, np.int64)
    banks = np.zeros(NUM_BANKS, np.int64)
    n = 0
    tw = 0
    ti = 0
    for j in range(k):
        anyon = False
        for lane in range(32):
            anyon = anyon or lanes_on[j, lane]
        if not anyon:
            continue
        wfj, idj = warp_wavefronts_nb(acc_addr[j], lanes_on[j], delta, nb, False, words, banks)
        tw += wfj
        ti += idj
        if trace_on:
            ev_uid[ev_n[1] + n] = uid_base + sel[j]
            ev_wf[ev_n[1] + n] = wfj
        n += 1
    cls_cnt[p] += n
    if n == 0:
        return
    sh_cnt[p, 0] += n
    sh_cnt[p, 1] += tw
    sh_cnt[p, 2] += ti
    if trace_on:
        e = ev_n[0]
        ev_step[e] = step
        ev_pc[e] = p
        ev_k[e] = n
        ev_space[e] = 0
        ev_n[0] = e + 1
        ev_n[1] += n


@njit(cache=True)
def _account_global(p, code, k, sel, lanes_on, acc_addr, nbytes, sm_of_warp, caches, geo, gl_cnt, cls_cnt,
                    g_addr, g_mask, g_sm, sectors, lines, w_l1, w_l2, g_warp, g_line, g_m8,
                    trace_on, step, ev_step, ev_pc, ev_k, ev_space, ev_uid, ev_sec, ev_h1, ev_h2, ev_n, uid_base,
                    ev_groups, g_info, ev_wf):
    """MemorySystem.global_access for one native load/store step, in compiled code: the warps with an
    active lane go through coalesce_nb and hierarchy_batch (with the same GPC merge table rule), the
    counters add up per pc in gl_cnt = [requests, sectors, lines, hierarchy counters...]. With the
    trace on, a load's (warp, line) groups with an L1 miss (all of them if geo[5]) go to ev_groups =
    (warp in the event int32, line int64, info uint16, groups per event int64; ev_n[2] counts them),
    as MemorySystem records them in `last`, and ev_wf a load's L1TEX cycles per warp
    (coalescer.load_wavefronts), a store's CTA write-path cycles (coalescer.store_write_cycles)."""
    (l1_tags, l1_valid, l1_lru, l1_wreq, l1_req, l1_stamp, l2_tags, l2_valid, l2_dirty, l2_lru, l2_stamp,
     merge_dom, sm_side, heap_lines) = caches
    l1_ways, l2_nsets, fetch_pair, write_hit, merge_cap = geo[0], geo[1], geo[2] != 0, geo[3] != 0, geo[4]
    n = 0
    g_uid = np.empty(k, np.int64)
    for j in range(k):
        anyon = False
        for lane in range(32):
            on = lanes_on[j, lane]
            g_mask[n, lane] = on
            g_addr[n, lane] = np.int64(acc_addr[j, lane])
            anyon = anyon or on
        if anyon:
            g_sm[n] = sm_of_warp[sel[j]]
            g_uid[n] = uid_base + sel[j]
            if trace_on:
                ev_uid[ev_n[1] + n] = uid_base + sel[j]
            n += 1
    cls_cnt[p] += n
    if n == 0:
        return
    for i in range(n):
        sectors[i] = 0
        lines[i] = 0
        w_l1[i] = 0
        w_l2[i] = 0
    ng = coalesce_nb(g_addr[:n], g_mask[:n], nbytes, sectors[:n], lines[:n], g_warp, g_line, g_m8)
    if code == OP_ST:  # the sectors each store writes in part, for the L2's fills
        mark_partial_sectors(g_addr[:n], g_mask[:n], nbytes, g_warp, g_line, g_m8, ng)
    ctr = np.zeros(N_COUNTERS, np.int64)
    if ng:
        lo = g_sm[0]
        hi = g_sm[0]
        for i in range(n):
            lo = min(lo, g_sm[i])
            hi = max(hi, g_sm[i])
        if merge_dom.shape[0] > 0 and code == OP_LD and n > 1 and lo != hi:
            size_h = 1
            b = 2 * ng
            while b > 0:
                size_h <<= 1
                b >>= 1
            dom = merge_dom
            mt_keys = np.full(size_h, -1, np.int64)
            mt_cnt = np.zeros((size_h, 4), np.int64)
            mt_hit = np.zeros(size_h, np.uint8)
        else:
            dom = merge_dom[:0]
            mt_keys = np.full(1, -1, np.int64)
            mt_cnt = np.zeros((1, 4), np.int64)
            mt_hit = np.zeros(1, np.uint8)
        hierarchy_batch(code, g_sm[:n], g_uid[:n], g_warp, g_line, g_m8, ng, l1_tags, l1_valid, l1_lru, l1_wreq, l1_req,
                        l1_ways, geo[6], l1_stamp,
                        l2_tags, l2_valid, l2_dirty, l2_lru, l2_nsets, fetch_pair, write_hit, l2_stamp,
                        ctr, w_l1[:n], w_l2[:n], dom, merge_cap, mt_keys, mt_cnt, mt_hit, g_info, sm_side, heap_lines)
    gl_cnt[p, 0] += n
    for i in range(n):
        gl_cnt[p, 1] += sectors[i]
        gl_cnt[p, 2] += lines[i]
    for c in range(N_COUNTERS):
        gl_cnt[p, 3 + c] += ctr[c]
    if trace_on:
        e = ev_n[0]
        base = ev_n[1]
        wf_words = np.empty(64, np.int64)  # scratch of load_wavefronts
        wf_cnt = np.zeros(32, np.int64)
        for i in range(n):
            ev_sec[base + i] = sectors[i]
            ev_h1[base + i] = w_l1[i]
            ev_h2[base + i] = w_l2[i]
            ev_wf[base + i] = -1
            if code == OP_LD:
                ev_wf[base + i] = load_wavefronts(g_addr[i], g_mask[i], nbytes, lines[i], wf_words, wf_cnt)
            elif code == OP_ST:
                ev_wf[base + i] = store_write_cycles(sectors[i], lines[i])
        ev_step[e] = step
        ev_pc[e] = p
        ev_k[e] = n
        ev_space[e] = 1
        ev_n[0] = e + 1
        ev_n[1] = base + n
        if code == OP_LD:  # every (warp, line) with an L1 miss, and those that hit if geo[5] asks
            gw, gl, gi, gk = ev_groups
            c = ev_n[2]
            for i in range(ng):
                if (g_info[i] & 15) == 0 and geo[5] == 0:
                    continue
                gw[c] = g_warp[i]
                gl[c] = g_line[i]
                gi[c] = g_info[i]
                c += 1
            gk[e] = c - ev_n[2]
            ev_n[2] = c
        elif code == OP_ST:  # every (warp, line) it wrote, then the lines it leaves partly written
            gw, gl, gi, gk = ev_groups
            c = ev_n[2]
            for i in range(ng):  # every (warp, line) for the store sequencer, marked by bit 15
                gw[c] = g_warp[i]
                gl[c] = g_line[i]
                gi[c] = g_info[i] | ST_GROUP
                c += 1
            # the lines it leaves partly written, for the L2's line units (info: passes)
            m = partial_store_lines(g_addr[:n], g_mask[:n], nbytes, g_warp, g_line)  # (reused as scratch)
            for i in range(m):
                gw[c] = g_warp[i]
                gl[c] = g_line[i]
                gi[c] = 1
                c += 1
            gk[e] = c - ev_n[2]
            ev_n[2] = c


@njit(cache=True)
def run_wave(kinds, guard_reg, guard_neg, target, rpc_of, nat, d, mem, heap, ctl, waited, sched,
             writes_memory, spin_pc, spin_hash, sleep_epoch, hash_mult,
             pc, mask, rpc, sp, st_pc, st_mask, st_rpc, exited, done, at_bar, bar_count, bar_pc,
             regs, issued, clock_step, smem, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp, consts,
             cnt, per_pc_warps, per_pc_threads, trace_on, tr_pc, tr_cnt, tr_warps, tr_active, tr_n, uid_base,
             sel, lanes_on, acc_addr, out,
             sh, vg_size, vg_delta, vg_leader, sh_cnt, cls_cnt,
             ev_step, ev_pc, ev_k, ev_uid, ev_wf, ev_n,
             caches, geo, gl_cnt, g_addr, g_mask, g_sm, sectors, lines, w_l1, w_l2, g_warp, g_line, g_m8,
             ev_space, ev_sec, ev_h1, ev_h2, ev_groups, g_info):
    """Run native steps of one wave until something needs Python; returns a code (module docstring).
    out[0] = pc, out[1] = number of warps of the step (in sel). sh = (count shared accesses here,
    fuse LDS.64/128 groups); the shared-access counters go to sh_cnt/cls_cnt and the trace events
    to ev_* (flushed by the driver)."""
    W = pc.shape[0]
    wpc = ctl[0]
    depth = st_pc.shape[1]
    sk, sv, sneg, abits, asign, bbits, bsign, cmpc, bop, moff = d[0], d[1], d[2], d[3], d[4], d[5], d[6], d[7], \
        d[8], d[9]
    d0, d1 = d[10], d[11]
    big = np.int64(1) << np.int64(62)
    while True:
        p = big
        longest = np.int64(-1)
        epoch = sched[S_EPOCH]
        n_ready = 0
        for w in range(W):
            if not done[w] and at_bar[w] < 0:
                n_ready += 1
                if sleep_epoch[w] == epoch:
                    continue
                if pc[w] < p:
                    p = pc[w]
                if waited[w] > longest:
                    longest = waited[w]
        if n_ready == 0:
            return R_NOREADY
        if p == big:  # only sleepers left: they all poll again (core/engine.next_step)
            sched[S_EPOCH] += 1
            continue
        epoch = sched[S_EPOCH]
        step = sched[S_STEP]  # core/engine.next_step: turn fair for a starved warp
        if step >= sched[S_FAIR_UNTIL] and longest > sched[S_STARVED]:
            sched[S_FAIR_UNTIL] = step + sched[S_FAIR]
            sched[S_FAIR_TURNS] += 1
        if step < sched[S_FAIR_UNTIL]:
            p = big
            for w in range(W):
                if not done[w] and at_bar[w] < 0 and sleep_epoch[w] != epoch and waited[w] == longest and pc[w] < p:
                    p = pc[w]
        k = 0
        for w in range(W):
            if not done[w] and at_bar[w] < 0 and sleep_epoch[w] != epoch and pc[w] == p:
                sel[k] = w
                k += 1
        out[0] = p
        out[1] = k
        op = nat[p]
        if trace_on and (tr_n[0] + 1 > tr_pc.shape[0] or tr_n[1] + k > tr_warps.shape[0]
                         or ev_n[0] + 1 > ev_step.shape[0] or ev_n[1] + k > ev_uid.shape[0]
                         or ev_n[2] + 64 * k > ev_groups[1].shape[0]):
            return R_TRACE_FULL
        # the pick is a step from here on (a fallback step is issued by the driver)
        sched[S_PICK_WAIT] = longest
        if longest > sched[S_LONGEST_WAIT]:
            sched[S_LONGEST_WAIT] = longest
        sched[S_STEP] = step + 1
        for w in range(W):
            if not done[w] and at_bar[w] < 0 and sleep_epoch[w] != epoch:
                waited[w] += 1
        for j in range(k):
            waited[sel[j]] = 0
        if op == N_NONE:
            return R_FALLBACK
        g = guard_reg[p]
        n_threads = 0
        n_on = 0
        gneg = guard_neg[p]
        for j in range(k):  # the lanes of each warp that run: its mask, and the guard predicate
            w = sel[j]
            cur = np.uint32(mask[w])
            cnt_w = _popc(cur)
            n_threads += cnt_w
            if g < 0:
                for lane in range(32):
                    lanes_on[j, lane] = ((cur >> np.uint32(lane)) & np.uint32(1)) != np.uint32(0)
                n_on += cnt_w
            else:
                grow = regs[g, w]
                for lane in range(32):
                    on = (((cur >> np.uint32(lane)) & np.uint32(1)) != np.uint32(0)) & ((grow[lane] != 0) != gneg)
                    lanes_on[j, lane] = on
                    n_on += np.int64(on)
        is_mem = op == N_LD or op == N_ST
        if is_mem and not _mem_ok(p, k, sel, lanes_on, regs, d, mem, cta_of_warp, acc_addr):
            return R_FALLBACK  # the reference step raises the fault with its message
        if op == N_SHFL and not _members_ok(p, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta,
                                            sm_of_warp, consts, sk, sv, exited):
            return R_FALLBACK  # the reference step reports the lane its member mask leaves out, or warns
        if op == N_BRA and g >= 0:
            for j in range(k):
                if sp[sel[j]] + 2 > depth:
                    return R_FALLBACK  # the reference engine grows the stack
        # -- the step happens from here on
        if writes_memory[p]:
            sched[S_EPOCH] += 1  # sleeping spinners wake
        for j in range(k):
            issued[sel[j]] += clock_step[p]
        if trace_on:
            s = tr_n[0]
            e = tr_n[1]
            tr_pc[s] = p
            tr_cnt[s] = k
            for j in range(k):
                tr_warps[e + j] = uid_base + sel[j]
                tr_active[e + j] = mask[sel[j]]
            tr_n[0] = s + 1
            tr_n[1] = e + k
        cnt[C_INST] += k
        cnt[C_THREAD] += n_threads
        per_pc_warps[p] += k
        per_pc_threads[p] += n_threads
        kind = kinds[p]
        if kind == ALU_KIND:
            cnt[C_PRED_ON] += n_on if g >= 0 else n_threads
            if g < 0 or n_on > 0:
                if is_mem:
                    _mem_exec(op, p, k, sel, lanes_on, regs, d, mem, heap, smem, cta_of_warp, acc_addr, sk, sv)
                else:
                    _alu_step(op, p, k, sel, lanes_on, regs, tid, ctaid, cta_of_warp, warp_in_cta, sm_of_warp,
                              consts, sk, sv, sneg, abits, asign, bbits, bsign, cmpc, bop, moff, d0, d1)
            for j in range(k):
                w = sel[j]
                pc[w] = p + 1
                if rpc[w] == p + 1:
                    _settle(w, pc, mask, rpc, sp, st_pc, st_mask, st_rpc, exited, done, at_bar, bar_count,
                            cta_of_warp, wpc)
            if is_mem and (g < 0 or n_on > 0):
                if sh[0] and d[12][p] == SP_SHARED:
                    _account_shared(p, k, sel, lanes_on, acc_addr, d[13][p] * d[14][p], sh[1], vg_size, vg_delta,
                                    vg_leader, sh_cnt, cls_cnt, trace_on, tr_n[0] - 1, ev_step, ev_pc, ev_k, ev_space,
                                    ev_uid, ev_wf, ev_n, uid_base)
                    continue
                nbytes = d[13][p] * d[14][p]
                if sh[0] and d[12][p] == SP_GLOBAL and (nbytes == 1 or nbytes == 2 or nbytes == 4 or nbytes == 8
                                                         or nbytes == 16):
                    gcode = OP_LD if op == N_LD else OP_ST
                    _account_global(p, gcode, k, sel, lanes_on, acc_addr, nbytes, sm_of_warp,
                                    caches, geo, gl_cnt, cls_cnt, g_addr, g_mask, g_sm, sectors, lines, w_l1, w_l2,
                                    g_warp, g_line, g_m8, trace_on, tr_n[0] - 1, ev_step, ev_pc, ev_k, ev_space,
                                    ev_uid, ev_sec, ev_h1, ev_h2, ev_n, uid_base, ev_groups, g_info, ev_wf)
                    continue
                return R_ACCOUNT
            continue
        cnt[C_PRED_ON] += n_on
        if kind == BRA_KIND:
            cnt[C_BRANCH] += k
            tgt = target[p]
            for j in range(k):
                w = sel[j]
                if g < 0:
                    pc[w] = tgt
                else:
                    cur = mask[w]
                    taken = np.uint32(0)
                    for lane in range(32):
                        if lanes_on[j, lane]:
                            taken |= np.uint32(1) << np.uint32(lane)
                    if taken == cur:
                        pc[w] = tgt
                    elif taken == 0:
                        pc[w] = p + 1
                    else:
                        cnt[C_DIVERGENT] += 1
                        r = rpc_of[p]
                        dd = sp[w]
                        st_pc[w, dd] = r
                        st_mask[w, dd] = cur
                        st_rpc[w, dd] = rpc[w]
                        st_pc[w, dd + 1] = p + 1
                        st_mask[w, dd + 1] = cur & ~taken
                        st_rpc[w, dd + 1] = r
                        sp[w] = dd + 2
                        pc[w] = tgt
                        mask[w] = taken
                        rpc[w] = r
            for j in range(k):
                _settle(sel[j], pc, mask, rpc, sp, st_pc, st_mask, st_rpc, exited, done, at_bar, bar_count,
                        cta_of_warp, wpc)
            if tgt <= p and sched[S_PICK_WAIT] > SPIN_CHECK_WAIT:  # core/engine.check_spinning
                nregs = regs.shape[0]
                for j in range(k):
                    w = sel[j]
                    if pc[w] != tgt:
                        continue
                    h = np.uint64(mask[w]) * _MASK_MULT
                    for r in range(nregs):
                        for lane in range(32):
                            h += regs[r, w, lane] * hash_mult[r, lane]
                    if spin_pc[w] == p and spin_hash[w] == h:
                        sleep_epoch[w] = sched[S_EPOCH]
                        sched[S_SLEEPS] += 1
                    spin_pc[w] = p
                    spin_hash[w] = h
        elif kind == EXIT_KIND:
            for j in range(k):
                w = sel[j]
                bits = np.uint32(0)
                for lane in range(32):
                    if lanes_on[j, lane]:
                        bits |= np.uint32(1) << np.uint32(lane)
                exited[w] |= bits
                mask[w] &= ~bits
                pc[w] = p + 1
            for j in range(k):
                _settle(sel[j], pc, mask, rpc, sp, st_pc, st_mask, st_rpc, exited, done, at_bar, bar_count,
                        cta_of_warp, wpc)
        else:  # bar.sync with an immediate id
            cnt[C_BARRIER] += k
            bid = np.int64(sv[p, 0])
            for j in range(k):
                w = sel[j]
                pc[w] = p + 1
                if rpc[w] == p + 1:
                    _settle(w, pc, mask, rpc, sp, st_pc, st_mask, st_rpc, exited, done, at_bar, bar_count,
                            cta_of_warp, wpc)
            for j in range(k):
                w = sel[j]
                at_bar[w] = bid
                bar_count[w] = 0
                bar_pc[w] = p
            last = -1
            for j in range(k):
                c = cta_of_warp[sel[j]]
                if c != last:
                    _release(c, wpc, at_bar, bar_count, done)
                    last = c
