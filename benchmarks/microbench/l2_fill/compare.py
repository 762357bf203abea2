"""fill.cu's stores and atomics in simgpu, beside the H200's counters (results/ncu_1.csv, from
run.sh): DRAM bytes read and written per store or atomic.

    python benchmarks/microbench/l2_fill/compare.py [CASE ...]
"""

import re
import sys
from pathlib import Path

import numpy as np

import simgpu as sg

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from analyze import CASES, SHOW, rows  # noqa: E402

MB = 1 << 20
# per case: kernel, grid-stride arguments after the buffer (the same launches as fill.cu's main)
LAUNCHES = {
    "st_byte_s32_16mb": ("st_byte", "u8", (16 * MB // 32, 32)),
    "st_byte_s32_256mb": ("st_byte", "u8", (256 * MB // 32, 32)),
    "st_full_256mb": ("st_vec", "u4", (256 * MB // 32, 2, 2)),
    "st_half_256mb": ("st_vec", "u4", (256 * MB // 32, 1, 2)),
    "st_byte_s64_256mb": ("st_byte", "u8", (256 * MB // 64, 64)),
    "st_byte_s128_256mb": ("st_byte", "u8", (256 * MB // 128, 128)),
    "st_byte_late_16mb": ("st_byte_late", "u8", (16 * MB // 32,)),
    "atom_s32_16mb": ("atom_stride", "u32", (16 * MB // 32, 8)),
    "atom_s64_16mb": ("atom_stride", "u32", (16 * MB // 64, 16)),
    "atom_s128_16mb": ("atom_stride", "u32", (16 * MB // 128, 32)),
    "ld_s64_16mb": ("ld_stride", "u32", (16 * MB // 64, 16)),
    "atom_hash_16mb": ("atom_hash", "u32", (1 << 22, 16 * MB // 4 - 1)),
    "atom_hash_128mb": ("atom_hash", "u32", (1 << 22, 128 * MB // 4 - 1)),
}


def main() -> None:
    src = (HERE / "fill.cu").read_text()
    src = src[:src.index("int main()")].replace("#include <cstdio>", "").replace("#include <cuda_runtime.h>", "")
    src = re.sub(r"__global__ void", 'extern "C" __global__ void', src)
    mod = sg.RawModule(code=src)
    h200 = {}
    for path in sorted((HERE / "results").glob("ncu_1.csv")):
        for (name, ops), r in zip(CASES, rows(path)):
            h200[name] = (ops, {k: float(r[k].replace(",", "")) for k in SHOW[:2]})
    want = sys.argv[1:] or list(LAUNCHES)
    print(f"{'case':22s} {'rd B/op sim':>12s} {'H200':>8s} {'wr B/op sim':>12s} {'H200':>8s}")
    for name in want:
        kernel, kind, extra = LAUNCHES[name]
        size = 256 * MB if "256mb" in name else 128 * MB if "128mb" in name else 16 * MB
        buf = sg.zeros(size, np.uint8)
        args = [buf] + [np.int64(v) for v in extra]
        if kernel == "st_vec":  # (uint4*, long long n, int per, long long stride16)
            args[2] = np.int32(extra[1])
        if kernel == "atom_hash":
            args = [buf, np.int64(extra[0]), np.uint32(extra[1])]
        if kernel == "ld_stride":
            args.append(sg.zeros(16, np.uint32))
        rep = mod.get_function(kernel)((132 * 8,), (256,), tuple(args), timing=False)
        ops, hw = h200.get(name, (None, {}))
        ops = ops or 1
        m = rep.metrics
        print(f"{name:22s} {m['dram__bytes_read.sum'] / ops:12.2f} {hw.get(SHOW[0], float('nan')) / ops:8.2f} "
              f"{m['dram__bytes_write.sum'] / ops:12.2f} {hw.get(SHOW[1], float('nan')) / ops:8.2f}")


if __name__ == "__main__":
    main()
