"""Launch specs for kernels.cu: the same 64-step shuffle loop over 64K floats (typical22's
shfl_gain_filter shape), its trip count given five ways. simgpu guards the SHFL of steps_per_warp
only (timing/convergence.py), so it alone keeps its loads behind each shuffle."""

import numpy as np

STEPS, N = 64, 1 << 16
SOURCE_FILE = "kernels.cu"
KERNELS = ("steps_param", "steps_per_warp", "steps_per_block", "steps_broadcast", "steps_after_return")


def _reference(x, lens, y, steps, n):
    v = x.reshape(int(steps), int(n)).astype(np.float64)
    nb = np.zeros_like(v)
    nb[:, :-1] = v[:, 1:]
    last = (np.arange(int(n)) % 32) == 31  # shfl_down past the warp's end returns the lane's own value
    nb[:, last] = v[:, last]
    return [((v - nb) * 0.75).sum(axis=0).astype(np.float32)]


def specs() -> list[dict]:
    x = np.random.default_rng(22).standard_normal(STEPS * N, dtype=np.float32)
    lens = np.full(N // 32, STEPS, np.int32)  # per warp and, for steps_per_block, per block (N / 256 used)
    return [dict(name=k, kernel=k, grid=(N // 256,), block=(256,),
                 args=[x, lens, np.zeros(N, np.float32), np.int32(STEPS), np.int32(N)],
                 outputs=[2], reference=_reference, rtol=1e-4, atol=1e-4) for k in KERNELS]
