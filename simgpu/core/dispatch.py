"""Which SM runs which CTA.

The functional engine runs CTAs in waves of as many as the GPU holds. Within a wave, CTA i goes to
``order[i mod num_sms]``, where ``order`` is the block scheduler's SM order. For a 132-SM GPU that is
the order measured on the H200 (simgpu/memory/topology.py, benchmarks/microbench/l2_merge): GPC by
GPC, both SMs of a TPC back to back -- so consecutive CTAs share a GPC, which matters for the L2
read merging of SMs in one GPC. Other SM counts use the identity order (round robin over SM ids).
The choice matters for counters: CTAs on one SM share its L1, CTAs in one GPC merge L2 reads.

A wave places its CTAs in rounds of at most one per SM: full rounds repeat the order; a partial
round (m CTAs, m < num_sms: a launch smaller than the GPU, or the last round of a wave) goes, as on
the H200, to SMs 124-131 first, then one CTA at a time to each GPC in turn, first to the even SM
of each TPC, then to the odd ones, and its CTAs are numbered GPC by GPC in the walk's order. So a
64-CTA launch takes SMs 124-131 and one SM of 56 other TPCs spread over all eight GPCs, not the
first 64 SMs of the walk. This reproduces every CTA's SM of launches of 8, 16, 32, 64 (1-D and
8x8), 66, 96, 100, 128, 130, 132, 200 and 256 CTAs, three plain runs and one under ncu
(benchmarks/microbench/dispatch), and the l2_drift launches of 256 CTAs of 2 per SM and the last
round of 512, up to the swap of SMs 124-127 and 128-131, which changes from launch to launch.
Not modelled: the order of full rounds past the first when more than two fit (SMs 124-131 come
back every ~100 CTAs at a GPC boundary while the GPCs are walked cyclically: in a 512-CTA launch SM
128 ran CTAs 0 and 80; measured on an H100 and tried in benchmarks/microbench/dispatch, README
"Launches of several full rounds": the L1 hit rates of 512-1,056-CTA launches move closer, their L2
reads do not), and which of 124-127 / 128-131 comes first.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from simgpu.memory.topology import H200_DISPATCH_ORDER, H200_DISPATCH_UNITS

_ORDERS = {len(H200_DISPATCH_ORDER): np.asarray(H200_DISPATCH_ORDER, dtype=np.int64)}
_UNITS = {len(H200_DISPATCH_ORDER): H200_DISPATCH_UNITS}


def sm_order(num_sms: int) -> np.ndarray:
    """The SM id of the i-th CTA of a wave's first round, i < num_sms."""
    o = _ORDERS.get(int(num_sms))
    return o if o is not None else np.arange(num_sms, dtype=np.int64)


def round_sms(m: int, num_sms: int) -> np.ndarray:
    """The SMs, in CTA order, of one round of m CTAs (0 < m <= num_sms) of a wave (module docstring):
    SMs 124-131 first, then the other CTAs dealt out over the GPCs one at a time in turn, first to
    the even SM of each TPC, then to the odd ones, and numbered GPC by GPC in the walk's order."""
    units = _UNITS.get(int(num_sms))
    if units is None:
        return sm_order(num_sms)[:m]
    head, gpcs = units[0], units[1:]
    out = list(head[:m])
    rest = m - len(out)
    take = [[0, 0] for _ in gpcs]  # per GPC, how many of its TPCs give their even / odd SM
    n_tpc = [(len(g) + 1) // 2 for g in gpcs]
    for kind in (0, 1):
        while rest > 0 and any(t[kind] < n for t, n in zip(take, n_tpc)):
            for t, n in zip(take, n_tpc):
                if rest > 0 and t[kind] < n:
                    t[kind] += 1
                    rest -= 1
    for g, (even, odd) in zip(gpcs, take):
        out += [s for i, s in enumerate(g) if (i // 2 < even if i % 2 == 0 else i // 2 < odd)]
    return np.asarray(out, np.int64)


@lru_cache(maxsize=64)
def wave_sms(n: int, num_sms: int) -> np.ndarray:
    """The SM of each of a wave's n CTAs (in CTA order): full rounds in the block scheduler's order,
    then the partial last round (round_sms). Cached (the engine asks once per wave): read-only."""
    order = sm_order(num_sms)
    full, m = divmod(int(n), int(num_sms))
    parts = [np.tile(order, full)]
    if m:
        parts.append(round_sms(m, num_sms))
    out = np.concatenate(parts).astype(np.int64)
    out.flags.writeable = False
    return out


def sm_of_cta(cta_ids: np.ndarray, resident_ctas: int, num_sms: int, n_ctas: int | None = None) -> np.ndarray:
    """SM id for each CTA id, given how many CTAs the whole GPU holds at once and how many the
    launch has (n_ctas; None: as many as the ids need)."""
    ids = np.asarray(cta_ids, dtype=np.int64)
    res = max(1, int(resident_ctas))
    total = int(ids.max()) + 1 if n_ctas is None and len(ids) else int(n_ctas or 0)
    out = np.empty(len(ids), np.int64)
    wave = ids // res
    for w in np.unique(wave):
        sel = wave == w
        out[sel] = wave_sms(min(res, total - int(w) * res), int(num_sms))[ids[sel] - int(w) * res]
    return out
