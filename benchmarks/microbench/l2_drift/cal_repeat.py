#!/usr/bin/env python3
"""The calibration gemms exactly as calibrated (CuPy RawModule = NVRTC, 256x256, 16x16 CTAs of 16x16),
launched REPS times each; run under ncu to see the run-to-run spread of the L2 read count.

    ncu ... python3 cal_repeat.py KERNELS_CU [REPS]
"""
import sys

import cupy as cp
import numpy as np

src = open(sys.argv[1]).read()
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 8
mod = cp.RawModule(code=src)
g = 256
r = np.random.default_rng(4)
A = cp.asarray(r.random(g * g, dtype=np.float32))
B = cp.asarray(r.random(g * g, dtype=np.float32))
C = cp.zeros(g * g, dtype=np.float32)
for name in ("gemm_naive", "gemm_tiled"):
    f = mod.get_function(name)
    for i in range(reps):
        f((g // 16, g // 16), (16, 16), (A, B, C, np.int32(g), np.int32(g), np.int32(g)))
        cp.cuda.Device().synchronize()
        print(f"RESULT {{\"kernel\": \"{name}\", \"rep\": {i}}}", flush=True)
