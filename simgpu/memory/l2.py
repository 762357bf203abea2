"""L2 cache: sectored, set-associative, LRU, write-back, write-allocate; one per GPU.

State is plain NumPy arrays (numba-friendly):
    tags  int64[sets, ways]   line address (addr >> 7), -1 = empty way
    valid uint8[sets, ways]   4-bit mask of valid sectors
    dirty uint8[sets, ways]   4-bit mask of dirty sectors
    lru   int64[sets, ways]   last-use stamp (larger = more recent)
Per-access logic is a small loop over the ways of one set (``l2_access``), compiled with numba.

Policies (see config.py for sources):
* read (L1 miss, ``ld``): a sector is a hit if its line's tag is present and the sector is valid;
  missing sectors are fetched from DRAM at ``fetch_pair`` granularity (64 B: the aligned sector pair
  of every missing sector, only sectors not already valid are read, 32 B each).
* write (``st``, write-through from L1): write-allocate without a DRAM read (byte-masked sectors);
  sectors become valid + dirty. Counted as hits when ``write_hit`` (ncu behaviour, config.py).
* atomic / reduction: read-modify-write at L2: hits/misses and DRAM fetch like a read, then dirty.
* eviction (LRU way of the set, empty ways first): dirty sectors are written to DRAM (32 B each).
* set index: XOR-fold of the line address modulo the number of sets (stands in for the real,
  undocumented slice/set hash; avoids pathological power-of-two strides).
"""

from __future__ import annotations

import numpy as np
from numba import njit

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
N_COUNTERS = 15

L2_READ = 0
L2_WRITE = 1
L2_ATOM = 2
L2_RED = 3


@njit(cache=True, inline="always")
def popcount4(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)


@njit(cache=True, inline="always")
def l2_set_of(line, nsets):
    h = line ^ (line >> 11) ^ (line >> 22) ^ (line >> 33)
    return h % nsets


@njit(cache=True)
def l2_access(kind, line, m, tags, valid, dirty, lru, nsets, fetch_pair, write_hit, stamp, ctr):
    """One L2 lookup of the sectors ``m`` (4-bit mask) of ``line``; updates state and counters.

    Returns the mask of sectors counted as hits.
    """
    line = np.int64(line)
    m = np.int64(m)
    s = l2_set_of(line, nsets)
    ways = tags.shape[1]
    way = -1
    for w in range(ways):
        if tags[s, w] == line:
            way = w
            break
    if way < 0:
        # allocate: an empty way, else the least recently used one
        best = 0
        best_stamp = lru[s, 0]
        for w in range(ways):
            if tags[s, w] == -1:
                best = w
                break
            if lru[s, w] < best_stamp:
                best_stamp = lru[s, w]
                best = w
        way = best
        if tags[s, way] != -1:
            ctr[C_DRAM_WRITE_SECTORS] += popcount4(dirty[s, way])
        tags[s, way] = line
        valid[s, way] = 0
        dirty[s, way] = 0
    stamp[0] += 1
    lru[s, way] = stamp[0]
    v = np.int64(valid[s, way])
    n = popcount4(m)
    if kind == L2_WRITE:
        ctr[C_L2_WRITE_SECTORS] += n
        hm = m if write_hit else (v & m)
        h = popcount4(hm)
        ctr[C_L2_WRITE_HIT] += h
        ctr[C_L2_WRITE_MISS] += n - h
        valid[s, way] = v | m
        dirty[s, way] = dirty[s, way] | m
        return hm
    hit = v & m
    miss = m & ~v & 15
    h = popcount4(hit)
    if kind == L2_READ:
        ctr[C_L2_READ_SECTORS] += n
        ctr[C_L2_READ_HIT] += h
        ctr[C_L2_READ_MISS] += n - h
    else:
        if kind == L2_ATOM:
            ctr[C_L2_ATOM_SECTORS] += n
        else:
            ctr[C_L2_RED_SECTORS] += n
        ctr[C_L2_ATOM_HIT] += h
        ctr[C_L2_ATOM_MISS] += n - h
    if miss:
        fetch = miss
        if fetch_pair:
            if miss & 3:
                fetch |= 3
            if miss & 12:
                fetch |= 12
        fetch &= ~v & 15
        ctr[C_DRAM_READ_SECTORS] += popcount4(fetch)
        v |= fetch
        valid[s, way] = v
    if kind != L2_READ:
        dirty[s, way] = dirty[s, way] | m
    return hit


class L2Cache:
    """The L2's state arrays plus its geometry."""

    def __init__(self, total_bytes: int, ways: int, line_bytes: int = 128, fetch_bytes: int = 64,
                 write_counts_as_hit: bool = True):
        lines = total_bytes // line_bytes
        self.ways = ways
        self.nsets = lines // ways
        self.fetch_pair = fetch_bytes >= 64
        self.write_hit = write_counts_as_hit
        self.tags = np.full((self.nsets, ways), -1, dtype=np.int64)
        self.valid = np.zeros((self.nsets, ways), dtype=np.uint8)
        self.dirty = np.zeros((self.nsets, ways), dtype=np.uint8)
        self.lru = np.zeros((self.nsets, ways), dtype=np.int64)
        self.stamp = np.zeros(1, dtype=np.int64)

    def reset(self) -> None:
        """Invalidate everything (ncu's cache flush before a profiled launch)."""
        self.tags.fill(-1)
        self.valid.fill(0)
        self.dirty.fill(0)
        self.lru.fill(0)
        self.stamp[0] = 0

    def access(self, kind: int, line: int, mask: int, ctr: np.ndarray) -> int:
        """One lookup from Python (tests, step-through)."""
        return l2_access(kind, np.int64(line), np.uint8(mask), self.tags, self.valid, self.dirty, self.lru,
                  self.nsets, self.fetch_pair, self.write_hit, self.stamp, ctr)

    def dirty_sectors(self) -> int:
        d = self.dirty
        return int(((d & 1) + ((d >> 1) & 1) + ((d >> 2) & 1) + ((d >> 3) & 1)).sum())
