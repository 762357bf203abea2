"""MemorySystem: the one object the execution engine talks to for memory counters.

Data flow for a global/local instruction of k warps:
    coalescer (requests, sectors, lines per warp) -> L1 of the warp's SM -> L2 -> DRAM,
processed in call order, warps row-major, lines ascending inside a warp (l1.hierarchy_batch).
Shared-memory instructions go to the bank model (banks.py) only.

Counters are Nsight Compute metric names (DESIGN.md "Metric semantics"); ``metrics()`` returns them
for the current (or last) kernel, ``per_instruction()`` attributes them to PTX instruction indices.

Launch configuration (begin_kernel):
* cold caches by default (ncu --cache-control all flushes L1 and L2 before each profiled launch);
  warm=True keeps the L2 contents of the previous launch (dirty L2 sectors stay dirty); the L1s
  start empty either way (the GPU invalidates them between operations of a stream, for coherence).
* L1 capacity = unified L1/shared bytes per SM (256 KB on H100/H200) - shared carveout. The carveout
  is the smallest one in config.shared_carveouts_kb holding ctas_per_sm * (shared_bytes_per_cta + 1 KB),
  unless the engine passes carveout_bytes= (e.g. the value ncu reports as launch__shared_mem_config_size:
  the real driver often chooses a larger carveout than the minimum, see config.py).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from simgpu.memory import banks as _banks
from simgpu.memory.coalescer import coalesce_nb, load_wavefronts_of, store_write_cycles_of
from simgpu.memory.config import MemoryConfig, memory_config_for
from simgpu.memory.dram import DRAMCounters
from simgpu.memory.l1 import (
    OP_ATOM,
    OP_LD,
    OP_LD_BYPASS,
    OP_LD_LAST_USE,
    OP_LOCAL_LD,
    OP_LOCAL_ST,
    OP_RED,
    OP_ST,
    L1Caches,
    hierarchy_batch,
)
from simgpu.memory.l2 import (
    C_DRAM_READ_SECTORS,
    C_DRAM_WRITE_ACTS,
    C_DRAM_WRITE_GRANULES,
    C_DRAM_WRITE_SECTORS,
    C_FAB_ATOM,
    C_FAB_ATOM_HIT,
    C_FAB_READ,
    C_FAB_READ_HIT,
    C_FAB_WRITE,
    C_FAB_WRITE_HIT,
    C_L1_HIT,
    C_L1_MISS,
    C_L2_ATOM_HIT,
    C_L2_ATOM_MISS,
    C_L2_ATOM_SECTORS,
    C_L2_READ_HIT,
    C_L2_READ_MERGED,
    C_L2_READ_MISS,
    C_L2_READ_SECTORS,
    C_L2_RED_SECTORS,
    C_L2_WRITE_FILL,
    C_L2_WRITE_HIT,
    C_L2_WRITE_MISS,
    C_L2_WRITE_SECTORS,
    N_COUNTERS,
    SIDE_PARTITIONS,
    L2Cache,
)
from simgpu.memory.line_units import atomic_line_groups, mark_partial_sectors, partial_store_groups
from simgpu.memory.topology import domain_of_sm

_NO_MERGE = np.zeros(0, np.int64)
_NO_KEYS = np.full(1, -1, np.int64)
_NO_CNT = np.zeros((1, 4), np.int64)
_NO_HIT = np.zeros(1, np.uint8)

_GLOBAL_OPS = {"ld": OP_LD, "st": OP_ST, "atom": OP_ATOM, "red": OP_RED,
               "ld_bypass": OP_LD_BYPASS, "ld_last_use": OP_LD_LAST_USE}  # loads by L1 policy (l1.py)
_LOADS = (OP_LD, OP_LOCAL_LD, OP_LD_BYPASS, OP_LD_LAST_USE)
_LOCAL_OPS = {"ld": OP_LOCAL_LD, "st": OP_LOCAL_ST}


def atomic_passes(addr: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Split each warp's atomic into passes: pass j holds the lanes that are the j-th (in lane order)
    to name their address, so no pass names an address twice. Measured on the H200
    (benchmarks/microbench/sass_probes, atomic_same): a float atomicAdd of 32 lanes to one address
    counts 32 sectors in L1TEX and in L2, one per lane; 32 lanes on 32 words of 4 sectors count 4.
    Returns (the warp row of each pass, the passes' addresses, their masks)."""
    k = addr.shape[0]
    occurrence = np.zeros(addr.shape, np.int64)
    n_passes = np.ones(k, np.int64)
    # rows with a repeated address among their active lanes (inactive lanes get distinct sentinels)
    keyed = np.where(mask, addr, -1 - np.arange(addr.shape[1], dtype=np.int64)[None, :])
    keyed.sort(axis=1)
    repeats = np.flatnonzero((keyed[:, 1:] == keyed[:, :-1]).any(axis=1))
    for i in repeats:
        on = np.flatnonzero(mask[i])
        if on.size < 2:
            continue
        _, inverse = np.unique(addr[i, on], return_inverse=True)
        seen = np.zeros(on.size, np.int64)
        for j, u in enumerate(inverse):  # 32 lanes at most
            occurrence[i, on[j]] = seen[u]
            seen[u] += 1
        n_passes[i] = int(seen.max())
    if (n_passes == 1).all():
        return np.arange(k), addr, mask
    row_of = np.repeat(np.arange(k), n_passes)
    first = np.concatenate([[0], np.cumsum(n_passes)[:-1]])
    pass_of = np.arange(row_of.size) - first[row_of]
    return row_of, addr[row_of], mask[row_of] & (occurrence[row_of] == pass_of[:, None])


def _pct(num: float, den: float) -> float:
    return 100.0 * num / den if den else 0.0


class MemorySystem:
    """Shared-memory banks, coalescer, per-SM L1s, the L2 and DRAM counters of one simulated GPU."""

    def __init__(self, gpu, mem: MemoryConfig | None = None):
        self.gpu = gpu
        self.cfg = mem if mem is not None else memory_config_for(gpu)
        c = self.cfg
        self.num_sms = int(gpu.num_sms)
        self.l1 = L1Caches(self.num_sms, c.l1_shared_unified_bytes, c.l1_sets, c.line_bytes, c.l1_victim_pool,
                           c.l1_second_chance)
        self.dram = DRAMCounters(sector_bytes=c.dram_atom_bytes)
        # L2 read-merge domains (topology.py); empty = off (domains absent or not matching num_sms)
        dom = domain_of_sm(c.l2_merge_domains, self.num_sms)
        self.merge_dom = dom if dom is not None else np.zeros(0, np.int64)
        self.merge_cap = int(c.l2_merge_max_sms)
        # the L2 partition beside each SM (l2.py); empty = one partition
        sides = c.l2_sm_sides
        self.sm_side = (np.asarray(sides, np.int8) if sides is not None and len(sides) == self.num_sms
                        else np.zeros(0, np.int8))
        # two partitions of half the capacity each where the sides are known (l2.py "Partitions")
        self.l2 = L2Cache(c.l2_bytes, c.l2_ways, c.line_bytes, c.l2_fetch_bytes, c.l2_write_counts_as_hit,
                          partitions=SIDE_PARTITIONS if len(self.sm_side) else 1,
                          dirty_bytes_max=c.l2_dirty_bytes_max)
        self.heap_lines = np.zeros(0, np.int64)  # begin_kernel: where the allocations start (l2.py)
        self.carveout_bytes = 0
        # begin_kernel: whether a load's (warp, line) groups that hit L1 go into `last` too (only the
        # timed L1 walk, timing/l1_order.py, reads them; the in-time L2 merging needs the misses)
        self.record_load_hits = False
        self.local_bytes_per_thread = c.local_bytes_per_thread
        self.last: dict | None = None
        self._code_in_l2: set = set()  # kernels whose code a warm launch finds in L2
        # the L2 lines a partition holds a copy of besides their home (timing/l2_sides.py): sorted
        # line numbers and a mask of the sides per line, written by the timing replay, kept with the
        # L2's contents for the next warm launch, dropped with them on a cold one
        self.l2_side_copies: tuple[np.ndarray, np.ndarray] | None = None
        self._seeded_dirty_at_start = 0  # begin_kernel: the cold-start dirty sectors still in L2
        self._reset_counters()

    # ------------------------------------------------------------------ launch boundaries
    def begin_kernel(self, shared_bytes_per_cta: int, ctas_per_sm: int, warm: bool = False, *,
                     carveout_bytes: int | None = None, local_bytes_per_thread: int | None = None,
                     code_bytes: int = 0, code_key: object = None, heap_bases=None,
                     threads_per_cta: int | None = None, ctas_other: int | None = None,
                     preferred_carveout_pct: int = -1, record_load_hits: bool = False) -> None:
        """Configure L1 for the launch's shared-memory carveout, invalidate it, flush L2 unless warm, count
        the DRAM reads of its machine code (code_bytes) and launch constants: on every cold launch, on
        a warm one only the first time code_key (the kernel) runs since the caches were last flushed.
        threads_per_cta: the launch then gets the carveout the driver picks (config.driver_carveout,
        with ctas_other the CTAs per SM its threads, registers and the block limit allow; default
        ctas_per_sm); else the smallest that holds its CTAs. heap_bases: the first
        byte of each global allocation, so that a line's L2 home partition is taken from its offset
        in its allocation (l2.line_in_allocation). preferred_carveout_pct (cudaFuncAttributePreferred-
        SharedMemoryCarveout, -1: none): the driver's carveout grows to at least that percent of the
        largest one, rounded up to a supported carveout (config.preferred_carveout).
        record_load_hits: keep the loads' all-hit (warp, line) groups for the timed L1 walk."""
        c = self.cfg
        self.record_load_hits = bool(record_load_hits)
        starts = [] if heap_bases is None else list(np.asarray(heap_bases, np.int64) >> 7)
        self.heap_lines = np.unique(np.asarray(starts + [c.local_base >> 7], np.int64))
        if carveout_bytes is None and threads_per_cta:
            lim = self.gpu.limits
            carveout_bytes = c.driver_carveout(shared_bytes_per_cta, threads_per_cta,
                                               ctas_per_sm if ctas_other is None else ctas_other,
                                               int(lim.max_threads_per_sm), int(lim.max_ctas_per_sm))
        if carveout_bytes is None:
            need = ctas_per_sm * (shared_bytes_per_cta + c.shared_reserved_per_cta)
            carveout_bytes = c.shared_carveout(need)
        if preferred_carveout_pct >= 0:
            carveout_bytes = max(carveout_bytes, c.preferred_carveout(preferred_carveout_pct))
        self.carveout_bytes = int(carveout_bytes)
        if local_bytes_per_thread is not None:
            self.local_bytes_per_thread = int(local_bytes_per_thread)
        self.l1.reset()  # invalidated at every launch, warm or not (module docstring)
        if not warm:
            self.l2.reset()
            self.l2.seed_dirty(c.l2_dirty_bytes_at_cold_start)
            self._code_in_l2.clear()
            self.l2_side_copies = None
        self._seeded_dirty_at_start = self.l2.dirty_sectors(seeded_only=True)
        self.l1.configure(c.l1_bytes(self.carveout_bytes))  # flushes L1 if its geometry changes
        self._reset_counters()
        if code_bytes > 0 and code_key not in self._code_in_l2:
            code = -(-code_bytes // c.dram_atom_bytes)
            self.dram.fetch_sectors = code + c.launch_fetch_sectors
            self._code_in_l2.add(code_key)

    def end_kernel(self) -> None:
        """Nothing to write back: dirty L2 sectors stay in L2 (DRAM writes counted only on eviction)."""

    def _reset_counters(self) -> None:
        # "bulk": the global side of Hopper's bulk copies (TMA): L2 and DRAM traffic of the SM, but
        # not L1TEX requests, sectors or lookups (the H200 counted none for validation/typical8's
        # tma_bulk_scale, and the same L2 read sectors as simgpu)
        self._ctr = {key: np.zeros(N_COUNTERS, np.int64) for key in ("global", "local", "bulk")}
        self._req = defaultdict(int)  # (space, op) -> requests
        self._sec = defaultdict(int)  # (space, op) -> sectors
        self._l1 = defaultdict(lambda: [0, 0])  # (space, op) -> [hit, miss]
        self._inst = defaultdict(int)  # (space, op) -> warp instructions
        self._wf = defaultdict(int)  # shared op -> wavefronts
        self._bc = defaultdict(int)  # shared op -> bank conflicts
        self._pc: dict[int, dict[str, float]] = {}
        self._pc_kind: dict[int, tuple[str, str]] = {}
        self.merging_in_time = False  # apply_timed_merging was called for this kernel
        self.l1_moved_by_timed_l1 = None  # apply_timed_l1's net sectors moved to hits (None: not called)
        self.dram.reset()

    # ------------------------------------------------------------------ accesses
    def global_access(self, op: str, pc: int, sm, addr, mask, size: int, warp_uid=None, bulk: bool = False) -> None:
        """bulk: a bulk copy's (TMA's) global side, counted apart from the L1TEX counters (_ctr)."""
        if op not in _GLOBAL_OPS:
            raise ValueError(f"global op must be one of {sorted(_GLOBAL_OPS)}, got {op!r}")
        addr = np.asarray(addr)
        mask = np.asarray(mask, dtype=bool)
        if addr.ndim == 1:
            addr, mask = addr[None, :], mask[None, :]
        self._mem_access("bulk" if bulk else "global", op, _GLOBAL_OPS[op], pc, sm, addr, mask, size, warp_uid)

    def local_access(self, op: str, pc: int, sm, warp_uid, addr, mask, size: int) -> None:
        if op not in _LOCAL_OPS:
            raise ValueError(f"local op must be one of {sorted(_LOCAL_OPS)}, got {op!r}")
        phys, m2, sz = self.local_physical(warp_uid, addr, mask, size)
        self._mem_access("local", op, _LOCAL_OPS[op], pc, sm, phys, m2, sz, warp_uid)

    def local_physical(self, warp_uid, addr, mask, size: int):
        """Map per-thread local offsets to physical addresses (NVIDIA's lane interleave).

        Word j (4 bytes) of lane l of warp u lives at
            local_base + u * 32 * local_bytes_per_thread + j * 128 + l * 4,
        so the same word of consecutive lanes is adjacent and a warp reading one local variable
        touches one 128-byte line. Accesses wider than 4 bytes are split into their words.
        Returns (addresses [k, 32*words], mask [k, 32*words], bytes per address).
        """
        addr = np.asarray(addr).astype(np.int64)
        mask = np.asarray(mask, dtype=bool)
        if addr.ndim == 1:
            addr, mask = addr[None, :], mask[None, :]
        uid = np.asarray(warp_uid, dtype=np.int64).reshape(-1, 1)
        lane = np.arange(32, dtype=np.int64)[None, :]
        base = self.cfg.local_base + uid * (32 * self.local_bytes_per_thread)
        nwords = max(1, size // 4)
        cols, masks = [], []
        for j in range(nwords):
            off = addr + 4 * j
            cols.append(base + (off >> 2) * 128 + lane * 4 + (off & 3))
            masks.append(mask)
        return np.concatenate(cols, axis=1), np.concatenate(masks, axis=1), min(size, 4)

    def _mem_access(self, space: str, op: str, code: int, pc: int, sm, addr, mask, size: int,
                    warp_uid=None) -> None:
        """warp_uid: the launch-wide id of each row's warp (default: the row number), for the L1
        store rule (l1.py)."""
        if size not in (1, 2, 4, 8, 16):
            raise ValueError(f"access size must be 1, 2, 4, 8 or 16 bytes, got {size}")
        addr = np.ascontiguousarray(addr, dtype=np.int64)
        mask = np.ascontiguousarray(mask, dtype=np.bool_)
        sm = np.ascontiguousarray(sm, dtype=np.int64).reshape(-1)
        k, lanes = addr.shape
        if mask.shape != addr.shape or sm.shape[0] != k:
            raise ValueError(f"shapes differ: addr {addr.shape}, mask {mask.shape}, sm {sm.shape}")
        if k and (sm.min() < 0 or sm.max() >= self.num_sms):
            raise ValueError(f"SM id out of range 0..{self.num_sms - 1}")
        op = "ld" if code in _LOADS else op  # the ld_* policies count as loads
        uid = np.arange(k, dtype=np.int64) if warp_uid is None else \
            np.ascontiguousarray(warp_uid, dtype=np.int64).reshape(-1)
        requests = int(mask.any(axis=1).sum())
        warps = k
        if code in (OP_ATOM, OP_RED):
            # lanes of one warp on one address take one pass each through L1TEX and L2
            distinct, distinct_lines = np.zeros(k, np.int64), np.zeros(k, np.int64)
            if k:
                coalesce_nb(addr, mask, size, distinct, distinct_lines, np.empty(2 * k * lanes, np.int64),
                            np.empty(2 * k * lanes, np.int64), np.empty(2 * k * lanes, np.uint8))
            unit_groups = atomic_line_groups(addr, mask)  # for the timing model's L2 line units
            row_of, addr, mask = atomic_passes(addr, mask)
            sm, uid = sm[row_of], uid[row_of]
            k = addr.shape[0]
        cap = 2 * k * lanes
        sectors = np.zeros(k, np.int64)
        lines = np.zeros(k, np.int64)
        g_warp = np.empty(cap, np.int64)
        g_line = np.empty(cap, np.int64)
        g_mask = np.empty(cap, np.uint16)  # sectors, and for stores the partial ones (mark_partial_sectors)
        g_info = np.zeros(cap, np.uint16)
        n_groups = coalesce_nb(addr, mask, size, sectors, lines, g_warp, g_line, g_mask)
        if code in (OP_ST, OP_LOCAL_ST):  # the sectors each store writes in part, for the L2's fills
            mark_partial_sectors(addr, mask, size, g_warp, g_line, g_mask, n_groups)
        ctr = np.zeros(N_COUNTERS, np.int64)
        w_l1 = np.zeros(k, np.int64)
        w_l2 = np.zeros(k, np.int64)
        if n_groups:
            l1, l2 = self.l1, self.l2
            # merge table for this call: only loads whose warps span more than one SM can merge
            if self.merge_dom.shape[0] and code in _LOADS and k > 1 and sm.min() != sm.max():
                size_h = 1 << int(2 * n_groups).bit_length()
                merge_dom = self.merge_dom
                mt_keys = np.full(size_h, -1, np.int64)
                mt_cnt = np.zeros((size_h, 4), np.int64)
                mt_hit = np.zeros(size_h, np.uint8)
            else:
                merge_dom = _NO_MERGE
                mt_keys, mt_cnt, mt_hit = _NO_KEYS, _NO_CNT, _NO_HIT
            hierarchy_batch(code, sm, uid, g_warp, g_line, g_mask, n_groups,
                            l1.tags, l1.valid, l1.lru, l1.wreq, l1.req, l1.nways, l1.victim_rule, l1.stamp,
                            l2.tags, l2.valid, l2.dirty, l2.lru, l2.nsets, l2.fetch_pair, l2.write_hit,
                            l2.stamp,
                            ctr, w_l1, w_l2,
                            merge_dom, self.merge_cap, mt_keys, mt_cnt, mt_hit, g_info, self.sm_side,
                            self.heap_lines)
        self.add_counts(space, op, pc, requests, int(sectors.sum()), int(lines.sum()), ctr)
        if k != warps:  # atomics in passes: per warp again, with its distinct sectors for the timing model
            w_l1_warp, w_l2_warp = np.zeros(warps, np.int64), np.zeros(warps, np.int64)
            np.add.at(w_l1_warp, row_of, w_l1)
            np.add.at(w_l2_warp, row_of, w_l2)
            sectors, lines, w_l1, w_l2 = distinct, distinct_lines, w_l1_warp, np.minimum(w_l2_warp, distinct)
        self.last = {"space": space, "op": op, "pc": pc, "sectors": sectors, "lines": lines,
                     "l1_hit_sectors": w_l1, "l2_hit_sectors": w_l2}
        # for the timing model: a load's L1TEX cycles per warp; a global store's CTA write-path cycles
        # and the lines it leaves partly written, an atomic's sector passes per line (L2 line units)
        if code in _LOADS:
            self.last["wavefronts"] = load_wavefronts_of(addr, mask, size, lines)
        elif space == "global" and code == OP_ST:
            self.last["write_cycles"] = store_write_cycles_of(sectors, lines)
            unit_groups = partial_store_groups(addr, mask, size)
        if space == "global" and code in (OP_ST, OP_ATOM, OP_RED):
            self.last.update(zip(("unit_warp", "unit_line", "unit_passes"), unit_groups))
        if space == "global" and code == OP_ST:
            self.last.update(st_warp=g_warp[:n_groups].astype(np.int32), st_line=g_line[:n_groups].copy(),
                             st_info=g_info[:n_groups].copy())
        if space == "global" and code in (OP_LD, OP_LD_BYPASS, OP_LD_LAST_USE):
            # the (warp, line) groups with an L1 miss, for the in-time L2 merging (timing/l2_merge.py),
            # and those that hit where the timed L1 walk asks for them (timing/l1_order.py)
            keep = slice(0, n_groups) if self.record_load_hits else np.flatnonzero(g_info[:n_groups] & 15)
            self.last.update(ld_warp=g_warp[keep].astype(np.int32), ld_line=g_line[keep].copy(),
                             ld_info=g_info[keep].copy())

    def add_counts(self, space: str, op: str, pc: int, requests: int, sectors: int, lines: int,
                   ctr: np.ndarray) -> None:
        """Add global/local accesses of instruction pc that went through the coalescer and the caches
        (ctr: the hierarchy counter vector, l2.py). Called per access here, and with sums over many
        accesses by the fast engine, which runs coalesce_nb / hierarchy_batch in compiled code."""
        self._ctr[space] += ctr
        self.dram.add(ctr)
        key = (space, op)
        self._req[key] += requests
        self._sec[key] += sectors
        self._inst[key] += requests
        self._l1[key][0] += int(ctr[C_L1_HIT])
        self._l1[key][1] += int(ctr[C_L1_MISS])
        l2_hit = int(ctr[C_L2_READ_HIT] + ctr[C_L2_WRITE_HIT] + ctr[C_L2_ATOM_HIT])
        l2_miss = int(ctr[C_L2_READ_MISS] + ctr[C_L2_WRITE_MISS] + ctr[C_L2_ATOM_MISS])
        self._add_pc(pc, {
            "instructions": requests, "requests": requests, "sectors": sectors, "lines": lines,
            "l1_hits": int(ctr[C_L1_HIT]), "l1_misses": int(ctr[C_L1_MISS]),
            "l2_hits": l2_hit, "l2_misses": l2_miss,
            "dram_bytes_read": int(ctr[C_DRAM_READ_SECTORS]) * self.cfg.dram_atom_bytes,
            "dram_bytes_write": int(ctr[C_DRAM_WRITE_SECTORS]) * self.cfg.dram_atom_bytes,
            "l2_write_fill_sectors": int(ctr[C_L2_WRITE_FILL]),
            "dram_write_activations": int(ctr[C_DRAM_WRITE_ACTS]),
            "dram_write_granules": int(ctr[C_DRAM_WRITE_GRANULES]),
        }, space=space, op=op)

    def shared_access(self, op: str, pc: int, addr, mask, size: int, min_wavefronts=None,
                      fixed_wavefronts=None) -> None:
        """op ld, st, atom, or ldgsts (a cp.async's shared write: in the shared wavefront total, not
        in op_st: the H200 counted none there for gemm_cp_async in validation/typical).
        min_wavefronts (per warp row, optional): the least wavefronts each access takes whatever its
        banks; for a cp.async, the global lines its lanes copy from: its data reaches shared memory a
        line at a time (benchmarks/microbench/data_pipe: 4-byte copies from two lines take two
        wavefronts, one of them a bank conflict, where the banks alone need one).
        fixed_wavefronts (per warp row, optional): what each access takes, none of it a bank conflict,
        in place of the bank model's count (a spinning CAS: banks.spin_wavefronts)."""
        if op not in ("ld", "st", "atom", "ldgsts"):
            raise ValueError(f"shared op must be ld, st, atom or ldgsts, got {op!r}")
        addr = np.asarray(addr)
        mask = np.asarray(mask, dtype=np.bool_)
        if addr.ndim == 1:
            addr, mask = addr[None, :], mask[None, :]
        if size not in (1, 2, 4, 8, 16):
            raise ValueError(f"shared access size must be 1, 2, 4, 8 or 16 bytes, got {size}")
        k = addr.shape[0]
        wf = np.zeros(k, np.int64)
        ideal = np.zeros(k, np.int64)
        _banks.shared_wavefronts_nb(np.ascontiguousarray(addr, dtype=np.int64), np.ascontiguousarray(mask),
                                    size, False, wf, ideal)  # atomics count like loads (banks.py)
        if min_wavefronts is not None:
            wf = np.maximum(wf, np.asarray(min_wavefronts, np.int64).reshape(k))
        if fixed_wavefronts is not None:
            wf = np.asarray(fixed_wavefronts, np.int64).reshape(k).copy()
            ideal = wf.copy()
        inst = int(mask.any(axis=1).sum())
        wavefronts = int(wf.sum())
        conflicts = int((wf - ideal).sum())
        self._wf[op] += wavefronts
        self._bc[op] += conflicts
        self._inst[("shared", op)] += inst
        self._add_pc(pc, {"instructions": inst, "wavefronts": wavefronts,
                          "ideal_wavefronts": int(ideal.sum()),
                          "bank_conflicts": conflicts}, space="shared", op=op)
        self.last = {"space": "shared", "op": op, "pc": pc, "wavefronts": wf, "ideal": ideal}

    def generic_atomic_wavefronts(self, requests: int, per_request: int) -> None:
        """A generic-address atomic (ATOM.E) that reaches global memory also takes the LSU data pipe's
        shared path: ncu counts `per_request` wavefronts a warp request in
        l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom (none in the SASS-attributed count), 1 for
        32-bit add / f16x2 add and 2 for 64-bit add and 32-bit CAS, whatever the addresses
        (benchmarks/microbench/generic_atomics: 8,192 requests -> 8,192 / 16,384 with random words,
        8,202 / 16,416 with one word per warp; +3 to +12 % where every lane has its own word). A
        .global atomic (ATOMG / REDG) takes none."""
        self._wf["atom"] += requests * per_request

    def add_shared_counts(self, op: str, pc: int, instructions: int, wavefronts: int, ideal: int) -> None:
        """Add shared-memory accesses already run through the bank model (banks.shared_wavefronts_nb)
        by the fast engine: the same counters shared_access() keeps, summed over many calls."""
        self._wf[op] += wavefronts
        self._bc[op] += wavefronts - ideal
        self._inst[("shared", op)] += instructions
        self._add_pc(pc, {"instructions": instructions, "wavefronts": wavefronts, "ideal_wavefronts": ideal,
                          "bank_conflicts": wavefronts - ideal}, space="shared", op=op)

    def apply_timed_merging(self, delta_by_pc: np.ndarray, pending_by_pc: np.ndarray | None = None) -> None:
        """Replace the functional walk's L1 -> L2 read merging by the one the timing model decided on
        the issue cycles (timing/l2_merge.py): delta_by_pc[pc] read lookups are added to the
        global-load counters of pc, as hits (another SM of the domain asked for the sector just
        before); negative: more misses merged in time, taken from pc's hits first, then from its misses
        (a far side's lookups can be misses of the near copy, l2.py). DRAM traffic does not change.
        pending_by_pc[pc] (optional): read lookups of pc that reached the L2 before their sector's
        DRAM fetch did, moved from hits to misses (ncu counts them as misses), as far as pc has hits."""
        delta = np.asarray(delta_by_pc, np.int64)
        pending = np.zeros_like(delta) if pending_by_pc is None else np.asarray(pending_by_pc, np.int64)
        c = self._ctr["global"]
        for pc in np.flatnonzero(delta | pending):
            d, p = int(delta[pc]), int(pending[pc])
            row = self._pc.get(int(pc))
            if row is None or self._pc_kind[int(pc)] != ("global", "ld"):
                raise ValueError(f"timed L2 merging names pc {pc}, which made no global load")
            hits = int(row.get("l2_hits", 0))
            d_hit = d if d >= 0 else -min(-d, hits)
            moved = min(p, hits + d_hit)
            row["l2_hits"] = hits + d_hit - moved
            row["l2_misses"] = row.get("l2_misses", 0) + (d - d_hit) + moved
            c[C_L2_READ_SECTORS] += d
            c[C_L2_READ_HIT] += d_hit - moved
            c[C_L2_READ_MISS] += (d - d_hit) + moved
            c[C_L2_READ_MERGED] -= d
        if min(c[C_L2_READ_HIT], c[C_L2_READ_MISS], c[C_L2_READ_MERGED]) < 0:
            raise ValueError("timed L2 merging left a negative read-hit, read-miss or merged count")
        self.merging_in_time = True

    def apply_timed_stores(self, hit_delta_by_pc: np.ndarray, merged_by_pc: np.ndarray) -> None:
        """Replace the functional walk's global-store L1 hits by those the timing model found on the
        CTAs' write paths (timing/store_lines.py): hit_delta_by_pc[pc] store sectors move from misses
        to hits (negative: the other way); merged_by_pc[pc] store sectors joined an earlier store's
        write and are not L2 write lookups of their own (they were hits: that store wrote them)."""
        delta = np.asarray(hit_delta_by_pc, np.int64)
        merged = np.asarray(merged_by_pc, np.int64)
        c = self._ctr["global"]
        l1 = self._l1[("global", "st")]
        for pc in np.flatnonzero(delta | merged):
            d, mg = int(delta[pc]), int(merged[pc])
            row = self._pc.get(int(pc))
            if row is None or self._pc_kind[int(pc)] != ("global", "st"):
                raise ValueError(f"the timed store sequencer names pc {pc}, which made no global store")
            self._move_l1_hits(row, l1, d)
            from_hits = min(mg, int(c[C_L2_WRITE_HIT]), int(row["l2_hits"]))
            c[C_L2_WRITE_SECTORS] -= mg
            c[C_L2_WRITE_HIT] -= from_hits
            c[C_L2_WRITE_MISS] -= mg - from_hits
            row["l2_hits"] -= from_hits
            row["l2_misses"] -= mg - from_hits
            if min(row["l1_hits"], row["l1_misses"], row["l2_misses"]) < 0:
                raise ValueError(f"the timed store sequencer left a negative count at pc {pc}")

    def apply_sass_unrolling(self, extra_by_pc: dict[int, int]) -> None:
        """Add the warp-level executions ptxas's unrolled loops make beyond the PTX's
        (timing/sass_counts.py) to the global and local instructions' requests and instruction
        counts, and to the shared ones' instruction counts. Sectors, lookups and wavefronts keep the
        PTX's grouping of the lanes (the trace has no addresses to regroup)."""
        for pc, n in extra_by_pc.items():
            kind = self._pc_kind.get(int(pc))
            if kind is None or n <= 0:
                continue
            row = self._pc[int(pc)]
            self._inst[kind] += n
            row["instructions"] = row.get("instructions", 0) + n
            if kind[0] != "shared":
                self._req[kind] += n
                row["requests"] = row.get("requests", 0) + n

    def apply_timed_l1(self, hit_delta_by_pc: np.ndarray) -> None:
        """Replace the functional walk's global-load L1 hits by those of the timed walk
        (timing/l1_order.py: on the replay's SMs, in its issue order or the functional one):
        hit_delta_by_pc[pc] load sectors move from L1 misses to hits (negative: the other way). The
        L2 read lookups move with them in the share pc's L1 misses had of its lookups (read misses
        merged between SMs, memory/l1.py, send none): a sector that now hits
        takes that share from pc's L2 read hits first, then its misses; one that now misses adds it
        as L2 read hits (the SM read it before, so the L2 holds it). DRAM traffic does not change."""
        delta = np.asarray(hit_delta_by_pc, np.int64)
        self.l1_moved_by_timed_l1 = int(delta.sum())
        c = self._ctr["global"]
        l1 = self._l1[("global", "ld")]
        for pc in np.flatnonzero(delta):
            d = int(delta[pc])
            row = self._pc.get(int(pc))
            if row is None or self._pc_kind[int(pc)] != ("global", "ld"):
                raise ValueError(f"the timed L1 names pc {pc}, which made no global load")
            if d > int(row["l1_misses"]) or -d > int(row["l1_hits"]):
                raise ValueError(f"the timed L1 moves {d} sectors at pc {pc}, more than it has")
            hits, misses = int(row.get("l2_hits", 0)), int(row.get("l2_misses", 0))
            share = min(1.0, (hits + misses) / row["l1_misses"]) if row["l1_misses"] else 1.0
            lookups = int(round(abs(d) * share))
            self._move_l1_hits(row, l1, d)
            if d > 0:
                from_hits = min(lookups, hits, int(c[C_L2_READ_HIT]))
                from_misses = min(lookups - from_hits, misses, int(c[C_L2_READ_MISS]))
                row["l2_hits"] = hits - from_hits
                row["l2_misses"] = misses - from_misses
                c[C_L2_READ_SECTORS] -= from_hits + from_misses
                c[C_L2_READ_HIT] -= from_hits
                c[C_L2_READ_MISS] -= from_misses
            else:
                row["l2_hits"] = hits + lookups
                c[C_L2_READ_SECTORS] += lookups
                c[C_L2_READ_HIT] += lookups

    def _move_l1_hits(self, row: dict, l1: list, d: int) -> None:
        """Move d L1 sectors of one pc (its per-pc row, its (space, op) [hit, miss] pair) from
        misses to hits (negative: the other way), in the global counters too."""
        row["l1_hits"] += d
        row["l1_misses"] -= d
        l1[0] += d
        l1[1] -= d
        self._ctr["global"][C_L1_HIT] += d
        self._ctr["global"][C_L1_MISS] -= d

    def _add_pc(self, pc: int, vals: dict, space: str, op: str) -> None:
        d = self._pc.get(pc)
        if d is None:
            d = self._pc[pc] = {}
            self._pc_kind[pc] = (space, op)
        for k, v in vals.items():
            d[k] = d.get(k, 0) + v

    # ------------------------------------------------------------------ per-warp detail (timing, pictures)
    def last_warp_summary(self) -> dict[str, np.ndarray]:
        """Per-warp results of the last call: for global/local {sectors, lines, l1_hit_sectors,
        l2_hit_sectors} (L2 hits among the L1 misses), for shared {wavefronts, ideal}."""
        if self.last is None:
            raise RuntimeError("no access yet")
        return {k: v for k, v in self.last.items() if isinstance(v, np.ndarray)}

    # ------------------------------------------------------------------ counters
    def metrics(self) -> dict[str, float]:
        m: dict[str, float] = {}
        for space in ("global", "local"):
            ops = ("ld", "st", "atom", "red") if space == "global" else ("ld", "st")
            for op in ops:
                key = (space, op)
                base = f"l1tex__t_{{}}_pipe_lsu_mem_{space}_op_{op}"
                m[base.format("requests") + ".sum"] = float(self._req[key])
                m[base.format("sectors") + ".sum"] = float(self._sec[key])
                m[base.format("sectors") + "_lookup_hit.sum"] = float(self._l1[key][0])
                m[base.format("sectors") + "_lookup_miss.sum"] = float(self._l1[key][1])
        hit = sum(v[0] for k, v in self._l1.items() if k[0] != "bulk")
        miss = sum(v[1] for k, v in self._l1.items() if k[0] != "bulk")
        m["l1tex__t_sectors_lookup_hit.sum"] = float(hit)
        m["l1tex__t_sectors_lookup_miss.sum"] = float(miss)
        # The hit rate is taken over every L1 lookup: load, store and atomic sectors (global and
        # local); atomics always miss (they are performed at L2). [L2MERGE] run
        # (benchmarks/microbench/l2_merge/results): gemm_naive 1,842,688 load hits, 2,097,152 load +
        # 8,192 store sectors -> 87.52 % (ncu 87.51-87.52; loads alone would be 87.87); gemm_tiled
        # 7,680 hits / (262,144 + 8,192) = 2.84 % (ncu 2.84; loads alone 2.93). validation/typical5
        # coo_spmv_atomic (H200, 2026-12-01): 313,487 load hits, 1,439,814 load + 1,046,990 red
        # sectors -> 12.61 % (ncu 12.59; loads alone would be 21.77).
        m["l1tex__t_sector_hit_rate.pct"] = _pct(hit, hit + miss)
        # the shared-memory carveout the launch ran with; the L1 has the rest of the 256 KB
        m["launch__shared_mem_config_size"] = float(self.carveout_bytes)
        for op in ("ld", "st", "atom"):
            m[f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"] = float(self._wf[op])
            m[f"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{op}.sum"] = float(self._bc[op])
        m["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"] = float(sum(self._wf.values()))
        m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"] = float(sum(self._bc.values()))
        # instruction counts the memory system sees (PTX memory instructions; the engine may override)
        m["smsp__sass_inst_executed_op_global_ld.sum"] = float(self._inst[("global", "ld")])
        m["smsp__sass_inst_executed_op_global_st.sum"] = float(self._inst[("global", "st")])
        m["smsp__sass_inst_executed_op_global_atom.sum"] = float(self._inst[("global", "atom")])
        m["smsp__sass_inst_executed_op_global_red.sum"] = float(self._inst[("global", "red")])
        m["smsp__sass_inst_executed_op_local_ld.sum"] = float(self._inst[("local", "ld")])
        m["smsp__sass_inst_executed_op_local_st.sum"] = float(self._inst[("local", "st")])
        m["smsp__sass_inst_executed_op_shared_ld.sum"] = float(self._inst[("shared", "ld")])
        m["smsp__sass_inst_executed_op_shared_st.sum"] = float(self._inst[("shared", "st")])
        m["smsp__sass_inst_executed_op_shared_atom.sum"] = float(self._inst[("shared", "atom")])
        # L2 (tex = requests from the SMs: global, local and bulk copies together)
        c = self._ctr["global"] + self._ctr["local"] + self._ctr["bulk"]
        rd, wr, at, rdc = (int(c[C_L2_READ_SECTORS]), int(c[C_L2_WRITE_SECTORS]),
                           int(c[C_L2_ATOM_SECTORS]), int(c[C_L2_RED_SECTORS]))
        m["lts__t_sectors_srcunit_tex_op_read.sum"] = float(rd)
        # not an ncu metric: L1 read-miss sectors served by another SM's L2 request (topology.py)
        m["simgpu__l1_miss_sectors_merged_before_l2.sum"] = float(c[C_L2_READ_MERGED])
        # 1: merged on the timing model's issue cycles; 0: every warp of an engine step together
        m["simgpu__l2_read_merging_in_time"] = float(self.merging_in_time)
        # global-load L1 hit sectors the timing model's issue order added (negative: took away) to the
        # functional walk's (timing/l1_order.py); absent where the launch was not walked in that order
        if self.l1_moved_by_timed_l1 is not None:
            m["simgpu__l1_hit_sectors_moved_by_timed_l1.sum"] = float(self.l1_moved_by_timed_l1)
        m["lts__t_sectors_srcunit_tex_op_write.sum"] = float(wr)
        m["lts__t_sectors_srcunit_tex_op_atom.sum"] = float(at)
        m["lts__t_sectors_srcunit_tex_op_red.sum"] = float(rdc)
        m["lts__t_sectors_srcunit_tex.sum"] = float(rd + wr + at + rdc)
        tex_hit = int(c[C_L2_READ_HIT] + c[C_L2_WRITE_HIT] + c[C_L2_ATOM_HIT])
        tex_miss = int(c[C_L2_READ_MISS] + c[C_L2_WRITE_MISS] + c[C_L2_ATOM_MISS])
        m["lts__t_sectors_srcunit_tex_lookup_hit.sum"] = float(tex_hit)
        m["lts__t_sectors_srcunit_tex_lookup_miss.sum"] = float(tex_miss)
        m["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"] = float(c[C_L2_READ_HIT])
        m["lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum"] = float(c[C_L2_READ_MISS])
        m["lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum"] = float(c[C_L2_WRITE_HIT])
        # the far side's lookups in the home partition (l2.py "Partitions"); ncu has no fabric atom op
        f_rd, f_rd_hit = int(c[C_FAB_READ]), int(c[C_FAB_READ_HIT])
        f_wr, f_wr_hit = int(c[C_FAB_WRITE]), int(c[C_FAB_WRITE_HIT])
        f_all, f_hit = f_rd + f_wr + int(c[C_FAB_ATOM]), f_rd_hit + f_wr_hit + int(c[C_FAB_ATOM_HIT])
        m["lts__t_sectors_srcunit_ltcfabric.sum"] = float(f_all)
        m["lts__t_sectors_srcunit_ltcfabric_lookup_hit.sum"] = float(f_hit)
        m["lts__t_sectors_srcunit_ltcfabric_lookup_miss.sum"] = float(f_all - f_hit)
        m["lts__t_sectors_srcunit_ltcfabric_op_read.sum"] = float(f_rd)
        m["lts__t_sectors_srcunit_ltcfabric_op_write.sum"] = float(f_wr)
        m["lts__t_sectors_srcunit_ltcfabric_op_read_lookup_hit.sum"] = float(f_rd_hit)
        m["lts__t_sectors_srcunit_ltcfabric_op_read_lookup_miss.sum"] = float(f_rd - f_rd_hit)
        m["lts__t_sectors_srcunit_ltcfabric_op_write_lookup_hit.sum"] = float(f_wr_hit)
        # every source unit simgpu models (tex and fabric; not the instruction/constant fetches of
        # srcunit gcc, nor the op_membar sectors the H200 also counts: l2_hit_rate README)
        m["lts__t_sectors.sum"] = float(rd + wr + at + rdc + f_all)
        m["lts__t_sectors_lookup_hit.sum"] = float(tex_hit + f_hit)
        m["lts__t_sectors_lookup_miss.sum"] = float(tex_miss + f_all - f_hit)
        r_hit, r_all = int(c[C_L2_READ_HIT]) + f_rd_hit, rd + f_rd
        w_hit, w_all = int(c[C_L2_WRITE_HIT]) + f_wr_hit, wr + f_wr
        m["lts__t_sectors_op_read.sum"] = float(r_all)
        m["lts__t_sectors_op_read_lookup_hit.sum"] = float(r_hit)
        m["lts__t_sectors_op_read_lookup_miss.sum"] = float(r_all - r_hit)
        m["lts__t_sectors_op_write.sum"] = float(w_all)
        m["lts__t_sectors_op_write_lookup_hit.sum"] = float(w_hit)
        m["lts__t_sectors_op_write_lookup_miss.sum"] = float(w_all - w_hit)
        m["lts__t_sector_hit_rate.pct"] = _pct(tex_hit + f_hit, tex_hit + tex_miss + f_all)
        m["lts__t_sector_op_read_hit_rate.pct"] = _pct(r_hit, r_all)
        m["lts__t_sector_op_write_hit_rate.pct"] = _pct(w_hit, w_all)
        m.update(self.dram.metrics())
        # not an ncu metric: the part of dram__bytes_write that the cold start's leftover dirty lines
        # (config.l2_dirty_bytes_at_cold_start: ncu's replay leaves them) account for
        seeded = self._seeded_dirty_at_start - self.l2.dirty_sectors(seeded_only=True)
        m["simgpu__dram_bytes_write_cold_start_lines.sum"] = float(seeded * self.cfg.dram_atom_bytes)
        return m

    def per_instruction(self) -> dict[int, dict[str, float]]:
        """pc -> {instructions, requests, sectors, lines, l1_hits, l1_misses, l2_hits, l2_misses,
        dram_bytes_read, dram_bytes_write, l2_write_fill_sectors, dram_write_activations,
        dram_write_granules} for global/local instructions (l2_* count the L2 lookups the
        instruction caused, i.e. its L1 misses and its stores; l2_write_fill_sectors the written
        sectors the L2 did not hold; dram_write_* the rows and 64 B writes of the dirty lines it
        evicted, l2.py), or {instructions, wavefronts,
        ideal_wavefronts, bank_conflicts} for shared ones. ``instruction_kinds()`` gives (space, op)."""
        return {pc: {k: float(v) for k, v in d.items()} for pc, d in sorted(self._pc.items())}

    def instruction_kinds(self) -> dict[int, tuple[str, str]]:
        """pc -> (space, op), space in {"global", "local", "shared"}."""
        return dict(sorted(self._pc_kind.items()))
