"""Device run: which lines share an L2 atomic unit? (follows hist.py, whose 2-8 lines ran no faster
than one) 4M keys, atomicAdd onto B bins (B = 2, 4 or 8), bin b at word b * S (S = 32 ... 2^24
words: lines 128 B ... 64 MB apart), random keys. If the bins' lines sit on different units the
launch runs up to B times as fast as one bin (1.36 per ns); on one unit, as fast as one bin.

    python spacing.py OUT.jsonl
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
extern "C" __global__ void hist(const int* keys, int* h, int n, int bins, long long spacing)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) atomicAdd(&h[(long long)(keys[i] % bins) * spacing], 1);
}
'''


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    k = cp.RawModule(code=SRC).get_function("hist")
    n = 1 << 22
    keys = cp.asarray(np.random.default_rng(1).integers(0, 1 << 20, n, dtype=np.int32))
    h = cp.zeros(8 << 24, cp.int32)  # 512 MB: 8 bins up to 2^24 words apart
    rows = []
    for bins in (1, 2, 4, 8):
        for e in range(5, 25):
            if bins == 1 and e > 5:
                break
            s = 1 << e
            args = (keys, h, cp.int32(n), cp.int32(bins), cp.int64(s))
            ms = timed(lambda a=args: k(((n + 255) // 256,), (256,), a))
            rows.append({"gpu": gpu, "n": n, "bins": bins, "spacing_bytes": 4 * s, "ms": ms,
                         "atomics_per_ns": n / (ms * 1e6)})
            sys.stderr.write(f"bins {bins} spacing {4 * s:>10d} B: {rows[-1]['atomics_per_ns']:.2f} per ns\n")
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)


if __name__ == "__main__":
    main()
