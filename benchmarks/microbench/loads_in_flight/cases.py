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


SWEEP_UNROLLS = (1, 4, 16)
SWEEP_BYTES = 16 << 20  # a sweep launch reads 16 MB or more (from DRAM after a flush, or a warm L2)


def sweep_cases():
    """(name, CTAs, threads, pitch padding in floats, warm L2) of sweep.py's launches: the SMs in
    flight (4 warps each), the warps an SM (all 132 SMs), the row stride, and an L2-resident matrix."""
    for ctas in (1, 8, 32, 64, 132):
        yield "sms", ctas, 128, 0, False
    for threads in (32, 64, 256, 512):
        yield "warps", 132, threads, 0, False
    for pad in (32, 256, 1056):
        yield "pitch", 64, 128, pad, False
    for ctas in (8, 64, 132):
        yield "l2", ctas, 128, 0, True


def sweep_shape(ctas: int, threads: int, pad: int) -> tuple[int, int, int]:
    """(rows, cols, pitch) of a sweep launch: a column a thread, SWEEP_BYTES of columns read."""
    cols = ctas * threads
    rows = max(SWEEP_BYTES // (cols * 4), 8 * max(SWEEP_UNROLLS))  # at least 8 trips of 16 loads
    return rows - rows % max(SWEEP_UNROLLS), cols, cols + pad
