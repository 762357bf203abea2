from dataclasses import replace

import numpy as np
import pytest

from simgpu.memory import MemoryConfig, MemorySystem, memory_config_for
from simgpu.memory.config import overridden
from simgpu.memory.l2 import (
    C_DRAM_READ_SECTORS,
    C_DRAM_WRITE_SECTORS,
    C_L2_READ_HIT,
    C_L2_READ_MISS,
    L2_READ,
    L2_WRITE,
    N_COUNTERS,
    L2Cache,
    home_partition,
)

LANE = np.arange(32, dtype=np.int64)
BASE = 1 << 40
FULL = np.ones((1, 32), bool)


def one_set_l2(ways=4, fetch=64):
    return L2Cache(total_bytes=ways * 128, ways=ways, fetch_bytes=fetch)


def test_l2_lru_eviction_order():
    l2, ctr = one_set_l2(), np.zeros(N_COUNTERS, np.int64)
    for line in (0, 1, 2, 3):
        l2.access(L2_READ, line, 0b0001, ctr)
    l2.access(L2_READ, 0, 0b0001, ctr)  # 0 becomes most recent; 1 is now LRU
    l2.access(L2_READ, 4, 0b0001, ctr)
    assert sorted(l2.tags[0].tolist()) == [0, 2, 3, 4]
    l2.access(L2_READ, 2, 0b0001, ctr)  # 3 becomes LRU
    l2.access(L2_READ, 5, 0b0001, ctr)
    assert sorted(l2.tags[0].tolist()) == [0, 2, 4, 5]


def test_l2_sector_fill_64_byte_pairs():
    l2, ctr = one_set_l2(), np.zeros(N_COUNTERS, np.int64)
    assert l2.access(L2_READ, 7, 0b0001, ctr) == 0  # miss
    assert ctr[C_DRAM_READ_SECTORS] == 2  # the sector pair 0-1 was fetched
    assert l2.access(L2_READ, 7, 0b0010, ctr) == 0b0010  # hit on the partner sector
    assert l2.access(L2_READ, 7, 0b1100, ctr) == 0
    assert ctr[C_DRAM_READ_SECTORS] == 4
    assert (ctr[C_L2_READ_HIT], ctr[C_L2_READ_MISS]) == (1, 3)
    l2b, ctr = one_set_l2(fetch=32), np.zeros(N_COUNTERS, np.int64)
    l2b.access(L2_READ, 7, 0b0001, ctr)
    assert ctr[C_DRAM_READ_SECTORS] == 1


def test_l2_write_back_dirty_eviction():
    l2, ctr = one_set_l2(), np.zeros(N_COUNTERS, np.int64)
    l2.access(L2_WRITE, 0, 0b1111, ctr)  # write-allocate, no DRAM read
    l2.access(L2_WRITE, 1, 0b0100, ctr)
    assert ctr[C_DRAM_READ_SECTORS] == 0 and l2.dirty_sectors() == 5
    for line in (2, 3, 4):  # evicts line 0 (dirty 4 sectors)
        l2.access(L2_READ, line, 0b1111, ctr)
    assert ctr[C_DRAM_WRITE_SECTORS] == 4
    l2.access(L2_READ, 5, 0b1111, ctr)  # evicts line 1: one dirty sector
    assert ctr[C_DRAM_WRITE_SECTORS] == 5
    l2.access(L2_READ, 6, 0b1111, ctr)  # evicts clean line 2: no write
    assert ctr[C_DRAM_WRITE_SECTORS] == 5


def load(ms, sm, addr, pc=0, op="ld", size=4, mask=None):
    addr = np.asarray(addr, dtype=np.int64).reshape(1, 32)
    ms.global_access(op, pc, np.array([sm]), addr.astype(np.uint64), FULL if mask is None else mask, size)


def test_cold_vs_warm(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 8)
    # the line is homed in L2 partition 1, SMs 0 and 1 sit beside partition 0 (memory/l2.py)
    assert home_partition(BASE >> 7) == 1 and ms.sm_side[0] == ms.sm_side[1] == 0
    load(ms, 0, BASE + LANE * 4)  # tex miss, then a fabric lookup at home that misses: DRAM
    load(ms, 0, BASE + LANE * 4)  # same SM: L1 hit
    load(ms, 1, BASE + LANE * 4)  # other SM of that side: L1 miss, a hit on the side's copy
    m = ms.metrics()
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"] == 4
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] == 8
    assert m["lts__t_sectors_srcunit_tex_op_read.sum"] == 8
    assert m["lts__t_sectors_srcunit_ltcfabric_op_read.sum"] == 4
    assert m["lts__t_sectors_srcunit_tex_lookup_hit.sum"] == 4
    assert m["lts__t_sector_op_read_hit_rate.pct"] == pytest.approx(100 * 4 / 12)  # tex and fabric reads
    assert m["dram__bytes_read.sum"] == 128
    ms.end_kernel()
    ms.begin_kernel(0, 8)  # cold: ncu flushes L1 and L2
    load(ms, 0, BASE + LANE * 4)
    assert ms.metrics()["l1tex__t_sector_hit_rate.pct"] == 0 and ms.metrics()["dram__bytes_read.sum"] == 128
    ms.end_kernel()
    ms.begin_kernel(0, 8, warm=True)  # the L2 kept, the L1s invalidated (benchmarks/microbench/l1_launch)
    load(ms, 0, BASE + LANE * 4)  # L1 miss, a hit on the side's copy
    load(ms, 0, BASE + LANE * 4)  # L1 hit
    m = ms.metrics()
    assert m["l1tex__t_sector_hit_rate.pct"] == 50.0
    assert m["lts__t_sector_hit_rate.pct"] == 100.0 and m["dram__bytes_read.sum"] == 0


def test_store_allocates_in_l1_and_is_busy_for_the_next_request(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 8)
    line = BASE + 4096 + LANE * 4
    load(ms, 0, line, op="st")  # absent: 4 misses, the line is allocated with the sectors written
    load(ms, 0, line, op="st")  # the SM's previous request stored to this line: still busy, misses
    m = ms.metrics()
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum"] == 8
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"] == 0
    load(ms, 0, BASE + LANE * 4)  # another request in between (a load of another line: misses)
    load(ms, 0, line, op="st")  # now the store hits
    load(ms, 0, line)  # and the stored sectors are valid in L1
    m = ms.metrics()
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"] == 4
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"] == 4
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] == 4
    assert m["lts__t_sectors_srcunit_tex_op_write.sum"] == 12  # write-through: every store reaches L2
    assert m["lts__t_sectors_srcunit_tex_op_read.sum"] == 4
    ms.end_kernel()
    assert ms.metrics()["dram__bytes_write.sum"] == 0  # dirty lines stay in L2 at kernel end


def test_store_hits_at_line_level_and_other_sms_do_not_count(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 8)
    first_half = BASE + (LANE % 16) * 4  # sectors 0-1 of the line (lanes 0-15)
    second_half = BASE + 64 + (LANE % 16) * 4  # sectors 2-3
    half = (LANE < 16)[None, :]
    load(ms, 0, first_half, op="st", mask=half)
    load(ms, 1, BASE + 8192 + LANE * 4)  # SM 1's request does not end SM 0's
    load(ms, 0, BASE + 4096 + LANE * 4)  # SM 0's next request (another line)
    load(ms, 0, second_half, op="st", mask=half)  # sectors never written, line resident: hits
    load(ms, 2, second_half, op="st", mask=half)  # another SM's L1 does not have the line
    m = ms.metrics()
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum"] == 2
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum"] == 4


def test_launch_reads_its_code_and_constants_from_dram(h200):
    ms = MemorySystem(h200)
    c = ms.cfg
    code = 1600 // 32
    ms.begin_kernel(0, 8, code_bytes=1600, code_key="k")
    assert ms.metrics()["dram__sectors_read.sum"] == code + c.launch_fetch_sectors
    load(ms, 0, BASE + LANE * 4)
    assert ms.metrics()["dram__bytes_read.sum"] == 32 * (code + c.launch_fetch_sectors) + 128
    assert sum(r.get("dram_bytes_read", 0) for r in ms.per_instruction().values()) == 128  # no pc
    ms.begin_kernel(0, 8, warm=True, code_bytes=1600, code_key="k")  # code still in L2
    assert ms.metrics()["dram__sectors_read.sum"] == 0
    ms.begin_kernel(0, 8, warm=True, code_bytes=1600, code_key="other")
    assert ms.metrics()["dram__sectors_read.sum"] == code + c.launch_fetch_sectors
    ms.begin_kernel(0, 8, code_bytes=1600, code_key="k")  # cold: flushed, fetched again
    assert ms.metrics()["dram__sectors_read.sum"] == code + c.launch_fetch_sectors


def test_atomics_go_to_l2_and_invalidate_l1(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 8)
    load(ms, 0, BASE + LANE * 4)
    load(ms, 0, BASE + LANE * 4, op="atom")
    load(ms, 0, BASE + LANE * 4, op="red")
    load(ms, 0, BASE + LANE * 4)
    m = ms.metrics()
    assert m["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum"] == 1
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"] == 4
    assert m["lts__t_sectors_srcunit_tex_op_atom.sum"] == 4
    assert m["lts__t_sectors_srcunit_tex_op_red.sum"] == 4
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"] == 0  # reload after atom misses L1
    assert m["lts__t_sectors_srcunit_tex_op_read.sum"] == 8


def test_l1_hit_rate_counts_atomic_sectors_as_misses(h200):
    """ncu's l1tex__t_sector_hit_rate is over every L1 lookup, atomics included (they miss):
    validation/typical5 coo_spmv_atomic, 313,487 load hits over 1,439,814 load + 1,046,990 red
    sectors, ncu 12.59 %."""
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 8)
    load(ms, 0, BASE + LANE * 4)  # 4 sectors miss
    load(ms, 0, BASE + LANE * 4)  # 4 hit
    load(ms, 0, BASE + 4096 + LANE * 4, op="red")  # 4 sectors, another line: misses
    load(ms, 0, BASE + 8192 + LANE * 8, op="atom", size=8)  # 8 sectors: misses
    m = ms.metrics()
    assert m["l1tex__t_sectors_lookup_hit.sum"] == 4 and m["l1tex__t_sectors_lookup_miss.sum"] == 16
    assert m["l1tex__t_sector_hit_rate.pct"] == pytest.approx(100 * 4 / 20)


def test_l1_capacity_follows_carveout(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(4096, 8)  # 8 x (4 KB + 1 KB) = 40 KB -> 64 KB carveout
    # 256 - 64 - 7 KB (config l1_reserved_bytes, measured) = 185 KB: 46 whole ways of 32 x 128 B
    assert ms.carveout_bytes == 64 * 1024 and ms.l1.capacity_bytes == 184 * 1024
    ms.begin_kernel(0, 8, carveout_bytes=100 * 1024)
    assert ms.l1.capacity_bytes == 149 * 1024 - (149 * 1024) % (ms.l1.sets * 128)  # whole ways only
    # LRU sets (config l1_victim_pool = 1 without the second chance; the default draws among the 11
    # oldest ways, here all 5)
    # keep none of 2x their capacity streamed twice on one SM
    with overridden(l1_victim_pool=1, l1_second_chance=False):
        ms = MemorySystem(h200)
    ms.begin_kernel(0, 8, carveout_bytes=228 * 1024)
    cap_lines = ms.l1.capacity_bytes // 128
    lines = np.arange(2 * cap_lines, dtype=np.int64)
    addr = (BASE + lines[:, None] * 128 + LANE * 4).astype(np.uint64)
    for _ in range(2):
        ms.global_access("ld", 0, np.zeros(lines.size, np.int64), addr, np.ones(addr.shape, bool), 4)
    assert ms.metrics()["l1tex__t_sector_hit_rate.pct"] == 0
    # half the capacity streamed twice: the second pass hits
    ms.begin_kernel(0, 8, carveout_bytes=228 * 1024)
    addr = addr[: cap_lines // 2]
    for _ in range(2):
        ms.global_access("ld", 0, np.zeros(addr.shape[0], np.int64), addr, np.ones(addr.shape, bool), 4)
    assert ms.metrics()["l1tex__t_sector_hit_rate.pct"] == 50.0


@pytest.mark.parametrize("offset", [0, 256, 512, 4096 + 768, 123 * 256])
def test_l1_sets_follow_the_offset_in_the_allocation(h200, offset):
    """A buffer of exactly the L1's capacity read twice hits fully the second time wherever its
    allocation starts (256-byte aligned): the set index takes the line's offset in its allocation,
    as the H200 re-reads 240 KB beside the 8 KB carveout without a miss."""
    ms = MemorySystem(h200)
    base = BASE + offset
    ms.begin_kernel(0, 1, carveout_bytes=8 * 1024, heap_bases=[BASE - 4096, base])
    assert ms.l1.capacity_bytes == 240 * 1024
    lines = np.arange(ms.l1.capacity_bytes // 128, dtype=np.int64)
    addr = (base + lines[:, None] * 128 + LANE * 4).astype(np.uint64)
    for _ in range(2):
        ms.global_access("ld", 0, np.zeros(lines.size, np.int64), addr, np.ones(addr.shape, bool), 4)
    assert ms.metrics()["l1tex__t_sector_hit_rate.pct"] == 50.0


def test_local_memory_interleave_and_spill_reload(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 8)
    off = np.full((2, 32), 8, dtype=np.int64)  # every lane's local word 2
    sm = np.array([0, 0])
    uid = np.array([0, 1])
    ms.local_access("st", 0, sm, uid, off, np.ones((2, 32), bool), 4)
    ms.local_access("ld", 1, sm, uid, off, np.ones((2, 32), bool), 4)
    ms.local_access("ld", 2, sm, uid, off, np.ones((2, 32), bool), 8)  # 64-bit: 2 words -> 2 lines
    m = ms.metrics()
    assert m["l1tex__t_requests_pipe_lsu_mem_local_op_st.sum"] == 2
    assert m["l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum"] == 8  # one 128-B line per warp
    assert m["l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum"] == 8 + 16
    assert m["l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum"] == 8 + 8  # spill reload hits
    pi = ms.per_instruction()
    assert pi[1]["l1_hits"] == 8 and pi[2]["lines"] == 4


def test_per_instruction_attribution_and_shared(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(4096, 1)
    load(ms, 0, BASE + LANE * 8, pc=3)
    load(ms, 0, BASE + LANE * 8, pc=3)
    ms.shared_access("ld", 5, (LANE * 128).reshape(1, 32), FULL, 4)
    ms.shared_access("st", 6, (LANE * 4).reshape(1, 32), FULL, 4)
    pi = ms.per_instruction()
    assert pi[3]["requests"] == 2 and pi[3]["sectors"] == 16
    assert pi[3]["l1_hits"] == 8 and pi[3]["l1_misses"] == 8
    assert pi[5]["wavefronts"] == 32 and pi[5]["bank_conflicts"] == 31 and pi[6]["bank_conflicts"] == 0
    m = ms.metrics()
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"] == 32
    assert m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"] == 31
    assert m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"] == 1
    s = ms.last_warp_summary()
    assert s["wavefronts"].tolist() == [1]


def test_memory_config_for_presets():
    from simgpu.arch import get_preset

    assert memory_config_for(get_preset("h200")).l2_bytes == 62_914_560
    assert memory_config_for(get_preset("h100")).l2_bytes == 50 * 1024 * 1024
    a100 = memory_config_for(get_preset("a100"))
    assert a100.l2_bytes == 40 * 1024 * 1024 and a100.l1_shared_unified_bytes == 192 * 1024
    assert MemoryConfig().shared_carveout(8 * 1024) == 8 * 1024
    assert MemoryConfig().shared_carveout(40 * 1024) == 64 * 1024
    with pytest.raises(ValueError):
        MemoryConfig().shared_carveout(300 * 1024)
    small = replace(MemoryConfig(), l2_bytes=1 << 20)
    assert MemorySystem(get_preset("teaching"), small).l2.nsets == (1 << 20) // 128 // 16


def test_deterministic_and_kinds(h200):
    rng = np.random.default_rng(0)
    addr = (BASE + rng.integers(0, 1 << 24, size=(64, 32)) * 4).astype(np.uint64)
    mask = rng.random((64, 32)) < 0.8
    sm = rng.integers(0, 132, size=64)
    out = []
    for _ in range(2):
        ms = MemorySystem(h200)
        ms.begin_kernel(0, 8)
        for op in ("ld", "st", "ld", "atom", "ld"):
            ms.global_access(op, {"ld": 0, "st": 1, "atom": 2}[op], sm, addr, mask, 4)
        ms.shared_access("ld", 3, (addr % 4096).astype(np.uint32), mask, 4)
        out.append((ms.metrics(), ms.per_instruction()))
    assert out[0] == out[1]
    assert ms.instruction_kinds() == {0: ("global", "ld"), 1: ("global", "st"), 2: ("global", "atom"),
                                      3: ("shared", "ld")}
    with pytest.raises(ValueError):
        ms.global_access("ld", 0, np.array([132]), addr[:1], mask[:1], 4)
