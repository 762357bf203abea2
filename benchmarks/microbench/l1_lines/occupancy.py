"""Device run: does the L1 tag rate of lines.py (two lines a cycle) hold with 16 to 64 warps per SM,
and when a warp's next loads ask for the same lines again (the next word of each, as a GEMV's
unrolled scalar loads of x do)? C CTAs of 8 warps per SM (grid 132 C), every CTA reading the same
eight 9 KB warp regions (72 KB, L1-resident after a warm pass), lane stride S floats, 8 independent
ld.global.ca per loop trip: "shift" moves each load by whole lines (lines.py), "words" by one word
(the same lines, the same sector for S >= 8). Prints cycles per warp load per SM as JSON lines: per
SM, from the first of its CTAs' timed passes to start to the last to end (the SM's clock64), over all
their warp loads; the median over SMs (and the median CTA's own pass, over its loads alone).

    python occupancy.py OUT.jsonl      # on the device
    python occupancy.py --compare FILE # anywhere: simgpu (4-SM teaching preset, C CTAs per SM) beside it
"""

import json
import subprocess
import sys

SRC = r'''
extern "C" __global__ void l1_occ(const float* buf, float* out, long long* cyc, int stride, int step, int iters,
                                  int region, int priv, int sms)
{   // cyc[3 b .. 3 b + 2]: the SM, and the SM clock at the start and the end of the timed pass;
    // priv = 0: the same 8 warp regions in every CTA, else 8 for each round of `sms` CTAs (one per SM)
    const float* base = buf + ((priv ? blockIdx.x / sms * 8 : 0) + threadIdx.x / 32) * region;
    const float* p = base + (threadIdx.x % 32) * stride;
    float s = 0.f;
    for (int w = 0; w < 2; ++w) {  // pass 0 warms the L1, pass 1 is timed
        __syncthreads();
        long long t0 = clock64();
        for (int i = 0; i < iters; ++i) {
            float v0, v1, v2, v3, v4, v5, v6, v7;
            LOADS
            s += ((v0 + v1) + (v2 + v3)) + ((v4 + v5) + (v6 + v7));
        }
        __syncthreads();
        if (w == 1 && threadIdx.x == 0) {
            unsigned sm;
            asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
            cyc[3 * blockIdx.x] = sm; cyc[3 * blockIdx.x + 1] = t0; cyc[3 * blockIdx.x + 2] = clock64();
        }
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
'''
# the trip's 8 independent loads, each `step` floats further on (lines.py's, with a variable step)
SRC = SRC.replace("LOADS", "\n            ".join(
    f'asm volatile("ld.global.ca.f32 %0, [%1];" : "=f"(v{k}) : "l"(p + ((i + {k}) & 7) * step));' for k in range(8)))
CTAS = (1, 2, 4, 8)
STRIDES = (1, 8, 32)
STEPS = {"shift": 32, "words": 1}
ITERS = 64
REGION = 2304  # floats per warp region (9 KB), shared by the CTAs of an SM
# private regions (each CTA of an SM its own): (CTAs per SM, stride, floats per region) that fit the L1
PRIVATE = ((2, 32, 1280), (4, 32, 1280), (2, 8, 512), (4, 8, 512), (8, 8, 512), (4, 1, 512), (8, 1, 512))


def device(path: str | None) -> None:
    import cupy as cp
    import numpy as np

    gpu = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.strip()
    k = cp.RawModule(code=SRC).get_function("l1_occ")
    buf = cp.random.random(8 * 8 * REGION + 64, dtype=cp.float32)
    rows = []
    runs = [(c, s, name, REGION, 0) for c in CTAS for s in STRIDES for name in STEPS]
    runs += [(c, s, "shift", region, 1) for c, s, region in PRIVATE]
    for c, s, name, region, priv in runs:
        step = STEPS[name]
        n = 132 * c
        cyc, out = cp.zeros(3 * n, cp.int64), cp.zeros(n * 256, cp.float32)
        k((n,), (256,), (buf, out, cyc, cp.int32(s), cp.int32(step), cp.int32(ITERS), cp.int32(region),
                         cp.int32(priv), cp.int32(132)))
        cp.cuda.runtime.deviceSynchronize()
        t = cyc.get().reshape(n, 3)
        per_sm = []
        for sm in np.unique(t[:, 0]):
            mine = t[t[:, 0] == sm]
            per_sm.append((mine[:, 2].max() - mine[:, 1].min()) / (ITERS * 8 * 8 * len(mine)))
        own = float(np.median(t[:, 2] - t[:, 1])) / (ITERS * 8 * 8)
        first = t[t[:, 0] == t[0, 0]]  # the timed passes of the CTAs on CTA 0's SM, from its first start
        passes = sorted((int(a - first[:, 1].min()), int(b - first[:, 1].min())) for a, b in first[:, 1:])
        rows.append({"gpu": gpu, "ctas_per_sm": c, "warps_per_sm": 8 * c, "stride": s, "pattern": name,
                     "private": priv, "region_floats": region,
                     "ctas_on_busiest_sm": int(np.bincount(t[:, 0]).max()),
                     "cycles_per_load_per_sm": float(np.median(per_sm)), "cta_cycles_per_own_load": own,
                     "passes_on_first_sm": passes})
    text = "\n".join(json.dumps(r) for r in rows) + "\n"
    if path:
        open(path, "w").write(text)
    sys.stderr.write(text)


def simulated(c: int, stride: int, step: int, region: int = REGION, priv: int = 0) -> float:
    """simgpu's cycles per warp load per SM: C CTAs on each of the teaching preset's 4 SMs, from the
    difference of 16 and 48 loop trips (the warm pass and the cold misses cancel)."""
    import numpy as np

    import simgpu as sg

    k = sg.RawModule(code=SRC).get_function("l1_occ")
    buf = sg.asarray(np.ones(8 * 8 * REGION + 64, np.float32))

    def cycles(iters: int) -> int:
        out, cyc = sg.zeros(4 * c * 256, np.float32), sg.zeros(3 * 4 * c, np.int64)
        rep = k((4 * c,), (256,), (buf, out, cyc, np.int32(stride), np.int32(step), np.int32(iters), np.int32(region),
                         np.int32(priv), np.int32(4)), gpu="teaching")
        return rep.timing.cycles

    return (cycles(48) - cycles(16)) / (2 * 32 * 8 * 8 * c)


def compare(path: str) -> None:
    rows = [json.loads(line) for line in open(path) if line.strip()]
    print(f"{'warps':>5s} {'stride':>6s} {'pattern':>12s} {'H200':>7s} {'simgpu':>7s}   cycles per warp load per SM")
    for r in rows:
        priv = r.get("private", 0)
        sim = simulated(r["ctas_per_sm"], r["stride"], STEPS[r["pattern"]], r.get("region_floats", REGION), priv)
        name = r["pattern"] + (" priv" if priv else "")
        print(f"{r['warps_per_sm']:5d} {r['stride']:6d} {name:>12s} {r['cycles_per_load_per_sm']:7.2f} {sim:7.2f}")


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--compare":
        compare(sys.argv[2])
    else:
        device(sys.argv[1] if len(sys.argv) > 1 else None)
