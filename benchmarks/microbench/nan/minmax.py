"""fmaxf / fminf (PTX max.f32 / min.f32) on the GPU: signed zeros and NaNs.

    python benchmarks/microbench/nan/minmax.py   # needs CuPy and a CUDA GPU; prints JSON
"""

import json
import os

import cupy as cp
import numpy as np

SRC = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "minmax.cu")).read()
P = [0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7FC00000, 0xFFC00001, 0x7F800001, 0x7F800000, 0xFF800000,
     0x00000001]
pairs = [(x, y) for x in P for y in P]
a = np.array([x for x, _ in pairs], np.uint32).view(np.float32)
b = np.array([y for _, y in pairs], np.uint32).view(np.float32)
n = len(pairs)
out = cp.zeros(2 * n, cp.uint32)
cp.RawKernel(SRC, "k")((4,), (32,), (cp.asarray(a), cp.asarray(b), out, np.int32(n)))
res = out.get().reshape(n, 2)
print(json.dumps({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                  "cases": [{"a": f"0x{x:08x}", "b": f"0x{y:08x}", "max": f"0x{int(r[0]):08x}",
                             "min": f"0x{int(r[1]):08x}"} for (x, y), r in zip(pairs, res)]}))
