"""Device run: how fast do warp stores that leave lines partly written reach the L2, by how many
sectors of a line a store touches (p) and how many 4-byte words of each sector (w)?

validation/typical5's layernorm_welford_warp stores out[4c + k] (p = 4 sectors a line, w = 2 words a
sector): its store phase ran 28k cycles a warp on the H200 (benchmarks/microbench/step_timelines),
3.4x simgpu's, which charges one L2 unit pass per partly written line whatever p and w
(l2_writes/partial.py measured only p = 1, w = 1). 4 CTAs of 256 threads per SM on all SMs, each
warp store writes 32 / (p w) lines of a 16 MB region (L2-resident: written once before the timed
launches), 1,048,576 lines per launch in all. `python partial_lines.py OUT.jsonl` (CuPy)."""
import json
import subprocess
import sys
from pathlib import Path

import cupy as cp

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from event_timing import timed  # noqa: E402

SRC = r'''
extern "C" __global__ void st_pattern(float* buf, int p, int w, int iters, int region_lines, int own)
{   // lane l: line l / (p w), sector (l / w) % p spread over the line, word l % w spread over the sector;
    // own = 0: a warp's successive stores nwarps stores apart (grid-stride), 1: next to each other
    int l = threadIdx.x & 31, warp = (blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    int nwarps = (gridDim.x * blockDim.x) >> 5, lps = 32 / (p * w);
    int line = l / (p * w), sec = (l / w) % p * (4 / p), word = (l % w) * (8 / w);
    unsigned ln = own ? (unsigned)(warp * iters * lps + line) : (unsigned)(warp * lps + line);
    unsigned step = own ? (unsigned)lps : (unsigned)(nwarps * lps), wrap = region_lines - 1;
    for (int i = 0; i < iters; ++i) {  // region_lines a power of two: no division in the loop
        buf[(size_t)(ln & wrap) * 32 + sec * 8 + word] = (float)i;
        ln += step;
    }
}
'''
PATTERNS = [(1, 1), (1, 2), (1, 4), (1, 8), (2, 1), (2, 2), (2, 4), (2, 8), (4, 1), (4, 2), (4, 4), (4, 8)]
REGION_LINES = 1 << 17  # 16 MB
LINES = 1 << 20


def shape(p: int, w: int, nwarps: int, lines: int = LINES) -> tuple[int, int]:
    """Lines a warp store writes, and loop trips a warp for about `lines` lines a launch."""
    lps = 32 // (p * w)
    return lps, max(1, lines // (lps * nwarps))


def median_us(k, grid: int, block: int, args: tuple, reps: int) -> float:
    """One untimed launch (the region into L2), then the median of reps CUDA-event times, us."""
    return timed(lambda: k((grid,), (block,), args), reps) * 1e3


def main() -> None:
    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    props = cp.cuda.runtime.getDeviceProperties(0)
    sms = props["multiProcessorCount"]
    k = cp.RawModule(code=SRC).get_function("st_pattern")
    buf = cp.zeros(REGION_LINES * 32, cp.float32)
    grid, block = 4 * sms, 256
    nwarps = grid * block // 32
    rows = []
    for p, w in PATTERNS:
        lps, iters = shape(p, w, nwarps)
        args = (buf, cp.int32(p), cp.int32(w), cp.int32(iters), cp.int32(REGION_LINES), cp.int32(0))
        us = median_us(k, grid, block, args, 7)
        lines = iters * nwarps * lps
        rows.append({"gpu": gpu, "p": p, "w": w, "lines_per_store": lps, "iters": iters, "lines": lines,
                     "us": us, "lines_per_ns": lines / us / 1e3, "sectors_per_ns": lines * p / us / 1e3})
        print(json.dumps(rows[-1]), flush=True)
    # whole and one-sector lines again: a warp's stores next to each other, and other region sizes
    for p, w in ((4, 8), (4, 2), (1, 1)):
        for own in (0, 1):
            for region in (1 << 15, 1 << 17, 1 << 19):  # 4, 16, 64 MB
                lps, iters = shape(p, w, nwarps)
                big = cp.zeros(region * 32, cp.float32)
                args = (big, cp.int32(p), cp.int32(w), cp.int32(iters), cp.int32(region), cp.int32(own))
                us = median_us(k, grid, block, args, 5)
                lines = iters * nwarps * lps
                rows.append({"gpu": gpu, "p": p, "w": w, "own": own, "region_mb": region * 128 >> 20,
                             "lines": lines, "us": us, "lines_per_ns": lines / us / 1e3})
                print(json.dumps(rows[-1]), flush=True)
                del big
    if len(sys.argv) > 1:
        open(sys.argv[1], "w").write("\n".join(json.dumps(r) for r in rows) + "\n")


if __name__ == "__main__":
    main()
