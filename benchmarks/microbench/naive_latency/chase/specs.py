"""Launch specs for kernels.cu: one warp's dependent walk down a column, rows `stride` ints apart,
K rows, once (every load a DRAM miss: ncu flushes the caches) or twice (the second pass from L2)."""

import numpy as np

K = 1024
CASES = {  # name: (stride in ints, passes)
    "rows_128B": (32, 1),
    "rows_1KB": (256, 1),
    "rows_1KB_twice": (256, 2),
    "rows_4KB": (1024, 1),
    "rows_64KB": (16384, 1),
}


def specs() -> list[dict]:
    out = []
    for name, (stride, passes) in CASES.items():
        out.append(dict(name=name, kernel="col_chase", grid=(1,), block=(32,),
                        args=[np.zeros(K * stride + 16, np.int32), np.ones(32, np.int32), np.int32(K),
                              np.int32(stride), np.int32(passes)],
                        outputs=[1], reference=lambda B, o, k, s, p: [np.zeros(32, np.int32)]))
    return out
