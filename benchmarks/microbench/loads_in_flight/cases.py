"""The launches of kernels.cu, shared by the device run (run.py) and simgpu's (compare.py)."""
import numpy as np

STREAM_BYTES = 64 << 20  # each col_stream launch reads 64 MB: more than the 60 MB L2, from DRAM
UNROLLS = (1, 2, 4, 8, 16, 32)
# (CTAs, threads a CTA): dgemv_t_cols' shape (64 x 128: 4 warps on each of 64 SMs), then every SM
# with 4, 16 and 64 warps
STREAM_SHAPES = ((64, 128), (132, 128), (132, 512), (528, 512))
STREAM_TYPES = {"f": np.float32, "d": np.float64}

BURSTS = (1, 2, 4, 8, 16, 32, 64)
BURST_WARPS = (1, 4, 16)
BURST_LANE_BYTES = (4, 16, 128)  # one line (4 sectors), 4 lines, 32 lines (one sector each) a load
BURST_BUFFER_BYTES = 64 * 32 * 128


def stream_shape(tag: str, ctas: int, threads: int) -> tuple[int, int]:
    """(rows, cols) of the matrix a col_stream launch reads: a column a thread, 64 MB (more for the
    widest grid, which would otherwise run a few trips)."""
    cols = ctas * threads
    rows = STREAM_BYTES // (cols * np.dtype(STREAM_TYPES[tag]).itemsize)
    return max(rows - rows % max(UNROLLS), 4 * max(UNROLLS)), cols


def burst_cases():
    """(N, mode, warps, lane_bytes) of every burst launch; the L1-resident ones fit in 128 KB."""
    for mode in ("ca", "cg"):
        for lane in BURST_LANE_BYTES:
            for warps in BURST_WARPS:
                for n in BURSTS:
                    if mode == "ca" and n * 32 * lane > 128 << 10:
                        continue
                    yield n, mode, warps, lane
