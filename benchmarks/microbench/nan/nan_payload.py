"""What NaN bit pattern does the GPU return from binary32 add/sub/mul/fma when inputs are NaNs with
payloads? (The simulator must pick one rule for both engines; this measures the hardware's.)

    python benchmarks/microbench/nan/nan_payload.py   # needs CuPy and a CUDA GPU; prints JSON
"""

import json
import os

import cupy as cp
import numpy as np

SRC = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "nan_payload.cu")).read()

CASES = [  # (a, b, c) bit patterns
    (0xFFC00001, 0xFFFFFFFE, 0xFFFFFFFF), (0x7FC00000, 0x3F800000, 0x0), (0x3F800000, 0x7FC12345, 0x0),
    (0x7F800001, 0x3F800000, 0x0), (0xFFC00001, 0x7FC00002, 0x3F800000), (0x3F800000, 0x3F800000, 0x7FC0ABCD),
    (0x7F800000, 0xFF800000, 0x0), (0x0, 0x7F800000, 0x0), (0x7F800000, 0x0, 0x3F800000),
    (0x3F800000, 0x40000000, 0xFFC00007),
]

a, b, c = (np.array([x[i] for x in CASES], np.uint32).view(np.float32) for i in range(3))
n = len(CASES)
out = cp.zeros(8 * n, cp.uint32)
cp.RawKernel(SRC, "k")((1,), (32,), (cp.asarray(a), cp.asarray(b), cp.asarray(c), out, np.int32(n)))
res = out.get().reshape(n, 8)
names = ["add", "sub", "mul", "fma", "neg", "abs", "fmax", "add_swapped"]
print(json.dumps({"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                  "cases": [{"a": f"0x{x[0]:08x}", "b": f"0x{x[1]:08x}", "c": f"0x{x[2]:08x}",
                             **{nm: f"0x{int(v):08x}" for nm, v in zip(names, row)}}
                            for x, row in zip(CASES, res)]}, indent=1))
