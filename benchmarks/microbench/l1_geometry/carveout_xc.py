"""Device check (2026-12-02): a crosscheck case with a preferred carveout sets it on both sides; ncu's
launch__shared_mem_config_size of the real launch against the simulated one.

    python carveout_xc.py
"""

from __future__ import annotations

import numpy as np

from simgpu.crosscheck import crosscheck, kernel_case

SRC = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"""


def main() -> None:
    n = 1 << 16
    rng = np.random.default_rng(0)
    for pct in (-1, 28, 57):
        args = [np.float32(2.0), rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32), np.int32(n)]
        case = kernel_case(SRC, "saxpy", (n // 256,), (256,), args, outputs=[2], carveout=pct,
                           reference=lambda a, x, y, n: [a * x + y], name=f"saxpy_carveout{pct}")
        report = crosscheck(case, runs=2, warmup=1, ncu_time_runs=0, echo=None,
                            metrics=["launch__shared_mem_config_size", "l1tex__t_sector_hit_rate.pct"])
        c = report.cases[0]
        rows = {r.metric: r for r in c.launches[0].metrics}
        m = rows["launch__shared_mem_config_size"]
        print(f"carveout {pct:3d} %: outputs ok {c.outputs_ok}, launch__shared_mem_config_size simulated "
              f"{m.simulated:,.0f} real {m.real}, ncu: {report.ncu_status or 'ok'}")


if __name__ == "__main__":
    main()
