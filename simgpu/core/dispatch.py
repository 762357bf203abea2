"""Which SM runs which CTA.

The functional engine runs CTAs in waves of as many as the GPU holds. Within a wave, CTA i goes to
``order[i mod num_sms]``, where ``order`` is the block scheduler's SM order. For a 132-SM GPU that is
the order measured on the H200 (simgpu/memory/topology.py, benchmarks/microbench/l2_merge): GPC by
GPC, both SMs of a TPC back to back -- so consecutive CTAs share a GPC, which matters for the L2
read merging of SMs in one GPC. Other SM counts use the identity order (round robin over SM ids).
The choice matters for counters: CTAs on one SM share its L1, CTAs in one GPC merge L2 reads.

A wave that holds more CTAs than SMs places them in rounds: full rounds repeat the order, and
the partial last round (m CTAs, m < num_sms) is not the order's first m SMs: on the H200 every unit
of the walk (SMs 124-131, then each GPC) gets its share, floor(m * unit size / num_sms), the first
units of the walk one more until m is reached, and inside a GPC the last TPCs give up their odd SM
first. That is exactly where the H200 put the second round of 256 CTAs of 2 per SM (GPCs 2-5 15
CTAs, 6-7 16: SMs 109, 111, 113, 115, 117, 119, 121, 123 skipped) and the last round of 512 CTAs of
up to 8 per SM (GPCs 1-5 14, 6-7 15), under ncu (benchmarks/microbench/l2_drift, results.json).
Not modelled: the order of the full rounds past the first when more than two fit (the H200 brings
SMs 124-131 back early: in the 512-CTA launch SM 128 ran CTAs 0 and 80), the start of the walk
moving from launch to launch outside ncu, and which of 124-127 / 128-131 comes first. A wave of
fewer CTAs than SMs takes the order's first SMs.
"""

from __future__ import annotations

import numpy as np

from simgpu.memory.topology import H200_DISPATCH_ORDER, H200_DISPATCH_UNITS

_ORDERS = {len(H200_DISPATCH_ORDER): np.asarray(H200_DISPATCH_ORDER, dtype=np.int64)}
_UNITS = {len(H200_DISPATCH_ORDER): H200_DISPATCH_UNITS}


def sm_order(num_sms: int) -> np.ndarray:
    """The SM id of the i-th CTA of a wave's first round, i < num_sms."""
    o = _ORDERS.get(int(num_sms))
    return o if o is not None else np.arange(num_sms, dtype=np.int64)


def last_round(m: int, num_sms: int) -> np.ndarray:
    """The SMs, in walk order, of a wave's partial last round of m CTAs (0 < m < num_sms) that
    follows at least one full round (module docstring)."""
    units = _UNITS.get(int(num_sms))
    if units is None:
        return sm_order(num_sms)[:m]
    sizes = [len(u) for u in units]
    quota = [m * s // num_sms for s in sizes]
    left = m - sum(quota)
    for i in range(len(units)):
        if left == 0:
            break
        if quota[i] < sizes[i]:
            quota[i] += 1
            left -= 1
    out: list[int] = []
    for unit, q in zip(units, quota):
        tpcs = [unit[j:j + 2] for j in range(0, len(unit), 2)]
        drop: set[int] = set()
        for k in (1, 0):  # the odd SMs of the last TPCs first, then their even ones
            for tpc in reversed(tpcs):
                if len(drop) == len(unit) - q:
                    break
                if len(tpc) > k:
                    drop.add(tpc[k])
        out += [s for s in unit if s not in drop]
    return np.asarray(out, np.int64)


def wave_sms(n: int, num_sms: int) -> np.ndarray:
    """The SM of each of a wave's n CTAs (in CTA order): full rounds in the block scheduler's order,
    then the partial last round (last_round), or the order's first n SMs if n < num_sms."""
    order = sm_order(num_sms)
    full, m = divmod(int(n), int(num_sms))
    parts = [np.tile(order, full)]
    if m:
        parts.append(last_round(m, num_sms) if full else order[:m])
    return np.concatenate(parts).astype(np.int64)


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
        out[sel] = wave_sms(min(res, total - int(w) * res), num_sms)[ids[sel] - int(w) * res]
    return out
