"""simgpu's kernel times for specs.py with ready_first on and off (config ptxas_ready_load_first),
written before the device run so the H200's times test the rule on kernels it was not made from.

    python benchmarks/microbench/ready_first/predict.py > benchmarks/microbench/ready_first/predictions.txt
"""

from __future__ import annotations

from pathlib import Path

from simgpu.crosscheck import crosscheck
from simgpu.timing.config import overridden

HERE = Path(__file__).resolve().parent
TIME = "gpu__time_duration.sum"


def times(on: bool) -> dict[str, float]:
    with overridden(ptxas_ready_load_first=on):
        report = crosscheck(suite=HERE / "specs.py", real=False, echo=None)
    out = {}
    for case in report.cases:
        if case.errors or not case.outputs_ok:
            raise SystemExit(f"{case.name}: {case.errors or 'output differs from the reference'}")
        out[case.name] = float(case.launches[0].timing.simulated_ns)
    return out


def sass_loops() -> None:
    """Each kernel's innermost SASS loops with loads (NVRTC's cubin through nvdisasm)."""
    import simgpu as sg

    mod = sg.RawModule(code=(HERE / "kernels.cu").read_text())
    for name in mod.kernel_names:
        mc = mod.machine_code(name)
        loops = ", ".join(f"{x.loads} loads, {x.loaded_ahead} registers ahead" for x in (mc.loops if mc else ()))
        print(f"{name:14s} {mc.registers if mc else '?'} registers; SASS loops: {loops or 'none read'}")
    print()


def main() -> None:
    sass_loops()
    on, off = times(True), times(False)
    print(f"{'case':22s} {'ready_first on':>15s} {'off':>12s} {'on / off':>9s}")
    for name in on:
        print(f"{name:22s} {on[name]:12,.0f} ns {off[name]:9,.0f} ns {on[name] / off[name]:9.3f}")


if __name__ == "__main__":
    main()
