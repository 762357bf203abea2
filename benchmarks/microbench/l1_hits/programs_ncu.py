"""Run built-in programs at chosen sizes on a real GPU under CuPy, for ncu (run.sh): which sectors
ncu counts as L1 hits (loads vs stores) and how many DRAM sectors a small kernel reads beyond its
data. Prints one label per launch, in launch order, so ncu's IDs can be matched to variants."""

import os
import sys

os.environ.setdefault("SIMGPU_PROGRAMS_BACKEND", "cupy")
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", ".."))

from programs import get_program  # noqa: E402

VARIANTS = [
    ("gemm_naive", {}),
    ("gemm_tiled", {}),
    ("gemm_regblock", {}),
    ("gemm_regblock", {"M": 256, "N": 256}),
    ("flash_attn", {}),
    ("flash_attn", {"block_q": 32}),
    ("flash_attn", {"batch_heads": 1, "seq_q": 64}),
    ("flash_attn", {"head_dim": 32}),
    ("flash_attn_splitkv", {}),
    ("transpose_naive", {}),
    ("paged_decode", {}),
]

if __name__ == "__main__":
    for name, size in VARIANTS:
        run = get_program(name).run(size)
        run.verify()
        for kernel, _ in run.launches:
            print("LAUNCH", name, size, kernel, flush=True)
