"""DRAM row activations (timing/dram_rows.py): a stream opens a row per dram_row_bytes, random
accesses one each, and the replay charges each DRAM sector its activations above a stream's
(validation/typical18: random 4-byte gathers over 256 MB ran at 2.4 TB/s on the H200), and each
sector written back the rows its evicting instruction's write-backs opened and its 64 B write
(validation/typical19: random 32 B sectors stored over 256 MB ran 4.9x slower than in order)."""

import dataclasses

import numpy as np
import pytest

import simgpu as sg
from simgpu.arch import get_preset
from simgpu.timing.config import TimingConfig, default_config
from simgpu.timing.dram_rows import _scan, extra_cycles_per_sector, write_back_cycles_per_sector
from simgpu.timing.model import simulate_timing

CFG = TimingConfig()
LINES_PER_ROW = CFG.dram_row_bytes // 128


def _acts(lines, pcs=None, warps=None) -> np.ndarray:
    """Each line its own warp unless warps says otherwise."""
    lines = np.asarray(lines, np.int64)
    pcs = np.zeros(len(lines), np.int64) if pcs is None else np.asarray(pcs, np.int64)
    warps = np.arange(len(lines), dtype=np.int64) if warps is None else np.asarray(warps, np.int64)
    shift = CFG.dram_row_bytes.bit_length() - 1 - 7
    return _scan(pcs, lines, warps, shift, CFG.dram_banks, int(pcs.max()) + 1)


def test_a_stream_opens_one_row_per_row():
    assert _acts(np.arange(64 * LINES_PER_ROW))[0] == 64


def test_random_lines_open_a_row_each():
    rows = np.random.default_rng(0).choice(1 << 30, 5000, replace=False)
    assert _acts(rows * LINES_PER_ROW)[0] == 5000


def test_interleaved_streams_keep_their_rows_open():
    """Two arrays 1 GB apart read line by line side by side (a[i] + b[i]): their rows sit in
    different banks, so each stream pays one activation a row, as alone."""
    n = 32 * LINES_PER_ROW
    i = np.arange(n)
    lines = np.stack([i, i + (1 << 23)], 1).ravel()
    assert _acts(lines)[0] == 2 * 32


def test_a_warp_walking_its_own_row_keeps_it_open():
    """8,192 warps each reading its own 16 KB row a line a step (the walk runs every warp's step
    together): far more rows than banks between a warp's two lines, yet each warp opens one row per
    dram_row_bytes, as a stream does."""
    warps, steps = 8192, 2 * LINES_PER_ROW
    w = np.tile(np.arange(warps), steps)
    k = np.repeat(np.arange(steps), warps)
    lines = w * 128 + k  # warp w's row starts at 16 KB x w
    assert _acts(lines, warps=w)[0] == warps * 2
    assert _acts(lines)[0] == warps * steps  # without the warps: every line a new row


def test_activations_are_counted_per_pc():
    acts = _acts([0, 1, 1 << 20, 2], pcs=[0, 0, 1, 0])
    assert list(acts) == [1, 1]  # pc 0's three lines share a row (left open: pc 1 used another bank)


def test_a_stream_costs_nothing_extra_and_random_sector_pairs_their_row_each():
    clock_mhz = 1980.0
    acts = np.array([10, 1000, 0])
    sectors = np.array([10 * 2 * LINES_PER_ROW * 2, 2000, 0], np.float64)  # a stream; random 64 B pairs
    extra = extra_cycles_per_sector(acts, sectors, CFG, clock_mhz)
    stream = 32 / CFG.dram_row_bytes
    assert extra[0] == 0.0 and extra[2] == 0.0
    assert extra[1] == pytest.approx((0.5 - stream) * CFG.dram_activation_ns * clock_mhz / 1000)


GATHER = r'''
extern "C" __global__ void gather(const unsigned* table, const int* idx, unsigned* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = table[idx[i]];
}
'''
N = 1 << 19  # lanes
WORDS = 1 << 24  # a 64 MB table: random sectors, each its own row


@pytest.mark.parametrize("pattern", ["random", "stream"])
def test_random_gathers_pay_for_their_rows_streams_do_not(pattern, timing_override):
    # a stream: lane i reads word 8 i, one sector a lane as the random gather, whole rows in order
    idx = (np.random.default_rng(1).integers(0, WORDS, N) if pattern == "random"
           else np.arange(N, dtype=np.int64) * 8)
    kernel = sg.RawModule(code=GATHER).get_function("gather")
    args = (sg.asarray(np.arange(WORDS, dtype=np.uint32)), sg.asarray(idx.astype(np.int32)), sg.zeros(N, np.uint32),
            np.int32(N))  # the same arrays (addresses) for both launches
    with_rows = kernel((N // 256,), (256,), args).timing.time_ns
    timing_override(dram_activation_ns=0.0)
    without = kernel((N // 256,), (256,), args).timing.time_ns
    if pattern == "random":  # 2 sectors a row against 64: about 1.8x the DRAM time
        assert with_rows >= 1.4 * without, (with_rows, without)
    else:  # (a row boundary inside a warp's sectors can cost a stream a little)
        assert abs(with_rows - without) <= 0.01 * without, (with_rows, without)



def _write_back_ns(sectors: int, acts: int, granules: int) -> float:
    row = {"pc": 1, "dram_bytes_write": 32.0 * sectors, "dram_write_activations": acts,
           "dram_write_granules": granules}
    return write_back_cycles_per_sector([{"pc": 0}, row], 2, CFG, 1000.0)[1]  # at 1 GHz: cycles = ns


STREAM = 32 / CFG.dram_row_bytes  # a stream's activations per sector
SECTOR_NS = 32 / CFG.dram_write_bytes_per_s * 1e9  # a written sector's bytes at the write rate


def test_write_backs_in_order_cost_nothing_beyond_their_bytes():
    assert _write_back_ns(64 * 100, 100, 32 * 100) == 0.0


@pytest.mark.parametrize("per_line, granules", [(4, 2), (2, 1), (1, 1)])
def test_random_write_backs_pay_a_row_each_and_a_lone_sector_its_granule(per_line, granules):
    """Whole lines, 64 B pairs and lone 32 B sectors, each at its own row: an activation per line
    over its sectors, and a lone sector the rest of its 64 B write."""
    lines = 1000
    ns = _write_back_ns(lines * per_line, lines, lines * granules)
    lone = SECTOR_NS if per_line == 1 else 0.0
    assert ns == pytest.approx((1 / per_line - STREAM) * CFG.dram_write_activation_ns + lone)


def test_a_pc_that_wrote_nothing_back_costs_nothing():
    assert write_back_cycles_per_sector([{"pc": 0, "dram_bytes_write": 0.0}], 1, CFG, 1000.0)[0] == 0.0


FILL = r'''
extern "C" __global__ void fill(float4* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = make_float4((float)i, 0.0f, 0.0f, 1.0f);
}
'''


def test_a_launch_that_only_stores_is_paced_by_its_write_backs_rows():
    """A launch of stores alone (no load to wait behind the DRAM queue) whose every sector is written
    back: as random 64 B pairs or lone sectors it takes longer than in order by their activations
    (and a lone sector's 64 B write) on the DRAM queue, because a store waits for the DRAM to take
    its write-backs (the H200: 2.5x and 4.9x at 256 MB, validation/typical19). The write-backs are
    put on the store by hand (real ones need more than the 60 MB L2)."""
    n = 4 * 1056 * 256  # 17 MB of float4s
    rep = sg.RawKernel(FILL, "fill")((n // 256,), (256,), (sg.zeros(4 * n, np.float32), np.int32(n)), trace=True,
                                      progress=False)
    per_pc = [dict(r) for r in rep.per_pc]
    store = next(r for r in per_pc if r["text"].startswith("st.global"))
    sectors = n // 2

    def time(acts: int, granules: int, wait: bool = True) -> float:
        store.update(dram_bytes_write=32.0 * sectors, dram_write_activations=acts, dram_write_granules=granules)
        cfg = dataclasses.replace(default_config(), stores_wait_for_write_backs=wait)
        return simulate_timing(rep.linked, rep.trace, get_preset("h200"), grid=rep.grid, block=rep.block,
                               ctas_per_sm=rep.ctas_per_sm, registers_per_thread=rep.registers_per_thread,
                               config=cfg, per_pc=per_pc).time_ns

    in_order = time(sectors // 64, sectors // 2)
    pairs = time(sectors // 2, sectors // 2)
    lone = time(sectors, sectors)
    act = CFG.dram_write_activation_ns
    assert pairs - in_order == pytest.approx(sectors * (1 / 2 - STREAM) * act, rel=0.05)
    assert lone - in_order == pytest.approx(sectors * ((1 - STREAM) * act + SECTOR_NS), rel=0.05)
    # the switch: stores that do not wait leave the write-backs to no one
    assert time(sectors, sectors, wait=False) <= 1.02 * in_order
