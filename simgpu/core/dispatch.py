"""Which SM runs which CTA.

The functional engine runs CTAs in waves of as many as the GPU holds. Within a wave, CTA i goes to
``order[i mod num_sms]``, where ``order`` is the block scheduler's SM order. For a 132-SM GPU that is
the order measured on the H200 (simgpu/memory/topology.py, benchmarks/microbench/l2_merge): GPC by
GPC, both SMs of a TPC back to back -- so consecutive CTAs share a GPC, which matters for the L2
read merging of SMs in one GPC. Other SM counts use the identity order (round robin over SM ids).
The choice matters for counters: CTAs on one SM share its L1, CTAs in one GPC merge L2 reads.

Measured but not modelled: past the first CTA per SM the real split between GPCs varies with the
grid size and timing (e.g. 256 CTAs: in the second round GPCs 2-5 get 15 CTAs, 6-7 get 16), so the
second CTA of an SM is not always CTA i + 132.
"""

from __future__ import annotations

import numpy as np

from simgpu.memory.topology import H200_DISPATCH_ORDER

_ORDERS = {len(H200_DISPATCH_ORDER): np.asarray(H200_DISPATCH_ORDER, dtype=np.int64)}


def sm_order(num_sms: int) -> np.ndarray:
    """The SM id of the i-th CTA of a wave's first round, i < num_sms."""
    o = _ORDERS.get(int(num_sms))
    return o if o is not None else np.arange(num_sms, dtype=np.int64)


def sm_of_cta(cta_ids: np.ndarray, resident_ctas: int, num_sms: int) -> np.ndarray:
    """SM id for each CTA id, given how many CTAs the whole GPU holds at once."""
    pos = (np.asarray(cta_ids, dtype=np.int64) % max(1, resident_ctas)) % num_sms
    return sm_order(num_sms)[pos]
