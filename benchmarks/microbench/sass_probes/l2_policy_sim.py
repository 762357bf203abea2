"""Which L2 organisation reproduces cache_probes' reread_big on the H200? A stand-alone simulation of
its access stream (264 CTAs, each reading its slice of 32-96 MB twice, interleaved in time) through
candidate L2s: one 60 MB LRU cache (simgpu today), or two 30 MB partitions where a line read by an
SM of the far side also gets a copy in the near partition (benchmarks/microbench/l2_partition), with
LRU or random replacement, copies inserted as most or least recently used.

    python l2_policy_sim.py      # DRAM sectors read / distinct sectors, per size, against the H200

The set index is a multiplicative hash (simgpu's XOR fold gives 1.00 / 2.00 at 56 / 64 MB for the
single LRU). Result (2026-11-30): no candidate is within 5 % at every size; the H200 lies between LRU with copies
and random replacement with copies. Not adopted in simgpu (compare.KNOWN_GAPS)."""

from __future__ import annotations

import numpy as np
from numba import njit

from simgpu.core import dispatch
from simgpu.memory.topology import H200_L2_SIDE

H200 = {32: 1.00, 48: 1.43, 56: 1.76, 64: 1.86, 96: 1.91}  # cache_ncu.csv: DRAM sectors / distinct
WAYS = 16


@njit(cache=True)
def _set_of(line, nsets):
    h = (line * np.int64(0x9E3779B97F4A7C15)) >> np.int64(20)
    return (h & 0xFFFFFFFF) % nsets


@njit(cache=True)
def _home(line):
    b = line << 7  # byte address; the partition is the parity of bits 12, 13, 15, 17, 19 (topology.py)
    return ((b >> 12) ^ (b >> 13) ^ (b >> 15) ^ (b >> 17) ^ (b >> 19)) & 1


@njit(cache=True)
def _victim(tags, stamp, p, s, random):
    for w in range(tags.shape[2]):
        if tags[p, s, w] == -1:
            return w
    if random:
        return np.random.randint(tags.shape[2])
    v = 0
    for w in range(tags.shape[2]):
        if stamp[p, s, w] < stamp[p, s, v]:
            v = w
    return v


@njit(cache=True)
def dram_ratio(lines_per_cta, side_of_cta, nsets, copies, random, split):
    """DRAM line fetches / distinct lines. copies: 0 none, 1 as most recently used, 2 as least."""
    np.random.seed(1)
    parts = 2 if split else 1
    sets = nsets if split else 2 * nsets
    tags = np.full((parts, sets, WAYS), -1, np.int64)
    stamp = np.zeros((parts, sets, WAYS), np.int64)
    n_cta = side_of_cta.shape[0]
    t = 0
    fetched = 0
    for _ in range(2):
        for i in range(lines_per_cta):
            for c in range(n_cta):
                line = c * lines_per_cta + i
                h = _home(line) if split else 0
                near = side_of_cta[c] if split else 0
                s = _set_of(line, sets)
                t += 1
                if copies and near != h:
                    got = False
                    for w in range(WAYS):
                        if tags[near, s, w] == line:
                            stamp[near, s, w] = t
                            got = True
                    if got:
                        continue
                hit = False
                for w in range(WAYS):
                    if tags[h, s, w] == line:
                        stamp[h, s, w] = t
                        hit = True
                if not hit:
                    fetched += 1
                    v = _victim(tags, stamp, h, s, random)
                    tags[h, s, v] = line
                    stamp[h, s, v] = t
                if copies and near != h:
                    v = _victim(tags, stamp, near, s, random)
                    tags[near, s, v] = line
                    stamp[near, s, v] = t if copies == 1 else 0
    return fetched / (lines_per_cta * n_cta)


def main() -> None:
    n_cta = 264
    sms = dispatch.sm_of_cta(np.arange(n_cta), n_cta, 132, n_cta)
    side = np.array([H200_L2_SIDE[s] for s in sms], np.int64)
    nsets = 60 * 2**20 // 128 // WAYS // 2
    print(f"{'L2':30}" + "".join(f"{mb:>7} MB" for mb in H200))
    for name, copies, random, split in [("one 60 MB LRU (simgpu)", 0, False, False),
                                        ("one 60 MB random", 0, True, False),
                                        ("2 x 30 MB LRU, copies", 1, False, True),
                                        ("2 x 30 MB LRU, copies as LRU", 2, False, True),
                                        ("2 x 30 MB random, copies", 1, True, True)]:
        row = [dram_ratio(mb * 2**20 // 128 // n_cta, side, nsets, copies, random, split) for mb in H200]
        print(f"{name:30}" + "".join(f"{x:10.2f}" for x in row))
    print(f"{'H200':30}" + "".join(f"{x:10.2f}" for x in H200.values()))


if __name__ == "__main__":
    main()
