"""How ptxas shares its scoreboards among a loop's loads, tested on its own SASS: a rule read off
naive_shared_ab (benchmarks/microbench/naive_latency) against every innermost loop with global loads
of the recorded suites' kernels (NVRTC's cubin through nvdisasm, as simgpu compiles them).

A consumer waits until *every* load on its scoreboard has landed, so loads that share one are
waited for together. The rule: the loads with the same first consumer form a group; a new group
takes a free scoreboard if one is left (of those the loop's loads use), else joins the scoreboard
opened last; a scoreboard is free again once an instruction waits on it. This script applies the
rule to each SASS loop's own instruction order and compares the partition of its loads into
scoreboards with ptxas's (the same up to renaming). 2026-12-05: 99 of 113 loops exactly, 97.9 % of
the pairs of loads (joining the last opened scoreboard only, never an older busy one: 96, 97.5 %).
The timing model's timing/unroll.py scoreboard_groups (config ptxas_shared_scoreboards) uses a
variant: a load joins its consumer's group only while that group's scoreboard is the one opened
last and no wait has freed another since (90 of 113, 97.7 %): on the model's own layouts this rule
added loads issued after a wait to an older group and made gemm_naive's full grid 24.3 us, the
variant 19.6 (H200 19.9).

    python validation/sass_barriers.py [--show K]
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from l2_reads import SUITES

from simgpu.frontend.sass import registers

HERE = Path(__file__).resolve().parent


def _operands(text: str) -> tuple[str, list[int], list[int]]:
    """(opcode, registers written, registers read) of one SASS instruction's text."""
    op, _, rest = re.sub(r"^@!?U?P\w+\s+", "", text).partition(" ")
    if op.startswith(("ST", "RED", "BRA", "EXIT", "BAR")) or not rest:
        return op, [], registers(rest)
    dst, _, src = rest.partition(",")
    regs = registers(dst)
    if op.startswith("LDG") and regs:
        width = 4 if ".128" in op else 2 if ".64" in op else 1
        regs = list(range(regs[0], regs[0] + width))
    return op, regs, registers(src)


def predicted_groups(loop) -> list[int] | None:
    """The rule's scoreboard for each LDG of `loop` (SassInstructions), in order; None if a load's
    value is never read inside the loop (its consumer is past the back branch)."""
    ops = [_operands(i.text) for i in loop]
    loads = [j for j, (op, regs, _) in enumerate(ops) if op.startswith("LDG") and loop[j].write_barrier is not None]
    first_use = {}
    for j in loads:
        regs = set(ops[j][1])
        use = next((k for k in range(j + 1, len(loop)) if regs & set(ops[k][2])), None)
        if use is None:
            return None
        first_use[j] = use
    pool = sorted({loop[j].write_barrier for j in loads})
    if not pool:
        return None
    free = list(pool)
    busy: dict[int, int] = {}  # scoreboard -> loads on it not yet waited for
    group_of_use: dict[int, int] = {}
    last_opened = pool[0]
    out = []
    for k, ins in enumerate(loop):
        for b in ins.waits_on:
            if b in busy:
                del busy[b]
                free.append(b)
        if k in first_use:
            use = first_use[k]
            if use in group_of_use and group_of_use[use] in busy:
                b = group_of_use[use]
            elif free:
                b = free.pop(0)
                last_opened = b
            else:
                b = last_opened
            busy[b] = busy.get(b, 0) + 1
            group_of_use[use] = b
            out.append(b)
    return out


def groups(loop, barriers: list[int]) -> list[tuple[int, int]]:
    """Each LDG's (scoreboard, how many waits on it came before): loads on one scoreboard between
    two waits on it are one group."""
    waits: dict[int, int] = {}
    out, it = [], iter(barriers)
    for ins in loop:
        for b in ins.waits_on:
            waits[b] = waits.get(b, 0) + 1
        if _operands(ins.text)[0].startswith("LDG") and ins.write_barrier is not None:
            b = next(it)
            out.append((b, waits.get(b, 0)))
    return out


def same_partition(a: list, b: list) -> bool:
    """Whether two assignments group the loads alike, whatever the names."""
    return len(a) == len(b) and all((a[i] == a[j]) == (b[i] == b[j]) for i in range(len(a)) for j in range(i))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--show", type=int, default=0, help="print the first K loops the rule gets wrong")
    opts = ap.parse_args()
    from simgpu.frontend.nvrtc import compile_to_cubin
    from simgpu.frontend.sass import find_nvdisasm, run_nvdisasm
    from simgpu.frontend.sass_listing import sass_listing

    tool = find_nvdisasm()
    if tool is None:
        raise SystemExit("nvdisasm not found (the nvidia-cuda-nvdisasm wheel)")
    total = matched = open_ended = single = agree = n_pairs = 0
    shown = 0
    for name, (specs, _) in SUITES.items():
        cu = specs.parent / "kernels.cu"
        if not cu.exists():
            continue
        try:
            cubin = compile_to_cubin(cu.read_text(), arch="sm_90", name=str(cu))
        except Exception as exc:  # noqa: BLE001 - a suite NVRTC cannot build alone is reported, not fatal
            print(f"{name}: not compiled ({type(exc).__name__})")
            continue
        for kernel, code in sass_listing(run_nvdisasm(cubin, tool, "-c", "-hex") or "").items():
            at = {i.address: n for n, i in enumerate(code)}
            for n, ins in enumerate(code):
                m = re.search(r"\bBRA\b.*?0x([0-9a-f]+)", ins.text)
                label = re.search(r"`\((\.L_x_\d+)\)", ins.text)
                start = None
                if label:
                    start = next((q for q, x in enumerate(code) if label.group(1) in x.labels), None)
                elif m:
                    start = at.get(int(m.group(1), 16))
                if start is None or start > n or "BRA.DIV" in ins.text:
                    continue
                loop = code[start:n + 1]
                if any(re.search(r"\bBRA\b", x.text) and x is not ins and any(
                        lab in y.labels for y in loop[:q + 1] for lab in re.findall(r"\.L_x_\d+", x.text))
                       for q, x in enumerate(loop)):
                    continue  # not innermost: another branch inside goes back within it
                if not any(i.text.lstrip("@!P0123456789 ").startswith("LDG") for i in loop):
                    continue
                actual = [i.write_barrier for i in loop if _operands(i.text)[0].startswith("LDG")
                          and i.write_barrier is not None]
                pred = predicted_groups(loop)
                if pred is None:
                    open_ended += 1
                    continue
                if len(set(actual)) <= 1 and len(actual) <= 1:
                    single += 1
                    continue
                total += 1
                gp, ga = groups(loop, pred), groups(loop, actual)
                ok = same_partition(gp, ga)
                matched += ok
                pairs = [(i, j) for i in range(len(ga)) for j in range(i)]
                agree += sum((gp[i] == gp[j]) == (ga[i] == ga[j]) for i, j in pairs)
                n_pairs += len(pairs)
                if not ok and shown < opts.show:
                    shown += 1
                    print(f"{name}:{kernel} loop at {loop[0].address:04x}: ptxas {actual}, rule {pred}")
    print(f"{total} loops with 2+ loads read inside the loop: the rule gives ptxas's grouping for {matched}, "
          f"and puts {100 * agree / max(1, n_pairs):.1f} % of the pairs of loads together or apart as ptxas "
          f"does; {single} with one load, {open_ended} with a load read only after the loop, left out")


if __name__ == "__main__":
    main()
