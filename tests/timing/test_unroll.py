"""ptxas's second unrolling (timing/unroll.py): which loops it picks, the order of four unrolled
instances, how the streams apply it, and what it changes in a launch (time only)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simgpu as sg
from simgpu.exec.program import BRA
from simgpu.frontend.sass import find_nvdisasm
from simgpu.timing.config import default_config, overridden
from simgpu.timing.isa import (
    K_ALU,
    K_BRANCH,
    K_FREE,
    K_GLD,
    basic_blocks,
    build_static,
    if_convertible_branches,
    slow_path_calls,
)
from simgpu.timing.prepare import _emit
from simgpu.timing.unroll import sass_estimate, sass_loaded_ahead, unrolled_loops, unrolled_order

LOOPS = r"""
extern "C" __global__ void col_walk(const float* a, float* o, int rows, int cols)
{   // NVVM: a remainder loop (nounroll) and a 4-copy main loop, which ptxas unrolls again
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int r = 0; r < rows; ++r) s += a[(size_t)r * cols + c];
    o[c] = s;
}

extern "C" __global__ void dgemv_walk(const double* __restrict__ A, const double* __restrict__ x, double* y,
                                      int rows, int cols)
{   // typical10 dgemv_t_cols: two double loads a row, 4 registers
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    double s = 0.0;
    for (int r = 0; r < rows; ++r) s += A[(size_t)r * cols + c] * x[r];
    y[c] = s;
}

extern "C" __global__ void gather_walk(const int* idx, const float* x, float* o, int n)
{   // an index load feeding a gather (typical spmv_csr): laid out by the list scheduler
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int k = 0; k < n; ++k) s += x[idx[t * n + k]];
    o[t] = s;
}

extern "C" __global__ void grid_stride(const float* a, float* o, int n)
{   // the step is a register: no trip count on entry, never unrolled
    float s = 0.f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) s += a[i];
    o[threadIdx.x] = s;
}

extern "C" __global__ void pragma_four(const float* a, float* o)
{   // the user's #pragma unroll 4 of a constant trip count: NVVM marks it nounroll
    int t = threadIdx.x;
    float s = 0.f;
#pragma unroll 4
    for (int k = 0; k < 64; ++k) s += a[t * 64 + k];
    o[t] = s;
}

extern "C" __global__ void exp_walk(const float* a, float* o, int rows, int cols)
{   // eight ex2.approx.f32 (no .ftz) a main-loop copy: 4 SASS each, past the size limit
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    float s = 0.f;
    for (int r = 0; r < rows; ++r) {
        float x = a[(size_t)r * cols + c];
        s += __expf(x) * __expf(-x) + __expf(x * 0.5f);
    }
    o[c] = s;
}
"""


def _loops(name: str, **changes):
    lk = sg.RawModule(code=LOOPS).linked(name)
    cfg = default_config() if not changes else __import__("dataclasses").replace(default_config(), **changes)
    stt = build_static(lk, cfg)
    blocks = basic_blocks(lk, if_convertible_branches(lk, cfg.if_convert_max_instructions))
    self_loops = [(a, b) for a, b in blocks if int(lk.kinds[b - 1]) == BRA and int(lk.target[b - 1]) == a]
    return lk, stt, blocks, self_loops, unrolled_loops(lk, stt, blocks, cfg)


def test_parser_marks_the_instruction_after_pragma_nounroll():
    lk = sg.RawModule(code=LOOPS).linked("col_walk")
    marked = [pc for pc, ins in enumerate(lk.instructions) if ins.nounroll]
    assert len(marked) == 1  # the remainder loop's first instruction, and nothing else
    (a, b), = [(a, b) for a, b in _loops("col_walk")[3] if a <= marked[0] < b]
    assert marked[0] == a and sum(lk.mem_class[pc] == "global_ld" for pc in range(a, b)) == 1


def test_the_main_loop_is_picked_and_the_remainder_loop_is_not():
    lk, _, _, self_loops, picked = _loops("col_walk")
    assert len(self_loops) == 2
    assert len(picked) == 1
    a, b = picked[0]
    assert sum(lk.mem_class[pc] == "global_ld" for pc in range(a, b)) == 4  # NVVM's 4 copies
    assert not any(lk.instructions[pc].nounroll for pc in range(a, b))


def test_grid_stride_pragma_and_large_loops_are_not_unrolled():
    for name in ("grid_stride", "pragma_four"):
        _, _, _, self_loops, picked = _loops(name)
        assert self_loops and not picked, name
    lk, stt, _, self_loops, picked = _loops("exp_walk")
    assert not picked
    main = max(self_loops, key=lambda ab: ab[1] - ab[0])
    ex2 = sum(lk.instructions[pc].opcode == "ex2" for pc in range(*main))
    assert ex2 == 12 and sass_estimate(lk, stt, *main) == (main[1] - main[0]) + 3 * ex2
    # the same loop goes once the limit is raised, or once the load limit is lowered under 4
    assert _loops("exp_walk", ptxas_unroll_max_slots=10**6)[4] == [main]
    assert _loops("col_walk", ptxas_unroll_max_loads=3)[4] == []
    assert _loops("col_walk", ptxas_unroll=False)[4] == []


def test_unrolled_order_hoists_every_instance_s_loads_and_drops_the_inner_branches():
    lk, stt, _, _, picked = _loops("col_walk")
    a, b = picked[0]
    n = b - a
    cfg = default_config()
    order = unrolled_order(stt, a, b, 4, cfg.schedule_load_latency, in_time=cfg.schedule_in_time)
    inner_branches = {k * n + n - 1 for k in range(3)}
    assert sorted(order) == sorted(set(range(4 * n)) - inner_branches)
    assert order[-1] == 4 * n - 1  # the last instance's back branch stays last
    pcs = [a + p % n for p in order]
    loads = [i for i, pc in enumerate(pcs) if stt.kind[pc] == K_GLD]
    assert len(loads) == 16
    first_add = min(i for i, pc in enumerate(pcs) if lk.instructions[pc].opcode == "add"
                    and lk.instructions[pc].mods[-1] == "f32")
    assert max(loads) < first_add  # all 16 loads issue before the first sum
    # one instance alone keeps its loads behind the previous instance's adds (the WAR on the
    # reused registers): the renaming is what lets them move
    from simgpu.timing.isa import schedule_block

    single = schedule_block(stt, a, b, cfg.schedule_load_latency, in_time=cfg.schedule_in_time)
    assert sorted(single) == list(range(a, b))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=6), st.integers(0, 2))
def test_emit_groups_four_instances_and_leaves_the_rest_to_the_block(instances, tail):
    """A loop block at pcs 2..5 (branch at 5) between straight-line pcs, its four copies at pcs
    8..23: each warp's run of consecutive instances goes out 4 at a time in the unrolled order at
    the copies' pcs (inner branches dropped), the left-over instances in the block's own order,
    everything else as it was."""
    a, n, first = 2, 4, 8
    pc_of = np.concatenate([np.arange(8), np.tile(np.arange(a, a + n), 4)])
    kind = np.full(len(pc_of), K_ALU, np.int8)
    kind[pc_of == a + n - 1] = K_BRANCH
    kind[7] = K_FREE
    block_order = [3, 2, 4, 5]  # the block's own schedule (pcs)
    kept = [p for p in range(4 * n) if not (p % n == n - 1 and p < 3 * n)]
    unr = [p for p in kept[::-1] if p != 4 * n - 1] + [4 * n - 1]  # any order, the last branch last
    starts = np.array([a, a], np.int64)
    blk_len = np.array([n, 4 * n], np.int64)
    blk_period = np.array([n, n], np.int64)
    blk_off = np.array([0, n, n + len(unr)], np.int64)
    blk_src = np.array([pc - a for pc in block_order] + unr, np.int64)
    blk_pc = np.array(block_order + [first + p for p in unr], np.int32)
    block_of_pc = np.full(len(pc_of), -1, np.int64)
    block_of_pc[a] = 0
    unrolled_of_pc = np.full(len(pc_of), -1, np.int64)
    unrolled_of_pc[a] = 1
    runs, expect = [], []
    for count in instances:
        runs.append([0, 1] + list(range(a, a + n)) * count + [6, 7][:tail + 1])
        full, left = divmod(count, 4)
        expect.append([0, 1] + [first + p for p in unr] * full + block_order * left
                      + [pc for pc in [6, 7][:tail + 1] if kind[pc] != K_FREE])
    pcs = np.array([pc for r in runs for pc in r], np.int32)
    mem = np.arange(len(pcs), dtype=np.int64)
    bucket_off = np.cumsum([0] + [len(r) for r in runs]).astype(np.int64)
    m, warp_off = _emit(kind, K_FREE, len(runs), block_of_pc, unrolled_of_pc, starts, blk_len, blk_period, blk_off,
                        blk_src, blk_pc, bucket_off, pcs, mem)
    assert m == sum(len(e) for e in expect)
    for w, e in enumerate(expect):
        assert pcs[warp_off[w]:warp_off[w + 1]].tolist() == e
    # every entry that went out carries its own flat index (its memory row), at a copy of its pc
    flat = np.concatenate([np.asarray(r) for r in runs])
    assert np.array_equal(flat[mem[:m]], pc_of[pcs[:m]])


def test_unrolling_changes_the_time_of_a_latency_bound_loop_and_no_counter():
    """One warp walking 256 rows: four NVVM copies a trip keep 4 loads in flight, the unrolled 16."""
    k = sg.RawModule(code=LOOPS).get_function("col_walk")
    rows, cols = 256, 32
    a = sg.asarray(np.random.default_rng(1).random(rows * cols, dtype=np.float32))
    reports = {}
    for on in (False, True):
        o = sg.zeros(cols, dtype=np.float32)
        with overridden(ptxas_unroll=on):
            reports[on] = k((1,), (32,), (a, o, np.int32(rows), np.int32(cols)))
        np.testing.assert_allclose(o.get(), a.get().reshape(rows, cols).sum(axis=0), rtol=1e-5)
    off, on = reports[False], reports[True]
    assert on.metrics["gpu__time_duration.sum"] < 0.6 * off.metrics["gpu__time_duration.sum"]
    # 64 trips of NVVM's 4-copy loop: 16 unrolled groups, each without 3 inner back branches
    assert on.metrics["sm__inst_executed.sum"] == off.metrics["sm__inst_executed.sum"] - 16 * 3
    assert on.metrics["smsp__inst_executed.sum"] == on.metrics["sm__inst_executed.sum"]  # the SASS estimate
    timing_only = set(on.timing.metrics) | {"smsp__inst_executed.sum"}
    for name, value in off.metrics.items():
        if name not in timing_only:
            assert on.metrics[name] == value, name
    assert on.timing.stalls_per_pc.shape == off.timing.stalls_per_pc.shape  # the copies fold back


def test_the_register_budget_holds_loads_back():
    """Within ptxas's register count the copies' loads wait for registers (reg_pressure.py): with
    room for the live-in registers and a few more, fewer than the 16 loads go before the first sum."""
    from simgpu.timing.isa import K_FREE as FREE
    from simgpu.timing.reg_pressure import block_live_sets, register_weights

    lk, stt, blocks, _, picked = _loops("col_walk")
    (a, b), = picked
    j = blocks.index((a, b))
    conv = if_convertible_branches(lk, default_config().if_convert_max_instructions)
    live_in, live_out = block_live_sets(lk, stt.src, stt.dst, blocks, conv)
    w = register_weights(lk, stt.n_regs, stt.dst, stt.kind == FREE)
    base = int(sum(w[r] for r in live_in[j]))
    n = b - a

    def ahead(budget: int | None) -> int:
        pressure = (w, live_in[j], live_out[j], budget) if budget else None
        pcs = [a + p % n for p in unrolled_order(stt, a, b, 4, 400, None, pressure, True)]
        first_sum = min(i for i, pc in enumerate(pcs) if lk.instructions[pc].opcode == "add"
                        and lk.instructions[pc].mods[-1] == "f32")
        return sum(stt.kind[pc] == K_GLD for pc in pcs[:first_sum])

    assert ahead(None) == 16
    assert ahead(base + 4) < 16
    assert ahead(base + 4) <= ahead(base + 8) <= ahead(1000) == 16


def test_loads_run_ahead_of_their_uses_by_the_loaded_registers():
    """ptxas's layout of an unrolled loop (isa.hoisted_sequence): program order, each load hoisted
    while the loaded values not yet used fit in 16 registers, as the SASS of typical10
    dgemv_t_cols (8 double loads before the first DFMA) and of typical2 rows_runtime_trip (all 16
    float loads first). The uses keep their order, one row's loads go out as each row is used."""
    from simgpu.timing.isa import K_FREE as FREE
    from simgpu.timing.reg_pressure import block_live_sets, register_weights

    for name, per_row, cap, ahead in (("dgemv_walk", 2, 16, 8), ("dgemv_walk", 2, 8, 4),
                                      ("col_walk", 1, 16, 16), ("col_walk", 1, 8, 8)):
        lk, stt, blocks, _, picked = _loops(name)
        (a, b), = picked
        j, n = blocks.index((a, b)), b - a
        conv = if_convertible_branches(lk, default_config().if_convert_max_instructions)
        live_in, live_out = block_live_sets(lk, stt.src, stt.dst, blocks, conv)
        w = register_weights(lk, stt.n_regs, stt.dst, stt.kind == FREE)
        order = unrolled_order(stt, a, b, 4, 400, None, (w, live_in[j], live_out[j], 32), True, loaded_registers=cap)
        kinds = ["L" if stt.kind[a + p % n] == K_GLD else
                 "F" if lk.instructions[a + p % n].opcode in ("fma", "add") and
                 lk.instructions[a + p % n].mods[-1] in ("f32", "f64") else "." for p in order]
        uses = [i for i, k in enumerate(kinds) if k == "F"]
        assert len(uses) == 16 and kinds.count("L") == 16 * per_row, name
        assert kinds[:uses[0]].count("L") == ahead, (name, cap)
        # after the first use, each use lets one more row's loads go (until none are left)
        for k in range(len(uses) - 1):
            assert kinds[:uses[k + 1]].count("L") == min(16 * per_row, ahead + (k + 1) * per_row), (name, cap, k)
        used = [p for p, kind in zip(order, kinds) if kind == "F"]
        assert used == sorted(used)


def test_a_gather_loop_is_list_scheduled():
    from simgpu.timing.isa import dependent_loads
    from simgpu.timing.unroll import renamed_registers

    for name, gathers in (("gather_walk", True), ("col_walk", False), ("dgemv_walk", False)):
        _, stt, _, _, picked = _loops(name)
        (a, b), = picked
        srcs, dsts, _ = renamed_registers(stt, a, b, 4, stt.n_regs)
        seq = [a + p % (b - a) for p in range(4 * (b - a))]
        assert dependent_loads(stt, seq, srcs, dsts) == gathers, name


def _unrolled_loop(source: str, kernel: str):
    """(linked kernel, static table, loop start, loop end, register pressure) of the kernel's one
    unrolled loop, as simulate_timing hands them to unrolled_order (32 registers a thread)."""
    from simgpu.timing.isa import K_FREE as FREE
    from simgpu.timing.reg_pressure import block_live_sets, register_weights

    lk = sg.RawModule(code=source).linked(kernel)
    cfg = default_config()
    stt = build_static(lk, cfg)
    conv = if_convertible_branches(lk, cfg.if_convert_max_instructions)
    blocks = basic_blocks(lk, conv, set(), slow_path_calls(lk))
    (a, b), = unrolled_loops(lk, stt, blocks, cfg)
    live_in, live_out = block_live_sets(lk, stt.src, stt.dst, blocks, conv)
    w = register_weights(lk, stt.n_regs, stt.dst, stt.kind == FREE)
    j = blocks.index((a, b))
    return lk, stt, a, b, (w, live_in[j], live_out[j], 32)


def _one_warp_on_off(source: str, kernel: str, field: str):
    """One warp of a 64 x 64 x 64 naive GEMM with config `field` off and on: the two reports, after
    checking that no counter but the time's differs."""
    mod = sg.RawModule(code=source)
    n = 64
    rng = np.random.default_rng(2)
    a, b = (sg.asarray(rng.random(n * n, dtype=np.float32)) for _ in range(2))
    reports = {}
    for on in (False, True):
        c = sg.zeros(n * n, dtype=np.float32)
        with overridden(**{field: on}):
            reports[on] = mod.get_function(kernel)((1, 1), (16, 2), (a, b, c, np.int32(n), np.int32(n),
                                                                     np.int32(n)))
    off, on = reports[False], reports[True]
    timing_only = set(on.timing.metrics)
    for name, value in off.metrics.items():
        if name not in timing_only:
            assert on.metrics[name] == value, name
    return off, on


NAIVE_PRIVATE = r"""
extern "C" __global__ void private_ab(const float* A0, const float* B0, float* C, int M, int N, int K)
{   // benchmarks/microbench/naive_latency: the calibration gemm_naive with 64-bit offsets on A and B
    const float* A = A0 + (size_t)blockIdx.x * M * K;
    const float* B = B0 + (size_t)blockIdx.y * K * N;
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
"""


@pytest.mark.skipif(find_nvdisasm() is None, reason="nvdisasm (nvidia-cuda-nvdisasm) is not installed")
def test_an_unrolled_loop_hoists_as_many_loaded_registers_as_its_sass():
    """With the SASS at hand the unrolled loop keeps its own count of loaded registers ahead (fewer
    than config's 16 here), so one warp's latency-bound walk takes longer; no counter changes."""
    mod = sg.RawModule(code=NAIVE_PRIVATE)
    lk = mod.linked("private_ab")
    cfg = default_config()
    stt = build_static(lk, cfg)
    blocks = basic_blocks(lk, if_convertible_branches(lk, cfg.if_convert_max_instructions), set(),
                          slow_path_calls(lk))
    loops = mod.machine_code("private_ab").loops
    ahead = sass_loaded_ahead(lk, blocks, loops)
    picked = unrolled_loops(lk, stt, blocks, cfg)
    assert len(picked) == 1 and set(ahead) == set(picked)
    assert ahead[picked[0]] == max(loops, key=lambda x: x.loads).loaded_ahead < cfg.ptxas_loaded_registers
    off, on = _one_warp_on_off(NAIVE_PRIVATE, "private_ab", "ptxas_layout_from_sass")
    assert on.metrics["gpu__time_duration.sum"] > 1.3 * off.metrics["gpu__time_duration.sum"]


def test_a_load_with_a_ready_address_goes_before_one_whose_address_is_still_to_compute():
    """naive_private_ab at the 5 loaded registers of its SASS: in program order (B then A, each B
    address an add of its own) 3 B loads are in flight at each FMA; with ready_first the A load
    ([base + offset], nothing to compute) takes the fifth register, as in the NVRTC 13.5 SASS where
    A runs one k ahead and 2 B loads are in flight (benchmarks/microbench/naive_latency)."""
    lk, stt, a, b, pressure = _unrolled_loop(NAIVE_PRIVATE, "private_ab")
    n = b - a
    bases: dict[str, list[int]] = {}
    for pc in range(a, b):
        if stt.kind[pc] == K_GLD:
            bases.setdefault(lk.instructions[pc].operands[1].base.name, []).append(pc)
    own_add = {pc for pcs in bases.values() if len(pcs) == 1 for pc in pcs}  # the B loads
    assert len(own_add) == 4 and len(bases) == 5

    def b_in_flight(ready_first: bool) -> list[int]:
        order = unrolled_order(stt, a, b, 4, 400, None, pressure, True, loaded_registers=5,
                               ready_first=ready_first)
        issued, out = 0, []
        for p in order:
            pc = a + p % n
            issued += pc in own_add
            if lk.instructions[pc].opcode == "fma":
                out.append(issued - len(out))
        return out

    plain, ready = b_in_flight(False), b_in_flight(True)
    assert len(plain) == len(ready) == 16
    assert plain[:14] == [3] * 14
    assert max(ready) == 3 and sum(x == 2 for x in ready[:14]) >= 10


NAIVE_SHARED = r"""
extern "C" __global__ void shared_ab(const float* A, const float* B, float* C, int M, int N, int K)
{   // the calibration gemm_naive: ptxas keeps 13 registers of loads ahead in its unrolled loop
    int row = blockIdx.y * blockDim.y + threadIdx.y, col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < M && col < N) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) acc += A[row * K + k] * B[k * N + col];
        C[row * N + col] = acc;
    }
}
"""


def test_scoreboards_group_the_first_loads_as_ptxas_does():
    """gemm_naive's loop at 13 loaded registers: the first three k's loads take a scoreboard per k,
    the next seven share the fourth, as in the NVRTC 13.5 SASS (SB2 SB2 SB3 SB3 SB4 SB4, then SB5
    seven times); each FMA waits on its k's scoreboard (or none, where an earlier wait covered it)."""
    from simgpu.timing.unroll import scoreboard_groups

    lk, stt, a, b, pressure = _unrolled_loop(NAIVE_SHARED, "shared_ab")
    n = b - a
    order = unrolled_order(stt, a, b, 4, 400, None, pressure, True, loaded_registers=13, ready_first=True)
    load_sb, waits = scoreboard_groups(stt, a, b, 4, order, 4)
    loads = [p for p in order if stt.kind[a + p % n] == K_GLD]
    assert len(loads) == 32 and set(load_sb) == set(loads)
    assert [load_sb[p] for p in loads[:13]] == [0, 0, 1, 1, 2, 2, 3, 3, 3, 3, 3, 3, 3]
    fmas = [p for p in order if lk.instructions[a + p % n].opcode == "fma"]
    assert waits.get(fmas[0]) == [0] and waits.get(fmas[3]) == [3] and fmas[4] not in waits
    assert all(len(v) == 1 for v in waits.values()) and set(waits) <= set(fmas)


def test_shared_scoreboards_make_a_consumer_wait_for_its_group_and_change_no_counter():
    """With config ptxas_shared_scoreboards one warp's walk takes longer (each FMA waits for every
    load on its scoreboard), the group's loads still issue back to back (no write-after-write wait
    on the scoreboard), and no counter but the time's changes."""
    off, on = _one_warp_on_off(NAIVE_SHARED, "shared_ab", "ptxas_shared_scoreboards")
    # 6,020 -> 6,102 ns: each group's consumer waits for the group's last load
    assert on.metrics["gpu__time_duration.sum"] > 1.005 * off.metrics["gpu__time_duration.sum"]
    rec = on.timing.record
    loads = [int(t) for pc, t in zip(rec.pc, rec.issue) if rec.linked.mem_class[int(pc)] == "global_ld"]
    assert len(loads) == 2 * 64 and loads[12] - loads[0] < 200  # a DRAM latency is ~800 cycles


BURST = r'''
extern "C" __global__ void burst16(const float* a, float* out, long long* st)
{
    const float* p = a + (threadIdx.x & 31);
    float v[16];
    long long t0 = clock64();
#pragma unroll
    for (int k = 0; k < 16; ++k) v[k] = __ldcg(p + k * 32);
    long long t1 = clock64();
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < 16; ++k) s += v[k];
    out[threadIdx.x] = s;
    if (threadIdx.x == 0) st[0] = t0, st[1] = t1;
}
'''


def test_plain_block_consumers_wait_for_their_scoreboards_last_load():
    """16 loads, then their 16 adds (the clock read keeps them apart): the first four loads open the
    four scoreboards, the other twelve join the last one, so the add of the fourth value waits for
    the sixteenth load too (ptxas: SB2 SB3 SB4 SB5, then SB5 for the rest), and no other add does."""
    from simgpu.timing.unroll import block_scoreboard_waits
    lk = sg.RawModule(code=BURST).linked("burst16")
    st_ = build_static(lk, default_config())
    loads = [pc for pc in range(len(lk.instructions)) if lk.mem_class[pc] == "global_ld"]
    adds = [pc for pc, ins in enumerate(lk.instructions) if ins.opcode == "add" and "f32" in ins.mods]
    assert len(loads) == 16 and len(adds) == 16
    waits = block_scoreboard_waits(st_, 0, len(lk.instructions), list(range(len(lk.instructions))), 4)
    reader_of = {pc: next(q for q in adds if set(st_.dst[pc][st_.dst[pc] >= 0]) & set(st_.src[q][st_.src[q] >= 0]))
                 for pc in loads}
    last = [int(r) for r in st_.dst[loads[-1]] if r >= 0]
    assert waits == {reader_of[loads[3]]: last}


WALK16 = r'''
extern "C" __global__ void walk16(const float* a, float* y, long long* st, int rows, int pitch)
{
    float s = 0.f;
    long long t0 = clock64();
#pragma unroll 1
    for (int r = 0; r < rows; r += 16) {
        float v[16];
#pragma unroll
        for (int u = 0; u < 16; ++u) v[u] = a[(size_t)(r + u) * pitch + threadIdx.x];
#pragma unroll
        for (int u = 0; u < 16; ++u) s += v[u];
    }
    long long t1 = clock64();
    y[threadIdx.x] = s;
    if (threadIdx.x == 0) st[0] = t0, st[1] = t1;
}
'''


def test_a_rolled_loops_adds_wait_for_the_last_load_of_their_scoreboard(monkeypatch):
    """benchmarks/microbench/gpc_inflight's walk_16 (`#pragma unroll 1`, 16 loads a trip): with the
    loads' shared scoreboards in plain blocks, the adds after the fourth wait for the last load and
    then run back to back, so a trip takes longer by up to the chain of the remaining adds."""
    import simgpu.timing.model as timing_model
    monkeypatch.setattr(timing_model, "RECORD_AUTO_LIMIT", 10**9)
    rows, pitch = 256, 128
    k = sg.RawModule(code=WALK16).get_function("walk16")
    a, y, stamps = sg.asarray(np.ones(rows * pitch, np.float32)), sg.zeros(32, np.float32), sg.zeros(2, np.int64)
    trip = {}
    for flag in (False, True):
        with overridden(ptxas_shared_scoreboards_in_blocks=flag):
            t = k((1,), (32,), (a, y, stamps, np.int32(rows), np.int32(pitch))).timing.clock_reads()[0]
        trip[flag] = (t[1] - t[0]) / (rows // 16)
    lat = default_config().lat_fp32
    assert trip[False] + 2 * lat <= trip[True] <= trip[False] + 13 * lat
