"""The launches of kernels.cu, shared by the device run and simgpu's (run.py): which SMs work, with
how many warps and lanes, U loads a trip, from DRAM (cold) or from a warm L2."""
from __future__ import annotations

from simgpu.memory.topology import H200_GPCS, H200_L2_SIDE_1_GPCS

GRID = 132
UNROLLS = (1, 4, 16)
BYTES = 16 << 20  # at most 16 MB a launch (the warm L2 holds it), at most ROWS rows
ROWS = 1024


def _per_gpc(k: int, step: int = 1, gpcs=range(8)) -> tuple[int, ...]:
    return tuple(s for g in gpcs for s in H200_GPCS[g][::step][:k])


SIDE0 = tuple(g for g in range(8) if g not in H200_L2_SIDE_1_GPCS)
# name -> the SMs that work. GPC 2 is on L2 side 1, GPC 4 on side 0.
SM_SETS: dict[str, tuple[int, ...]] = {
    "1sm": H200_GPCS[2][:1],
    "1tpc": H200_GPCS[2][:2],
    "gpc2_4tpc": H200_GPCS[2][:8],  # 8 SMs, both SMs of 4 TPCs of one GPC
    "gpc2_8tpc": H200_GPCS[2][::2][:8],  # 8 SMs, one SM of 8 TPCs of one GPC
    "spread8": _per_gpc(1),  # 8 SMs, one a GPC
    "gpc2": H200_GPCS[2],  # 16 SMs, a whole GPC
    "spread16": _per_gpc(2),  # 16 SMs, one TPC of each GPC
    "spread16_1pt": _per_gpc(2, step=2),  # 16 SMs, two TPCs of each GPC, one SM of each
    "gpc2_gpc3": H200_GPCS[2] + H200_GPCS[3],  # 32 SMs, two GPCs on side 1
    "gpc2_gpc4": H200_GPCS[2] + H200_GPCS[4],  # 32 SMs, two GPCs, one on each side
    "spread32": _per_gpc(4),  # 32 SMs, 4 in each GPC
    "side0_32": _per_gpc(8, gpcs=SIDE0),  # 32 SMs, 8 in each side-0 GPC
    "side1_32": _per_gpc(8, gpcs=H200_L2_SIDE_1_GPCS),
    "spread64": _per_gpc(8),  # 64 SMs, 8 in each GPC
    "all": tuple(range(GRID)),
}


WIDE_PITCH = GRID * 128  # floats: the "all" case's rows, 67.6 KB apart


def cases():
    """(name, SMs, threads, lanes, U, warm, pitch) of every launch; pitch 0: the rows just hold the
    working SMs' columns (the span a trip covers grows with the SMs), WIDE_PITCH: as far apart as
    with all 132 SMs (does the span matter, e.g. through the TLB?)."""
    for warm in (False, True):
        for name, sms in SM_SETS.items():
            for u in UNROLLS:
                yield name, sms, 128, 32, u, warm, 0
        for name in ("gpc2", "spread16", "1sm"):
            for threads in (32, 512):
                yield name, SM_SETS[name], threads, 32, 16, warm, 0
            yield name, SM_SETS[name], 128, 8, 16, warm, 0
        for name in ("1sm", "spread8", "spread32"):
            for u in (1, 16):
                yield name, SM_SETS[name], 128, 32, u, warm, WIDE_PITCH
        # one warp alone: what each further line costs it, and where its lines lie (rows 128 B to
        # 67.6 KB apart: one DRAM page or many)
        for pitch in (32, 1024, 4096, WIDE_PITCH):
            for u in (1, 2, 4, 8, 16, 32):
                yield "1warp", SM_SETS["1sm"], 32, 32, u, warm, pitch


def shape(n_sms: int, threads: int, pitch: int = 0) -> tuple[int, int]:
    """(rows, pitch in floats): a column a thread, at most BYTES read, a multiple of 16 rows."""
    cols = n_sms * threads
    rows = min(ROWS, BYTES // (cols * 4))
    return rows - rows % 16, pitch or cols


def rank_table(sms: tuple[int, ...]) -> list[int]:
    """rank[smid]: the column block of the CTA on that SM, -1 where it idles."""
    rank = [-1] * GRID
    for i, s in enumerate(sms):
        rank[s] = i
    return rank
