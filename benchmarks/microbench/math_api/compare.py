"""simgpu beside the H200 for every function of table.py: how many of the 512 results agree bit for
bit, and the largest difference in units in the last place (ulp) where they do not.

    python compare.py            # simulate the PTX the device ran (results/*.ptx.gz), compare with results/h200.npz
    python compare.py --source   # compile table.py's source here instead (this machine's NVRTC)
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import table  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FLOAT_BITS = {"f": (np.float32, np.int32), "d": (np.float64, np.int64), "h": (np.float16, np.int16)}


def modules(ptx_dir: str | None = None) -> dict:
    """The two modules, from the PTX the device ran (ptx_dir/{plain,fast}.ptx.gz) when given, else
    compiled here from table.py's source."""
    import simgpu as sg
    if ptx_dir:
        return {fast: sg.RawModule(ptx=gzip.open(os.path.join(ptx_dir, f"{'fast' if fast else 'plain'}.ptx.gz"),
                                                 "rt").read()) for fast in (False, True)}
    return {fast: sg.RawModule(code=table.cuda_source(fast), options=table.FAST_MATH if fast else ())
            for fast in (False, True)}


def simulate(ptx_dir: str | None = None) -> dict[str, np.ndarray]:
    """Every kernel of the table on simgpu (functional only: results, not counters)."""
    import simgpu as sg

    def launch(kernel, args):
        dev = [sg.asarray(v) if isinstance(v, np.ndarray) else v for v in args]
        kernel((table.N // 128,), (128,), tuple(dev), timing=False)
        return dev[4].get()
    return table.run_all(modules(ptx_dir), launch, table.inputs())


def _ordered(bits: np.ndarray, signed) -> np.ndarray:
    """Map float bit patterns to integers that are adjacent for adjacent floats (for ulp distances)."""
    b = bits.view(signed).astype(np.int64)
    return np.where(b < 0, np.iinfo(signed).min - b, b)


def ulp_distance(r: str, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per element: 0 where the values are equal (both NaN, whatever their payloads, or +0 and -0),
    else the distance in ulp (NaN against a number counts as 2**62), for float results; 0/1 for
    other types."""
    if r == "b":  # bf16 patterns: the upper half of a float32
        a, b, r = (a.astype(np.uint32) << 16).view(np.float32), (b.astype(np.uint32) << 16).view(np.float32), "f"
    if r not in FLOAT_BITS:
        return (a != b).astype(np.int64)
    ftype, itype = FLOAT_BITS[r]
    fa, fb = a.view(ftype), b.view(ftype)
    nan_a, nan_b = np.isnan(fa), np.isnan(fb)
    d = np.abs(_ordered(a.view(itype), itype) - _ordered(b.view(itype), itype))
    d = np.where(nan_a & nan_b, 0, np.where(nan_a ^ nan_b, 1 << 62, d))
    return d


def raw_bits(a: np.ndarray) -> np.ndarray:
    """The results' bit patterns (NaN payloads and the sign of zero included)."""
    return a.view(f"u{a.dtype.itemsize}")


def compare(sim: dict, ref: dict) -> list[tuple[str, int, int, int]]:
    """(kernel, results with equal bits, results equal as values (NaN = NaN), largest ulp difference)."""
    rows = []
    for name, _, r, _ in table.FUNCTIONS:
        if name not in ref:  # added to the table after that device run
            continue
        a, b = sim[name], ref[name]
        d = ulp_distance(r, a, b)
        rows.append((name, int((raw_bits(a) == raw_bits(b)).sum()), int((d == 0).sum()), int(d.max())))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--source", action="store_true", help="compile here rather than run the device's PTX")
    ap.add_argument("--ref", default=os.path.join(HERE, "results", "h200.npz"))
    ap.add_argument("--all", action="store_true", help="list every kernel, not only those that differ")
    a = ap.parse_args()
    ref = dict(np.load(a.ref))
    ptx_dir = os.path.dirname(os.path.abspath(a.ref))
    rows = compare(simulate(None if a.source or not os.path.exists(os.path.join(ptx_dir, "plain.ptx.gz"))
                            else ptx_dir), ref)
    print(f"{'kernel':24} {'bits equal':>10} {'values eq':>10} {'max ulp':>12}")
    for name, eq, veq, ulp in rows:
        if a.all or veq < table.N:
            print(f"{name:24} {eq:10d} {veq:10d} {ulp if ulp < 1 << 62 else 'NaN vs num':>12}")
    exact = sum(v == table.N for _, _, v, _ in rows)
    print(f"\n{len(rows)} kernels x {table.N} inputs: {exact} agree on every input (NaN = NaN), "
          f"{sum(e == table.N for _, e, _, _ in rows)} bit for bit")


if __name__ == "__main__":
    main()
