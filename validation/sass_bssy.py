"""ptxas's convergence barriers against the timing model's rule (timing/convergence.py
convergence_barriers), kernel by kernel over the recorded suites: the BSSYs of NVRTC's SASS outside
ptxas's own slow-path regions (frontend/sass_listing.convergence_regions) against the BSSY / BSYNC
pairs the rule puts on the PTX. 2026-12-07: 245 kernels, 247 BSSYs in the SASS, 194 predicted, the
same count in 201 kernels.

    python validation/sass_bssy.py [--all]
"""

from __future__ import annotations

import argparse

from l2_reads import SUITES


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--all", action="store_true", help="print every kernel, not only those that differ")
    opts = ap.parse_args()
    import simgpu as sg
    from simgpu.frontend.nvrtc import compile_to_cubin
    from simgpu.frontend.sass import find_nvdisasm, run_nvdisasm
    from simgpu.frontend.sass_listing import convergence_regions, sass_listing, without_subroutines
    from simgpu.timing.config import default_config
    from simgpu.timing.convergence import convergence_barriers
    from simgpu.timing.isa import build_static, scheduled_blocks

    tool = find_nvdisasm()
    if tool is None:
        raise SystemExit("nvdisasm not found (the nvidia-cuda-nvdisasm wheel)")
    cfg = default_config()
    kernels = agree = in_sass = predicted = 0
    print(f"{'suite':10s} {'kernel':32s} {'SASS':>5s} {'rule':>5s}")
    for name, (specs, _) in SUITES.items():
        cu = specs.parent / "kernels.cu"
        if not cu.exists():
            continue
        source = cu.read_text()
        try:
            cubin = compile_to_cubin(source, arch="sm_90", name=str(cu))
            module = sg.RawModule(code=source)
        except Exception as exc:  # noqa: BLE001 - a suite NVRTC cannot build alone is reported, not fatal
            print(f"{name}: not compiled ({type(exc).__name__})")
            continue
        for kernel, code in sass_listing(without_subroutines(run_nvdisasm(cubin, tool, "-c", "-hex") or "")).items():
            lk = module.linked(kernel)
            converted, _ = scheduled_blocks(lk, build_static(lk, cfg), cfg)
            sass_n = convergence_regions(code)
            rule_n = sum(convergence_barriers(lk, converted).values()) // 2
            kernels += 1
            agree += sass_n == rule_n
            in_sass += sass_n
            predicted += rule_n
            if opts.all or sass_n != rule_n:
                print(f"{name:10s} {kernel:32s} {sass_n:5d} {rule_n:5d}")
    print(f"{kernels} kernels, {in_sass} BSSYs in the SASS, {predicted} predicted, the same count in {agree}")


if __name__ == "__main__":
    main()
