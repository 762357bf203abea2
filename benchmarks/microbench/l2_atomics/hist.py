"""Device run: how fast do global atomics to a few addresses go, by how the addresses share lines?

histogram_global's kernel (validation/typical: atomicAdd(&hist[keys[i] % bins], 1), random keys) for
1 ... 65,536 bins packed 32 to a 128-byte line, and the same bins spread one to a line (`stride` 32
words), so the number of lines and the number of addresses per line vary apart. Prints event time
(median of 5) and atomics per ns.

    python hist.py OUT.jsonl
"""

import json
import subprocess
import sys
from pathlib import Path

import cupy as cp
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from event_timing import timed  # noqa: E402

SRC = r'''
extern "C" __global__ void hist(const int* keys, int* h, int n, int bins, int stride)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&h[(keys[i] % bins) * stride], 1);
}
'''


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    k = cp.RawModule(code=SRC).get_function("hist")
    rng = np.random.default_rng(1)
    rows = []
    for n in (262144, 4194304):
        keys = cp.asarray(rng.integers(0, 1 << 20, n, dtype=np.int32))
        for stride in (1, 32):
            for bins in (1, 2, 8, 32, 64, 128, 256, 1024, 4096, 65536):
                if stride == 32 and bins > 4096:
                    continue
                h = cp.zeros(bins * stride, cp.int32)
                args = (keys, h, cp.int32(n), cp.int32(bins), cp.int32(stride))
                ms = timed(lambda a=args, g=(n + 255) // 256: k((g,), (256,), a))
                lines = bins if stride == 32 else (bins + 31) // 32
                rows.append({"gpu": gpu, "n": n, "bins": bins, "stride": stride, "lines": lines,
                             "ms": ms, "atomics_per_ns": n / (ms * 1e6)})
                sys.stderr.write(json.dumps(rows[-1]) + "\n")
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)


if __name__ == "__main__":
    main()
