"""On the H200: every kernel of table.py through CuPy, on the PTX simgpu makes of it; the results
(and that PTX, gzipped, so simgpu can be run on exactly the same instructions, and the inputs drawn
here, inputs.npz, so it is run on the same numbers) go to results/.

The PTX is compiled where the device is, through simgpu's own front end (simgpu.RawModule, NVRTC):
the driver there may refuse a newer NVRTC's PTX ISA, so the same PTX is what both sides run.
    python3 device.py --out results/h200.npz [--probe results/probe_h200.npz]
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import os
import sys

import cupy as cp
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table  # noqa: E402


def load(out_dir: str, fast: bool, log: dict):
    """The module's PTX from simgpu's front end, saved beside the results, loaded into CuPy."""
    import simgpu as sg
    name = "fast" if fast else "plain"
    ptx = sg.RawModule(code=table.cuda_source(fast), options=table.FAST_MATH if fast else ()).ptx
    with gzip.open(os.path.join(out_dir, f"{name}.ptx.gz"), "wt") as f:
        f.write(ptx)
    path = f"/tmp/math_api_{name}.ptx"
    open(path, "w").write(ptx)
    log[name] = hashlib.sha256(ptx.encode()).hexdigest()[:16]
    return cp.RawModule(path=path)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--out", required=True)
    ap.add_argument("--probe", metavar="NPZ", help="also run primitives.cu on probe inputs, into NPZ")
    a = ap.parse_args()
    log: dict = {"gpu": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(),
                 "driver": cp.cuda.runtime.driverGetVersion()}
    mods = {fast: load(os.path.dirname(os.path.abspath(a.out)), fast, log) for fast in (False, True)}

    def launch(kernel, args):
        dev = [cp.asarray(v) if isinstance(v, np.ndarray) else v for v in args]
        kernel((table.N // 128,), (128,), tuple(dev))
        return cp.asnumpy(dev[4])
    pools = table.generate_inputs()
    table.save_inputs(pools, os.path.join(os.path.dirname(os.path.abspath(a.out)), "inputs.npz"))
    res = table.run_all(mods, launch, pools)
    np.savez_compressed(a.out, **res)
    json.dump(log, open(os.path.splitext(a.out)[0] + ".json", "w"), indent=1)
    print(json.dumps(log), len(res), "kernels")
    if a.probe:
        probe(a.probe)


def probe(path: str) -> None:
    """Each approximate instruction of primitives.cu on probe_inputs() (table.py)."""
    src = open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "primitives.cu")).read()
    mod = cp.RawModule(code=src)
    res = {}
    for name, x in table.probe_inputs().items():
        out = cp.zeros(len(x), x.dtype)
        mod.get_function(name)(((len(x) + 127) // 128,), (128,), (cp.asarray(x), out, np.int32(len(x))))
        res[name] = cp.asnumpy(out)
    np.savez_compressed(path, **res)
    print(len(res), "probes")


if __name__ == "__main__":
    main()
