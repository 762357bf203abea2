"""Run only the real launches of a crosscheck plan: the program ncu profiles.

    ncu --csv --page raw --metrics ... python -m simgpu.crosscheck.runner --plan plan.pkl --launches order.json

The plan is a pickled list of case plans (:meth:`KernelCase.plan`, :meth:`ProgramCase.plan`). Each
case runs ``--repeat`` times, in order, and nothing else touches the GPU. The launches made are
written to ``--launches`` as ``[case index, repeat, launch index, kernel name]`` so that ncu's rows
can be matched to them. Nothing is printed to stdout, which ncu's CSV uses.
"""

from __future__ import annotations

import argparse
import json
import pickle
import sys
import traceback


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m simgpu.crosscheck.runner", description=__doc__.splitlines()[0])
    ap.add_argument("--plan", required=True, help="pickled list of case plans")
    ap.add_argument("--repeat", type=int, default=1, help="run each case this many times")
    ap.add_argument("--launches", help="write the launch order here (JSON)")
    a = ap.parse_args(argv)

    from simgpu.crosscheck.cases import from_plan
    from simgpu.crosscheck.gpu import import_cupy, launch_real

    cupy = import_cupy()
    if cupy is None:
        print("simgpu runner: CuPy is not installed", file=sys.stderr)
        return 2
    with open(a.plan, "rb") as f:
        plans = pickle.load(f)
    order: list[list] = []
    failed = 0
    for ci, entry in enumerate(plans):
        try:
            case = from_plan(entry)
            for rep in range(max(1, a.repeat)):
                _, _, side = launch_real(case)
                order.extend([ci, rep, li, rec.kernel] for li, rec in enumerate(side.launches))
        except Exception:  # noqa: BLE001 - the other cases still run
            failed += 1
            print(f"simgpu runner: case {entry.get('name')} failed:\n{traceback.format_exc()}", file=sys.stderr)
        finally:
            cupy.get_default_memory_pool().free_all_blocks()
    if a.launches:
        with open(a.launches, "w") as f:
            json.dump(order, f)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
