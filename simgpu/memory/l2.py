"""L2 cache: sectored, set-associative, LRU, write-back, write-allocate; one per GPU, in two partitions.

State is plain NumPy arrays (numba-friendly); with two partitions the first nsets/2 sets are
partition 0's, the rest partition 1's:
    tags  int64[sets, ways]   line address (addr >> 7), -1 = empty way
    valid uint8[sets, ways]   4-bit mask of valid sectors
    dirty uint8[sets, ways]   4-bit mask of dirty sectors (only home entries get dirty); bits 4-7:
                              the dirty sectors only written in part and never filled (partial)
    lru   int64[sets, ways]   last-use stamp (larger = more recent)
    stamp int64[STAMP_DIRTY + 3]  [0] the last stamp given; [STAMP_ROWS + b] the DRAM row that
                              the write-backs last opened in bank b (-1: none), for their
                              counters; [STAMP_DIRTY:] the dirty lines allowed (0: any), held, and
                              the set the write-back sweep looks at next
Per-access logic is a small loop over the ways of one set (``l2_access``), compiled with numba.

Policies (see config.py for sources):
* read (L1 miss, ``ld``): a sector is a hit if its line's tag is present and the sector is valid;
  missing sectors are fetched from DRAM at ``fetch_pair`` granularity (64 B: the aligned sector pair
  of every missing sector, only sectors not already valid are read, 32 B each).
* write (``st``, write-through from L1): write-allocate without a DRAM read (byte-masked sectors);
  sectors become valid + dirty. Counted as hits when ``write_hit`` (ncu behaviour, config.py).
  A sector the write covers in fewer than its 32 bytes (``part``), where the L2 held no full copy,
  stays partial: the L2 reads its 32 B from DRAM when it writes it back (evicted) or when a read or
  an atomic needs it. Measured, benchmarks/microbench/l2_fill: a byte stored into every sector of
  256 MB read 31.1 B a sector from DRAM, half-sector (16 B) stores 31.0, whole-sector stores 0.
  Where the write leaves a 4-byte word in part (byte and 16-bit stores) the L2 fills some sectors
  at once: a byte into every sector of 16 MB that stays in L2 read 17 B a sector, where word stores
  that leave sectors in part (validation/typical2 store_stride2, scatter_perm) read nothing more.
  simgpu fills those from the far side at once (half of them; which half is not measured).
* atomic / reduction: read-modify-write at L2: hits/misses like a read, then dirty; a miss fetches
  the sector pair from the home side, the sector alone from the far side (48 B per atomic on
  average, as measured in l2_fill; which side fetches what is not).
* eviction (LRU way of the set, empty ways first): dirty sectors are written to DRAM (32 B each),
  partial ones read first (32 B each). For the timing model (timing/dram_rows.py) the evicting
  access also counts the DRAM writes of 64 B its dirty sectors take (C_DRAM_WRITE_GRANULES) and
  whether its line's row was open (C_DRAM_WRITE_ACTS: a table of DRAM_BANKS banks of
  DRAM_ROW_BYTES rows that only the write-backs go through; both sizes ASSUMED). The 64 B writes
  are measured (validation/typical19): random whole 32 B sectors, written back during the launch,
  took 34.1 ps each, random 64 B pairs 35.8, where a stream writes 32 B in 7.0.
* dirty lines (``dirty_bytes_max``, config.py l2_dirty_bytes_max): a write that makes the L2 hold
  more dirty lines than that writes one back at once (it stays, clean): the least recently used
  dirty line of the next set, in turn, that holds one, so that the write-backs come oldest first
  across the sets while the limit counts the whole L2.
* set index: XOR-fold of the line's offset in its allocation (``set_line``) modulo the sets of a
  partition (stands in for the real, undocumented slice/set hash; no pathological power-of-two
  strides; the offset, not the address, so that a kernel's evictions do not depend on where earlier
  allocations put its arrays; line i of every array shares a set, which only matters for kernels
  with more than 16 arrays hot at one offset).
* a cold launch starts with ncu's leftover dirty lines (``seed_dirty``, config.py).

Partitions (measured, benchmarks/microbench/l2_partition, l2_hit_rate, l2_capacity): the H200's L2
is two halves of 30 MB; a line lives in its home partition (`home_partition`), an SM talks to the
partition on its side (memory/topology.H200_L2_SIDE). A read from the other side is looked up first
in the near partition, which keeps copies of lines its side read or wrote: a copy hit is a tex hit;
otherwise it is a tex miss and goes over the L2 fabric to the home partition (a `ltcfabric` lookup
there, hit or miss; a miss reads DRAM into the home entry), and the near partition keeps a copy of
what came back. Writes from the far side are forwarded home (a fabric lookup each) and leave a
clean copy beside the writer; atomics from the far side are performed at home; a home-side write
or any atomic drops the other side's copy of its sectors. Copies are entries of their own: they
take room in the near partition and are evicted like any line there (a copy is clean: evicting it
writes nothing), so one side streaming more than 30 MB evicts its own near-homed lines while the
far-homed ones stay at home, and reading R MB from both sides fills 1.5 R MB (l2_capacity). ncu
counts the fabric lookups in lts__t_sectors and in every L2 hit rate (l2_hit_rate README:
gemm_cp_async's read hit rate 82.7 % = tex and fabric reads, 85.3 % tex alone).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.memory.topology import H200_L2_HOME_BITS

# counter slots shared with l1.py / system.py (one int64 vector per call)
C_L2_READ_HIT = 0
C_L2_READ_MISS = 1
C_L2_WRITE_HIT = 2
C_L2_WRITE_MISS = 3
C_L2_ATOM_HIT = 4
C_L2_ATOM_MISS = 5
C_DRAM_READ_SECTORS = 6
C_DRAM_WRITE_SECTORS = 7
C_L1_HIT = 8
C_L1_MISS = 9
C_L2_READ_SECTORS = 10  # lts__t_sectors_srcunit_tex_op_read
C_L2_WRITE_SECTORS = 11  # lts__t_sectors_srcunit_tex_op_write
C_L2_ATOM_SECTORS = 12  # lts__t_sectors_srcunit_tex_op_atom
C_L2_RED_SECTORS = 13  # lts__t_sectors_srcunit_tex_op_red
C_L2_READ_MERGED = 14  # L1 read-miss sectors merged into another SM's L2 request (topology.py)
C_FAB_READ = 15  # lts__t_sectors_srcunit_ltcfabric_op_read: far reads that missed the near copy
C_FAB_READ_HIT = 16  # ... that found the sectors in the home partition
C_FAB_WRITE = 17  # lts__t_sectors_srcunit_ltcfabric_op_write: far writes forwarded home
C_FAB_WRITE_HIT = 18
C_FAB_ATOM = 19  # far atomics / reductions performed at home
C_FAB_ATOM_HIT = 20
# written sectors the L2 did not hold before the write (allocated in it; the timing model's L2 fill
# bandwidth, timing/config.py l2_fill_bytes_per_s); ncu counts them as write hits all the same
C_L2_WRITE_FILL = 21
# dirty lines written back: the rows they open and the 64 B DRAM writes they take (module docstring)
C_DRAM_WRITE_ACTS = 22
C_DRAM_WRITE_GRANULES = 23
N_COUNTERS = 24

# ASSUMED (not measured): the HBM rows a stream opens one at a time, and the banks whose open rows a
# hash of the row picks (HBM3e: 1 KB rows per pseudo-channel, 16 banks each, 32 pseudo-channels a
# stack); random accesses over more than a few MB miss whatever these are. The timing model's
# read-side table (timing/config.py dram_row_bytes, dram_banks) takes these as its defaults.
DRAM_ROW_BYTES = 2048
DRAM_BANKS = 1024
# L2Cache.stamp's slots after [0], the LRU clock (module docstring): the rows the write-backs last
# opened, one per bank; then the dirty lines allowed (0: any), held, and the write-back sweep's set
STAMP_ROWS = 1
STAMP_DIRTY = STAMP_ROWS + DRAM_BANKS

L2_READ = 0
L2_WRITE = 1
L2_ATOM = 2
L2_RED = 3


@njit(cache=True, inline="always")
def popcount4(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


@njit(cache=True, inline="always")
def _parity(x):
    x ^= x >> 32
    x ^= x >> 16
    x ^= x >> 8
    x ^= x >> 4
    x ^= x >> 2
    x ^= x >> 1
    return x & 1


# partitions where the SMs' sides are known (a side is 0 or 1); one where they are not
SIDE_PARTITIONS = 2

# line numbers of the dirty lines ncu's cold start leaves (seed_dirty): above every address (4 PB)
SEED_LINE = 1 << 45

# the H200's home bits (topology.H200_L2_HOME_BITS) as bits of the line number (byte address >> 7)
_HOME_MASK = sum(1 << (b - 7) for b in H200_L2_HOME_BITS)
_PAGE_SHIFT = 21 - 7  # 2 MB pages, in lines


@njit(cache=True)
def home_partition(line):
    """The L2 partition (0/1) that holds a 128-byte line: the parity of byte-address bits 12, 13, 15,
    17 and 19, XOR a constant per 2 MB page (measured, topology.py). The page constant depends on
    physical address bits simgpu does not know; it is taken as the parity of the page number, as if
    every allocation began a 2 MB page."""
    return _parity(line & _HOME_MASK) ^ _parity(line >> _PAGE_SHIFT)


@njit(cache=True, inline="always")
def line_in_allocation(line, heap_lines):
    """A line as its offset in the allocation that holds it (heap_lines: the sorted first lines of the
    allocations; empty: the line itself), so that a line's home partition and set do not depend on
    where earlier allocations put its array."""
    if heap_lines.shape[0] == 0:
        return line
    i = np.searchsorted(heap_lines, line, side="right") - 1
    return line - heap_lines[i] if i >= 0 else line


def lines_in_allocation(lines: np.ndarray, heap_bases) -> np.ndarray:
    """`line_in_allocation` of many lines at once, from the allocations' first bytes (any order;
    None or empty: the lines themselves). The timing replay takes homes and line units from these."""
    lines = np.asarray(lines, np.int64)
    if heap_bases is None or not len(heap_bases) or not len(lines):
        return lines
    starts = np.sort(np.asarray(heap_bases, np.int64)) >> 7
    i = np.searchsorted(starts, lines, side="right") - 1
    return np.where(i >= 0, lines - starts[np.maximum(i, 0)], lines)


@njit(cache=True, inline="always")
def l2_set_of(line, nsets):
    h = line ^ (line >> 11) ^ (line >> 22) ^ (line >> 33)
    return h % nsets


@njit(cache=True, inline="always")
def _find(tags, s, line):
    for w in range(tags.shape[1]):
        if tags[s, w] == line:
            return w
    return -1


@njit(cache=True, inline="always")
def dram_bank(row, n_banks):
    """The bank (of n_banks) that holds a DRAM row: a multiplicative hash of the row number (the real
    address map is not documented; this one spreads strided and contiguous rows alike)."""
    b = ((np.int64(row) * np.int64(0x9E3779B97F4A7C1)) >> 17) % n_banks
    return b + n_banks if b < 0 else b


@njit(cache=True, inline="always")
def _written_back(line, d, stamp, ctr):
    """Count a dirty line's write-back (d: its dirty byte, the dirty sectors in the low nibble and
    the partially written ones in the high): its sectors, the partial ones read first, its 64 B DRAM
    writes, and its row's activation unless the last write-back in its bank left that row open
    (stamp[STAMP_ROWS:])."""
    ctr[C_DRAM_WRITE_SECTORS] += popcount4(d & 15)
    ctr[C_DRAM_READ_SECTORS] += popcount4((d >> 4) & d & 15)  # partial sectors: filled, then written
    d = d & 15
    ctr[C_DRAM_WRITE_GRANULES] += popcount4((d | (d >> 1)) & 5)
    if stamp.shape[0] > STAMP_DIRTY:
        row = np.int64(line) // (DRAM_ROW_BYTES // 128)
        b = STAMP_ROWS + dram_bank(row, DRAM_BANKS)
        if stamp[b] != row:
            ctr[C_DRAM_WRITE_ACTS] += 1
            stamp[b] = row


@njit(cache=True)
def _write_back_a_dirty_line(tags, valid, dirty, lru, keep_s, keep_w, stamp, ctr):
    """Write back the least recently used dirty line of the next set, from the sweep's cursor on, that
    holds one (other than the line just written, at keep_s / keep_w): it stays, clean, its partial
    sectors read first."""
    nsets = tags.shape[0]
    for _ in range(nsets):
        s = stamp[STAMP_DIRTY + 2]
        stamp[STAMP_DIRTY + 2] = (s + 1) % nsets
        oldest = -1
        for w in range(tags.shape[1]):
            if dirty[s, w] & 15 and not (s == keep_s and w == keep_w):
                if oldest < 0 or lru[s, w] < lru[s, oldest]:
                    oldest = w
        if oldest >= 0:
            d = np.int64(dirty[s, oldest])
            _written_back(tags[s, oldest], d, stamp, ctr)
            valid[s, oldest] = valid[s, oldest] | (d & 15)
            dirty[s, oldest] = 0
            stamp[STAMP_DIRTY + 1] -= 1
            return


@njit(cache=True, inline="always")
def _dirtied(tags, valid, dirty, lru, s, w, was, stamp, ctr):
    """Entry (s, w), whose dirty sectors were `was`, has just been written: where it was clean, the L2
    holds one dirty line more, and past its limit (stamp[STAMP_DIRTY]) writes one back."""
    if stamp[STAMP_DIRTY] > 0 and (was & 15) == 0 and (dirty[s, w] & 15) != 0:
        stamp[STAMP_DIRTY + 1] += 1
        if stamp[STAMP_DIRTY + 1] > stamp[STAMP_DIRTY]:
            _write_back_a_dirty_line(tags, valid, dirty, lru, s, w, stamp, ctr)


@njit(cache=True, inline="always")
def _entry(tags, valid, dirty, lru, s, line, stamp, ctr):
    """The way of set s that holds line, allocating it (an empty way, else the least recently used
    one, whose dirty sectors go to DRAM) if absent; marks it most recently used."""
    way = _find(tags, s, line)
    if way < 0:
        way = 0
        best_stamp = lru[s, 0]
        for w in range(tags.shape[1]):
            if tags[s, w] == -1:
                way = w
                break
            if lru[s, w] < best_stamp:
                best_stamp = lru[s, w]
                way = w
        if tags[s, way] != -1:
            d = np.int64(dirty[s, way])
            if d & 15:
                _written_back(tags[s, way], d, stamp, ctr)
                if stamp[STAMP_DIRTY] > 0:
                    stamp[STAMP_DIRTY + 1] -= 1
        tags[s, way] = line
        valid[s, way] = 0
        dirty[s, way] = 0
    stamp[0] += 1
    lru[s, way] = stamp[0]
    return way


@njit(cache=True, inline="always")
def _whole(valid, dirty, s, w):
    """The sectors of entry (s, w) the L2 holds in full: valid and not partial (written in part)."""
    return np.int64(valid[s, w]) & ~(np.int64(dirty[s, w]) >> 4) & 15


@njit(cache=True, inline="always")
def _fill(valid, dirty, s, w, fetch):
    """Sectors fetched from DRAM into entry (s, w): valid, and no longer partial."""
    valid[s, w] = np.int64(valid[s, w]) | fetch
    dirty[s, w] = np.int64(dirty[s, w]) & ~(fetch << 4) & 255


@njit(cache=True, inline="always")
def _drop_copy(tags, valid, s, line, m):
    """The other partition's copy of line loses the sectors m (written or updated at home)."""
    w = _find(tags, s, line)
    if w >= 0:
        valid[s, w] = np.int64(valid[s, w]) & ~m & 15


@njit(cache=True, inline="always")
def _fetch(miss, v, fetch_pair):
    """The sectors a read of the missing sectors brings from DRAM (64 B pairs if fetch_pair)."""
    fetch = miss
    if fetch_pair:
        if miss & 3:
            fetch |= 3
        if miss & 12:
            fetch |= 12
    return fetch & ~v & 15


@njit(cache=True)
def l2_access(kind, line, m, tags, valid, dirty, lru, nsets, fetch_pair, write_hit, stamp, ctr,
              home=0, side=0, parts=1, set_line=-1, part=0):
    """One L2 lookup of the sectors ``m`` (4-bit mask) of ``line`` by an SM beside partition
    ``side``, the line living in partition ``home`` (of ``parts``: 1 or 2, each nsets // parts sets)
    in the set of ``set_line`` (its offset in its allocation; -1: the line itself); updates state
    and counters (module docstring). ``part``: the sectors of a write's m that it writes in part
    (bits 0-3), and of those the ones with a 4-byte word written in part (bits 4-7).

    Returns the mask of sectors served without DRAM (a read's, an atomic's) or counted as write hits.
    """
    line = np.int64(line)
    m = np.int64(m)
    nsp = nsets // parts
    s0 = l2_set_of(np.int64(set_line) if set_line >= 0 else line, nsp)
    hs = home * nsp + s0  # the line's entry in its home partition
    cs = (1 - home) * nsp + s0  # where the other side keeps its copy
    far = parts > 1 and side != home
    n = popcount4(m)
    if kind == L2_WRITE:
        hw = _entry(tags, valid, dirty, lru, hs, line, stamp, ctr)
        v = np.int64(valid[hs, hw])
        d = np.int64(dirty[hs, hw])
        ctr[C_L2_WRITE_SECTORS] += n
        hm = m if write_hit else (v & m)
        h = popcount4(hm)
        ctr[C_L2_WRITE_HIT] += h
        ctr[C_L2_WRITE_MISS] += n - h
        ctr[C_L2_WRITE_FILL] += popcount4(m & ~v & 15)
        whole = v & ~(d >> 4) & 15  # sectors held in full before this write
        partial = ((d >> 4) & ~m | np.int64(part) & m & ~whole) & 15
        fill = partial & m & (np.int64(part) >> 4) if far else np.int64(0)
        if fill:  # a word written in part from the far side: home fills the sector at once
            ctr[C_DRAM_READ_SECTORS] += popcount4(fill)
            partial &= ~fill
        valid[hs, hw] = v | m
        dirty[hs, hw] = (d & 15) | m | (partial << 4)
        _dirtied(tags, valid, dirty, lru, hs, hw, d, stamp, ctr)
        if far:  # forwarded to the home partition; this side keeps a (clean) copy of what it wrote
            ctr[C_FAB_WRITE] += n
            ctr[C_FAB_WRITE_HIT] += h
            cw = _entry(tags, valid, dirty, lru, cs, line, stamp, ctr)
            valid[cs, cw] = valid[cs, cw] | m
        elif parts > 1:
            _drop_copy(tags, valid, cs, line, m)
        return hm
    if kind == L2_READ:
        ctr[C_L2_READ_SECTORS] += n
        if far:  # the near copy answers what it holds, the home partition (over the fabric) the rest
            cw = _entry(tags, valid, dirty, lru, cs, line, stamp, ctr)
            cp = np.int64(valid[cs, cw])
            tex_hit = m & cp
            fab = m & ~cp & 15
            served = tex_hit
            if fab:
                hw = _entry(tags, valid, dirty, lru, hs, line, stamp, ctr)
                v = _whole(valid, dirty, hs, hw)
                ctr[C_FAB_READ] += popcount4(fab)
                ctr[C_FAB_READ_HIT] += popcount4(fab & v)
                served |= fab & v
                fetch = _fetch(fab & ~v & 15, v, fetch_pair)
                ctr[C_DRAM_READ_SECTORS] += popcount4(fetch)
                _fill(valid, dirty, hs, hw, fetch)
            valid[cs, cw] = cp | m
            h = popcount4(tex_hit)
            ctr[C_L2_READ_HIT] += h
            ctr[C_L2_READ_MISS] += n - h
            return served
        hw = _entry(tags, valid, dirty, lru, hs, line, stamp, ctr)
        v = _whole(valid, dirty, hs, hw)
        hit = v & m
        h = popcount4(hit)
        ctr[C_L2_READ_HIT] += h
        ctr[C_L2_READ_MISS] += n - h
        fetch = _fetch(m & ~v & 15, v, fetch_pair)
        ctr[C_DRAM_READ_SECTORS] += popcount4(fetch)
        _fill(valid, dirty, hs, hw, fetch)
        return hit
    # atomic / reduction: performed at home; no copy of the old value stays valid
    hw = _entry(tags, valid, dirty, lru, hs, line, stamp, ctr)
    v = _whole(valid, dirty, hs, hw)
    hit = v & m
    h = popcount4(hit)
    if kind == L2_ATOM:
        ctr[C_L2_ATOM_SECTORS] += n
    else:
        ctr[C_L2_RED_SECTORS] += n
    ctr[C_L2_ATOM_HIT] += h
    ctr[C_L2_ATOM_MISS] += n - h
    if far:
        ctr[C_FAB_ATOM] += n
        ctr[C_FAB_ATOM_HIT] += h
    if parts > 1:
        _drop_copy(tags, valid, cs, line, m)
    # an atomic's miss fetches 48 B on average (l2_fill: one atomic per 64 or 128 B of 16 MB), half
    # the sector pairs a read fetches: the side that asks is not measured; simgpu fetches the pair
    # for atomics from the home side and the sector alone for those forwarded from the far side
    fetch = _fetch(m & ~v & 15, v, fetch_pair and not far)
    ctr[C_DRAM_READ_SECTORS] += popcount4(fetch)
    _fill(valid, dirty, hs, hw, fetch)
    was = np.int64(dirty[hs, hw])
    dirty[hs, hw] = dirty[hs, hw] | m
    _dirtied(tags, valid, dirty, lru, hs, hw, was, stamp, ctr)
    return hit


class L2Cache:
    """The L2's state arrays plus its geometry."""

    def __init__(self, total_bytes: int, ways: int, line_bytes: int = 128, fetch_bytes: int = 64,
                 write_counts_as_hit: bool = True, partitions: int = 1, dirty_bytes_max: int | None = None):
        lines = total_bytes // line_bytes
        self.ways = ways
        self.parts = max(1, int(partitions))
        self.nsets = lines // ways
        self.fetch_pair = fetch_bytes >= 64
        self.write_hit = write_counts_as_hit
        self.tags = np.full((self.nsets, ways), -1, dtype=np.int64)
        self.valid = np.zeros((self.nsets, ways), dtype=np.uint8)
        self.dirty = np.zeros((self.nsets, ways), dtype=np.uint8)
        self.lru = np.zeros((self.nsets, ways), dtype=np.int64)
        # the LRU clock, the write-backs' rows, the dirty lines allowed (0: any), held, the sweep's set
        self.stamp = np.full(STAMP_DIRTY + 3, -1, dtype=np.int64)
        self.stamp[0] = 0
        self.stamp[STAMP_DIRTY] = 0 if dirty_bytes_max is None else max(1, int(dirty_bytes_max) // line_bytes)
        self.stamp[STAMP_DIRTY + 1:] = 0

    def reset(self) -> None:
        """Invalidate everything (ncu's cache flush before a profiled launch)."""
        self.tags.fill(-1)
        self.valid.fill(0)
        self.dirty.fill(0)
        self.lru.fill(0)
        self.stamp[STAMP_ROWS:STAMP_DIRTY] = -1
        self.stamp[0] = 0
        self.stamp[STAMP_DIRTY + 1:] = 0

    def access(self, kind: int, line: int, mask: int, ctr: np.ndarray, far: bool = False, part: int = 0) -> int:
        """One lookup from Python (tests, step-through); far: from the side away from the line's home
        partition (`home_partition` of the line number itself; with one partition, never); part: the
        sectors of a write's mask it writes in fewer than 32 bytes (bits 4-7: of those, the ones with a
        4-byte word written in part)."""
        home = int(home_partition(np.int64(line))) if self.parts > 1 else 0
        side = home ^ 1 if far and self.parts > 1 else home
        return l2_access(kind, np.int64(line), np.uint8(mask), self.tags, self.valid, self.dirty, self.lru,
                         self.nsets, self.fetch_pair, self.write_hit, self.stamp, ctr, home, side, self.parts,
                         -1, int(part))

    def seed_dirty(self, nbytes: int) -> None:
        """Put nbytes of dirty lines (ncu's cold-start leftovers, config.l2_dirty_bytes_at_cold_start)
        into as many sets, spread evenly, each the oldest of its set, at line numbers no address
        reaches (SEED_LINE and up)."""
        n = min(self.nsets * self.ways, max(0, int(nbytes)) // 128)
        if n == 0:
            return
        slot = np.arange(n, dtype=np.int64) * (self.nsets * self.ways) // n  # evenly over the sets
        sets, ways = slot // self.ways, slot % self.ways
        self.tags[sets, ways] = SEED_LINE + np.arange(n, dtype=np.int64)
        self.stamp[STAMP_DIRTY + 1] += n
        self.valid[sets, ways] = 15
        self.dirty[sets, ways] = 15
        self.lru[sets, ways] = 0

    def dirty_sectors(self, seeded_only: bool = False) -> int:
        """Dirty sectors held now (seeded_only: of the cold-start lines seed_dirty put in)."""
        d = self.dirty[self.tags >= SEED_LINE] if seeded_only else self.dirty
        return int(((d & 1) + ((d >> 1) & 1) + ((d >> 2) & 1) + ((d >> 3) & 1)).sum())
