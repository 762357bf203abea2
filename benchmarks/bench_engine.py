"""How fast is the simulator? Both engines side by side, in simulated warp instructions per second.

    python benchmarks/bench_engine.py                      # one warp, then every built-in program
    python benchmarks/bench_engine.py --large --only gemm_tiled
    python benchmarks/bench_engine.py --fast-only --only gemm_tiled --size M=512 N=512 K=512
    python benchmarks/bench_engine.py --calibration ../shared/calibration

For each program (and each calibration kernel, at the size the H200 measured) the same launches run
on the reference engine and on the fast engine, one right after the other. Columns: warp
instructions; `ref s` / `fast s`: host seconds of the functional engine (memory model included);
`ref wall` / `fast wall`: the whole run (plus the timing replay); warp instructions per second of
the fast engine, functional and whole; the speed-ups; the fast run's peak traced allocation (a
separate run, because tracemalloc slows allocation down; skipped with --fast-only, where the
reference engine does not run either and its columns stay empty). A first section measures numba's
compile time: the first fast launch in a new process with an empty cache, then with the cache
written by that process. Compare ratios within one table, not numbers across machines.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
import tracemalloc

import numpy as np

_FIRST_LAUNCH = """
import time, numpy as np, simgpu
t0 = time.perf_counter()
k = simgpu.RawModule(code='extern "C" __global__ void k(float* y) {{ y[threadIdx.x] = threadIdx.x * 2.0f; }}')
f = k.get_function("k")
y = simgpu.zeros(32, dtype=np.float32)
t1 = time.perf_counter()
f((1,), (32,), (y,), engine="fast")
print(time.perf_counter() - t1)
"""


def compile_times() -> tuple[float, float]:
    """Seconds of the first fast launch in a fresh process: with an empty numba cache, then cached."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = []
        for _ in range(2):
            r = subprocess.run([sys.executable, "-c", _FIRST_LAUNCH.format()], env=env, capture_output=True,
                               text=True, check=True)
            out.append(float(r.stdout.strip().splitlines()[-1]))
    return out[0], out[1]


def _peak_mib(fn) -> float:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _timed(engine: str, fn):
    import simgpu

    with simgpu.use_engine(engine):
        t0 = time.perf_counter()
        out = fn()
        return out, time.perf_counter() - t0


def bench_programs(large: bool, only: list[str] | None, size_override: dict[str, int] | None = None,
                   fast_only: bool = False) -> list[tuple]:
    from simgpu.programs import PROGRAMS

    rows = []
    nan = float("nan")
    for name, prog in PROGRAMS.items():
        if only and name not in only:
            continue
        size = dict(prog.large_size) if large else {}
        size.update({k: v for k, v in (size_override or {}).items() if k in prog.default_size})
        label = name + ("" if not size_override else " " + " ".join(f"{k}={v}" for k, v in size.items()))
        _timed("fast", lambda prog=prog: prog.run(size=prog.test_sizes[0]))  # compiled code loaded, not timed
        ref = ref_wall = None
        if not fast_only:
            ref, ref_wall = _timed("reference", lambda prog=prog, size=size: prog.run(size=size))
        fast, fast_wall = _timed("fast", lambda prog=prog, size=size: prog.run(size=size))
        ok = fast.ok and (ref is None or ref.ok)
        winst = sum(r.warp_instructions for _, r in fast.launches)
        ref_s = sum(r.host_seconds for _, r in ref.launches) if ref else nan
        fast_s = sum(r.host_seconds for _, r in fast.launches)
        peak = nan if fast_only else _peak_mib(lambda prog=prog, size=size: _timed("fast", lambda: prog.run(size=size)))
        rows.append((label + ("" if ok else " (WRONG OUTPUT)"), winst, ref_s, fast_s,
                     nan if ref_wall is None else ref_wall, fast_wall, peak))
    return rows


_ONE_WARP = r'''
extern "C" __global__ void one_warp(float* out, const float* x, int n) {
  __shared__ float s[256];
  float a = threadIdx.x * 0.5f, b = 1.0001f;
  for (int i = 0; i < n; ++i) {
    a = fmaf(a, b, x[(threadIdx.x + i) & 255]);
    s[threadIdx.x] = a;
    a += s[(threadIdx.x + 1) & 31];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a;
}
'''


def bench_one_warp() -> list[tuple]:
    """A single warp in a dependent loop (global load, shared store and load, fma): every step
    issues one warp, the case the NumPy engine is slowest at (like decoding with one query)."""
    import simgpu

    kernel = simgpu.RawModule(code=_ONE_WARP).get_function("one_warp")
    out = simgpu.zeros(32, dtype=np.float32)
    x = simgpu.zeros(256, dtype=np.float32)
    kernel((1,), (32,), (out, x, np.int32(10)), engine="fast", progress=False)  # load the compiled code
    reps = {}
    for eng in ("reference", "fast"):
        t0 = time.perf_counter()
        reps[eng] = (kernel((1,), (32,), (out, x, np.int32(3000)), engine=eng, progress=False),
                     time.perf_counter() - t0)
    (ref, ref_wall), (fast, fast_wall) = reps["reference"], reps["fast"]
    return [("one warp, dependent loop", fast.warp_instructions, ref.host_seconds, fast.host_seconds, ref_wall,
             fast_wall, float("nan"))]


def bench_calibration(path: str) -> list[tuple]:
    from simgpu.validate import run_suite

    specs = os.path.join(path, "specs.py")
    ref, ref_wall = _timed("reference", lambda: run_suite(specs))
    fast, fast_wall = _timed("fast", lambda: run_suite(specs))
    rows = []
    for a, b in zip(ref, fast):
        rows.append((a.name, b.warp_instructions, a.host_seconds, b.host_seconds, float("nan"), float("nan"),
                     float("nan")))
    rows.append(("calibration suite (all 10)", sum(r[1] for r in rows), sum(r[2] for r in rows),
                 sum(r[3] for r in rows), ref_wall, fast_wall, float("nan")))
    return rows


def _f(x: float, fmt: str) -> str:
    return "" if x != x else format(x, fmt)


def print_table(rows, compile_s: tuple[float, float] | None) -> None:
    import numba

    print(f"host: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, NumPy {np.__version__}, numba {numba.__version__}")
    if compile_s:
        print(f"fast engine, first launch in a new process: {compile_s[0]:.1f} s with an empty numba cache, "
              f"{compile_s[1]:.1f} s with the cache on disk")
    print(f"{'program':<28} {'warp instr':>11} {'ref s':>7} {'fast s':>7} {'ref wall':>8} {'fast wall':>9} "
          f"{'fast instr/s':>12} {'wall instr/s':>12} {'speed-up':>8} {'wall x':>6} {'peak MiB':>8}")
    for name, winst, ref_s, fast_s, ref_wall, fast_wall, peak in rows:
        rate = winst / fast_s if fast_s else float("nan")
        wrate = winst / fast_wall if fast_wall == fast_wall and fast_wall else float("nan")
        print(f"{name:<28} {winst:>11,} {_f(ref_s, '7.2f'):>7} {fast_s:>7.2f} {_f(ref_wall, '8.2f'):>8} "
              f"{_f(fast_wall, '9.2f'):>9} {_f(rate, '12,.0f'):>12} {_f(wrate, '12,.0f'):>12} "
              f"{_f(ref_s / fast_s if fast_s else float('nan'), '7.1f') + ('x' if ref_s == ref_s else ''):>8} "
              f"{_f(ref_wall / fast_wall if fast_wall == fast_wall else float('nan'), '5.1f'):>6} "
              f"{_f(peak, '8.1f'):>8}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--large", action="store_true", help="use each program's large size")
    ap.add_argument("--only", nargs="*", help="program names to run")
    ap.add_argument("--calibration", metavar="DIR", help="also run the calibration suite in DIR")
    ap.add_argument("--no-compile-time", action="store_true", help="skip the compile-time measurement")
    ap.add_argument("--size", nargs="*", metavar="K=V", default=[],
                    help="size parameters for the programs run (those a program does not have are ignored)")
    ap.add_argument("--fast-only", action="store_true",
                    help="run only the fast engine (sizes too large for the reference engine); no one-warp row")
    args = ap.parse_args()
    try:
        size = {k: int(v) for k, v in (kv.split("=", 1) for kv in args.size)}
    except ValueError:
        ap.error(f"--size takes K=V pairs with integer values, got {args.size}")
    compile_s = None if args.no_compile_time else compile_times()
    _timed("fast", lambda: None)
    rows = [] if args.fast_only else bench_one_warp()
    rows += bench_programs(args.large, args.only, size or None, args.fast_only)
    if args.calibration:
        rows += bench_calibration(args.calibration)
    print_table(rows, compile_s)


if __name__ == "__main__":
    main()
