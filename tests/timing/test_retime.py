"""The second replay on the L1 walk's misses (simgpu/timing/retime.py)."""

import numpy as np
from chunk_kernel import ChunkSum, lru_l1

from simgpu.timing.config import default_config, overridden
from simgpu.timing.prepare import MEM_ROW, Streams, dram_latency, l2_latency
from simgpu.timing.retime import changed_share, walked_streams


def _info(miss: int, sent: int, l2_hit: int, asked: int) -> int:
    """memory.l1.hierarchy_batch's g_info of a load group."""
    return miss | sent << 4 | l2_hit << 8 | asked << 12


def _streams() -> Streams:
    """Three load rows: row 0 missed 2 sectors of line 10 in L2 (hit there) and hit line 11's
    sector; row 1 missed 4 sectors of line 20 in DRAM; row 2 hit its 2 sectors of line 30."""
    rows = np.zeros(3, MEM_ROW)
    rows["lat"] = [280, 656, 32]
    rows["l2"] = [2.0, 4.0, 0.0]
    rows["dram"] = [0.0, 8.0, 0.0]  # 64-byte DRAM fetches: two sectors a missed sector
    rows["wf"] = [2.0, 1.0, 1.0]
    load_info = np.array([_info(0b0011, 0b0011, 0b0011, 0b0011), _info(0, 0, 0, 0b0100),
                          _info(0b1111, 0b1111, 0, 0b1111), _info(0, 0, 0, 0b1100)], np.uint16)
    keep = (load_info & 15) != 0
    load_line = np.array([10, 11, 20, 30], np.int64)
    return Streams(e_pc=np.zeros(3, np.int32), rows=rows, warp_row0=np.array([0, 3]), warp_off=np.array([0, 3]),
                   cta_warp0=np.zeros(1, np.int64), cta_nwarps=np.ones(1, np.int64), n_ctas=1,
                   miss_row=np.array([0, 1]), miss_line=load_line[keep], miss_info=load_info[keep],
                   miss_line_idx=np.array([0, 1]), n_miss_lines=2, miss_by_row=np.array([0, 1]),
                   load_off=np.array([0, 2, 3, 4]), load_line=load_line, load_info=load_info)


def test_the_walks_own_misses_give_the_same_streams():
    sr = _streams()
    same = (sr.load_info & 15).astype(np.uint8)
    assert changed_share(sr, same) == 0.0
    again = walked_streams(sr, same, default_config())
    assert again.rows.tobytes() == sr.rows.tobytes()
    assert list(again.miss_row) == [0, 1] and list(again.miss_line) == [10, 20]
    assert list(again.miss_info) == list(sr.miss_info) and again.n_miss_lines == 2


def test_rows_follow_the_walks_hits_and_misses():
    """Row 0's misses hit in the walk: an L1 hit, nothing to L2. Row 1 keeps 2 of its 4 DRAM
    misses: half its DRAM sectors. Row 2's sector 3 misses in the walk: sent to L2, a hit there."""
    cfg = default_config()
    sr = _streams()
    walked = np.array([0, 0, 0b0011, 0b1000], np.uint8)
    assert changed_share(sr, walked) == 5 / 9  # 2 + 2 + 1 of the 9 sectors asked for moved
    new = walked_streams(sr, walked, cfg)
    assert list(new.rows["lat"]) == [cfg.lat_l1_hit, int(dram_latency(np.array([1.0]), cfg)[0]),
                                     int(l2_latency(np.array([1.0]), cfg)[0])]
    assert list(new.rows["l2"]) == [0.0, 2.0, 1.0]
    assert list(new.rows["dram"]) == [0.0, 4.0, 0.0]
    assert list(new.rows["wf"]) == [2.0, 1.0, 1.0]  # the L1TEX cycles are the request's, hit or miss
    assert list(new.miss_row) == [1, 2] and list(new.miss_line) == [20, 30]
    assert list(new.miss_info) == [_info(0b0011, 0b0011, 0, 0b1111), _info(0b1000, 0b1000, 0b1000, 0b1100)]
    assert list(new.miss_line_idx) == [0, 1] and new.n_miss_lines == 2
    assert sr.rows["lat"][0] == 280  # the first replay's streams are left as they were


def test_a_dram_fetch_the_walk_took_goes_to_the_load_that_now_misses():
    """Row 1 fetched line 20's sectors from DRAM in step; in the walk it hits sectors 0-1 (another
    load brought them in first) and row 3, which read them from L2 in step, now misses them: row 3
    takes those two DRAM fetches (its DRAM sectors at the launch's DRAM rows' own scale, 2 a sector),
    so the launch fetches as much from DRAM as before."""
    cfg = default_config()
    base = _streams()
    rows = np.zeros(4, MEM_ROW)
    rows[:3] = base.rows
    rows["lat"][3], rows["l2"][3], rows["dram"][3], rows["wf"][3] = 280, 2.0, 0.0, 1.0
    info = np.concatenate([base.load_info, np.array([_info(0b0011, 0b0011, 0b0011, 0b0011)], np.uint16)])
    line = np.concatenate([base.load_line, np.array([20], np.int64)])
    sr = Streams(e_pc=np.zeros(4, np.int32), rows=rows, warp_row0=np.array([0, 4]), warp_off=np.array([0, 4]),
                 cta_warp0=np.zeros(1, np.int64), cta_nwarps=np.ones(1, np.int64), n_ctas=1,
                 miss_row=np.array([0, 1, 3]), miss_line=np.array([10, 20, 20]), miss_info=info[[0, 2, 4]],
                 miss_line_idx=np.array([0, 1, 1]), n_miss_lines=2, miss_by_row=np.array([0, 1, 2]),
                 load_off=np.array([0, 2, 3, 4, 5]), load_line=line, load_info=info)
    walked = np.array([0b0011, 0, 0b1100, 0, 0b0011], np.uint8)  # row 1 keeps sectors 2-3 only
    new = walked_streams(sr, walked, cfg)
    assert list(new.rows["dram"]) == [0.0, 4.0, 0.0, 4.0]
    assert new.rows["lat"][3] == int(dram_latency(np.array([1.0]), cfg)[0])
    by_row = dict(zip(new.miss_row.tolist(), new.miss_info.tolist()))
    assert by_row[3] == _info(0b0011, 0b0011, 0, 0b0011)  # no longer taken for an L2 hit
    assert sum(new.rows["dram"]) == sum(sr.rows["dram"])


TIME_METRICS = ("gpu__time_duration", "cycles", "smsp__", "sm__inst_executed.avg", "sm__warps_active", "simgpu__timing")


def test_a_launch_whose_walk_hits_far_more_is_replayed_on_those_hits():
    """One wave of 64 warps an SM, each thread reading its own line 4 loads at a time: in step
    nothing hits (2,048 lines an SM go through the 216 KB L1 between a lane's two reads), in runs
    at least 3 of 4 reads hit (tests/timing/test_l1_order.py). Replayed on the walk's hits (config
    l1_walk_retime_min_share, on by default), the loads no longer all queue for the L2: the launch
    runs faster (the hits still pay their bank conflicts: float4s 128 bytes apart, 32 wavefronts a
    load); every counter stays the same."""
    run = ChunkSum()
    with overridden(l1_walk_retime_min_share=0.0), lru_l1():
        once = run()
    with lru_l1():
        twice = run()  # the default retime
    assert once.timing.extra["retimed_share"] == 0.0
    assert twice.timing.extra["retimed_share"] >= 0.7
    assert twice.metrics["gpu__time_duration.sum"] < 0.7 * once.metrics["gpu__time_duration.sum"]
    counters = {k: v for k, v in once.metrics.items() if not any(t in k for t in TIME_METRICS)}
    assert counters and {k: twice.metrics[k] for k in counters} == counters
