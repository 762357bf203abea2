"""Device run: the three variants of kernels.cu (specs.py's inputs), each launched RUNS times with
stamps; one JSON line per launch (variant, run, per-CTA SM and tile clocks) to OUT. Meant to run
under ncu (cold caches, as the L2 read counts were measured):

    ncu --csv --page raw --metrics gpu__time_duration.sum,lts__t_sectors_srcunit_tex_op_read.sum \\
        --log-file OUT.csv python stamps.py RUNS OUT.jsonl
"""

import json
import sys
from pathlib import Path

import cupy as cp
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from specs import specs  # noqa: E402


def main() -> None:
    runs, out = int(sys.argv[1]), Path(sys.argv[2])
    fn = cp.RawModule(code=(HERE / "kernels.cu").read_text()).get_function("regblock")
    with out.open("w") as f:
        for spec in specs():
            for run in range(runs):
                args = [cp.asarray(a) if isinstance(a, np.ndarray) else a for a in spec["args"]]
                fn(spec["grid"], spec["block"], tuple(args))
                cp.cuda.runtime.deviceSynchronize()
                ref = spec["reference"](*spec["args"])[0]
                ok = bool(np.allclose(args[2].get(), ref, rtol=1e-4))
                f.write(json.dumps({"variant": spec["name"], "run": run, "ok": ok, "sm": args[9].get().tolist(),
                                    "clock": args[8].get().reshape(-1, 32).tolist()}) + "\n")


if __name__ == "__main__":
    main()
