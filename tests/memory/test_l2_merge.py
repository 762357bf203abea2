"""L2 read merging between SMs of one GPC, and the measured CTA -> SM order (simgpu/memory/topology.py).

The replay of the share_read microbenchmark (benchmarks/microbench/l2_merge/l2_merge.cu) is compared
with what ncu measured on the H200 (lts__t_sectors_srcunit_tex_op_read.sum, cold caches).
"""

from dataclasses import replace

import numpy as np
import pytest

from simgpu.core.dispatch import sm_of_cta, sm_order
from simgpu.memory import MemoryConfig, MemorySystem
from simgpu.memory.topology import H200_DISPATCH_ORDER, H200_GPCS, H200_MERGE_DOMAINS

READ = "lts__t_sectors_srcunit_tex_op_read.sum"
MERGED = "simgpu__l1_miss_sectors_merged_before_l2.sum"


def _line_load(ms, sms, base, pc=0):
    """One warp per SM in `sms`, each reading the same 128-byte line at `base` (4 sectors)."""
    sms = np.asarray(sms, np.int64)
    addr = base + 4 * np.arange(32, dtype=np.int64)[None, :].repeat(len(sms), 0)
    ms.global_access("ld", pc, sms, addr, np.ones(addr.shape, bool), 4)


def test_same_gpc_merges_other_gpc_does_not(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 1)
    _line_load(ms, [2, 3], 1 << 30)  # one TPC
    _line_load(ms, [0, 2], 1 << 31)  # two GPCs
    m = ms.metrics()
    assert m[READ] == 4 + 8
    assert m[MERGED] == 4
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] == 16


def _sector_load(ms, sms, base, sectors_of_sm, pc=0):
    """One warp per SM, lanes 0-7 reading sector sectors_of_sm[i][0] of the line at `base`, lanes
    8-15 sector [1], and so on (sectors repeat to fill the warp)."""
    addr = np.array([[base + 32 * sec[(lane >> 3) % len(sec)] + 4 * (lane & 7) for lane in range(32)]
                     for sec in sectors_of_sm], np.int64)
    ms.global_access("ld", pc, np.asarray(sms, np.int64), addr, np.ones(addr.shape, bool), 4)


@pytest.mark.parametrize("ask_2, ask_3, preload_2, reads", [
    ((1,), (1,), False, 1),  # identical requests: one L2 read
    ((0, 1), (1,), True, 1 + 2),  # both miss sector 1, but SM 2 asked for sectors 0 and 1: no merge
    ((0, 1), (0, 1), True, 1 + 3),  # the same ask, other misses: no merge (l2_order mask_pair mode 1)
    ((0, 1), (0, 1), False, 2),  # identical again
])
def test_a_request_is_its_ask_and_its_misses(h200, ask_2, ask_3, preload_2, reads):
    """benchmarks/microbench/l2_order mask_pair: SMs 2 and 3 (one TPC) in one call; SM 2 may hold
    sector 0 of the line in L1 already."""
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 1)
    if preload_2:
        _sector_load(ms, [2], 1 << 30, [(0,)], pc=0)
    _sector_load(ms, [2, 3], 1 << 30, [ask_2, ask_3], pc=1)
    assert ms.metrics()[READ] == reads


def test_at_most_four_sms_per_request(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 1)
    gpc = list(H200_GPCS[1])  # 16 SMs
    _line_load(ms, gpc[:5], 1 << 30)
    _line_load(ms, gpc, 1 << 31)
    assert ms.metrics()[READ] == 4 * 2 + 4 * 4


def test_no_merge_across_calls_stores_or_atomics(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 1)
    _line_load(ms, [2], 1 << 30)
    _line_load(ms, [3], 1 << 30)  # later instruction: an L2 hit, not a merge
    m = ms.metrics()
    assert m[READ] == 8 and m[MERGED] == 0
    assert m["lts__t_sectors_op_read_lookup_hit.sum"] == 4
    addr = (1 << 32) + 4 * np.arange(32, dtype=np.int64)[None, :].repeat(2, 0)
    ms.global_access("st", 1, np.array([2, 3]), addr, np.ones(addr.shape, bool), 4)
    ms.global_access("atom", 2, np.array([2, 3]), addr, np.ones(addr.shape, bool), 4)
    m = ms.metrics()
    assert m["lts__t_sectors_srcunit_tex_op_write.sum"] == 8
    assert m["lts__t_sectors_srcunit_tex_op_atom.sum"] == 8


def test_merge_off_for_other_gpus_and_config():
    from simgpu.arch.presets import get_preset

    a100 = get_preset("a100")
    assert MemorySystem(a100).merge_dom.shape[0] == 0
    h200 = get_preset("h200")
    assert MemorySystem(h200, replace(MemoryConfig(), l2_merge_domains=None)).merge_dom.shape[0] == 0


def test_merged_sector_reports_leader_l2_hit(h200):
    ms = MemorySystem(h200)
    ms.begin_kernel(0, 1)
    _line_load(ms, [20], 1 << 30)  # SM 20 (GPC2) brings the line into L2
    _line_load(ms, [2, 3], 1 << 30)  # GPC1: SM 2 hits in L2, SM 3 joins its request
    assert list(ms.last_warp_summary()["l2_hit_sectors"]) == [4, 4]
    assert ms.metrics()[READ] == 8


def test_dispatch_order_is_the_measured_one():
    assert sorted(H200_DISPATCH_ORDER) == list(range(132))
    assert list(sm_of_cta(np.arange(10), 1056, 132, 1056)) == [124, 125, 126, 127, 128, 129, 130, 131, 0, 1]
    # a launch of 10 CTAs: after 124-131, one CTA per GPC (core/dispatch.py)
    assert list(sm_of_cta(np.arange(10), 1056, 132)) == [124, 125, 126, 127, 128, 129, 130, 131, 0, 2]
    assert sm_of_cta(np.array([132 + 8]), 1056, 132, 1056)[0] == 0  # full rounds repeat the order
    assert list(sm_order(40)) == list(range(40))  # other GPUs: identity
    # consecutive CTAs share a GPC: the 16 CTAs 16..31 are exactly GPC 1
    assert sorted(sm_of_cta(np.arange(16, 32), 1056, 132, 1056)) == sorted(H200_GPCS[1])
    assert sorted(s for d in H200_MERGE_DOMAINS for s in d) == list(range(132))


# share_read: one CTA per SM, 8 warps, 64 coalesced 4-byte loads per thread over a 64 KB buffer;
# groups of SMs read the same buffer. Measured copies of the buffer that reached L2 (ncu, cold).
def _share(h200, groups):
    ms = MemorySystem(h200)
    ms.begin_kernel(200 * 1024, 1)
    buf = np.empty(132, np.int64)
    nxt = 0
    for g in groups:
        buf[list(g)] = nxt
        nxt += 1
    rest = [s for s in range(132) if s not in {x for g in groups for x in g}]
    buf[rest] = np.arange(nxt, nxt + len(rest))
    sms = np.repeat(np.arange(132, dtype=np.int64), 8)
    warp = np.tile(np.arange(8, dtype=np.int64), 132)
    lane = np.arange(32, dtype=np.int64)[None, :]
    base = (1 << 40) + buf[sms] * 65536
    for i in range(64):
        addr = base[:, None] + 4 * (i * 256 + warp[:, None] * 32 + lane)
        ms.global_access("ld", 0, sms, addr, np.ones(addr.shape, bool), 4)
    m = ms.metrics()
    assert m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum"] == 132 * 2048
    return m[READ] / 2048 - len(rest)  # copies of the shared buffers


TPCS = [(2 * k, 2 * k + 1) for k in range(66)]


@pytest.mark.parametrize("name,groups,measured,tol", [
    ("pair_tpc", TPCS, 66 * 1.00, 0.01),
    ("pair_k_k66", [(k, k + 66) for k in range(66)], 66 * 2.00, 0.01),
    ("quad_same_gpc_2tpc", [g[i:i + 4] for g in H200_GPCS for i in range(0, len(g) - 3, 4)][:30], 30 * 1.00, 0.01),
    ("x8_diff_gpc", [tuple(g[j] for g in H200_GPCS) for j in range(8)], 8 * 8.00, 0.01),
    ("all_same", [tuple(range(132))], 35.68, 0.06),
])
def test_share_read_replay_matches_h200(h200, name, groups, measured, tol):
    assert abs(_share(h200, groups) - measured) <= tol * measured


def test_the_other_chips_layout_of_sms_124_to_131():
    """H200_MERGE_DOMAINS_CD960C36 (l2_group pair runs): 124/125 and 130/131 with GPC 0, 126/127
    with GPC 4, 128/129 with GPC 5; GPCs of 6, 8, 8, 8, 9, 9, 9, 9 TPCs."""
    from simgpu.memory.topology import H200_MERGE_DOMAINS_CD960C36, domain_of_sm

    dom = domain_of_sm(H200_MERGE_DOMAINS_CD960C36, 132)
    assert dom[124] == dom[1] and dom[131] == dom[0] and dom[125] != dom[126] and dom[127] != dom[128]
    assert dom[126] == dom[H200_GPCS[4][0]] and dom[128] == dom[H200_GPCS[5][0]]
    assert sorted(len(d) for d in H200_MERGE_DOMAINS_CD960C36) == [12, 16, 16, 16, 18, 18, 18, 18]
