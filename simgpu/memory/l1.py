"""L1 data cache (one per SM) and the batch walk through L1 -> L2 -> DRAM.

State is plain NumPy arrays (numba-friendly), one slice per SM:
    tags  int64[num_sms, sets, max_ways]   line address, -1 = empty
    valid uint8[num_sms, sets, max_ways]   4-bit sector mask, bit 4 (REREAD): a load hit it, or a global
                                          store found it resident, since its fill
    lru   int64[num_sms, sets, max_ways]   last-use stamp
    wreq  int64[num_sms, sets, max_ways]   id of the last global store request that wrote the line
    req   int64[num_sms, 4]                ids of the SM's current and previous L1 request, and their warps
The sets are fixed (a power of two, config l1_sets); only the first ``nways`` ways of each are used:
nways = L1 capacity lines // sets, where the capacity is the unified 256 KB minus the launch's
shared-memory carveout (a carveout takes ways, not sets) minus the 7 KB the H200's L1 does not hold
(config l1_reserved_bytes). The set index is l1_set_of of the line's number in its allocation
(hierarchy_batch's rel).

Policies (config.py has the sources):
* global load: lookup per sector (hit = tag present and sector valid); missing sectors are requested
  from L2 (one L2 lookup per line with the missing-sector mask) and filled; the line allocates
  (an empty way first, else a victim drawn among the set's 11 least recently used ways, config
  l1_victim_pool: past its capacity the H100's and H200's L1 keep part of a swept region, losing
  more the further over, where LRU loses it all, benchmarks/microbench/l1_replacement; a drawn way
  that a load hit since its fill, or a global store found resident, is passed over once, unmarked
  and made the newest, config l1_second_chance: lines read more than once, or read and then
  written, outlive a stream that takes lines read once, benchmarks/microbench/l1_recency).
  L1 holds no dirty data for global memory. Cache operators
  (measured, benchmarks/microbench/sass_probes, ld_cache_ops): .cg, .cv, volatile and gpu/sys-scope
  strong loads (LDG.E.STRONG.GPU/SYS) never hit nor allocate, and drop the sectors they read from
  the L1 (fetched again, the L1's copy is stale: a plain load, then an .cv and an .cs load of the
  same words by one warp hit nothing on the H200, validation/typical12 reread_cache_ops); .lu hits
  what is there and drops it; .ca, .cs and .nc cache as a plain load.
* global store (measured, benchmarks/microbench/l1_hits and sass_probes): write-through to L2 with
  every store sector, and write-allocate in L1 at line level: a store whose line is resident counts
  all its sectors as L1 hits (ncu's st lookup hits), written or not, and marks them valid; a store
  to an absent line counts misses and allocates the line with the sectors it writes. Exception:
  when the SM's previous L1 request was a store of the same warp to the same line, the line is
  still busy with it and the store counts as a miss and leaves the line as it is (one warp's
  back-to-back stores to its own row all miss on the H200; two warps that take turns hit, and so
  do the stores of four warps to one word one after another). Sector validity is kept per sector,
  not per byte: a sector written only in part counts as valid (the H200 misses on its unwritten
  bytes).
* atomic / reduction: executed at L2; the touched sectors of a resident line are invalidated; every
  sector counts as an L1 miss.
* local load: like a global load. local store: write-allocate in L1 (the line is filled with the stored
  sectors) and written through to L2, so a later reload of a spill hits in L1.
* read-miss merging between SMs (topology.py, measured): within one batch (one engine call = one PTX
  load of all warps of the wave at that pc, taken as in flight together), the L1 read misses of SMs of
  one merge domain (a GPC) for the same sectors of one line reach L2 once per ``merge_cap`` SMs: the
  1st, (cap+1)-th, ... SM to miss on the sector sends it to L2, the others are served by that request
  (no L2 lookup, not counted in lts__t_sectors_srcunit_tex_op_read; C_L2_READ_MERGED counts them).
  Only identical requests merge: the same line, the same sectors asked for and the same sectors
  missed (a warp that wants sector 0 of a line does not join one that fetches all four,
  benchmarks/microbench/sass_probes ld_misaligned and stencil5; two SMs that miss the same sector
  do not merge when one asked for more of the line, or when one had the rest of it in L1,
  benchmarks/microbench/l2_order mask_pair). Per-warp attribution: a merged sector counts as an L2
  hit if the request it joined hit.
  The groups' g_info lets the timing model redo this merging on issue cycles
  (simgpu.timing.l2_merge).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.memory.l2 import (
    C_L1_HIT,
    C_L1_MISS,
    C_L2_READ_MERGED,
    L2_ATOM,
    L2_READ,
    L2_RED,
    L2_WRITE,
    SIDE_PARTITIONS,
    home_partition,
    l2_access,
    line_in_allocation,
    popcount4,
)

# operation codes of hierarchy_batch
OP_LD = 0
OP_ST = 1
OP_ATOM = 2
OP_RED = 3
OP_LOCAL_LD = 4
OP_LOCAL_ST = 5
OP_LD_BYPASS = 6  # ld.global.cg / .cv / .volatile / strong gpu or sys scope: L2 only, never an L1 hit
OP_LD_LAST_USE = 7  # ld.global.lu: a hit in L1 is the last use (the sectors are dropped), a miss allocates nothing
OP_CODES = {"ld": OP_LD, "st": OP_ST, "atom": OP_ATOM, "red": OP_RED}


@njit(cache=True, inline="always")
def dram_sectors(info):
    """The sectors of a g_info (hierarchy_batch) that the walk fetched from DRAM: L1 misses that no
    L2 hit served."""
    info = np.int64(info)
    return (info & 15) & ~(info >> 8) & 15


@njit(cache=True, inline="always")
def asked_sectors(info):
    """The sectors of its line a g_info's warp instruction asked for (bits 12-15)."""
    return (np.int64(info) >> 12) & 15


@njit(cache=True, inline="always")
def request_key(line, dom, n_dom, asked, missed):
    """What tells L1-miss requests apart for the merging between SMs (module docstring): the line,
    the merge domain (one of n_dom), the sectors asked for and the sectors missed. Only requests
    with equal keys merge, here and in the timed merging (simgpu.timing.l2_merge)."""
    return ((np.int64(line) * n_dom + dom) * 16 + asked) * 16 + missed


@njit(cache=True, inline="always")
def l1_set_of(line, nsets):
    """The L1 set of a line (nsets a power of two): the XOR of its number's 5-bit groups, low bits
    first (config.py l1_sets: every power-of-two stride and every contiguous range spread evenly)."""
    line = np.int64(line)
    return (line ^ (line >> 5) ^ (line >> 10) ^ (line >> 15)) & (nsets - 1)


@njit(cache=True, inline="always")
def _l2_at(kind, line, m, tags, valid, dirty, lru, nsets, fetch_pair, write_hit, stamp, ctr, side, parts, rel,
           part=0):
    """l2_access with the line placed by rel, its offset in its allocation (home partition and set, so
    that neither depends on where earlier allocations put the array: l2.line_in_allocation)."""
    return l2_access(kind, line, m, tags, valid, dirty, lru, nsets, fetch_pair, write_hit, stamp, ctr,
                     home_partition(rel) if parts > 1 else 0, side, parts, rel, part)


@njit(cache=True, inline="always")
def _l1_find(tags, sm, s, line, ways):
    for w in range(ways):
        if tags[sm, s, w] == line:
            return w
    return -1


# valid's bit 4: the line was hit by a load since it was filled (the victim's second chance, _l1_alloc);
# bits 0-3 are its sectors, so every `& 15` that drops sectors also drops the mark
REREAD = 16


@njit(cache=True, inline="always")
def _pool_draw(lru, sm, s, rel, ways, pool):
    """A way drawn among the set's ``pool`` least recently used (pool 1: the LRU one), by a hash of
    ``rel`` (the line's number in its allocation, which also picks its set) and the set's stamps,
    so a walk in the same order draws the same ways, wherever earlier allocations put the array."""
    best = 0
    best_stamp = lru[sm, s, 0]
    for w in range(1, ways):
        if lru[sm, s, w] < best_stamp:
            best_stamp = lru[sm, s, w]
            best = w
    if pool > 1:
        h = (rel * np.int64(0x9E3779B1) + lru[sm, s, 0] * np.int64(0x85EBCA6B) + lru[sm, s, ways - 1]) \
            & np.int64(0x7FFFFFFF)
        h = ((h ^ (h >> 15)) * np.int64(0x2C1B3C6D)) & np.int64(0x7FFFFFFF)
        floor = best_stamp
        for _ in range((h >> 7) % min(pool, ways)):  # the next older way, r times (stamps are distinct)
            nxt = np.int64(0x7FFFFFFFFFFFFFFF)
            for w in range(ways):
                v = lru[sm, s, w]
                if floor < v < nxt:
                    nxt = v
                    best = w
            floor = nxt
    return best


@njit(cache=True, inline="always")
def _l1_alloc(tags, valid, lru, wreq, stamp, sm, s, line, rel, ways, rule):
    """Allocate ``line`` in set s of SM sm: an empty way if there is one, else a victim drawn among
    the set's least recently used ways (_pool_draw). ``rule`` (L1Caches.victim_rule): the pool
    size, negative for a second chance, where a drawn way that a load hit, or a store found
    resident, since its fill (REREAD) is kept, made the newest (stamp: the walk's int64[1] stamp
    counter) and unmarked, and the draw repeats (config.py l1_victim_pool, l1_second_chance)."""
    for w in range(ways):
        if tags[sm, s, w] == -1:
            tags[sm, s, w] = line
            valid[sm, s, w] = 0
            wreq[sm, s, w] = -1
            return w
    pool = -rule if rule < 0 else rule
    best = _pool_draw(lru, sm, s, rel, ways, pool)
    if rule < 0:
        for _ in range(ways):  # each pass unmarks one way, so this ends
            if (np.int64(valid[sm, s, best]) & REREAD) == 0:
                break
            valid[sm, s, best] = np.int64(valid[sm, s, best]) & 15
            stamp[0] += 1
            lru[sm, s, best] = stamp[0]
            best = _pool_draw(lru, sm, s, rel, ways, pool)
    tags[sm, s, best] = line
    valid[sm, s, best] = 0
    wreq[sm, s, best] = -1
    return best


@njit(cache=True, inline="always")
def _merge_slot(keys, key):
    """Open-addressing slot of key in keys (-1 = empty); inserts it. len(keys) is a power of two."""
    mask = keys.shape[0] - 1
    h = (key ^ (key >> 21) ^ (key >> 42)) * np.int64(0x9E3779B1)
    i = (h ^ (h >> 29)) & mask
    while True:
        k = keys[i]
        if k == key:
            return i
        if k == -1:
            keys[i] = key
            return i
        i = (i + 1) & mask


@njit(cache=True)
def hierarchy_batch(op, warp_sm, warp_uid, g_warp, g_line, g_mask, n,
                    l1_tags, l1_valid, l1_lru, l1_wreq, l1_req, l1_ways, l1_rule, l1_stamp,
                    l2_tags, l2_valid, l2_dirty, l2_lru, l2_nsets, fetch_pair, write_hit, l2_stamp,
                    ctr, w_l1_hit, w_l2_hit,
                    merge_dom, merge_cap, mt_keys, mt_cnt, mt_hit, g_info, sm_side, heap_lines):
    """Walk the first n (warp, line, sector-mask) groups, in order, through L1, L2 and DRAM.

    warp_sm / warp_uid: SM and launch-wide id of each warp. Each warp's groups (consecutive, one per
    line) are one L1 request of its SM; l1_req / l1_wreq (L1Caches.req / .wreq) follow them for
    the global-store rule (module doc),
    request ids come from l1_stamp. ctr: int64[N_COUNTERS] accumulated; w_l1_hit / w_l2_hit: per-warp
    sectors that hit in L1 / (of the rest) in L2, for the timing model and pictures.
    merge_dom: int64[num_sms] merge domain of each SM, or an empty array (no merging);
    merge_cap: SMs served by one L2 request (0 = any number); mt_keys int64[H] (filled with -1),
    mt_cnt int64[H, 4], mt_hit uint8[H]: this batch's table of (line, domain, asked and missed
    sectors) -> SMs that missed on each sector so far and the sectors its L2 requests hit (H a
    power of two > number of groups).
    sm_side: int8[num_sms] the L2 partition each SM sits beside (topology.H200_L2_SIDE), or an empty
    array (one partition: no fabric lookups, l2.py); heap_lines: the sorted first lines of the global
    allocations (and of the local window): a line's offset in its allocation picks its L1 set and its
    L2 home partition and set.
    g_info: uint16[>= n] out, per group of a load: its L1-miss sectors | the ones it sent to L2 << 4
    | the ones served by an L2 hit (its own or the joined request's) << 8 | the sectors it asked for
    << 12 (a merge needs the same ask and the same misses; a group that hit in full has only the
    last); per group of a global store: its sectors
    | the line was resident << 4 | this walk counted them as hits << 5; 0 for other ops. The timing
    model redoes the load merging (simgpu.timing.l2_merge) and the stores that meet on a CTA's write
    path (simgpu.timing.store_lines) in time from these.
    """
    merging = merge_dom.shape[0] > 0
    parts = SIDE_PARTITIONS if sm_side.shape[0] > 0 else 1
    for i in range(n):
        sm = warp_sm[g_warp[i]]
        side = sm_side[sm] if parts > 1 else 0
        line = g_line[i]
        # the line's number in its allocation, as if every allocation began a 2 MB page like a large
        # cudaMalloc: it picks the L1 set and the L2 home partition and set, so that neither depends
        # on where earlier allocations put the array (the H200 re-reads a 240 KB buffer in a 240 KB
        # L1 without a miss, benchmarks/microbench/l1_geometry, where the XOR fold of simgpu's
        # address, 512 B into a page, put 61 of its lines in some sets of 60 ways)
        rel = line_in_allocation(line, heap_lines)
        m = np.int64(g_mask[i]) & 15
        # a store's sectors it writes in part (bits 4-7), and of those, the ones with a word written in
        # part (bits 8-11): line_units.mark_partial_sectors; shifted down they are l2_access's `part`
        part = np.int64(g_mask[i]) >> 4
        cnt = popcount4(m)
        l1h = np.int64(0)
        l2h = np.int64(0)
        g_info[i] = 0
        if l1_ways > 0 and (i == 0 or g_warp[i] != g_warp[i - 1]):  # a new request of this SM
            l1_stamp[0] += 1
            l1_req[sm, 1] = l1_req[sm, 0]
            l1_req[sm, 3] = l1_req[sm, 2]
            l1_req[sm, 0] = l1_stamp[0]
            l1_req[sm, 2] = warp_uid[g_warp[i]]
        if op == OP_ATOM or op == OP_RED:
            if l1_ways > 0:
                s = l1_set_of(rel, l1_tags.shape[1])
                w = _l1_find(l1_tags, sm, s, line, l1_ways)
                if w >= 0:
                    l1_valid[sm, s, w] = np.int64(l1_valid[sm, s, w]) & ~m & 15
            ctr[C_L1_MISS] += cnt
            kind = L2_ATOM if op == OP_ATOM else L2_RED
            l2h = _l2_at(kind, line, m, l2_tags, l2_valid, l2_dirty, l2_lru,
                      l2_nsets, fetch_pair, write_hit, l2_stamp, ctr, side, parts, rel)
        elif op == OP_ST or op == OP_LOCAL_ST:
            if l1_ways > 0:
                s = l1_set_of(rel, l1_tags.shape[1])
                w = _l1_find(l1_tags, sm, s, line, l1_ways)
                fresh = w < 0
                if fresh:
                    w = _l1_alloc(l1_tags, l1_valid, l1_lru, l1_wreq, l1_stamp, sm, s, line, rel, l1_ways, l1_rule)
                v = np.int64(l1_valid[sm, s, w])
                if op == OP_LOCAL_ST:  # hits where the sectors are valid
                    l1h = v & m
                    l1_valid[sm, s, w] = v | m
                else:  # a global store: the line-level rule of the module docstring
                    busy = l1_wreq[sm, s, w] == l1_req[sm, 1] and l1_req[sm, 2] == l1_req[sm, 3]
                    # a store to a line already resident marks it as a load hit does (REREAD)
                    mark = np.int64(0) if fresh else np.int64(REREAD)
                    if not busy:  # (a line just allocated never is)
                        l1_valid[sm, s, w] = v | m | mark
                        if not fresh:
                            l1h = m
                    else:
                        l1_valid[sm, s, w] = v | mark
                    l1_wreq[sm, s, w] = l1_req[sm, 0]
                    g_info[i] = m | (np.int64(0 if fresh else 1) << 4) | (np.int64(1 if l1h else 0) << 5)
                l1_stamp[0] += 1
                l1_lru[sm, s, w] = l1_stamp[0]
            h = popcount4(l1h)
            ctr[C_L1_HIT] += h
            ctr[C_L1_MISS] += cnt - h
            l2h = _l2_at(L2_WRITE, line, m, l2_tags, l2_valid, l2_dirty, l2_lru,
                         l2_nsets, fetch_pair, write_hit, l2_stamp, ctr, side, parts, rel, part)
        else:  # loads (global and local)
            miss = m
            if l1_ways > 0 and op == OP_LD_LAST_USE:
                s = l1_set_of(rel, l1_tags.shape[1])
                w = _l1_find(l1_tags, sm, s, line, l1_ways)
                if w >= 0:
                    v = np.int64(l1_valid[sm, s, w])
                    l1h = v & m
                    miss = m & ~v & 15
                    l1_valid[sm, s, w] = v & ~m & 15
            elif l1_ways > 0 and op == OP_LD_BYPASS:  # fetched again from L2: the L1's copy is stale
                s = l1_set_of(rel, l1_tags.shape[1])
                w = _l1_find(l1_tags, sm, s, line, l1_ways)
                if w >= 0:
                    l1_valid[sm, s, w] = np.int64(l1_valid[sm, s, w]) & ~m & 15
            elif l1_ways > 0:
                s = l1_set_of(rel, l1_tags.shape[1])
                w = _l1_find(l1_tags, sm, s, line, l1_ways)
                if w < 0:
                    w = _l1_alloc(l1_tags, l1_valid, l1_lru, l1_wreq, l1_stamp, sm, s, line, rel, l1_ways, l1_rule)
                v = np.int64(l1_valid[sm, s, w])
                l1h = v & m
                miss = m & ~v & 15
                l1_valid[sm, s, w] = v | m | (REREAD if l1h else 0)
                l1_stamp[0] += 1
                l1_lru[sm, s, w] = l1_stamp[0]
            h = popcount4(l1h)
            ctr[C_L1_HIT] += h
            ctr[C_L1_MISS] += cnt - h
            if miss and merging:
                slot = _merge_slot(mt_keys, request_key(line, merge_dom[sm], 1024, m, miss))
                send = np.int64(0)
                for b in range(4):
                    if (miss >> b) & 1:
                        c = mt_cnt[slot, b]
                        if c == 0 or (merge_cap > 0 and c % merge_cap == 0):
                            send |= np.int64(1) << b
                        mt_cnt[slot, b] = c + 1
                merged = miss & ~send
                ctr[C_L2_READ_MERGED] += popcount4(merged)
                if send:
                    l2h = _l2_at(L2_READ, line, send, l2_tags, l2_valid, l2_dirty, l2_lru,
                                    l2_nsets, fetch_pair, write_hit, l2_stamp, ctr, side, parts, rel)
                    mt_hit[slot] = np.int64(mt_hit[slot]) | l2h
                l2h = l2h | (merged & np.int64(mt_hit[slot]))
                g_info[i] = miss | (send << 4) | (l2h << 8) | (m << 12)
            elif miss:
                l2h = _l2_at(L2_READ, line, miss, l2_tags, l2_valid, l2_dirty, l2_lru,
                                l2_nsets, fetch_pair, write_hit, l2_stamp, ctr, side, parts, rel)
                g_info[i] = miss | (miss << 4) | (l2h << 8) | (m << 12)
            else:  # all hits: only what it asked for (the timed L1, timing/l1_order.py, walks it again)
                g_info[i] = m << 12
        w_l1_hit[g_warp[i]] += popcount4(l1h)
        w_l2_hit[g_warp[i]] += popcount4(l2h)


class L1Caches:
    """The L1 state arrays of all SMs."""

    def __init__(self, num_sms: int, unified_bytes: int, sets: int, line_bytes: int = 128, victim_pool: int = 1,
                 second_chance: bool = False):
        if sets < 1 or sets & (sets - 1):
            raise ValueError(f"L1 sets must be a power of two, got {sets}")
        self.num_sms = num_sms
        self.sets = sets
        self.line_bytes = line_bytes
        self.victim_pool = max(1, int(victim_pool))  # _l1_alloc's pool (config l1_victim_pool)
        self.second_chance = bool(second_chance)  # config l1_second_chance
        self.max_ways = unified_bytes // line_bytes // sets
        shape = (num_sms, sets, self.max_ways)
        self.tags = np.full(shape, -1, dtype=np.int64)
        self.valid = np.zeros(shape, dtype=np.uint8)
        self.lru = np.zeros(shape, dtype=np.int64)
        self.wreq = np.full(shape, -1, dtype=np.int64)
        self.req = np.full((num_sms, 4), -2, dtype=np.int64)
        self.stamp = np.zeros(1, dtype=np.int64)
        self.nways = self.max_ways
        self.invalidations = 0  # invalidate() calls since the last reset (timing/l1_order.py leaves those out)

    def configure(self, capacity_bytes: int) -> None:
        """Set the capacity left to L1 by the shared-memory carveout (contents are flushed)."""
        nways = max(0, capacity_bytes // self.line_bytes // self.sets)
        if nways != self.nways:
            self.reset()
        self.nways = min(nways, self.max_ways)

    def invalidate(self, sms: np.ndarray) -> None:
        """Drop every line of these SMs' L1s (SASS CCTL.IVALL, which ptxas puts after an acquire or a
        sequentially consistent fence at GPU or system scope so that later loads see other SMs'
        stores; validation/typical8's SASS)."""
        self.tags[sms] = -1
        self.valid[sms] = 0
        self.wreq[sms] = -1
        self.invalidations += 1

    def reset(self) -> None:
        self.tags.fill(-1)
        self.valid.fill(0)
        self.lru.fill(0)
        self.wreq.fill(-1)
        self.req.fill(-2)
        self.stamp[0] = 0
        self.invalidations = 0

    @property
    def victim_rule(self) -> int:
        """_l1_alloc's rule: the victim pool, negative when a way hit since its fill gets a second chance."""
        return -self.victim_pool if self.second_chance else self.victim_pool

    @property
    def capacity_bytes(self) -> int:
        return self.nways * self.sets * self.line_bytes
