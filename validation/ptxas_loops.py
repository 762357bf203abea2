"""How ptxas treats NVVM's loops, from the recorded nvcc 13.0 sm_90 SASS of every suite, beside what
simgpu's timing model assumes (simgpu/timing/unroll.py, isa.hoisted_sequence):

* which innermost one-block loops with global loads ptxas unrolls once more (4 x the PTX's loads
  in one SASS loop) and which it keeps (the same loads), against unroll.unrolled_loops;
* in an unrolled loop, the registers of loaded values issued before the first instruction that
  uses one (the SASS's, and the model's order with config ptxas_loaded_registers).

The PTX loops of a kernel are matched to its SASS loops in order (a PTX loop with L loads takes the
next SASS loop with 4 L or L; ptxas's remainder loop after an unrolled one is skipped).

    python validation/ptxas_loops.py [SUITE ...]      # anywhere; prints one line a loop, then totals
"""

from __future__ import annotations

import argparse
import gzip
from pathlib import Path

import simgpu as sg
from simgpu.frontend.sass import kernel_loops, sass_functions
from simgpu.timing import unroll
from simgpu.timing.config import default_config
from simgpu.timing.isa import (
    K_FREE,
    K_GLD,
    basic_blocks,
    build_static,
    divergence_checked_shuffles,
    if_convertible_branches,
    slow_path_calls,
)
from simgpu.timing.reg_pressure import block_live_sets, register_weights

HERE = Path(__file__).resolve().parent


def model_ahead(st, a: int, b: int, pressure, cfg) -> int:
    """The same count in the model's order of the four copies."""
    n = b - a
    order = unroll.unrolled_order(st, a, b, cfg.ptxas_unroll_factor, cfg.schedule_load_latency, {}, pressure,
                                  True, cfg.ptxas_loaded_registers)
    srcs, dsts, origin = unroll.renamed_registers(st, a, b, cfg.ptxas_unroll_factor, st.n_regs)
    w = pressure[0]
    loaded: set[int] = set()
    count = 0
    for p in order:
        if set(srcs[p]) & loaded:
            break
        if st.kind[a + p % n] == K_GLD:
            loaded |= set(dsts[p])
            count += sum(int(w[origin.get(r, r)]) for r in dsts[p] if origin.get(r, r) < len(w))
    return count


def suite_rows(folder: Path, cfg) -> list[tuple]:
    sass_path = folder / "results" / "sass.txt"
    if sass_path.exists():
        text = sass_path.read_text()
    elif sass_path.with_suffix(".txt.gz").exists():
        text = gzip.open(sass_path.with_suffix(".txt.gz"), "rt").read()
    else:
        return []
    funcs = sass_functions(text)
    mod = sg.RawModule(code=(folder / "kernels.cu").read_text())
    rows = []
    for name, body in funcs.items():
        try:
            lk = mod.linked(name)
        except Exception:  # noqa: BLE001 - a SASS function NVRTC's PTX names otherwise (templates)
            continue
        st = build_static(lk, cfg)
        conv = if_convertible_branches(lk, cfg.if_convert_max_instructions)
        blocks = basic_blocks(lk, conv, divergence_checked_shuffles(lk), slow_path_calls(lk))
        picked = set(unroll.unrolled_loops(lk, st, blocks, cfg))
        live_in, live_out = block_live_sets(lk, st.src, st.dst, blocks, conv)
        weights = register_weights(lk, st.n_regs, st.dst, st.kind == K_FREE)
        matched = unroll.matched_sass_loops(lk, blocks, kernel_loops(body))
        index = {ab: j for j, ab in enumerate(blocks)}
        for a, b, loads in unroll.loops_with_loads(lk, blocks):
            j = index[(a, b)]
            real, sass = matched.get((a, b), (None, None))
            ahead = sass.loaded_ahead if real else None
            model = (a, b) in picked
            mine = model_ahead(st, a, b, (weights, live_in[j], live_out[j], lk.registers_per_thread), cfg) \
                if model and real else None
            rows.append((folder.name, name, loads, real, model, ahead, mine))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("suites", nargs="*", help="suite folders under validation/ (default: all)")
    args = ap.parse_args()
    folders = [HERE / s for s in args.suites] if args.suites else sorted(
        d for d in HERE.iterdir() if (d / "kernels.cu").exists())
    cfg = default_config()
    agree = matched = 0
    aheads = []
    for folder in folders:
        for suite, name, loads, real, model, ahead, mine in suite_rows(folder, cfg):
            seen = "unmatched" if real is None else "unrolled" if real else "kept"
            flag = "" if real is None or real == model else "  <- differs"
            extra = f"; loaded registers ahead: SASS {ahead}, model {mine}" if ahead is not None else ""
            print(f"{suite:10s} {name[:30]:30s} {loads:2d} loads: SASS {seen}, model "
                  f"{'unrolled' if model else 'kept'}{extra}{flag}")
            if real is not None:
                matched += 1
                agree += real == model
            if ahead is not None and mine is not None:
                aheads.append((ahead, mine))
    print(f"\n{agree} of {matched} matched loops as ptxas treats them")
    if aheads:
        close = sum(abs(x - y) <= 4 for x, y in aheads)
        print(f"loaded registers ahead within 4 of the SASS's in {close} of {len(aheads)} unrolled loops")


if __name__ == "__main__":
    main()
