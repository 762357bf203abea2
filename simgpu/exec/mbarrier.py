"""Hopper's mbarrier objects and the 1-D bulk copy (TMA without a tensor map): what `cuda::barrier`
and `cuda::memcpy_async` compile to on sm_90, and what CUTLASS-like code writes by hand.

Forms (`handles` says which instructions come here; `build` makes their closures):

* `mbarrier.init [addr], count`, `mbarrier.inval [addr]`;
  `mbarrier.arrive{.noComplete}{.expect_tx} state|_, [addr]{, count|txCount}`, `mbarrier.arrive_drop`
  (same forms); `mbarrier.expect_tx [addr], txCount`, `mbarrier.complete_tx [addr], txCount`;
  `mbarrier.test_wait{.parity}` / `try_wait{.parity}` `p, [addr], state|parity{, suspendTimeHint}`;
  `mbarrier.pending_count count, state`; `cp.async.mbarrier.arrive{.noinc} [addr]`; any .sem / .scope.
* `cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]`
  (and `.shared::cta` as destination, `.L2::cache_hint`), `cp.async.bulk.global.shared::cta.bulk_group
  [dst], [src], size`, `cp.async.bulk.commit_group`, `cp.async.bulk.wait_group{.read} N`,
  `cp.async.bulk.prefetch.L2.global` (a no-op, like prefetch).
* `.shared::cluster` addresses name the CTA's own shared memory, or another CTA's of its cluster
  when `mapa` made them (exec/memory.CLUSTER_RANK_SHIFT, core/wave.py `_resolve`): an arrive on a
  peer's mbarrier reaches the peer's object (a bulk copy's shared address must be the CTA's own:
  a peer's is refused as out of the block's shared memory). Refused with
  UnsupportedInstructionError: `.multicast::cluster` and shared-to-shared::cluster copies (bulk
  copies into distributed shared memory), `.cp_mask` and `.ignore_oob`; `cp.async.bulk.tensor`
  (it needs a tensor map) already by the PTX parser.

Semantics (PTX ISA 8.x, "mbarrier"): an object holds its phase, the pending and the expected
arrival counts and the tx-count; init sets phase 0, pending = expected = count, tx-count 0. A phase
completes as soon as pending arrivals and tx-count are both zero (checked after every operation, so
an expect_tx that brings a negative tx-count back to zero with no arrival pending completes it):
the phase flips and pending is reloaded with the expected count. arrive.expect_tx does its expect-tx
before its arrive-on (count 1); arrive_drop also lowers the expected count; the state an arrive
returns is the object before its own arrive-on (so pending_count of it is the pending count before
that arrive, as the ISA says). test_wait / try_wait are true when the phase named by the state (or
the parity) is no longer the current one. try_wait never suspends here: it answers like test_wait
and the kernel's own loop spins, but a warp whose wait failed in every lane sleeps until memory
changes (core/engine.py), as a spinning warp does. Lanes of one instruction act one after another, warps in issue
order and lanes in lane order (like exec/wave.py's atomics); the hardware may combine a warp's
arrivals on one object (not measured). Undefined behaviour becomes KernelRuntimeError naming
kernel, PTX line, block and thread: an object used before init or after inval, an arrive past the
pending count, a .noComplete arrive that would complete the phase, counts out of the ISA's ranges.

Asynchronous operations complete when they are issued (the simulator runs each instruction for
all its warps before the next one issues, ops._build_cp_async): a bulk copy's bytes land and then
its complete_tx on the mbarrier lowers the tx-count by the bytes copied, so the phase completes
only when arrivals and bytes are both done (a copy issued before its expect_tx leaves the tx-count
negative until then, which the ISA allows). cp.async.mbarrier.arrive's arrive-on is immediate too:
without .noinc it raises pending by one and lowers it again (no net change), with .noinc it is an
arrive-on of count 1. Bulk copies need 16-byte aligned addresses and a size that is a multiple of 16
(PTX ISA, cp.async.bulk); anything else is a KernelRuntimeError.

The object's 8 bytes are simgpu's own encoding (the hardware's is opaque): bits 0-19 pending
count, 20-39 expected count, 40-60 tx-count (21-bit two's complement), 62 phase parity, 63 set
while the object is valid (init sets it, inval clears the word).

Counters. Measured on the H200 (validation/typical8, 2026-12-01: tma_bulk_scale and
barrier_double_buffer under ncu):
* mbarrier operations (init, arrive, test_wait / try_wait spins, ...) add no shared-memory
  wavefronts (`l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom` was 0, and the shared total
  matched without them) and are in no `smsp__sass_inst_executed_op_*` class (SYNCS instructions).
* A global-to-shared bulk copy's reads are no L1TEX requests, sectors or lookups
  (`l1tex__t_requests_pipe_lsu_mem_global_op_ld` was 0) but are L2 tex reads
  (`lts__t_sectors_srcunit_tex_op_read` equal to simgpu's 131,072): they go to the memory system
  as 16-byte pieces, 32 to a request, of L1-bypassing loads in its "bulk" counters
  (memory/system.py), which reach L2 and DRAM only. Its shared-memory write is not counted (TMA
  writes shared memory outside the LSU data pipe). ASSUMED, not measured: the shared-to-global bulk
  copy, counted the same way as bulk stores.
* Timing (timing/isa.py): an mbarrier operation issues like a shared atomic, a bulk copy like a
  global load (to shared) or store (to global) that no register waits for.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from simgpu.errors import KernelRuntimeError
from simgpu.exec.memory import SHARED_WINDOW, WINDOW_SIZE
from simgpu.frontend.ptx.ast import Instruction

if TYPE_CHECKING:
    from simgpu.core.wave import WaveContext
    from simgpu.exec.ops import Operands

Exec = Callable[..., None]

MAX_COUNT = (1 << 20) - 1  # expected / pending arrival counts: 0 .. 2^20 - 1 (init: 1 ..)
MAX_TX = (1 << 20) - 1  # tx-count: -(2^20 - 1) .. 2^20 - 1
BULK_ALIGN = 16  # cp.async.bulk: addresses 16-byte aligned, size a multiple of 16
PIECE = 16  # bytes per lane of a bulk copy's accounting rows (32 pieces: 512 bytes a request)

_PENDING_SHIFT, _EXPECTED_SHIFT, _TX_SHIFT, _PHASE_SHIFT, _VALID_SHIFT = 0, 20, 40, 62, 63
_MASK20 = (1 << 20) - 1
_MASK21 = (1 << 21) - 1


# --------------------------------------------------------------------------- the object's encoding
def encode(pending, expected, tx, phase, valid=1):
    """The 64-bit word of an object (Python ints or int64 arrays) -> uint64."""
    p = np.asarray(pending, np.int64) & _MASK20
    e = np.asarray(expected, np.int64) & _MASK20
    t = np.asarray(tx, np.int64) & _MASK21
    ph = np.asarray(phase, np.int64) & 1
    v = np.asarray(valid, np.int64) & 1
    return ((p.astype(np.uint64) << np.uint64(_PENDING_SHIFT)) | (e.astype(np.uint64) << np.uint64(_EXPECTED_SHIFT))
            | (t.astype(np.uint64) << np.uint64(_TX_SHIFT)) | (ph.astype(np.uint64) << np.uint64(_PHASE_SHIFT))
            | (v.astype(np.uint64) << np.uint64(_VALID_SHIFT)))


def decode(word) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """uint64 word(s) -> (pending, expected, tx, phase, valid) as int64."""
    w = np.asarray(word, np.uint64)
    pending = ((w >> np.uint64(_PENDING_SHIFT)) & np.uint64(_MASK20)).astype(np.int64)
    expected = ((w >> np.uint64(_EXPECTED_SHIFT)) & np.uint64(_MASK20)).astype(np.int64)
    tx = ((w >> np.uint64(_TX_SHIFT)) & np.uint64(_MASK21)).astype(np.int64)
    tx = np.where(tx >= 1 << 20, tx - (1 << 21), tx)
    phase = ((w >> np.uint64(_PHASE_SHIFT)) & np.uint64(1)).astype(np.int64)
    valid = ((w >> np.uint64(_VALID_SHIFT)) & np.uint64(1)).astype(np.int64)
    return pending, expected, tx, phase, valid


class MbarrierFault(Exception):
    """A lane's operation is undefined behaviour; the caller names the lane (KernelRuntimeError)."""


def apply_op(word: int, kind: str, count: int = 1, tx: int = 0, no_complete: bool = False) -> tuple[int, int]:
    """One lane's operation on an object, sequentially: (new word, state returned). kind: "arrive"
    (an expect-tx of `tx` first when tx != 0), "drop" (arrive_drop), "expect_tx", "complete_tx",
    "cp_arrive" (cp.async.mbarrier.arrive: +1 then an arrive-on), "cp_arrive_noinc". Raises
    MbarrierFault for undefined behaviour."""
    p, e, t, ph, valid = (int(x) for x in decode(np.uint64(word)))
    if not valid:
        raise MbarrierFault("the mbarrier object is not initialized (mbarrier.init) or was invalidated")
    if kind in ("expect_tx", "complete_tx") or tx:
        t = t + tx if kind != "complete_tx" else t - tx
        if not -MAX_TX <= t <= MAX_TX:
            raise MbarrierFault(f"the tx-count would be {t}, outside -(2^20 - 1) .. 2^20 - 1")
    state = int(encode(p, e, t, ph))
    if kind == "cp_arrive":  # pending + 1, then the arrive-on: no net change
        if p + 1 > MAX_COUNT:
            raise MbarrierFault("cp.async.mbarrier.arrive would raise the pending count past 2^20 - 1")
    elif kind in ("arrive", "drop", "cp_arrive_noinc"):
        if not 1 <= count <= MAX_COUNT:
            raise MbarrierFault(f"arrive count {count} is outside 1 .. 2^20 - 1")
        if count > p:
            raise MbarrierFault(f"{count} arrival(s) where the phase has {p} pending: more arrivals than "
                                "the mbarrier expects")
        p -= count
        if kind == "drop":
            e -= count
            if e < 1:
                raise MbarrierFault("arrive_drop would leave the mbarrier expecting no arrivals")
    if p == 0 and t == 0:
        if no_complete:
            raise MbarrierFault(".noComplete arrive would complete the phase")
        ph, p, t = ph ^ 1, e, 0
    return int(encode(p, e, t, ph)), state


def arrive_all(words: np.ndarray, keys: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Plain arrive-on operations of many lanes at once, as apply_op(.., "arrive", count) one after
    another in the order given: words is the object array (uint64, updated in place), keys each
    lane's object index, counts its arrival count. Returns (the state each lane gets, whether its
    arrive completed a phase, the index of the first lane whose arrive is undefined or -1)."""
    n = len(keys)
    states = np.zeros(n, np.uint64)
    completes = np.zeros(n, bool)
    if n == 0:
        return states, completes, -1
    order = np.argsort(keys, kind="stable")
    sk, sc = keys[order], counts[order].astype(np.int64)
    starts = np.r_[0, np.flatnonzero(np.diff(sk)) + 1]
    seg = np.repeat(np.arange(len(starts)), np.diff(np.r_[starts, n]))
    total = np.cumsum(sc)
    incl = total - (total[starts] - sc[starts])[seg]
    excl = incl - sc
    p0, e0, t0, ph0, v0 = decode(words[sk[starts]])
    p, e, t, ph, v = p0[seg], e0[seg], t0[seg], ph0[seg], v0[seg]
    free = t == 0  # phases can complete (plain arrives leave the tx-count alone)
    first = free & (excl >= p)  # this lane arrives after the first completion
    over = np.maximum(excl - p, 0)
    done = np.where(first, 1 + over // np.maximum(e, 1), 0)
    before = np.where(first, e - over % np.maximum(e, 1), p - excl)
    bad = (v == 0) | (sc < 1) | (sc > MAX_COUNT) | (sc > before)
    if bad.any():
        return states, completes, int(order[np.flatnonzero(bad)].min())
    states[order] = encode(before, e, t, ph ^ (done & 1))
    after = incl - p
    completes[order] = free & (after >= 0) & (after % np.maximum(e, 1) == 0)
    last = np.r_[starts[1:], n] - 1
    cum, pl, el, tl, phl = incl[last], p0, e0, t0, ph0
    past = (tl == 0) & (cum >= pl)
    over_l = np.maximum(cum - pl, 0)
    ph_new = np.where(past, phl ^ ((1 + over_l // np.maximum(el, 1)) & 1), phl)
    p_new = np.where(past, el - over_l % np.maximum(el, 1), pl - cum)
    words[sk[starts]] = encode(p_new, el, tl, ph_new)
    return states, completes, -1


# --------------------------------------------------------------------------- which instructions
def handles(ins: Instruction) -> bool:
    """mbarrier.*, cp.async.mbarrier.arrive and cp.async.bulk.*: built here, before ops.build's
    refusal of .shared::cluster (which these forms may name for the CTA's own shared memory)."""
    return ins.opcode == "mbarrier" or (ins.opcode == "cp" and ins.mods[:1] == ("async",)
                                        and ins.mods[1:2] in (("mbarrier",), ("bulk",)))


def build(ins: Instruction, link, o: Operands) -> Exec:
    """The closure of one instruction that `handles` accepts."""
    if ins.opcode == "cp" and ins.mods[1] == "bulk":
        return _build_bulk(ins, link, o)
    if ins.opcode == "cp":  # cp.async.mbarrier.arrive{.noinc}
        return _build_update(ins, o, "cp_arrive_noinc" if "noinc" in ins.mods else "cp_arrive", ins.operands[0])
    what = ins.mods[0] if ins.mods else ""
    ops = ins.operands
    if what == "pending_count":
        return _build_pending_count(o, ops)
    if what in ("init", "inval"):
        return _build_init(ins, o, what == "init")
    if what in ("test_wait", "try_wait"):
        return _build_wait(ins, o, "parity" in ins.mods)
    if what in ("expect_tx", "complete_tx"):
        return _build_update(ins, o, what, ops[0], tx_op=ops[1])
    if what in ("arrive", "arrive_drop"):
        kind = "drop" if what == "arrive_drop" else "arrive"
        no_complete = "noComplete" in ins.mods
        if "expect_tx" in ins.mods:  # state, [addr], txCount: the arrive-on's count is 1
            return _build_update(ins, o, kind, ops[1], ops[0], tx_op=ops[2], no_complete=no_complete)
        count_op = ops[2] if len(ops) > 2 else None
        return _build_update(ins, o, kind, ops[1], ops[0], count_op=count_op, no_complete=no_complete)
    raise o.error(f"'{ins.full_opcode}' is not supported")


# --------------------------------------------------------------------------- addressing
def _object_address(ins: Instruction, o: Operands, op) -> Callable:
    """A getter fn(ctx, ws, m) -> shared offsets [k, 32] of an mbarrier operand (a .shared{::cta,
    ::cluster} address, or a generic one that must fall in the shared window)."""
    addr, implied = o.address(op)
    shared = any(m.startswith("shared") for m in ins.mods) or implied == "shared"
    if implied not in (None, "shared"):
        raise o.error(f"the mbarrier object must be in shared memory, not .{implied}")

    def get(ctx: WaveContext, ws, m: np.ndarray) -> np.ndarray:
        a = np.broadcast_to(np.asarray(addr(ctx, ws), np.uint64), m.shape)
        if shared:
            return a
        inside = (a >= np.uint64(SHARED_WINDOW)) & (a < np.uint64(SHARED_WINDOW + WINDOW_SIZE))
        if (m & ~inside).any():
            bad = m & ~inside
            wi, li = np.argwhere(bad)[0]
            raise KernelRuntimeError(f"mbarrier object at generic address 0x{int(a[wi, li]):x}, which is not in "
                                     f"shared memory, in {ctx.where(ws, bad)}")
        return a - np.uint64(SHARED_WINDOW)

    return get


def _words(ctx: WaveContext, ws, m: np.ndarray, off: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the CTAs' shared memory as uint64 objects, the object index of each active lane), after the
    bounds and 8-byte alignment checks of a shared access."""
    _, flat = ctx._resolve("shared", ws, m, off, 8)
    return ctx.smem.view(np.uint64), (flat // np.uint64(8)).astype(np.int64)


def _fault(ctx: WaveContext, ws, m: np.ndarray, i: int, ins: Instruction, msg: str) -> None:
    """KernelRuntimeError for the i-th active lane (row-major order of m)."""
    lane = np.zeros(m.shape, bool)
    lane.flat[np.flatnonzero(m)[i]] = True
    raise KernelRuntimeError(f"{ins.full_opcode}: {msg} in {ctx.where(ws, lane)}")


# --------------------------------------------------------------------------- mbarrier builders
def _build_init(ins: Instruction, o: Operands, init: bool) -> Exec:
    """init: phase 0, pending = expected = count, tx-count 0; inval: the word cleared (invalid)."""
    obj = _object_address(ins, o, ins.operands[0])
    count = o.src(ins.operands[1], "u32") if init else None

    def f(ctx: WaveContext, ws, m: np.ndarray) -> None:
        off = obj(ctx, ws, m)
        words, keys = _words(ctx, ws, m, off)
        if not init:
            words[keys] = np.uint64(0)
            return
        c = np.broadcast_to(np.asarray(count(ctx, ws)).astype(np.int64), m.shape)[m]
        bad = (c < 1) | (c > MAX_COUNT)
        if bad.any():
            _fault(ctx, ws, m, int(np.flatnonzero(bad)[0]), ins,
                   f"count {int(c[bad][0])} is outside 1 .. 2^20 - 1")
        words[keys] = encode(c, c, 0, 0)  # the last lane of a repeated object wins, as a store

    return f


def _build_wait(ins: Instruction, o: Operands, parity: bool) -> Exec:
    """test_wait / try_wait: true when the phase named by the state's (or the operand's) parity has
    completed, i.e. is not the current phase. try_wait does not suspend (module docstring)."""
    d = o.dst(ins.operands[0], "pred")
    obj = _object_address(ins, o, ins.operands[1])
    named = o.raw_src(ins.operands[2])  # state (b64) or phaseParity (u32): its parity bit
    shift = np.uint64(0 if parity else _PHASE_SHIFT)

    def f(ctx: WaveContext, ws, m: np.ndarray) -> None:
        off = obj(ctx, ws, m)
        words, keys = _words(ctx, ws, m, off)
        _, _, _, phase, valid = decode(words[keys])
        if (valid == 0).any():
            _fault(ctx, ws, m, int(np.flatnonzero(valid == 0)[0]), ins,
                   "the mbarrier object is not initialized (mbarrier.init) or was invalidated")
        want = np.broadcast_to((np.asarray(named(ctx, ws), np.uint64) >> shift) & np.uint64(1), m.shape)[m]
        done = np.zeros(m.shape, bool)
        done[m] = phase != want.astype(np.int64)
        d(ctx, ws, m, done)
        # a warp none of whose lanes saw the phase complete polls again only after memory changed
        # (core/engine.py: it sleeps, as try_wait suspends the thread on the hardware)
        ctx.failed_polls = np.arange(ctx.W)[ws][~(done & m).any(axis=1) & m.any(axis=1)]

    return f


def _build_pending_count(o: Operands, ops: list) -> Exec:
    """pending_count: the pending count recorded in a state (before the arrive that returned it)."""
    d = o.dst(ops[0], "u32")
    state = o.raw_src(ops[1])

    def f(ctx: WaveContext, ws, m: np.ndarray) -> None:
        v = np.broadcast_to(np.asarray(state(ctx, ws), np.uint64), m.shape)
        d(ctx, ws, m, (v & np.uint64(_MASK20)).astype(np.uint32))

    return f


def _build_update(ins: Instruction, o: Operands, kind: str, addr_op, state_op=None, count_op=None, tx_op=None,
                  no_complete: bool = False) -> Exec:
    """The operations that change an object: arrive{.expect_tx}, arrive_drop, expect_tx, complete_tx,
    cp.async.mbarrier.arrive. Plain arrives of many lanes go through arrive_all; the others lane
    after lane through apply_op (expect_tx and friends are a thread's, or a few)."""
    obj = _object_address(ins, o, addr_op)
    out = o.raw_dst(state_op) if state_op is not None else None
    count = o.src(count_op, "u32") if count_op is not None else None
    tx = o.src(tx_op, "u32") if tx_op is not None else None
    plain = kind == "arrive" and tx is None

    def f(ctx: WaveContext, ws, m: np.ndarray) -> None:
        off = obj(ctx, ws, m)
        words, keys = _words(ctx, ws, m, off)
        n = len(keys)
        c = (np.broadcast_to(np.asarray(count(ctx, ws)).astype(np.int64), m.shape)[m] if count is not None
             else np.ones(n, np.int64))
        if plain:
            states, completes, bad = arrive_all(words, keys, c)
            if bad >= 0:  # say why, from the sequential rule
                for i in range(bad + 1):
                    try:
                        words[keys[i]] = np.uint64(apply_op(int(words[keys[i]]), "arrive", int(c[i]),
                                                            no_complete=no_complete)[0])
                    except MbarrierFault as exc:
                        _fault(ctx, ws, m, i, ins, str(exc))
                _fault(ctx, ws, m, bad, ins, "undefined arrive")  # not reached: apply_op agrees
            if no_complete and completes.any():
                _fault(ctx, ws, m, int(np.flatnonzero(completes)[0]), ins,
                       ".noComplete arrive would complete the phase")
        else:
            t = np.broadcast_to(np.asarray(tx(ctx, ws)).astype(np.int64), m.shape)[m] if tx is not None \
                else np.zeros(n, np.int64)
            states = np.zeros(n, np.uint64)
            for i in range(n):
                try:
                    w, s = apply_op(int(words[keys[i]]), kind, int(c[i]), int(t[i]), no_complete)
                except MbarrierFault as exc:
                    _fault(ctx, ws, m, i, ins, str(exc))
                words[keys[i]] = np.uint64(w)
                states[i] = np.uint64(s)
        if out is not None:
            full = np.zeros(m.shape, np.uint64)
            full[m] = states
            out(ctx, ws, m, full)

    return f


# --------------------------------------------------------------------------- bulk copies
_BULK_REFUSED = {"cp_mask": "cp.async.bulk with .cp_mask (sm_100) is not supported",
                 "ignore_oob": "cp.async.bulk with .ignore_oob is not supported"}


def _build_bulk(ins: Instruction, link, o: Operands) -> Exec:
    mods = ins.mods
    for m_, msg in _BULK_REFUSED.items():
        if m_ in mods:
            raise o.error(msg)
    if any(m_.startswith("multicast") for m_ in mods):
        raise o.error("cp.async.bulk .multicast::cluster writes other CTAs' shared memory: bulk copies into "
                      "distributed shared memory are not supported by simgpu")
    if mods[2] in ("commit_group", "wait_group", "prefetch"):
        # each bulk copy has completed when it was issued: groups have nothing left to wait for
        return lambda ctx, ws, m: None
    dst, src = mods[2], mods[3] if len(mods) > 3 else ""
    if dst.startswith("shared") and src == "global" and "mbarrier::complete_tx::bytes" in mods:
        return _build_bulk_copy(ins, o, to_shared=True)
    if dst == "global" and src.startswith("shared") and "bulk_group" in mods:
        return _build_bulk_copy(ins, o, to_shared=False)
    if dst.startswith("shared") and src.startswith("shared"):
        raise o.error("cp.async.bulk from shared::cta to shared::cluster writes another CTA's shared memory: "
                      "bulk copies into distributed shared memory are not supported by simgpu")
    raise o.error(f"'{ins.full_opcode}' is not supported")


def _build_bulk_copy(ins: Instruction, o: Operands, to_shared: bool) -> Exec:
    """global -> shared with an mbarrier's complete_tx, or shared -> global in a bulk async-group:
    `size` bytes per issuing lane, done at issue (module docstring)."""
    ops = ins.operands
    dst_addr, _ = o.address(ops[0])
    src_addr, _ = o.address(ops[1])
    size = o.src(ops[2], "u32")
    obj = _object_address(ins, o, ops[3]) if to_shared else None

    def f(ctx: WaveContext, ws, m: np.ndarray) -> None:
        if not m.any():
            return
        da = np.broadcast_to(np.asarray(dst_addr(ctx, ws), np.uint64), m.shape)
        sa = np.broadcast_to(np.asarray(src_addr(ctx, ws), np.uint64), m.shape)
        n = np.broadcast_to(np.asarray(size(ctx, ws)).astype(np.int64), m.shape)
        g_addr, s_addr = (sa, da) if to_shared else (da, sa)
        _check_bulk(ctx, ws, m, ins, g_addr, s_addr, n, to_shared)
        bar = words = keys = None
        if obj is not None:
            bar = obj(ctx, ws, m)
            words, keys = _words(ctx, ws, m, bar)
        rows, lanes = np.nonzero(m)
        w_idx = np.arange(ctx.W)[ws][rows]
        smem_base = ctx.cta_of_warp[w_idx].astype(np.int64) * ctx.smem_stride
        heap = ctx.heap
        for i, (r, l) in enumerate(zip(rows, lanes)):
            nb = int(n[r, l])
            if not nb:
                continue
            g, s = int(g_addr[r, l]), int(s_addr[r, l]) + int(smem_base[i])
            a = int(heap.locate(np.array([g], np.uint64), nb)[0][0])
            buf, lo = heap.buffers[a], g - heap.bases[a]
            if to_shared:
                ctx.smem[s:s + nb] = buf[lo:lo + nb]
            else:
                buf[lo:lo + nb] = ctx.smem[s:s + nb]
        _account_bulk(ctx, ws, m, g_addr, n, "ld_bypass" if to_shared else "st")
        if words is not None:  # each copy's complete_tx, lane after lane
            for i, (r, l) in enumerate(zip(rows, lanes)):
                try:
                    w, _ = apply_op(int(words[keys[i]]), "complete_tx", tx=int(n[r, l]))
                except MbarrierFault as exc:
                    _fault(ctx, ws, m, i, ins, f"{exc} (the mbarrier of the bulk copy)")
                words[keys[i]] = np.uint64(w)

    return f


def _check_bulk(ctx: WaveContext, ws, m: np.ndarray, ins: Instruction, g_addr: np.ndarray, s_addr: np.ndarray,
                n: np.ndarray, to_shared: bool) -> None:
    """16-byte alignment of both addresses, a size that is a multiple of 16, and both ranges inside
    the allocation / the CTA's shared memory: KernelRuntimeError naming the first bad lane."""
    g_name, s_name = ("source", "destination") if to_shared else ("destination", "source")
    checks = [
        (m & (n % BULK_ALIGN != 0), lambda v, a: f"size {v} is not a multiple of {BULK_ALIGN} bytes", n),
        (m & ((g_addr % np.uint64(BULK_ALIGN)) != 0),
         lambda v, a: f"global {g_name} address 0x{v:x} is not {BULK_ALIGN}-byte aligned", g_addr),
        (m & ((s_addr % np.uint64(BULK_ALIGN)) != 0),
         lambda v, a: f"shared {s_name} address 0x{v:x} is not {BULK_ALIGN}-byte aligned", s_addr),
        (m & (s_addr + n.astype(np.uint64) > np.uint64(ctx.shared_bytes)),
         lambda v, a: f"shared {s_name} 0x{v:x} + {a} bytes is past the block's {ctx.shared_bytes} bytes of "
                      "shared memory", s_addr),
    ]
    for bad, say, vals in checks:
        if bad.any():
            wi, li = np.argwhere(bad)[0]
            raise KernelRuntimeError(f"misaligned or out-of-bounds bulk copy ({ins.full_opcode}): "
                                     f"{say(int(vals[wi, li]), int(n[wi, li]))} in {ctx.where(ws, bad)}")
    ok = np.ones(int(m.sum()), bool)
    for i, (a, nb) in enumerate(zip(g_addr[m], n[m])):
        if nb:
            ok[i] = bool(ctx.heap.locate(np.array([a], np.uint64), int(nb))[1][0])
    bad = m.copy()
    bad[m] = ~ok
    if bad.any():
        wi, li = np.argwhere(bad)[0]
        a = int(g_addr[wi, li])
        raise KernelRuntimeError(f"out-of-bounds bulk copy ({ins.full_opcode}): global {g_name} 0x{a:x} + "
                                 f"{int(n[wi, li])} bytes ({ctx.heap.describe(a)}) in {ctx.where(ws, bad)}")


def _account_bulk(ctx: WaveContext, ws, m: np.ndarray, g_addr: np.ndarray, n: np.ndarray, op: str) -> None:
    """The global side of the bulk copies of one instruction: per issuing lane (the r-th of each
    warp together), its bytes as 16-byte pieces, 32 to a request (module docstring)."""
    ms = ctx.memsys
    if ms is None:
        return
    w_all = np.arange(ctx.W)[ws]
    rank = np.cumsum(m, axis=1) - 1  # the r-th issuing lane of its warp
    per_row = 32 * PIECE
    lane = np.arange(32, dtype=np.uint64) * np.uint64(PIECE)
    for r in range(int(m.sum(axis=1).max())):
        rows, lanes = np.nonzero(m & (rank == r))
        base = g_addr[rows, lanes]
        nb = n[rows, lanes]
        for j in range(int(-(-nb.max() // per_row)) if len(nb) else 0):
            addr = base[:, None] + np.uint64(j * per_row) + lane[None, :]
            mask = (j * per_row + lane[None, :].astype(np.int64)) < nb[:, None]
            keep = mask.any(axis=1)
            if not keep.any():
                continue
            w = w_all[rows[keep]]
            ms.global_access(op, ctx.pc, ctx.sm_of_warp[w], addr[keep], mask[keep], PIECE, ctx.warp_uid[w],
                             bulk=True)
            if ctx.trace is not None:
                ctx.trace.add_memory("global", "ld" if op != "st" else "st", ctx.warp_uid[w],
                                     ms.last_warp_summary())
