"""sync_pairing: what the GPU returns where a .sync op's mask names live lanes that do not run it.

    python run.py gpu OUT.json     # device: every kernel in a process of its own (one may hang)
    python run.py sim OUT.json     # anywhere: simgpu's answers (and its warnings)
    python run.py table GPU.json SIM.json
"""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
SRC = (HERE / "kernels.cu").read_text()
CASES = {"split_shuffles": (), "split_xor": (), "split_ballot": (), "split_syncwarp": None,
         "tail_reduce": (20,), "exited_tail": (21,)}
X = np.arange(32, dtype=np.int32) + 100


def _args(xp, name):
    out = xp.full(32, -7, dtype=np.int32)
    extra = CASES[name]
    return out, ((out,) if extra is None else (xp.asarray(X), out, *[np.int32(v) for v in extra]))


def one_gpu(name: str) -> list[int]:
    import cupy as cp

    out, args = _args(cp, name)
    cp.RawModule(code=SRC).get_function(name)((1,), (32,), args)
    cp.cuda.Device().synchronize()
    return out.get().tolist()


def gpu(path: str) -> None:
    res = {}
    for name in CASES:
        try:
            p = subprocess.run([sys.executable, __file__, "one", name], capture_output=True, text=True, timeout=30)
            res[name] = json.loads(p.stdout) if p.returncode == 0 else f"failed: {p.stderr[-300:]}"
        except subprocess.TimeoutExpired:
            res[name] = "hung (killed after 30 s)"
    Path(path).write_text(json.dumps(res, indent=1))


def sim(path: str) -> None:
    sys.path.insert(0, str(HERE.parents[2]))
    import simgpu as sg

    res = {}
    for name in CASES:
        with warnings.catch_warnings(record=True) as rec:
            warnings.simplefilter("always")
            out, args = _args(sg, name)
            sg.RawModule(code=SRC).get_function(name)((1,), (32,), args, timing=False)
        res[name] = {"out": out.get().tolist(),
                     "warned": any(issubclass(w.category, sg.FidelityWarning) for w in rec)}
    Path(path).write_text(json.dumps(res, indent=1))


def table(gpu_path: str, sim_path: str) -> None:
    g, s = json.loads(Path(gpu_path).read_text()), json.loads(Path(sim_path).read_text())
    for name in CASES:
        print(f"{name}: simgpu warns: {s[name]['warned']}")
        print(f"  GPU    {g[name]}")
        print(f"  simgpu {s[name]['out']}")


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "one":
        print(json.dumps(one_gpu(sys.argv[2])))
    elif cmd == "gpu":
        gpu(sys.argv[2])
    elif cmd == "sim":
        sim(sys.argv[2])
    else:
        table(sys.argv[2], sys.argv[3])
