"""validation/typical, typical2 and typical3: 60 kernels of the kinds users bring, measured on an
H200 with ncu (results/typical.json in each, `validation/typical/run.sh [FOLDER]` on the device),
replayed against the current simulator. Every counter that follows from addresses alone must match
the hardware exactly, except the gaps listed here, which must still differ (fix one, then strike
it from the list)."""

from pathlib import Path

import pytest

from simgpu import FidelityWarning
from simgpu.crosscheck import crosscheck

HERE = Path(__file__).resolve().parents[2] / "validation" / "typical"
RECORDED = HERE / "results" / "typical.json"
HERE2 = HERE.parent / "typical2"

# case -> exact metrics known to differ on the H200, and why
KNOWN_GAPS = {
    # bank-arbitration wavefronts the H200's hardware counter adds to conflict-free code (481 / 3,871:
    # CTAs of a second wave launching beside running shared loads, benchmarks/microbench/
    # smem_arbitration; its SASS-attributed count, validation/shared_sass, is simgpu's)
    "reduce_tree_atomic": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    "conv1d_shared": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    # one-lane stores of 8 warps to one sector: the H200 combined 70 of 2,048 in L1 before L2
    "gemv_warp_rows": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # ptxas unrolls the CSR row loop by 4 more, with steps of 2 and 1 iterations after it: its load
    # instructions and requests follow (timing/sass_counts.py, 48,640 as on the H200), but the lanes
    # it regroups share sectors otherwise (789,687 against 790,206; the trace keeps no addresses)
    "spmv_csr": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
    # typical2: stores to one sector from several store instructions (of one warp: matvec_ldg4's
    # y[r..r+3]; of several warps: one lane each) reach L2 fewer times on the H200 than they are made
    "warp_sum_redux": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    "segmented_max16": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    "block_compact": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    "scatter_perm": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    "matvec_ldg4": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # typical3: bank-arbitration wavefronts again (+13)
    "mlp_relu": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    # typical4: lane 0 of 8 warps stores y[row] into one sector, combined in L1 (as gemv_warp_rows)
    "gemv_warp_x": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # ptxas unrolls the CSR row loop again (as spmv_csr: requests 950,308 as on the H200, sectors 12 low)
    "spmv_banded_csr": {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"},
    # typical5: bank-arbitration wavefronts (+18,939 / +14,787 on 3.1M / 1.2M; +4,090 / +131)
    "sgemm_regblock4x4": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                          "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    "softmax_block_rows": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    # four scalar stores of one warp to the same 16 sectors: the H200 sent 2.7 % fewer to L2
    "layernorm_welford_warp": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # float reds to random addresses: the H200 counted 123 more sectors of 1,046,867 (no rule found:
    # not same-address passes, which simgpu models and which give 238 of the 361 above the distinct
    # sectors)
    "coo_spmv_atomic": {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum"},
    # lane 0 of 8 warps stores y[row] into one sector (as gemv_warp_rows)
    "int8_gemv_dp4a": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # typical6: a warp's three scalar stores of 12-byte structs, each to the same 3 lines and 12
    # sectors back to back: the H200 wrote 406,184 sectors to L2, about once per sector (simgpu
    # 1,179,648: its store sequencer joins single-line stores only, timing/store_lines.py)
    "aos_float3_scale": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # lane 0 of 8 warps stores y[row] into one sector (as gemv_warp_rows: 3,955 against 3,968)
    "half2_gemv_rows": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # bank-arbitration wavefronts on conflict-free code (+2,949 of 491,520; +2,946 / +1,399 of 262,144)
    "fft1024_shared": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    "transpose_double_pad": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                             "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    # typical7: lane 0 of 8 warps stores bits[i / 32] into one sector (as gemv_warp_rows: 100,630
    # against 81,950); the 8 warps' shared atomicAdd on one word took 147,565 wavefronts against
    # 131,072 instructions (~1 more per CTA), and bank-arbitration wavefronts (+2,282 / +49)
    "ballot_bitpack": {"lts__t_sectors_srcunit_tex_op_write.sum",
                       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                       "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"},
    # a CAS loop: how many CAS each lane makes depends on the order the updates land (58,598 on the
    # H200, 67,530 in simgpu), and the H200 made 66,057 requests for its 58,598 (l2_atomics
    # atom_requests.py: one request per warp CAS when no other SM races it)
    "cas_float_max": {"smsp__sass_inst_executed_op_global_atom.sum",
                      "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                      "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "lts__t_sectors_srcunit_tex_op_atom.sum"},
    # double reds to 4,096 random bins: the H200 counted 3,328 more sectors of 2,073,623 (as
    # coo_spmv_atomic)
    "red_double_bins": {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum"},
    # typical8: how often a spinning thread polls depends on time: the look-back's loads (164,759
    # warp loads in simgpu, 56,980 on the H200) and the grid barrier's (84,808 / 85,497); the
    # look-back's 8 stores of a warp 4 bytes apart per lane into each sector: the H200 wrote
    # 1,011,579 sectors to L2, about one per store, simgpu's store sequencer joined them to 545,055
    "lookback_scan": {"smsp__sass_inst_executed_op_global_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    # the grid barrier's spin loads; bank-arbitration wavefronts (+27). (Its generic
    # atom.add.release.gpu's one shared-path wavefront per CTA, 264, is modelled:
    # benchmarks/microbench/generic_atomics)
    "grid_sync_normalize": {"smsp__sass_inst_executed_op_global_ld.sum",
                            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                            "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    # bank-arbitration wavefronts on conflict-free STS.128 (+1,711 of 32,768)
    "named_barrier_pipe": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    # lane 0 of 8 warps stores y[row] into one sector (as gemv_warp_rows: 1,998 against 779)
    "fp8_gemv": {"lts__t_sectors_srcunit_tex_op_write.sum"},
    # validation/clusters: shared wavefronts past the own-CTA lanes' (other SMs' DSMEM requests?)
    "cluster_sum4": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    "cluster_hist": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                     "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    "cluster_halo": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
}
# case -> L1 hit rate known to be more than 3 points off: none since a way a load hit gets a second
# chance among the 11 oldest (config l1_second_chance): spmv_banded_csr 84.95 % against the H200's
# 83.49 % (86.63 before: simgpu kept more of the streamed CSR arrays in L1 than the H200 does)
L1_HIT_GAPS: set[str] = set()
# case -> exact metrics that depend on the NVRTC version that made the PTX: simgpu on the device
# (its CUDA's NVRTC) counted blelloch_scan's 29,696 shared loads, as the H200 ran; the
# nvidia-cuda-nvrtc 13.5 wheel's PTX makes 28,672 (4 fewer per block)
NVRTC_DEPENDENT = {
    "blelloch_scan": {"smsp__sass_inst_executed_op_shared_ld.sum",
                      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
}


@pytest.fixture(scope="module")
def report():
    return crosscheck(suite=HERE / "specs.py", recorded=RECORDED, echo=None)


def test_all_cases_ran_and_agree(report):
    assert len(report.cases) == 26
    for case in report.cases:
        assert case.real_ran and case.outputs_ok, (case.name, case.errors)


@pytest.mark.parametrize("name", ["saxpy_gridstride", "add_float4", "copy_offset1", "aos_norm", "reduce_tree_atomic",
                                  "reduce_shfl_atomic", "histogram_shared", "histogram_global", "layernorm_rows",
                                  "softmax_warp_rows", "transpose_swizzle", "transpose_shared_nopad",
                                  "gemv_warp_rows", "gemv_cols", "row_sum_naive", "spmv_csr", "embedding_gather",
                                  "stencil2d_shared", "conv1d_shared", "scan_block", "bitonic_sort_1024",
                                  "rmsnorm_half2", "gemm_cp_async", "dot_double_atomic", "matrix_add_2d",
                                  "col_major_read"])
def test_exact_counters_match_the_h200(report, name):
    case = next(c for c in report.cases if c.name == name)
    exact = [r for lr in case.launches for r in lr.metrics if r.expect == "exact" and r.status != "n/a"]
    assert len(exact) >= 25
    off = {r.metric for r in exact if r.status != "match"}
    assert off == KNOWN_GAPS.get(name, set())


def test_fused_shared_accesses_and_cp_async(report):
    """The shared-instruction counts that ptxas's fusion decides, and cp.async's own counters."""
    def metric(case, name):
        c = next(c for c in report.cases if c.name == case)
        return next(r for r in c.launches[0].metrics if r.metric == name)

    st = metric("bitonic_sort_1024", "smsp__sass_inst_executed_op_shared_st.sum")
    assert st.simulated == st.real == 388_132  # STS.64 where s[2t], s[2t + 1] are written together
    ld = metric("reduce_tree_atomic", "smsp__sass_inst_executed_op_shared_ld.sum")
    assert ld.simulated == ld.real == 51_200  # s[t], s[t + 1]: two LDS, not provably 8-byte aligned
    assert metric("gemm_cp_async", "smsp__sass_inst_executed_op_ldgsts.sum").simulated == 65_536
    assert metric("gemm_cp_async", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum").simulated == 0
    # a global load in the replay, and wait_group 1 waits for all but the newest group: the
    # double-buffered pipeline takes as long as on the H200 (8.4 us; waiting for every group, 13.8)
    case = next(c for c in report.cases if c.name == "gemm_cp_async")
    t = case.launches[0].timing
    assert abs(t.simulated_ns / t.ncu_ns_median - 1) < 0.10


@pytest.fixture(scope="module")
def report2():
    return crosscheck(suite=HERE2 / "specs.py", recorded=HERE2 / "results" / "typical.json", echo=None)


def _assert_batch(report, n_cases: int, l1_gaps: set[str] | None, raced: frozenset[str] = frozenset(),
                  gaps: dict[str, set[str]] | None = None) -> None:
    """Every case ran and agrees, its exact counters equal the H200's but for `gaps` (default
    KNOWN_GAPS; and the NVRTC_DEPENDENT ones), and, unless l1_gaps is None, its L1 hit rate is within
    3 points exactly where the case is not in l1_gaps. A case in `raced` had a write race in the
    recorded run: its simulated outputs must still agree with the reference."""
    gaps = KNOWN_GAPS if gaps is None else gaps
    assert len(report.cases) == n_cases
    for case in report.cases:
        if case.name in raced:
            assert case.real_ran and not case.errors, (case.name, case.errors)
            assert all(o.ok for o in case.outputs if o.against == "reference" and "real GPU" not in o.name)
        else:
            assert case.real_ran and case.outputs_ok, (case.name, case.errors)
        exact = [r for lr in case.launches for r in lr.metrics if r.expect == "exact" and r.status != "n/a"]
        assert len(exact) >= 25
        off = {r.metric for r in exact if r.status != "match"} - NVRTC_DEPENDENT.get(case.name, set())
        assert off == gaps.get(case.name, set()), case.name
        if l1_gaps is not None:
            hit = next(r for r in case.launches[0].metrics if r.metric == "l1tex__t_sector_hit_rate.pct")
            assert (abs(hit.simulated - hit.real) <= 3) != (case.name in l1_gaps), case.name


def test_second_batch_exact_counters(report2):
    _assert_batch(report2, 20, None)


def test_strided_rows_stay_in_l1(report2):
    """matvec_ldg4: each warp reads 128 lines 8 KB apart per load, each line 8 times over; the H200
    hit 87.55 % in L1 (64-way L1, memory/config.py; 16 ways gave 0.75 %)."""
    case = next(c for c in report2.cases if c.name == "matvec_ldg4")
    hit = next(r for r in case.launches[0].metrics if r.metric == "l1tex__t_sector_hit_rate.pct")
    assert abs(hit.simulated - hit.real) < 1.0


def test_third_batch_exact_counters():
    folder = HERE.parent / "typical3"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 14, set())


def test_fourth_batch_exact_counters():
    """typical4: kernels whose CTAs share sectors across SMs, written after the merge model
    (benchmarks/microbench/l2_order) and measured once, to test it on kernels it was not made from."""
    folder = HERE.parent / "typical4"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 7, L1_HIT_GAPS)


def test_fifth_batch_exact_counters():
    """typical5: 15 kernels written on 2026-12-01 after every model was set (resampling, a
    register-blocked GEMM, row softmax and layer norm, a paged KV append, an embedding bag, a permute,
    byte histogram, COO SpMV with float atomics, 64 MB of doubles, int8 dp4a, ...), measured once.
    kv_append_paged's recorded spec let two sequences write one cache block (1,490 halves raced on
    the H200); the spec now gives each its own, which moves no load and no counter."""
    folder = HERE.parent / "typical5"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    # softmax_block_rows: 44.95 % against 45.18 since the L1 holds 7 KB less than the carveout leaves
    # (benchmarks/microbench/l1_geometry; 48.31 % before, README there); 49.11 % since L1 victims are
    # drawn among a set's 16 oldest ways (config l1_victim_pool, benchmarks/microbench/l1_replacement:
    # the re-reads its rows' 229 KB an SM keep past the capacity; its L2 reads -0.3 -> -13.9 %); 50.00 %
    # since a way a load hit gets a second chance among the 11 oldest (l1_second_chance; -16.8 %)
    _assert_batch(report, 15, {"softmax_block_rows"}, raced=frozenset({"kv_append_paged"}))
    coo = next(c for c in report.cases if c.name == "coo_spmv_atomic")
    hit = next(r for r in coo.launches[0].metrics if r.metric == "l1tex__t_sector_hit_rate.pct")
    # the red sectors count as L1 misses (12.59 % on the H200; simgpu 12.11 % since the L1 holds 7 KB
    # less than the carveout leaves, within 0.2 points before; 11.97 % since its loads' L1 hits past
    # the first wave are walked on the SMs the replay put the CTAs on, l1_loads_on_replay_sms; 11.88 %
    # since they are walked in runs, l1_loads_in_runs; 11.97 % at 33621fd, 11.58 % since L1 victims are
    # drawn among a set's 16 oldest ways, l1_victim_pool; 12.07 % with the second chance among 11)
    assert abs(hit.simulated - hit.real) < 1.25


def test_sixth_batch_exact_counters():
    """typical6: 8 kernels written on 2026-12-01 after every model was set (byte stores, float3
    structs, a half2 GEMV, a shared-memory FFT, a warp top-8, a padded transpose of doubles,
    __ldg / __stcs over 64 MB, an int8 embedding), measured once. memset_pattern_u8's L1 hit rate:
    75.00 % against 70.77 (four warps' byte stores fill a line; the H200 misses some of the three
    that follow the first)."""
    folder = HERE.parent / "typical6"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 8, {"memset_pattern_u8"})


def test_seventh_batch_exact_counters():
    """typical7: 11 kernels written on 2026-12-01 after every model was set (wmma from global memory,
    __constant__ taps, a cooperative-groups tile reduction, ballot bit packing, __match_any_sync
    aggregation, a CAS loop, double reds, im2col, Philox, a persistent work queue, and intrinsics with
    a membermask per group of 8 lanes, whose results the H200 gave per group), measured once.
    ballot_bitpack's L1 hit rate: 17.46 % against 13.85 (its one-lane stores of 8 warps per sector)."""
    folder = HERE.parent / "typical7"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 11, {"ballot_bitpack"})


def test_eighth_batch_exact_counters():
    """typical8: 9 kernels written on 2026-12-01 for the features simgpu learnt that day (a decoupled
    look-back scan, grid.sync() in a cooperative launch, named-barrier producer/consumer warps, FP8
    weights and quantisation, a bitonic sort, rotary embedding, a TMA bulk copy and cuda::barrier
    double buffering), measured once. lookback_scan's L1 hit rate: 82.26 % against 77.21 (its spin
    loads and fences land differently in time). fp8_quantize_rows was within 3 points (+2.19) from
    2026-12-06 (store_lines.store_two_back; +3.04 before), +2.86 in 8fc3773's model, and is 3.51
    over since branches cost their measured cycles (2026-12-07, config lat_branch_taken: its loads
    land at other times against its stores)."""
    folder = HERE.parent / "typical8"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 9, {"lookback_scan", "fp8_quantize_rows"})
    grid = next(c for c in report.cases if c.name == "grid_sync_normalize")
    m = {r.metric: r for r in grid.launches[0].metrics}
    # the grid barrier's acquire empties the L1s: the second pass over x reads L2 (14.06 % on the H200)
    assert abs(m["l1tex__t_sector_hit_rate.pct"].simulated - m["l1tex__t_sector_hit_rate.pct"].real) < 0.5
    assert abs(m["lts__t_sectors_srcunit_tex_op_read.sum"].simulated / m["lts__t_sectors_srcunit_tex_op_read.sum"].real
               - 1) < 0.02


def test_cluster_batch_counters():
    """validation/clusters: DSMEM through map_shared_rank (sum over a cluster of 4, a histogram over
    4 CTAs' shared memory, a halo from the neighbours), measured once: a warp's access is a shared
    instruction only for its lanes in its own CTA's shared memory (8,192 of 32,768 loads, 32,765 of
    32,768 atomics on the H200, exactly as simgpu counts them)."""
    folder = HERE.parent / "clusters"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 3, set())


# typical9 (its own table: some names repeat validation/typical's with other kernels): shared-load
# wavefronts the H200 adds to every shared-memory kernel of the batch, conflict-free or not, 0.2-1.8 %
# (bank arbitration with the L1's other traffic, not modelled): reductions +974 / +1,347 / +886,
# transposes +439 / +5,396 / +441 / +2,013; batched_gemm_z +16,497 loads and +36,448 stores (7 %, with
# 8 CTAs per SM); argmax_rows_warp: lane 0 of 8 warps stores idx[row] into one sector, the H200
# combined 116 of 4,085 in L1 (as gemv_warp_rows)
_LD = "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"
NINTH_GAPS = {name: {_LD} for name in ("reduce_interleaved_mod", "reduce_interleaved_strided", "reduce_volatile_unroll",
                                      "transpose_tile32x8", "transpose_tile32x8_nopad", "transpose_swizzle",
                                      "transpose_u8")}
NINTH_GAPS["batched_gemm_z"] = {_LD, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}
NINTH_GAPS["argmax_rows_warp"] = {"lts__t_sectors_srcunit_tex_op_write.sum"}


def test_ninth_batch_exact_counters():
    """typical9: 13 teaching kernels written on 2026-12-01 after every model was set (Harris's
    reductions 1, 2 and 4, the 32x8-tile transposes with and without padding, an XOR swizzle, a byte
    tile, a batched tiled GEMM over gridDim.z, an Adam step, 2x2 max pooling, a warp argmax, Sobel on
    bytes, ldmatrix + mma.sync), measured once: every output agrees, bank conflicts follow from the
    addresses (the unpadded transpose's 32-way column reads: 2,097,152 wavefronts, as the H200 less its
    0.26 % of arbitration), and every L1 hit rate is within 3 points."""
    folder = HERE.parent / "typical9"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 13, set(), gaps=NINTH_GAPS)
    nopad = next(c for c in report.cases if c.name == "transpose_tile32x8_nopad")
    ld = next(r for r in nopad.launches[0].metrics if r.metric == _LD)
    assert ld.simulated == 2_097_152 and 0 < ld.real - ld.simulated < 0.01 * ld.simulated


# typical10: scan_warp_shfl's 41 shared-load wavefronts of arbitration (as typical9's); the in-place
# transpose's column stores, 8 warps of a CTA into the same sector of each of 32 lines, which the
# H200 joined for 11,237 of 2,356,008 sectors (0.5 %); atomic_u64_hist's 64-bit reds over 256 random
# bins (891,280 sectors against 909,006: the random-bins kind, as coo_spmv_atomic and vec4_bins)
_RED = {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum"}
TENTH_GAPS = {"scan_warp_shfl": {_LD}, "transpose_inplace_swap": {"lts__t_sectors_srcunit_tex_op_write.sum"},
              "atomic_u64_hist": _RED}


def test_tenth_batch_exact_counters():
    """typical10: 11 kernels written on 2026-12-02 after every model was set (a shuffle scan, an
    in-place transpose by swaps, 4x4 matrices on float4 points, a 32x32-tile GEMM with 2x2 outputs a
    thread, a column cumsum, random look-ups in a shared table, a 64-bit atomic histogram, a
    PagedAttention block gather, a column-marching stencil, a transposed double GEMV, a float4 saxpy
    with a tail), measured once: outputs agree, exact counters equal but for TENTH_GAPS, and every L1
    hit rate within 3 points but the in-place transpose's (76.36 against 67.98 %: its stores into
    lines still being filled miss, benchmarks/microbench/l1_pending: 1,382,780 store hits on the
    H200, 2,359,040 in simgpu before that rule, 1,568,845 with it, 1,768,004 since a DRAM fetch of a
    whole line takes longer than one of a sector, config lat_dram_per_sector, 2026-12-02, 1,838,757
    by 2026-12-03 and 1,875,017 with the latency-aware block order, config schedule_in_time,
    2026-12-04: the count depends on when the loads' fills arrive, so the bound is 1.4x the H200's,
    still well below the count without the rule)."""
    folder = HERE.parent / "typical10"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 11, {"transpose_inplace_swap"}, gaps=TENTH_GAPS)
    swap = next(c for c in report.cases if c.name == "transpose_inplace_swap")
    hits = next(r for r in swap.launches[0].metrics
                if r.metric == "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum")
    assert hits.real < hits.simulated < 1.4 * hits.real < 2_359_040
    lut = next(c for c in report.cases if c.name == "shared_lut_random")
    conflicts = next(r for r in lut.launches[0].metrics
                     if r.metric == "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")
    assert conflicts.simulated == conflicts.real > 0  # data-dependent conflicts, exactly


def test_vector_atomics_and_elect_counters():
    """benchmarks/microbench/vector_atomics (H200, 2026-12-01): sm_90's atomicAdd on float2 / float4
    (one REDG/ATOMG.E.ADD.F32x2 / x4 per warp, SASS) and elect.sync: every exact counter equal, the
    same-address lanes of vec2_pairs taking a pass each as for scalar atomics; vec4_bins' red sectors
    over 1,024 random bins are the random-bins kind (1,033,099 against 1,036,854, as coo_spmv_atomic)."""
    folder = HERE.parents[1] / "benchmarks" / "microbench" / "vector_atomics"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    red = {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum"}
    _assert_batch(report, 5, set(), gaps={"vec4_bins": red})


def test_dmma_wmma_counters():
    """benchmarks/microbench/wmma_f64 (H200, 2026-12-01): wmma on doubles (DMMA.8x8x4), fragments
    loaded from global memory in both layouts: outputs agree, every exact counter equal, and the L1
    hit rate within 0.2 points."""
    folder = HERE.parents[1] / "benchmarks" / "microbench" / "wmma_f64"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 2, set(), gaps={})


# typical11: what the call support leaves out, by design (README, FidelityWarning): the stack frames
# ptxas saves around recursive calls and around virtual calls (local loads and stores, which also
# write through to L2) and the device allocator's own loads, stores and atomics. fib_lanes' H200 run
# also counted 2,627 global store requests where its SASS has one STG per thread (512): not understood.
_LOCAL = {f"l1tex__t_{k}_pipe_lsu_mem_local_op_{op}.sum" for k in ("requests", "sectors") for op in ("ld", "st")} | {
    "smsp__sass_inst_executed_op_local_ld.sum", "smsp__sass_inst_executed_op_local_st.sum",
    "lts__t_sectors_srcunit_tex_op_write.sum"}
_GST = {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"}
_ALLOCATOR = (_LOCAL - {f"smsp__sass_inst_executed_op_local_{op}.sum" for op in ("ld", "st")}) | _GST | {
    f"l1tex__t_{k}_pipe_lsu_mem_global_op_{op}.sum" for k in ("requests", "sectors") for op in ("ld", "atom")} | {
    "lts__t_sectors_srcunit_tex_op_atom.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum"}
ELEVENTH_GAPS = {"fib_lanes": _LOCAL | _GST | {"smsp__sass_inst_executed_op_global_st.sum"}, "virtual_area": _LOCAL,
                 "malloc_scratch": _ALLOCATOR}


def test_eleventh_batch_calls():
    """typical11: 6 kernels with calls, written on 2026-12-02 after the call support and measured once
    (recursion, a table of function pointers, virtual functions, device malloc, __fns, a __noinline__
    call): every output agrees with the H200's, and the function-pointer table, fns and the kept call
    match every exact counter; the rest differ only where ELEVENTH_GAPS says."""
    folder = HERE.parent / "typical11"
    with pytest.warns(FidelityWarning):
        report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 6, {"fib_lanes", "virtual_area", "malloc_scratch"}, gaps=ELEVENTH_GAPS)


# typical12: stores that meet on an SM combine on the H200 in ways simgpu's replay does not follow
# (pitched_copy_odd 9 L2 write sectors fewer, int4_gemv's lane-0 stores 770 fewer), and its float
# reductions on random keys counted 3,945 sectors (0.2 %) more than one pass per repeated address
# gives: not understood (README).
_L2_WRITE = {"lts__t_sectors_srcunit_tex_op_write.sum"}
TWELFTH_GAPS = {"pitched_copy_odd": _L2_WRITE, "int4_gemv": _L2_WRITE,
                "scatter_red_f32": {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
                                    "lts__t_sectors_srcunit_tex_op_red.sum"}}


def test_twelfth_batch_memory_patterns():
    """typical12: 12 kernels of memory patterns the earlier batches lacked, written on 2026-12-02 and
    measured once (rows off the line grid, duplicate indices, 16-byte AoS loads, cache operators on a
    re-read, half-warp masks, L2 prefetch and discard, depthwise halo reuse, packed int4, bf16
    vectors, a double column sum, contended float reductions): every output agrees with the H200's,
    every exact counter is equal but for TWELFTH_GAPS, and the L1 hit rate is within 3 points but
    for none: half_warp_masks (its stores into lines another warp wrote), a gap since the store
    path's timing moves it, is +2.87 points since the ALU's issue rate (config ii_alu, 2026-12-07;
    +3.07 with the measured branch costs before it, +2.84 in 8fc3773's model, +2.52 since a store
    one store request behind its line's misses, 2026-12-06, +4.54 before)."""
    folder = HERE.parent / "typical12"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 12, set(), gaps=TWELFTH_GAPS)
    reread = next(c for c in report.cases if c.name == "reread_cache_ops").launches[0]
    got = {m.metric: (m.simulated, m.real) for m in reread.metrics}
    # a plain load, then .cv (LDG.E.STRONG.SYS) and .cs of the same words by the same warp: the bypass
    # load drops the L1's copy, so the third load misses too, and both join the first load's L2
    # request still in flight: no L1 hit and one L2 read per sector, on the H200 and in simgpu
    assert got["l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum"] == (0, 0)
    assert got["lts__t_sectors_srcunit_tex_op_read.sum"] == (524288, 524288)


# typical13: where ptxas's code is not NVRTC's PTX (fa_minimal's S and Q tile stores: 400 STS a warp
# on the H200, 304 st.shared in the PTX, each a 32-way conflict; median3x3_local's window: 15 local
# stores a warp, 19, which also sends fewer local sectors to L2), bank-arbitration wavefronts (gemm_tiled_edges,
# transpose_edges, batchnorm_stats) and lane 0 of 8 warps storing into one sector (cross_entropy_rows)
_SHARED_WF = {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
              "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"}
THIRTEENTH_GAPS = {
    "fa_minimal": {"smsp__sass_inst_executed_op_shared_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                   "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    "cross_entropy_rows": _L2_WRITE,
    "gemm_tiled_edges": _SHARED_WF, "transpose_edges": _SHARED_WF,
    "batchnorm_stats": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    "median3x3_local": {"smsp__sass_inst_executed_op_local_st.sum"} | _L2_WRITE,
}


def test_thirteenth_batch_kernels_people_write():
    """typical13: 11 kernels written on 2026-12-03 and measured once (a teaching FlashAttention with O,
    l and m in global memory, a binary search, a BFS push with atomicMin, k-means with a shared
    histogram, softmax cross-entropy on rows of 1,000 classes, a tiled GEMM and a transpose on sizes
    off their tiles, per-channel statistics with float atomics, a row-per-warp SpMM, a median filter
    in local memory, bias + GELU on float4): every output agrees, every exact counter is equal but for
    THIRTEENTH_GAPS, and the L1 hit rate is within 3 points but for cross_entropy_rows (README: the
    functional L1 takes an SM's warps in step, so the second pass over 64 rows of 4 KB finds them
    evicted; with 4 CTAs an SM the rows fit and the re-reads hit, as the test below checks; 29.66 %
    against 33.19 since L1 victims are drawn among a set's 16 oldest ways, 15.38 before, config
    l1_victim_pool; 26.17 since a way a load hit gets a second chance among the 11 oldest,
    l1_second_chance) and lower_bound_search (47.90 % against 41.48 since the draw, 42.99 before,
    47.53 with the second chance)."""
    folder = HERE.parent / "typical13"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 11, {"cross_entropy_rows", "lower_bound_search"}, gaps=THIRTEENTH_GAPS)


def test_row_rereads_hit_when_the_rows_fit_in_l1():
    """cross_entropy_rows reads each row twice. With 4 CTAs of 8 warps an SM, 32 rows of 4,000 B
    (128 KB) fit in the 216 KB L1 and every sector of the second pass hits: a row is 125 sectors
    (4,000 B rows start on a sector), so 125 hits of about 253 lookups a warp (two passes, x[label],
    labels[warp], the store). With 8 CTAs an SM (256 KB) simgpu's in-step warps evict the rows before
    their second pass (typical13's gap)."""
    import numpy as np

    import simgpu as sg

    src = (HERE.parent / "typical13" / "kernels.cu").read_text()
    kernel = sg.RawModule(code=src).get_function("cross_entropy_rows")
    rows = 132 * 4 * 8
    x = sg.asarray(np.random.default_rng(1).standard_normal(rows * 1000, dtype=np.float32))
    report = kernel((rows // 8,), (256,), (x, sg.zeros(rows, np.int32), sg.zeros(rows, np.float32),
                                           np.int32(rows), np.int32(1000)))
    assert 125 / 253 * 100 <= report.metrics["l1tex__t_sector_hit_rate.pct"] <= 128 / 253 * 100


# typical14: a spin lock whose retries depend on the order the CAS land (the H200 made 100,489 warp
# CAS for 65,536 lane acquisitions, simgpu 50,875, and the H200's winning lanes ran the critical
# section about 1.9 a warp instruction where simgpu's ran it 3.2) and random atomicOr: 65 more RED
# sectors of 1,047,756 on the H200 than simgpu's same-word passes give (as scatter_red_f32, coo_spmv_atomic)
_RED_SECTORS = {"l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", "lts__t_sectors_srcunit_tex_op_red.sum"}
FOURTEENTH_GAPS = {
    "lock_bins_spin": {f"smsp__sass_inst_executed_op_global_{op}.sum" for op in ("ld", "st", "atom")}
    | {f"l1tex__t_requests_pipe_lsu_mem_global_op_{op}.sum" for op in ("ld", "st", "atom")}
    | {f"l1tex__t_sectors_pipe_lsu_mem_global_op_{op}.sum" for op in ("ld", "st", "atom")}
    | {"lts__t_sectors_srcunit_tex_op_atom.sum"} | _L2_WRITE,
    "bitset_atomic_or": _RED_SECTORS,
}


def test_fourteenth_batch_kernels_people_write():
    """typical14: 12 kernels written on 2026-12-03 and measured once (a per-bin spin lock taken with
    atomicCAS by lanes of one warp, a switch interpreter, uchar3 pixels, a causal softmax, inline
    PTX, col2im with 64-bit index arithmetic and float atomics, Thomas solves with local arrays, a
    templated block reduction at two sizes, atomicOr into a bitset, 64-bit popcounts, a warp bitonic
    sort of 64-bit keys over shuffles): every output agrees, every exact counter is equal but for
    FOURTEENTH_GAPS, and the L1 hit rate is within 3 points for all twelve."""
    folder = HERE.parent / "typical14"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 12, set(), gaps=FOURTEENTH_GAPS)


# typical15: ptxas turns a shared double atomicAdd into a CAS loop (770,135 ATOMS and 770,663 LDS for
# 131,072 warp `atom.shared.add.f64`), which simgpu runs too (frontend/ptx/cas_loops.py) but with
# more trips (893,390 LDS: its warps reach the atomic together, benchmarks/microbench/shared_cas),
# and the loop's 64-bit LDS wavefronts over it; bank-arbitration wavefronts on conflict-free and random-index
# shared code (as KNOWN_GAPS'); one more RED sector of random atomics than the same-word passes give
# (as bitset_atomic_or); 23 fewer L2 write sectors of random byte stores (store combining).
_SHARED_WAVEFRONTS = {f"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum" for op in ("ld", "st")}
FIFTEENTH_GAPS = {
    "carveout_reread": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    "smem_u8_transpose": _SHARED_WAVEFRONTS,
    "smem_u16_lut": _SHARED_WAVEFRONTS,
    "smem_double_atomic": {"smsp__sass_inst_executed_op_shared_ld.sum", "smsp__sass_inst_executed_op_shared_atom.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                           "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                           "sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
    "atomic_rand_big": _RED_SECTORS,
    "byte_scatter_perm": _L2_WRITE,
}
# the launches CI replays (the others, 64-128 MB each, take minutes: python validation/acceptance.py
# --suite typical15 runs all twelve)
FIFTEENTH_IN_CI = ("reuse_half_shift_32mb", "atomic_rand_big", "byte_scatter_perm", "carveout_reread",
                   "smem_u8_transpose", "smem_u16_lut", "smem_double_atomic")


def test_fifteenth_batch_data_larger_than_the_caches():
    """typical15: kernels whose data outgrow the caches, written on 2026-12-03 and measured once. Of
    those CI replays: every output agrees, every exact counter is equal but for FIFTEENTH_GAPS, the
    L1 hit rate is within 3 points, and DRAM reads are within 5 % -- the random byte scatter's too,
    whose partial sectors the L2 reads before writing them back (benchmarks/microbench/l2_fill), and
    the random atomics' on a 128 MB table (48 B a miss) -- except reuse_half_shift_32mb (-9.7 %: the
    H200 re-reads 5.6 MB of the 32 MB it reads twice, simgpu's L2 keeps them)."""
    folder = HERE.parent / "typical15"
    report = crosscheck(suite=folder / "specs.py", specs=FIFTEENTH_IN_CI,
                        recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, len(FIFTEENTH_IN_CI), set(), gaps=FIFTEENTH_GAPS)
    for case in report.cases:
        dram = next(r for r in case.launches[0].metrics if r.metric == "dram__bytes_read.sum")
        assert (abs(dram.simulated / dram.real - 1) <= 0.05) != (case.name == "reuse_half_shift_32mb"), case.name


# typical16: each thread walks its own chunk or row (the launches CI replays take seconds; the other
# six, 27-52 s each here: python validation/acceptance.py --suite typical16)
SIXTEENTH_IN_CI = ("chunk_sum_f4", "chunk_sum_64b", "interleaved_sum")


def test_sixteenth_batch_each_thread_its_own_chunk():
    """typical16: nine kernels written on 2026-12-04 and measured once, each thread summing its own
    16-64 values (every warp load one line per lane) and a coalesced control. Of those CI replays:
    every output agrees, every exact counter is equal, and the L1 hit rate is within 3 points
    (float4 chunks 49.23 % against 49.18, 64-byte chunks 86.82 against 85.70)."""
    folder = HERE.parent / "typical16"
    report = crosscheck(suite=folder / "specs.py", specs=SIXTEENTH_IN_CI,
                        recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, len(SIXTEENTH_IN_CI), set())


# typical17: the same bytes read and stored in different patterns (the 4 MB launches, and the 16 MB
# ones whose shared wavefronts are not in the way: ncu counts 3 % more for the tiled 16 and 64 MB
# launches, its data-stage arbitration with the global traffic, benchmarks/microbench/smem_arbitration)
SEVENTEENTH_IN_CI = tuple(f"{k}_4mb" for k in ("read_f4", "fill_f4", "copy_f4", "copy_f1", "halve_f4",
                                                "transpose_tiled", "copy_tiled", "fill_transposed",
                                                "read_tiled")) + ("read_f4_16mb", "fill_f4_16mb",
                                                                  "copy_f4_16mb", "halve_f4_16mb")
# kernels whose stores fill the L2 at its fill rate (timing/config.py l2_fill_bytes_per_s, set from
# this batch): simgpu was 21-36 % fast on them before
SEVENTEENTH_STORE_BOUND = ("fill_f4_16mb", "copy_f4_16mb", "halve_f4_16mb")


def test_seventeenth_batch_stores_in_streaming_kernels():
    """typical17: reads and stores of whole arrays, written on 2026-12-04 and measured once. Of those
    CI replays: every output agrees, every exact counter is equal, the L1 hit rate is within 3
    points, and the 16 MB launches that store fill the L2 at its fill rate: their kernel time is
    within 12 % of the H200's (fill 5,373 ns against 5,408, copy 8,937 against 9,664)."""
    folder = HERE.parent / "typical17"
    report = crosscheck(suite=folder / "specs.py", specs=SEVENTEENTH_IN_CI,
                        recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, len(SEVENTEENTH_IN_CI), set())
    for case in report.cases:
        if case.name in SEVENTEENTH_STORE_BOUND:
            t = next(r for r in case.launches[0].metrics if r.metric == "gpu__time_duration.sum")
            assert abs(t.simulated / t.real - 1) <= 0.12, (case.name, t.simulated, t.real)


# typical20, a blind test (predicted on 2026-12-04, measured 2026-12-05): what still differs
_STORE_COUNT = {"smsp__sass_inst_executed_op_global_st.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                "lts__t_sectors_srcunit_tex_op_write.sum"}
TWENTIETH_GAPS = {
    # each of the 8 merge steps has a store on both paths of a data-dependent branch: the H200 ran
    # one STG more than 2 per warp step (32,769), simgpu 2 more (32,770); its stores meet on the
    # write path a little more often (523,149 L2 write sectors, simgpu 520,988)
    "merge_path": _STORE_COUNT,
    # half2 adds on random bins of 16 KB: 0.2 % more atom sectors than one pass per repeated word
    # gives, and 246 more shared-path wavefronts than one per request (generic_atomics README)
    "atomic_half2_bins": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                          "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", "lts__t_sectors_srcunit_tex_op_atom.sum"},
}


def test_twentieth_batch_predicted_before_measured():
    """typical20: nine kernels written and predicted before any H200 number existed. Every output
    agrees; every load / store sector and shared wavefront count is as predicted, a full-warp
    128-bit broadcast included (knn_tile_f4: 262,144 wavefronts, 2 per LDS.128, as predicted) and the
    float4 strides 1, 2, 3, 8, 9 (1, 2, 1, 8, 1 wavefronts per quarter-warp phase); the L1 hit rate
    is within 3 points but for bitrev_copy (simgpu 0.00 %, H200 6.38: the H200 counted 79,248 L1
    store-sector hits for its one-word stores to 32 lines a warp, simgpu none; not understood) and
    col_softmax (10.75 % against 0.01 since L1 victims are drawn
    among a set's 16 oldest ways, 0.00 before, 9.18 with the second chance among 11: the H100's L1
    set index crowds its rows, 32 KB apart,
    into fewer sets and keeps 30 % of them at 160 KB, where simgpu's XOR fold spreads them,
    benchmarks/microbench/l1_replacement cols_ld)."""
    folder = HERE.parent / "typical20"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 13, {"bitrev_copy", "col_softmax"}, gaps=TWENTIETH_GAPS)
    wf = {c.name: next(r for r in c.launches[0].metrics
                       if r.metric == "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum") for c in report.cases}
    assert wf["knn_tile_f4"].simulated == wf["knn_tile_f4"].real == 262_144
    for stride, per_load in ((1, 4), (2, 8), (3, 4), (8, 32), (9, 4)):
        assert wf[f"smem_f4_stride{stride}"].simulated == wf[f"smem_f4_stride{stride}"].real == 32_768 * per_load


# typical21 (predicted 2026-12-06 before any measurement; measured the same day on an H100, the
# only card the device gave then, results_h100/, and later that day on an H200, results/: the same
# exact counters).
# sddmm_csr (11.5M warp instructions) is left to the recorded run's README: its gap is 236 L2 write
# sectors of 261,117.
TWENTY_FIRST_IN_CI = ("paged_attn_decode", "trsv_lower_col", "diag_sum_batched", "gelu_bf16x2", "channel_shuffle",
                      "horner_f64", "bit_transpose32", "segment_sum_sorted", "quant_int4_pack")
TWENTY_FIRST_GAPS = {
    # 47 store wavefronts of bank conflicts on conflict-free addresses (4,399 against 4,352)
    "trsv_lower_col": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"},
    # 25 of 512 lane-0 stores joined on the write path there (487 L2 write sectors)
    "diag_sum_batched": {"lts__t_sectors_srcunit_tex_op_write.sum"},
}


def test_twenty_first_batch_against_the_h200():
    """typical21: ten kernels predicted before any measurement (paged attention with a block table,
    a one-CTA triangular solve, bf16x2 GELU, run-time divisions, FP64 Horner, ballots, segmented
    shuffles with atomics, int4 packing). On the H200 (as on the H100 before it, results_h100/)
    every output agrees, every exact
    counter but the two gaps above is equal (paged_attn_decode, gelu, channel_shuffle, horner_f64,
    bit_transpose32, segment_sum_sorted and quant_int4_pack all of them), and every L1 hit rate is
    within 3 points, every L2 read count within 0.25 %. paged_attn_decode's PTX loads its
    block-table entry twice per unrolled token pair from one address register, and ptxas keeps one
    LDG (exec/reuse_loads.py): without that pass 118,712 load requests against 99,072 and an L1
    hit rate of 3.00 % against 1.53 %."""
    folder = HERE.parent / "typical21"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json",
                        specs=TWENTY_FIRST_IN_CI, echo=None)
    _assert_batch(report, len(TWENTY_FIRST_IN_CI), set(), gaps=TWENTY_FIRST_GAPS)
    reads = {c.name: next(r for r in c.launches[0].metrics if r.metric == "lts__t_sectors_srcunit_tex_op_read.sum")
             for c in report.cases}
    # within 0.25 % (horner_f64 262,399 against 262,946, -0.21 %; the H100 262,901)
    assert all(abs(r.simulated - r.real) <= 0.0025 * r.real for r in reads.values())
    paged = next(c for c in report.cases if c.name == "paged_attn_decode").launches[0].metrics
    hit = next(r for r in paged if r.metric == "l1tex__t_sector_hit_rate.pct")
    assert abs(hit.simulated - hit.real) < 0.1


# typical22 (written 2026-12-06 to test exec/ptxas_memory.py, predicted before the H200 ran it):
# bank-arbitration wavefronts (smem_allreduce: 523 of 33,291, its SASS-attributed count is simgpu's
# 32,768) and lane-0 stores of 8 warps into one sector that the H200 wrote 3,963 times, simgpu 3,224
TWENTY_SECOND_GAPS = {"smem_allreduce": {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"},
                      "ballot_row_counts": {"lts__t_sectors_srcunit_tex_op_write.sum"}}


def test_twenty_second_batch_ptxas_loads_and_stores():
    """typical22: in-place shuffle all-reduces in global and shared memory, ballots against a
    per-row threshold, a shuffle filter with a global gain, a block-table gather and two controls.
    The H200 issued the loads and stores simgpu predicted with ptxas's eliminations, not the PTX's
    (allreduce_inplace 32,768 load requests, 196,608 in the PTX; smem_allreduce 32,768 shared loads
    and stores, 196,608 each in the PTX), and every other exact counter is equal but the two gaps."""
    folder = HERE.parent / "typical22"
    report = crosscheck(suite=folder / "specs.py", recorded=folder / "results" / "typical.json", echo=None)
    _assert_batch(report, 7, set(), gaps=TWENTY_SECOND_GAPS)
    got = {c.name: {m.metric: (m.simulated, m.real) for m in c.launches[0].metrics} for c in report.cases}
    assert got["allreduce_inplace"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == (32_768, 32_768)
    assert got["smem_allreduce"]["smsp__sass_inst_executed_op_shared_st.sum"] == (32_768, 32_768)
    assert got["shfl_gain_filter"]["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"] == (133_120, 133_120)


@pytest.mark.parametrize("name", ["histogram_global", "col_major_read", "aos_norm"])
def test_sass_instruction_estimate_is_ncus_count(report, name):
    """smsp__inst_executed counts SASS warp instructions on the H200; simgpu's is the timing replay's
    estimate (folded address arithmetic, prologue reads, unrolling, predicated shadows): within 10 %
    of the recorded count for these three, where the PTX's (simgpu__ptx_inst_executed) is 49, 46 and
    23 % under it (2026-12-07)."""
    case = next(c for c in report.cases if c.name == name)
    row = next(r for r in case.launches[0].metrics if r.metric == "smsp__inst_executed.sum")
    assert abs(row.simulated - row.real) <= 0.10 * row.real, (row.simulated, row.real)
