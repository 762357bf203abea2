"""Which SM runs which CTA.

The functional engine runs CTAs in waves of as many as the GPU holds; within a wave CTA i goes to
SM i mod num_sms (round-robin, the block scheduler's breadth-first order). The choice matters for
counters: CTAs on one SM share its L1.
"""

from __future__ import annotations

import numpy as np


def sm_of_cta(cta_ids: np.ndarray, resident_ctas: int, num_sms: int) -> np.ndarray:
    """SM id for each CTA id, given how many CTAs the whole GPU holds at once."""
    return (cta_ids % max(1, resident_ctas)) % num_sms
