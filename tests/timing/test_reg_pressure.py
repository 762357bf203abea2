"""The block scheduler's register budget (timing/reg_pressure.py, isa.schedule_block): liveness at
block ends, the live-register count it keeps while scheduling, and what the budget changes."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.timing.config import default_config, overridden
from simgpu.timing.isa import (
    K_ALU,
    K_FREE,
    K_GLD,
    MAX_DST,
    MAX_SRC,
    P_FP32,
    StaticTable,
    basic_blocks,
    build_static,
    if_convertible_branches,
    loaded_weights,
    schedule_block,
)
from simgpu.timing.reg_pressure import PressureTracker, block_live_sets, register_weights, row_registers

LOADS = r"""
extern "C" __global__ void eight_loads(const float* __restrict__ a, float* o)
{   // eight independent loads, each squared and stored: one basic block
    int i = threadIdx.x;
#pragma unroll
    for (int k = 0; k < 8; ++k) { float x = a[i + 64 * k]; o[i + 64 * k] = x * x; }
}

extern "C" __global__ void sum_rows(const float* __restrict__ a, const double* __restrict__ d, float* o, double* p)
{   // 32 float loads of 32 rows then their sum, and 16 double loads then theirs: one basic block
    int i = threadIdx.x;
    float v[32];
    double w[16];
#pragma unroll
    for (int k = 0; k < 32; ++k) v[k] = a[i + 1024 * k];
#pragma unroll
    for (int k = 0; k < 16; ++k) w[k] = d[i + 1024 * k];
    float s = 0.f;
    double t = 0.0;
#pragma unroll
    for (int k = 0; k < 32; ++k) s += v[k];
#pragma unroll
    for (int k = 0; k < 16; ++k) t += w[k];
    o[i] = s;
    p[i] = t;
}

extern "C" __global__ void loop_carried(const float* a, float* o, int n)
{   // s is carried around the loop; base is defined before it and read after it
    int i = threadIdx.x;
    float base = a[i];
    float s = 0.f;
    for (int k = 0; k < n; ++k) s = s * base + a[i + 32 * k];
    o[i] = s + base;
}
"""


def _static(name: str):
    lk = sg.RawModule(code=LOADS).linked(name)
    cfg = default_config()
    stt = build_static(lk, cfg)
    conv = if_convertible_branches(lk, cfg.if_convert_max_instructions)
    blocks = basic_blocks(lk, conv)
    w = register_weights(lk, stt.n_regs, stt.dst, stt.kind == K_FREE)
    live_in, live_out = block_live_sets(lk, stt.src, stt.dst, blocks, conv)
    return lk, stt, blocks, w, live_in, live_out


def _loads_before_first_use(stt: StaticTable, order: list[int]) -> int:
    """Loads issued before the first instruction that reads a loaded register."""
    loaded: set[int] = set()
    n = 0
    for pc in order:
        if any(int(r) in loaded for r in stt.src[pc] if r >= 0):
            return n
        if stt.kind[pc] == K_GLD:
            n += 1
            loaded.update(int(r) for r in stt.dst[pc] if r >= 0)
    return n


def test_register_weights_count_32_bit_registers():
    lk, stt, _, w, _, _ = _static("loop_carried")
    for i, t in enumerate(lk.reg_types):
        folded = all(stt.kind[pc] == K_FREE for pc in range(len(stt.kind)) if i in stt.dst[pc])
        written = any(i in stt.dst[pc] for pc in range(len(stt.kind)))
        # predicates and 64-bit integers (addresses: ptxas shares a base among offsets) weigh nothing
        expect = 0 if t in ("pred", "b64", "u64", "s64") or (written and folded) else 2 if t == "f64" else 1
        assert w[i] == expect, (lk.reg_names[i], t)
    assert w[stt.n_regs - 3:].sum() == 0  # cp.async pseudo registers


def test_loop_carried_and_through_registers_are_live_around_the_loop():
    lk, stt, blocks, _, live_in, live_out = _static("loop_carried")
    name = {i: n for i, n in enumerate(lk.reg_names)}
    loop = next(j for j, (a, b) in enumerate(blocks)
                if int(lk.target[b - 1]) == a)  # the block that branches back to itself
    ins = {name[r] for r in live_in[loop]}
    outs = {name[r] for r in live_out[loop]}
    # s (an f32 both read and written in the loop) and base (read after the loop) cross both ends
    carried = {name[int(r)] for pc in range(*blocks[loop]) for r in stt.dst[pc] if r >= 0} & ins & outs
    assert any(lk.reg_types[lk.reg_names.index(r)] == "f32" for r in carried)
    last = blocks[-1]
    read_after = {name[int(r)] for pc in range(*last) for r in stt.src[pc] if r >= 0}
    assert read_after & ins & outs - carried  # base: live through the loop, not written in it
    assert live_out[-1] == set()  # nothing is live after the kernel's exit


def test_budget_holds_loads_back_until_registers_free():
    lk, stt, blocks, w, live_in, live_out = _static("eight_loads")
    (a, b), = [(a, b) for a, b in blocks if (stt.kind[a:b] == K_GLD).sum() == 8]
    free = schedule_block(stt, a, b, 400, None, (w, live_in[0], live_out[0], 255))
    assert _loads_before_first_use(stt, free) == 8  # all eight hoisted: the registers are there
    tight = schedule_block(stt, a, b, 400, None, (w, live_in[0], live_out[0], 4))
    assert _loads_before_first_use(stt, tight) == 4  # a float each; the addresses weigh nothing
    assert sorted(tight) == list(range(a, b))


def test_budget_makes_a_single_warp_slower():
    """One warp, eight loads of different lines: hoisted, their latencies overlap; with a register
    for one load at a time, seven more latencies queue up."""
    mod = sg.RawModule(code=LOADS)
    a = sg.asarray(np.arange(512, dtype=np.float32))
    o = sg.zeros(512, np.float32)
    k = mod.get_function("eight_loads")
    with overridden(schedule_register_budget=True):
        one_at_a_time = k((1,), (32,), (a, o), registers=1).metrics["sm__cycles_elapsed.max"]
        assert np.array_equal(o.get()[:32], np.arange(32, dtype=np.float32) ** 2)
        hoisted = k((1,), (32,), (a, o), registers=255).metrics["sm__cycles_elapsed.max"]
    assert one_at_a_time - hoisted > 6 * default_config().lat_l2_near


@st.composite
def _blocks(draw):
    """A random straight-line block in SSA form: each instruction reads earlier values or
    live-in registers and writes a new one; some values stay live after the block."""
    n = draw(st.integers(3, 24))
    n_in = draw(st.integers(0, 4))
    regs = n_in + n
    src = np.full((n, MAX_SRC), -1, np.int32)
    dst = np.full((n, MAX_DST), -1, np.int32)
    for i in range(n):
        k = draw(st.integers(0, min(3, n_in + i)))
        srcs = draw(st.lists(st.integers(0, n_in + i - 1), min_size=k, max_size=k, unique=True)) if k else []
        src[i, :len(srcs)] = srcs
        dst[i, 0] = n_in + i
    kind = np.array([draw(st.sampled_from([K_ALU, K_GLD])) for _ in range(n)], np.int8)
    stt = StaticTable(kind, np.full(n, P_FP32, np.int8), np.full(n, 4, np.int32), np.ones(n, np.int32),
                      np.zeros(n, np.int8), src, dst, regs)
    w = np.array(draw(st.lists(st.integers(0, 2), min_size=regs, max_size=regs)), np.int64)
    live_out = set(draw(st.lists(st.integers(0, regs - 1), max_size=4)))
    used = {int(r) for r in src.ravel() if r >= 0}
    live_in = {r for r in range(n_in) if r in used or r in live_out}
    budget = draw(st.integers(0, 12))
    return stt, w, live_in, live_out, budget


def _brute_pressure(stt: StaticTable, w, live_in, live_out, issued: list[int]) -> int:
    done = set(issued)
    later_reads = {int(r) for i in range(len(stt.kind)) if i not in done for r in stt.src[i] if r >= 0}
    have = set(live_in) | {int(stt.dst[i, 0]) for i in issued}
    return int(sum(w[r] for r in have if r in live_out or r in later_reads))


@settings(max_examples=150, deadline=None)
@given(_blocks())
def test_tracker_counts_what_a_brute_force_liveness_counts(case):
    stt, w, live_in, live_out, budget = case
    n = len(stt.kind)
    order = schedule_block(stt, 0, n, 400, None, (w, live_in, live_out, budget))
    assert sorted(order) == list(range(n))
    rows = [row_registers(row) for row in stt.src], [row_registers(row) for row in stt.dst]
    tracker = PressureTracker(*rows, (w, live_in, live_out, budget))
    assert tracker.current == _brute_pressure(stt, w, live_in, live_out, [])
    for t, i in enumerate(order):
        tracker.issue(i)
        assert tracker.current == _brute_pressure(stt, w, live_in, live_out, order[:t + 1])


def _table(kinds: list[int], srcs: list[list[int]], dsts: list[list[int]]) -> StaticTable:
    n = len(kinds)
    src = np.full((n, MAX_SRC), -1, np.int32)
    dst = np.full((n, MAX_DST), -1, np.int32)
    for i in range(n):
        src[i, :len(srcs[i])] = srcs[i]
        dst[i, :len(dsts[i])] = dsts[i]
    return StaticTable(np.array(kinds, np.int8), np.full(n, P_FP32, np.int8), np.full(n, 4, np.int32),
                       np.ones(n, np.int32), np.zeros(n, np.int8), src, dst, 8)


def test_in_time_fills_a_loads_latency_with_independent_work():
    # 0: r0 = load; 1: r1 = r0 * r0; 2: r2 = r3 + 1; 3: r4 = r3 * 2
    stt = _table([K_GLD, K_ALU, K_ALU, K_ALU], [[5], [0], [3], [3]], [[0], [1], [2], [4]])
    assert schedule_block(stt, 0, 4, 400) == [0, 1, 2, 3]  # longest path first: the use follows
    assert schedule_block(stt, 0, 4, 400, in_time=True) == [0, 2, 3, 1]  # the use waits its turn


def _loaded_ahead(stt: StaticTable, order: list[int], w) -> list[int]:
    """After each instruction of `order`, the registers of loaded values not yet read (weights w)."""
    left: dict[int, int] = {}
    for pc in order:
        for r in stt.src[pc]:
            if r >= 0:
                left[int(r)] = left.get(int(r), 0) + 1
    held: set[int] = set()
    out = []
    for pc in order:
        for r in stt.src[pc]:
            if r >= 0:
                left[int(r)] -= 1
                if left[int(r)] == 0:
                    held.discard(int(r))
        if stt.kind[pc] == K_GLD:
            held.update(int(r) for r in stt.dst[pc] if r >= 0 and left.get(int(r), 0))
        out.append(int(sum(w[r] for r in held)))
    return out


def test_loads_wait_while_sixteen_registers_of_loaded_values_are_unread():
    """ptxas's layout of a block of loads then their uses (loads_in_flight col_stream SASS): 16
    floats or 8 doubles issue first, then each further load beside a use; the model's list
    scheduler with `held` = (weights, live-out, 16) keeps the same count."""
    lk, stt, blocks, w, live_in, live_out = _static("sum_rows")
    j, (a, b) = next((j, blk) for j, blk in enumerate(blocks) if (stt.kind[blk[0]:blk[1]] == K_GLD).sum() == 48)
    free = schedule_block(stt, a, b, 400, None, None, True)
    held = schedule_block(stt, a, b, 400, None, None, True, (w, live_out[j], 16))
    assert sorted(held) == list(range(a, b))
    loaded = loaded_weights(stt, list(range(len(stt.kind))), [list(r[r >= 0]) for r in stt.dst], w)
    assert max(_loaded_ahead(stt, free, loaded)) == 32 + 2 * 16  # every load first
    ahead = _loaded_ahead(stt, held, loaded)
    assert max(ahead) == 16
    first_use = next(i for i, pc in enumerate(held) if stt.kind[pc] != K_GLD and ahead[i] < ahead[i - 1])
    assert ahead[first_use - 1] == 16
    # each sum frees a float's register (a double's takes two) and the next load takes it: until
    # the last load, never fewer than 13 registers of loaded values in flight
    last_load = max(i for i, pc in enumerate(held) if stt.kind[pc] == K_GLD)
    assert min(ahead[first_use:last_load + 1]) >= 13


def test_the_loaded_registers_make_a_long_block_of_loads_take_two_latencies():
    """One warp, 32 loads of different lines then their sum: with all 32 ahead the latencies
    overlap once; with 16 ahead the 17th load waits for the first use, a second latency."""
    mod = sg.RawModule(code=LOADS)
    a = sg.asarray(np.ones(32 * 1024, np.float32))
    d = sg.asarray(np.ones(16 * 1024, np.float64))
    o, p = sg.zeros(32, np.float32), sg.zeros(32, np.float64)
    k = mod.get_function("sum_rows")
    cycles = {}
    for on in (False, True):
        with overridden(ptxas_loaded_registers_in_blocks=on):
            cycles[on] = k((1,), (32,), (a, d, o, p)).timing.cycles
        assert np.all(o.get() == 32.0) and np.all(p.get() == 16.0)
    assert cycles[True] - cycles[False] > default_config().lat_dram // 2, cycles
