"""Device run: do stores that write part of a sector queue on the L2's per-line units, as atomics do
(l2_atomics)? validation/typical2's scatter_perm (out[perm[i]] = in[i]: 262,144 one-word stores on
8,192 lines) ran 5.8 us on the H200 against simgpu's 3.1. Here 4M threads store one word each to
B bins (B = 1 ... 65,536), bin b at word b * S (S = 1: packed; 32: a line apart; 64: 256 B apart),
random keys; event time (median of 5) -> line writes per ns. Beside them the same with atomicAdd.

    python partial.py OUT.jsonl
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
extern "C" __global__ void st_bins(const int* keys, int* h, int n, int bins, long long spacing)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) h[(long long)(keys[i] % bins) * spacing] = i;
}
extern "C" __global__ void perm_scatter(const int* perm, const float* in, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[perm[i]] = in[i];
}
'''


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    mod = cp.RawModule(code=SRC)
    st_bins, scatter = mod.get_function("st_bins"), mod.get_function("perm_scatter")
    n = 1 << 22
    rng = np.random.default_rng(1)
    keys = cp.asarray(rng.integers(0, 1 << 20, n, dtype=np.int32))
    h = cp.zeros(65536 * 64, cp.int32)
    rows = []

    def record(**kw):
        rows.append({"gpu": gpu, **kw})
        sys.stderr.write(json.dumps(kw) + "\n")

    for spacing in (1, 32, 64):
        for bins in (1, 2, 8, 32, 256, 1024, 4096, 65536):
            if spacing * bins > h.size:
                continue
            args = (keys, h, cp.int32(n), cp.int32(bins), cp.int64(spacing))
            ms = timed(lambda a=args: st_bins(((n + 255) // 256,), (256,), a))
            record(kernel="st_bins", n=n, bins=bins, spacing_words=spacing, ms=ms, stores_per_ns=n / (ms * 1e6))
    for m in (1 << 18, 1 << 20, 1 << 22):  # scatter_perm's kernel at 3 sizes (1 MB ... 16 MB of output)
        perm = cp.asarray(rng.permutation(m).astype(np.int32))
        src = cp.ones(m, cp.float32)
        out = cp.zeros(m, cp.float32)
        args = (perm, src, out, cp.int32(m))
        ms = timed(lambda a=args, g=(m + 255) // 256: scatter((g,), (256,), a))
        record(kernel="perm_scatter", n=m, ms=ms, stores_per_ns=m / (ms * 1e6))
        ident = cp.arange(m, dtype=cp.int32)
        args = (ident, src, out, cp.int32(m))
        ms = timed(lambda a=args, g=(m + 255) // 256: scatter((g,), (256,), a))
        record(kernel="perm_identity", n=m, ms=ms, stores_per_ns=m / (ms * 1e6))
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write(text)


if __name__ == "__main__":
    main()
