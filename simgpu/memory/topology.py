"""Measured SM topology of the H200: block-scheduler order and L2 read-merge domains.

Source: benchmarks/microbench/l2_merge (l2_merge.cu, run_l2_merge.py, results/), one H200 SXM,
driver 580.159, 2026-11-29. All SM numbers are ``%smid`` values (0..131, what simgpu calls the SM id).

* ``H200_DISPATCH_ORDER`` -- the SM of the i-th CTA of a launch, for the first 132 CTAs. Identical
  for every launch shape measured (1-D grids of 132/256/264/1056 CTAs of 256 threads, 16x16 grids of
  16x16 threads, 32x32 grids of 32x8 threads, the calibration gemms), except that the first two
  groups (124-127 and 128-131) swap places from launch to launch. The order is GPC-major: both SMs
  of a TPC (2k, 2k+1) back to back, the TPCs of one GPC in a row, GPC after GPC.
  Later CTAs (a second CTA per SM) follow the same GPC-major walk; a partial round (a launch of
  fewer CTAs than SMs, or a wave's last round) is dealt out over the GPCs, even SMs of TPCs first
  (e.g. with 256 CTAs GPCs 2-5 get 15 CTAs in the second round and GPCs 6-7 16, skipping the odd
  SMs of their last TPCs; 64 CTAs take one SM of 56 TPCs in all GPCs): core/dispatch.py.
* ``H200_MERGE_DOMAINS`` -- the SM groups whose concurrent L1 misses to one sector reach L2 once:
  the GPCs. Measured with one CTA per SM, each SM reading a buffer chosen by %smid (ncu,
  lts__t_sectors_srcunit_tex_op_read.sum, cold and warm): any two SMs of one GPC, the two of a TPC
  or of different TPCs, reach L2 once (1.00 copies); SMs of different GPCs never merge (2.00 / 4.00 /
  8.00 copies for 2, 4, 8 GPCs). GPCs come from thread-block-cluster launches (the SMs that ever
  shared a cluster of 4, 8 or 16 CTAs). SMs 124-131, four TPCs that never host a cluster of 4 or
  more, differ from chip to chip: the default takes 124-127 and 128-131 as two domains, which fits
  the validation data's chip (2026-11-29: of the pairs (125,126), (127,128), (129,130), (131,0),
  (1,124), (123,124) exactly two merged; program gemm_regblock's 4 CTAs on 124-127 merge fully);
  ``H200_MERGE_DOMAINS_CD960C36`` is another chip's layout, measured pair by pair.
* ``H200_MERGE_MAX_SMS`` -- one L2 request serves at most 4 SMs: 8 SMs of one GPC reading one
  buffer reach L2 2.07 times, a whole GPC (16 or 18 SMs) 4.2 times, all 132 SMs 35.7 times
  (sum over domains of ceil(n/4) = 34); SMs reading the same buffer 100 us later (L2 hits) merge
  among themselves the same way (all SMs, odd ones delayed: 41.4 copies).

Merging needs the requests to be in flight together: delaying one SM of a TPC pair by 500 / 2000 /
8000 / 200000 SM cycles leaves 1.01 / 1.07 / 1.29 / 2.00 copies (the late SM catches up while its
loads hit in L2, then runs in lock step with the leader). simgpu treats the warps of one engine call
(one PTX instruction of every warp of the wave at that pc) as concurrent.

The in-flight window is short (benchmarks/microbench/l2_drift): two SMs of a TPC issuing one burst
of loads d cycles apart merge fully up to d = 200 cycles when the sectors miss in L2, but only 75 %
at d = 25-50 and none from d = 300 when they hit; on the H200 only CTAs in lock step (those that
share the loads that pace them) are that close, the others drift 200-1000 cycles apart. Treating a
whole engine call as concurrent over-merges kernels with several CTAs per SM (calibration gemms:
-31 / -33 % L2 read sectors); the timing replay decides the merging again at each load's issue
(timing/load_lines.py, l2_merge.py), a request open while its data has not left the L2, each line
joining when it leaves its SM's miss queue; with the near/far L2 latencies below (timing/l2_sides.py)
the calibration gemms come out at -18.8 / +0.3 % (2026-12-01; gemm_naive's warps still run more in
step than the H200's).
"""

from __future__ import annotations

# GPCs as found by cluster launches (SM ids in dispatch order inside each GPC)
H200_GPCS: tuple[tuple[int, ...], ...] = (
    (0, 1, 16, 17, 32, 33, 48, 49),  # + 124..131 (two 4-SM domains, no clusters of >= 4 there)
    (2, 3, 18, 19, 34, 35, 50, 51, 64, 65, 78, 79, 92, 93, 106, 107),
    (4, 5, 20, 21, 36, 37, 52, 53, 66, 67, 80, 81, 94, 95, 108, 109),
    (6, 7, 22, 23, 38, 39, 54, 55, 68, 69, 82, 83, 96, 97, 110, 111),
    (8, 9, 24, 25, 40, 41, 56, 57, 70, 71, 84, 85, 98, 99, 112, 113),
    (10, 11, 26, 27, 42, 43, 58, 59, 72, 73, 86, 87, 100, 101, 114, 115),
    (12, 13, 28, 29, 44, 45, 60, 61, 74, 75, 88, 89, 102, 103, 116, 117, 120, 121),
    (14, 15, 30, 31, 46, 47, 62, 63, 76, 77, 90, 91, 104, 105, 118, 119, 122, 123),
)

H200_MERGE_DOMAINS: tuple[tuple[int, ...], ...] = (
    (124, 125, 126, 127),
    (128, 129, 130, 131),
) + H200_GPCS

# The same GPCs with SMs 124-131 where one other H200 (GPU-cd960c36-9a29-c2b0-b4d3-4d34e73b78a8)
# merges them, measured pair by pair (benchmarks/microbench/l2_group/results/pairs, tpcs, 2026-11-30):
# (124, 1), (131, 0), (126, GPC 4), (128, GPC 5) merge; (125, 126), (127, 128), (129, 130), (124, 128)
# and 126 / 128 with the other GPCs do not. Which TPCs are fused off is a per-chip fact; the default
# above fits the chip the validation data was measured on (program gemm_regblock, 4 CTAs on 124-127,
# matches its L2 read sectors exactly with it and is +53 % with this layout). Use with
# MemoryConfig(l2_merge_domains=H200_MERGE_DOMAINS_CD960C36) for such a chip.
H200_MERGE_DOMAINS_CD960C36: tuple[tuple[int, ...], ...] = tuple(
    g + {0: (124, 125, 130, 131), 4: (126, 127), 5: (128, 129)}.get(i, ()) for i, g in enumerate(H200_GPCS))

H200_DISPATCH_ORDER: tuple[int, ...] = tuple(
    [124, 125, 126, 127, 128, 129, 130, 131] + [s for g in H200_GPCS for s in g])
# The walk's units: SMs 124-131, then the GPCs. A partial round takes 124-131 first and deals the
# rest out over the GPCs (core/dispatch.py; benchmarks/microbench/dispatch and l2_drift).
H200_DISPATCH_UNITS: tuple[tuple[int, ...], ...] = ((124, 125, 126, 127, 128, 129, 130, 131),) + H200_GPCS

H200_MERGE_MAX_SMS = 4

# The two L2 partitions: which SMs sit near which (benchmarks/microbench/l2_partition, first_touch.cu,
# H200, 2026-11-30). After one SM (124) pulled 65,536 lines into L2, every SM's first ld.cg of each
# line took 296 cycles (271-328) or 474 (433-509); 66 SMs saw the slow kind for exactly half of the
# lines, the other 66 for none: GPCs 1, 2, 3 and 7 are on the far side of SM 124's partition.
H200_L2_SIDE_1_GPCS = (1, 2, 3, 7)
H200_L2_SIDE: tuple[int, ...] = tuple(
    1 if any(s in H200_GPCS[g] for g in H200_L2_SIDE_1_GPCS) else 0 for s in range(132))
# Which partition holds a line (same run): the parity of byte-address bits 12, 13, 15, 17 and 19,
# XOR a constant per 2 MB page (physical address bits above 20, unknown to simgpu): exact for all
# 64,046 lines whose side the run showed, in each of the four 2 MB pages of the 8 MB buffer.
H200_L2_HOME_BITS = (12, 13, 15, 17, 19)

# Each SM's own distance to the L2 (same run): the median latency of its near first-touch loads,
# ~4,000 lines per SM (l2_partition/analyze.py sm_near_latency). 281-320 cycles, both SMs of a TPC
# within a few cycles of each other: a fixed offset per SM (the replay adds it to every L2 and DRAM
# access), which makes CTAs on different SMs drift apart even when they run the same code.
H200_SM_L2_LATENCY: tuple[int, ...] = (
    301, 300, 297, 298, 299, 300, 297, 298, 300, 300, 301, 301, 306, 305, 296, 297, 305, 306, 303, 305,
    303, 305, 293, 292, 297, 295, 298, 299, 305, 307, 290, 302, 311, 314, 309, 298, 309, 314, 297, 296,
    302, 301, 304, 301, 319, 320, 302, 299, 295, 296, 292, 293, 294, 294, 293, 294, 295, 294, 296, 296,
    299, 299, 291, 292, 286, 288, 299, 299, 287, 287, 291, 291, 293, 293, 302, 302, 285, 285, 305, 306,
    306, 308, 293, 303, 296, 295, 297, 296, 313, 315, 297, 294, 287, 288, 288, 289, 288, 289, 290, 289,
    290, 291, 294, 294, 286, 287, 293, 294, 293, 283, 290, 283, 286, 286, 289, 288, 296, 297, 281, 281,
    306, 307, 289, 288, 301, 302, 307, 308, 290, 291, 295, 296)

# The same run, each SM's own distance taken out: the extra latency of a line as seen from one GPC
# (the path to the line's L2 slice), 32 quantiles in cycles of the 123,072 (GPC, line) pairs timed
# at least twice (SD 17.3; two SMs of one GPC correlate 0.89 on a line, of different GPCs -0.09).
# timing/config.py l2_gpc_line_latency.
H200_GPC_LINE_LATENCY: tuple[int, ...] = (
    -28, -24, -22, -21, -19, -18, -17, -16, -15, -14, -13, -11, -10, -9, -7, -3,
    2, 5, 7, 9, 11, 12, 13, 15, 16, 18, 19, 21, 22, 24, 27, 32)

assert sorted(H200_DISPATCH_ORDER) == list(range(132))
assert len(H200_SM_L2_LATENCY) == 132
assert sorted(s for d in H200_MERGE_DOMAINS for s in d) == list(range(132))
assert sorted(s for d in H200_MERGE_DOMAINS_CD960C36 for s in d) == list(range(132))
assert sum(H200_L2_SIDE) == 66


def domain_of_sm(domains, num_sms: int):
    """int64[num_sms]: merge-domain id of every SM, or None if the domains do not cover 0..num_sms-1."""
    import numpy as np

    if not domains:
        return None
    flat = sorted(s for d in domains for s in d)
    if flat != list(range(num_sms)):
        return None
    out = np.empty(num_sms, np.int64)
    for i, d in enumerate(domains):
        for s in d:
            out[s] = i
    return out
