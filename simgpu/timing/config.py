"""TimingConfig: every latency, rate and width the timing model uses, each with its source.

Sources are either a key of ``simgpu/arch/h200_measurements.json`` (microbenchmarks run on the
H200, methods in ``benchmarks/microbench/README.md``), a hardware fact (device query, datasheet,
CUDA C Programming Guide throughput table for compute capability 9.0), or marked ASSUMED where
no measurement exists yet (these are the first numbers to measure next).

``TimingConfig.from_measurements()`` reads the JSON and rounds each measured value the way the
field's comment says; ``TimingConfig()`` holds the same numbers as literal defaults so that the
model works without the file. Nothing here was fitted to the calibration kernels.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from pathlib import Path

from simgpu.memory.l2 import DRAM_BANKS, DRAM_ROW_BYTES
from simgpu.memory.topology import H200_L2_SIDE

MEASUREMENTS = Path(__file__).resolve().parents[1] / "arch" / "h200_measurements.json"


@dataclass(frozen=True)
class TimingConfig:
    # ---------------------------------------------------------------- GPU level
    # gpu__time_duration of an empty <<<1,32>>> kernel (launch_empty_kernel_gpu_time_grid1x32_ns):
    # the fixed part of every kernel's duration (front end, first CTA launch, completion).
    launch_overhead_ns: float = 1504.0
    # device-wide CTA dispatch: one CTA per this many ns once all SMs are busy
    # (launch_empty_kernel_ns_per_cta_256threads: least-squares slope over 1320..132000 CTAs)
    cta_dispatch_ns: float = 0.6008
    # ... of which launching a CTA takes this much and retiring one the rest (the kernel ends when
    # the last is retired). An idle H200 starts a whole first wave far faster than it turns slots
    # over (benchmarks/microbench/cta_turnover, dispatch_rounds: 1,024-1,056 CTAs of 128 or 256
    # threads start within 96-224 ns, p90, about 0.1-0.2 ns a CTA), while the steady rate is the
    # same for 32- to 512-thread CTAs (empty kernels of 132,000 CTAs: 80.8-81.1 us whatever the
    # block size). Measured, but off (launch = the whole cost): 0.2 here made
    # validation/kernel_times.py 16.3 -> 17.7 % over 147 launches (2026-12-02, side by side): the
    # one-wave kernels that were right (typical2's 1,024-CTA kernels, ~2.8 us) became 11-16 % fast
    # (int8_embed_dequant -21 %), gather_int64 +11 %. What the spread first wave had stood in for is
    # open: the vector add's warps wait 1.3-2x longer for their loads on the H200 (cta_turnover).
    cta_launch_ns: float = 0.6008
    # a new CTA's warps start this many cycles apart. Measured (cta_turnover stamps, H200
    # 2026-12-02: warp i's first clock read 2i cycles after warp 0's, median, in CTAs of 8 and 32
    # warps alike), but off: at 2, validation/kernel_times.py stays at 16.3 % over 147 launches while
    # the timing-sensitive L2 merging moves (validation/acceptance.py 97 -> 95 launches passing
    # every check: the calibration gemm_tiled's L2 reads +0.4 -> +4.3 %, ell_spmv -2.1 %;
    # sgemm_tile32 +8.5 -> +4.2 %, gemm_abt_naive -14.0 -> -11.7 %), the merge rules having been
    # set with every warp of a CTA starting together.
    warp_launch_cycles: float = 0.0

    # ---------------------------------------------------------------- issue / pipelines
    # cycles from issue to when a dependent instruction may issue; rounded to whole cycles
    lat_fp32: int = 4  # latency_ffma_cycles 4.08 / latency_fadd_cycles 4.07 / latency_fmul_cycles 4.08
    lat_int: int = 5  # latency_iadd_xor_alternating_cycles 5.05 (VIADD/LOP3 chain)
    lat_imad: int = 4  # latency_imad_cycles 4.06
    # a 64-bit integer add / sub (PTX add.s64 / u64 / b64): ptxas makes it IADD3 + IADD3.X (the high
    # half waits for the low half's carry) or, after a mul.wide, one IMAD.WIDE. H200 (benchmarks/
    # microbench/int64_chain, 2026-12-06): a warp's dependent chain of 64 links took 9.52 cycles a
    # link as IADD3 + IADD3.X (chain_i64) and 10.41 as IMAD.WIDE (chain_ptr), each with a LOP3 off
    # the chain; ptxas's control bits say 6. Left at the 32-bit add's 5 for now: at 10, 255 recorded
    # launches side by side went 10.13 -> 10.02 % kernel-time MAPE (157 within 10 % both;
    # gemm_cp_async +6.4 -> +2.6 %, chunk_sum_f4 -17.6 -> -14.2, col_major_read +4.6 -> +1.4; blur5x5
    # -12.1 -> -14.3, gemm_tile32_2x2 -6.6 -> -8.6), but the L2 read sectors' mean error 3.19 ->
    # 3.35 % (the cross-SM merging moves with the SMs' timing: row_dot_naive +31 -> +56 %,
    # gemm_tile32_2x2 +23 -> +31, gemm_abt_naive -1.3 -> -2.7 % now outside 2 %). To take up with
    # the merge model.
    lat_int64_add: int = 5
    lat_fp64: int = 8  # latency_dfma_cycles 8.05 / latency_dadd_cycles 8.05
    lat_mufu: int = 17  # latency_mufu_ex2_cycles 17.02 / latency_mufu_rsq_cycles 17.02
    lat_sin: int = 23  # latency_sin_approx_cycles 23.02 (FMUL.RZ + MUFU.SIN)
    # rsqrt / ex2 / lg2 / sqrt / rcp .approx.f32 without .ftz: ptxas guards the MUFU against
    # subnormals (FSETP, @!P FMUL, MUFU, @!P FMUL; rcp: FSETP, FSEL, FMUL, MUFU, FMUL; nvdisasm of
    # NVRTC 13 / nvcc 13.0 sm_90 cubins). latency_rsqrtf_intrinsic_cycles 39.09 (rsqrtf chain);
    # benchmarks/microbench/warp_issue rsqrtf_chain 43.25 per rsqrtf + FADD (2026-12-04), 23.1 with
    # -ftz=true. ex2 / lg2 / sqrt / rcp: ASSUMED the same (latency_expf_intrinsic 43.1 = FMUL + 39).
    lat_mufu_guarded: int = 39
    lat_shfl: int = 24  # latency_shfl_bfly_cycles 24.02
    lat_cvt: int = 17  # ASSUMED: conversions (I2F/F2I) take the MUFU latency (not measured)
    # A warp's next issue after a branch (BRA, CALL). ptxas's control bits: the stall after a BRA that
    # falls through is 5 cycles (6 at a loop's back edge), and a taken one costs more: the H100's
    # loops of benchmarks/microbench/branch_regions (2026-12-07, GPU-fde5a1c2) ran 8.2 (straight)
    # and 9.0 (uniform_if) cycles an iteration past the sum of their SASS's stall counts, one taken
    # back edge an iteration (6 + 8 = 14). Was 4 for both (ASSUMED) before 2026-12-07. With
    # lat_predicate_branch and convergence_barrier_cycles below, 262 recorded launches side by side
    # (2026-12-07, validation/snapshot.py; the calibration suite apart): kernel time mean |error|
    # 9.91 -> 9.64 %, within 10 % 160 -> 164, median -5.58 -> -5.36 % (barrier_double_buffer -29.9
    # -> -16.7 %, mandelbrot -9.0 -> -2.7, mma_ldmatrix_gemm -5.4 -> -0.5; smem_double_atomic +11.1
    # -> +23.7, chunk_sum_f4 -14.0 -> -17.5); three timing-sensitive checks tip over (half_warp_masks
    # and fp8_quantize_rows L1 hit rate +3.07 / +3.51 pt, merge_path L2 reads +2.17 %), depthwise3x3's
    # L2 reads come back in (-1.82 %). Without the predicate latency: 9.78 %, 163 within 10 %.
    lat_branch: int = 5
    lat_branch_taken: int = 14
    # A predicate's producer (ISETP / FSETP ...) to the branch it guards: ptxas puts 13 stall cycles
    # between an ISETP and a dependent @P BRA (branch_regions' SASS, 0x0d0 / 0x100 / 0x550), where
    # other readers wait the ALU latency. build_static gives this latency to the producers of
    # predicates a branch reads, but not to a compare of loop-invariant values, which ptxas hoists
    # out of its loop (isa._predicate_branch_latency).
    lat_predicate_branch: int = 13
    # A result read by another unit than the one that made it: FMA pipe (FFMA / FADD / FMUL / IMAD)
    # -> ALU (FMNMX / FSETP / LOP3 / ISETP / SHF / IADD3) or MIO (stores, shuffles, load addresses),
    # and ALU -> FMA pipe or MIO, wait this many cycles more than within a pipe (isa._cross_pipe_latency,
    # for FP32 and IMAD producers). ptxas's stall count between a producer and its adjacent reader in
    # nvcc's SASS of the 22 recorded suites with one (`python validation/sass_pair_stalls.py`): within
    # a pipe FFMA -> FFMA 4 (561 pairs), IMAD -> IMAD 4 (179), FMNMX -> FMNMX 4 (89), LOP3 -> LOP3 4
    # (46); across IMAD -> ISETP 5 (81), IMAD -> LOP3 5 (17), LOP3 -> IMAD 5 (55), FMUL -> FSETP 5
    # (25), FMNMX -> FADD 5 (7), FADD -> SHFL 5 (82), FMUL -> STG 5 (61), IMAD -> LDG 5 (123) or 6 (122)
    lat_cross_pipe: int = 1
    # IEEE-rounded division, square root and reciprocal (ptxas's MUFU + Newton steps + a range check,
    # benchmarks/microbench/sass_ops, H200 2026-12-01: one warp's dependent chain `x = op(x) + c` in
    # the fast path, clock64 per step less the chain's FADD / DADD): div.rn.f32 57.9 - 4,
    # sqrt.rn.f32 60.5 - 4, rcp.rn.f32 81.5 - 4, div.rn.f64 123.7 - 8, sqrt.rn.f64 99.5 - 8,
    # rcp.rn.f64 79.5 - 8 cycles. The other IEEE roundings (.rz, .rm, .rp) are taken to cost the same.
    lat_div_rn_f32: int = 54
    lat_sqrt_rn_f32: int = 56
    lat_rcp_rn_f32: int = 78
    lat_div_rn_f64: int = 116
    lat_sqrt_rn_f64: int = 92
    lat_rcp_rn_f64: int = 72
    lat_mufu_f64_approx: int = 40  # ASSUMED: rcp / rsqrt .approx.f64 (MUFU.RCP64H / RSQ64H + DFMAs)
    # PTX ops that ptxas expands into a sequence of SASS instructions, each taking an issue slot of
    # its sub-partition: a dependent chain of 1,024 of each on one warp (benchmarks/microbench/
    # sass_ops, H200 2026-12-01, ncu smsp__inst_executed.sum minus the chain's own add, per op):
    # div.u32 9.5, rem.u32 8.5, div.s32 13.6, rem.s32 11.6; 64-bit div / rem 76-80 (a call) when an
    # operand is past 2^32, and 24-25 when both are below: NVVM already tests the high words in the
    # PTX and branches to a div.u32, so a div.u64 / rem.u64 that executes is the long one;
    # div.rn / sqrt.rn / rcp.rn.f32 10.0-10.2; f64 div.rn 16.1, sqrt.rn 18.1, rcp.rn 11.1;
    # __fdividef (div.full) 1.1. Latencies per op (clock64 around the chain, less the add): 32-bit
    # unsigned 61, signed 68, 64-bit past 2^32 354, f32 div.rn 54, f64 div.rn 116 cycles.
    # On since 2026-12-06, with the divisor reciprocals below: 255 recorded launches side by side
    # (validation/snapshot.py, score.py) kernel-time MAPE 10.50 -> 10.13 %, within 10 % 154 -> 157,
    # within 20 % 220 -> 223; every launch that moved by more than a point moved toward the H200
    # (reduce_interleaved_mod -31.5 -> -7.3 %, col2im_atomic -40.8 -> -24.2, permute_bhsd_bshd -37.5
    # -> -23.0, life_step -21.5 -> -11.2, fft1024_shared -19.9 -> -11.0, im2col_3x3 -23.2 -> -15.9);
    # L2 reads within 2 % 210 -> 211 of 255 (life_step passes); L1 hit rate within 3 points 238 ->
    # 236 (resize_nearest_u8 +2.91 -> +3.34, fp8_quantize_rows +2.93 -> +3.04 points: warps' order
    # in the L1 moved). Off until then: on 2026-12-01 the slots alone took validation/l2_reads.py
    # from 78 to 76 of 90 within 2 % (the two layer norms' shared-weight merges), which the 255
    # launches no longer show (210 both, slots alone: MAPE 10.36 %).
    sass_sequences: bool = True
    sass_idiv32: int = 9
    sass_sdiv32: int = 13
    sass_idiv64: int = 78
    sass_fdiv32: int = 10
    sass_fdiv64: int = 16
    sass_fsqrt64: int = 18
    sass_frcp64: int = 11
    lat_idiv32: int = 61
    # the chains above divide by a kernel parameter inside a loop, so ptxas computed the divisor's
    # reciprocal once, before it. Where it cannot (no loop, or a divisor the loop changes) a 32-bit
    # div / rem also runs I2F.U32.RP, MUFU.RCP, IADD3, F2I.FTZ.U32.TRUNC, IMAD.MOV x2, IMAD and
    # IMAD.HI (the SASS of validation/typical5 permute_bhsd_bshd's four divisions, nvcc 13 sm_90;
    # isa.divisor_reciprocals says which): 8 more issue slots, and on the dependent path I2F
    # (lat_cvt 17) + MUFU.RCP (lat_mufu 17) + IADD3 (lat_int 5) + F2I (17) + IMAD + IMAD.HI (lat_imad
    # 4 each) = 64 more cycles (component latencies; the IMAD.MOV of -d runs beside the I2F).
    # Checked after: the H200 (sass_ops' *_recip chains, 2026-12-06) took 63.6 more cycles and 7.7
    # more SASS instructions for div.u32 (signed: 65.9 and 9.8).
    sass_idiv32_reciprocal: int = 8
    lat_idiv32_reciprocal: int = 64
    lat_sdiv32: int = 68
    lat_idiv64: int = 354
    # cycles a warp instruction keeps its pipe busy on one sub-partition (32 lanes / lanes per SMSP)
    ii_fp32: int = 1  # throughput_ffma_per_sm_per_cycle 126.4 -> 32 lanes per SMSP
    ii_int: int = 1  # throughput_iadd_xor_alternating_per_sm_per_cycle 124.5
    ii_imad: int = 2  # throughput_imad_per_sm_per_cycle 64.0 -> 16 lanes per SMSP
    # the ALU (FMNMX, FSETP, FSEL, LOP3, SHF, ISETP, SEL; isa._on_alu): 16 lanes per SMSP (Hopper's 16
    # INT32 units a sub-partition), one warp instruction every 2 cycles; benchmarks/microbench/alu_pipe
    # (not run on a GPU yet). With lat_cross_pipe and the hoisted compares (lat_predicate_branch),
    # 262 recorded launches side by side (2026-12-07): kernel time mean |error| 9.62 -> 9.32 %, within
    # 20 % 229 -> 233, median -5.33 -> -5.18 % (topk8_rows -42.3 -> -11.5 %, bit_transpose32 -21.8 ->
    # -1.8 %, depthwise3x3 -9.8 -> -3.3 %; chunk_meanvar +0.1 -> +5.4 %); those two alone 9.61 %
    ii_alu: int = 2
    ii_fp64: int = 2  # throughput_dfma_per_sm_per_cycle 63.7
    ii_mufu: int = 8  # throughput_mufu_ex2_per_sm_per_cycle 16.0 -> 4 lanes per SMSP
    ii_cvt: int = 8  # CUDA Programming Guide, cc 9.0: 16 type conversions per SM per cycle
    ii_branch: int = 1  # ASSUMED
    # cycles between two memory instructions (LDG / STG / LDS / STS / ATOM / SHFL / LDSM / LDGSTS: the
    # MIO's) of one sub-partition. ptxas never puts two of a warp's closer: in the NVRTC 13.5 sm_90
    # SASS of the recorded suites' kernels (control bits, frontend/sass_listing.py) 1,857 of 2,206
    # LDG -> LDG pairs are 4 stall cycles apart and none fewer; LDS -> LDS 677 of 759 at 4 (8 at 1:
    # predicated), STS -> STS 332 of 343, STG 100 of 137, SHFL 63 of 187, none fewer (more where other
    # instructions sit between). Four sub-partitions at one every 4 cycles is the SM's L1 / shared
    # data path's one request a cycle. The H200 (loads_in_flight burst, 2026-12-05): 16 warps of one
    # CTA, 4 on each sub-partition, issuing 64 loads each took 1,250 cycles, 4.9 a load per
    # sub-partition. 1: a sub-partition issues one every cycle.
    ii_mio: int = 4
    # wmma.mma m16n16k16 (two HMMA.16816 in SASS, H200) on the tensor pipe, measured with clock64
    # around 4,096 dependent wmma.mma per warp (benchmarks/microbench/wmma, `./wmma latency`,
    # 2026-12-01): 24.3 cycles each with 1 or 2 warps per sub-partition (f32 and f16 accumulate
    # alike), 46.9 / 94.3 cycles with 4 / 8 warps: the pipe takes one every 11.7-11.8 cycles per
    # sub-partition. m32n8k16 and m8n32k16 (the same 4,096 MACs) ASSUMED alike; m16n16k8 tf32 and
    # the 8-bit shapes ASSUMED alike too (not measured).
    lat_wmma_mma: int = 24
    ii_wmma_mma: int = 12
    # wmma.mma m8n8k4 on doubles (one DMMA.8x8x4), clock64 around 4,096 dependent ones per warp
    # (benchmarks/microbench/wmma_f64, dmma_latency.cu, 2026-12-01): 26.0 cycles with 1 warp per
    # sub-partition, 32.3 / 64.1 / 126.9 with 2 / 4 / 8: one every 16 cycles per sub-partition.
    lat_dmma: int = 26
    ii_dmma: int = 16
    # mma.sync (hand-written PTX, exec/mma.py) on the same tensor pipe, measured with clock64 around
    # 4,096 dependent mma.sync per warp (benchmarks/microbench/wmma, `./mma_sync latency`,
    # results/mma_sync/mma_latency.txt, 2026-12-01). "full" forms, one HMMA.16816 / HMMA.1688 TF32 /
    # IMMA.16832 each (ncu: op_hmma or op_imma 1 per mma.sync): m16n8k16 f16 (f32 and f16
    # accumulate) and bf16, m16n8k8 tf32, m16n8k32 s8: 24.0 cycles with 1 warp per sub-partition,
    # 24.0-24.8 with 2 and 4, 47.4-48.0 with 8: the pipe takes one every 5.9-6.0 cycles per
    # sub-partition (half a wmma m16n16k16: 24.3 / 11.7). u8 ASSUMED as s8.
    lat_mma_full: int = 24
    ii_mma_full: int = 6
    # "half" forms (half the K bytes): m16n8k8 f16: 16.9 cycles with 1-2 warps, 32.1 with 8 (one
    # every 4.0 cycles). m16n8k8 bf16, m16n8k4 tf32, m16n8k16 / m8n8k16 s8 / u8: ASSUMED alike.
    lat_mma_half: int = 17
    ii_mma_half: int = 4
    # LDSM (ldmatrix, and wmma.load of 16-bit multiplicands from shared): a chain of ldmatrix .x1
    # whose row address is base + the previous one's data (zeros) took 28.56 cycles per step with
    # one warp per sub-partition (`./mma_sync latency`): LDSM + one IADD (lat_int 5) -> 24 (23.56).
    # The re-run of that day (mma_latency_rerun.txt): x1 28.6-29.0 cycles with 1-4 warps, 32.2 with
    # 8; x4 34.1 / 35.1 with 1 / 2 warps, then 64 / 128 with 4 / 8 (one wavefront per cycle per SM,
    # the shared data path's rate): the x4's extra ~5.5 cycles are its extra wavefronts.
    lat_ldsm: int = 24

    # ---------------------------------------------------------------- barriers
    # bar.sync back to back: latency_barsync_{32,256,1024}threads_cycles = 14.7, 28.7, 76.7
    # -> about 12.7 + 2.0 per warp of the CTA (least squares over the three points)
    bar_base_cycles: float = 12.7
    bar_per_warp_cycles: float = 2.0
    # a thread-block cluster's barrier (cg::this_cluster().sync(): barrier.cluster.arrive + .wait,
    # which ptxas makes MEMBAR.ALL.GPU, ERRBAR, CGAERRBAR, UCGABAR_ARV, UCGABAR_WAIT, CCTL.IVALL):
    # benchmarks/microbench/dsmem, cl.sync() back to back, 748 cycles a barrier with one warp per CTA
    # in clusters of 2 (761 / 802 in clusters of 4 / 8, 790 / 841 with 8 warps, 916 with 132 CTAs),
    # against bar.sync's 15.6; measured on an H100 (GPU-bdd47bd3, 2026-12-07: the same GH100 SM and
    # SM-to-SM network as the H200's). The wait releases this much later than a CTA barrier would.
    lat_cluster_barrier: int = 732
    # a memory fence (PTX membar / fence of a scope): the warp issues nothing for this long.
    # benchmarks/microbench/fences (H100 GPU-b9e79943, 2026-12-07, the GH100 SM of the H200), cycles
    # a loop step of one warp, less the 3.7 cycles of the loop's own instructions in the replay:
    # GPU scope (__threadfence(), fence.acq_rel.gpu; MEMBAR.SC.GPU / MEMBAR.ALL.GPU in the SASS)
    # 676 -> 672 (680 with a store before each fence; 915-923 for each of 8 warps of an SM, 912 on all
    # 132 SMs: the warps contend, not modelled); system scope (__threadfence_system()) 1,247 -> 1,243
    # (2,343 on all SMs); CTA scope (__threadfence_block()) 12.7 -> 9 (26.7 with 8 warps).
    # cl.sync()'s 748 cycles (lat_cluster_barrier) are mostly the MEMBAR.ALL.GPU of its arrive.
    lat_fence_cta: int = 9
    lat_fence_gpu: int = 672
    lat_fence_sys: int = 1243
    # A CTA-scope fence is a throughput limit as well: one CTA of 8 / 16 / 32 warps fencing back to
    # back took 26.7 / 54.3 / 96.2 cycles a step each, about 3 cycles per fence per SM (fences
    # results_h100_run2, H100 2026-12-07), so each sub-partition issues one every 4 x 3 cycles.
    # (GPU and system fences do not queue that way: 8-32 warps 1.37 x / 1.32 x the lone cost, not
    # modelled.)
    ii_fence_cta: int = 12
    # ---------------------------------------------------------------- distributed shared memory
    # a load from another CTA's shared memory (ld.shared::cluster / a map_shared_rank pointer):
    # dsmem chase_remote 193.8 cycles a step against 34.8 for the same chain through the CTA's own
    # memory by mapa (H100, as above); the replay spends 10 cycles of each step on the chain's
    # address arithmetic (its own chain: 23 + 10), so 184.
    lat_dsmem: int = 184
    # ... and an SM sends such accesses at this many cycles per warp instruction (dsmem stream_remote,
    # 8 warps of 32 coalesced 4-byte loads: 9.9 cycles, 10.6 with all 132 SMs busy, against 2.9 for
    # its own memory; atomics_remote, 32 lanes on 32 words: 93.8 against 4.0). The replay keeps it
    # as each sub-partition's LSU issue interval, times the 4 sub-partitions: the SM's rate when all
    # four send (slower than the GPU where fewer do).
    dsmem_cycles_per_load: float = 9.9
    dsmem_cycles_per_atomic: float = 93.8

    # ---------------------------------------------------------------- memory latencies (cycles)
    lat_shared: int = 23  # latency_shared_cycles 23.0 (LDS pointer chase)
    # The CAS of ptxas's shared atomic-add loop (ATOMS.CAST.SPIN, frontend/ptx/cas_loops.py), until
    # the branch can test it: benchmarks/microbench/shared_cas latency.cu, a chain of one-trip float
    # atomicAdd loops takes 124 cycles a trip on the H200 (a plain ATOMS.CAS chain 45, LDS 39) and 98
    # in simgpu with the CAS at lat_shared, so 23 + 26. Other shared atomics take lat_shared (ATOMS.ADD
    # / EXCH chains 41 / 40 cycles against LDS's 39).
    lat_shared_cas_spin: int = 49
    lat_l1_hit: int = 32  # latency_l1_hit_cycles 32.2
    lat_local_l1_hit: int = 29  # latency_local_cycles 29.0
    lat_l2_near: int = 280  # latency_l2_hit_cycles 279.6 (<= 24 MB working set)
    lat_l2_far: int = 515  # latency_l2_far_cycles 514.9 (40-58 MB working set)
    lat_dram: int = 656  # latency_hbm_cycles 655.8 (.cg chase over 128 MB after an L2 flush)
    # ... for one sector; a DRAM fetch of a line's n sectors takes (n - 1) times this more: one warp
    # load of a whole line per SM, chased, 738 cycles idle (loaded_latency_dram_128B_idle_cycles,
    # random lines over 2 GiB) and 747 streaming (benchmarks/microbench/cta_turnover
    # stream_latency.py, k = 1, loop included): (738 - 656) / 3 = 27
    lat_dram_per_sector: int = 27
    # where the trace has no line addresses (stores, atomics, local memory, or with
    # l2_near_far_by_address off): an L2 access goes to the near or the far partition with
    # probability 1/2 each (H200 L2 = two partitions; the 32 MB chase measured 47 % / 53 %), and a
    # warp instruction waits for the slowest of its lines: expected latency = near + (far - near)
    # * (1 - 0.5^lines). One line gives 397 cycles (the 32 MB mixed chase measured 394).
    l2_far_fraction: float = 0.5
    # where the functional walk recorded a global load's L1-miss lines, each line is near or far by
    # its home partition, the SM's side and whether that side loaded it before (l2_sides.py;
    # benchmarks/microbench/l2_partition: home = parity of address bits 12,13,15,17,19; GPCs 1,2,3,7
    # on one side; a second load of a line from the far side is near once the first one's copy has
    # arrived), applied by the replay in issue
    # order, instead of the expectation. Against the recorded H200 run (validation/, ncu medians,
    # 2026-11-30): the 17 program launches' kernel-time error 15.8 % -> 14.9 %, the 10 calibration
    # kernels 13.4 % -> 14.1 % (gemm_naive +21 % -> +26 %); calibration L2 read sectors of the gemms
    # (simgpu validate) -31 / -19 % -> +0.4 / +2.2 %.
    l2_near_far_by_address: bool = True
    l2_sm_side: tuple[int, ...] | None = H200_L2_SIDE  # per SM (used where its length is num_sms)
    # each SM's own distance to the L2: per SM its median near-L2 latency (memory/topology.py
    # H200_SM_L2_LATENCY, benchmarks/microbench/l2_partition first-touch run: 281-320 cycles); the
    # replay adds its difference from the mean to every access of that SM that goes past the L1
    # (used where its length is num_sms; None: every SM alike). Measured, but off: with it the
    # calibration gemms' CTAs drift apart more and the merge model, set up without it, is off
    # (L2 read sectors gemm_naive / gemm_tiled -0.3 / +10.1 %, program gemms -5.4 / -17.0 %;
    # l2_drift README section 7)
    l2_sm_latency: tuple[int, ...] | None = None
    # A line's L2 latency also depends on which GPC asks: the same first-touch run, with each SM's own
    # distance taken out, gives each (GPC, line) pair its own offset (SD 17.3 cycles over 123,072
    # pairs; two SMs of one GPC timing the same line correlate 0.89, SMs of different GPCs -0.09:
    # the path from a GPC to the line's L2 slice). simgpu does not know the slice hash, so each
    # (GPC, line) would draw its offset from the measured distribution (H200_GPC_LINE_LATENCY, 32
    # quantiles in cycles) by a hash of the line's offset in its allocation
    # (l2_sides.gpc_line_offsets): CTAs of one GPC that read the same lines keep equal latencies,
    # CTAs that read different lines drift apart, as on the H200 (l2_split README section 2).
    # Measured, but off: with it validation/l2_reads.py gives 59 of 75 launches within 2 % (64
    # without), gemm_naive -12.7 % (-9.1), mlp_relu -24.9 % (-20.8), sgemm_tile32 +15.7 % (+8.5);
    # with l2_merge_release_together as well 61 of 75 (2026-12-01). More drift merges *more* in
    # simgpu's rules, the opposite of the H200, which says the merge rules still lean on the lock
    # step. None: every line alike.
    l2_gpc_line_latency: tuple[int, ...] | None = None
    lat_const: int = 32  # ASSUMED: constant-cache hit = L1 hit latency (not measured)

    # ---------------------------------------------------------------- memory bandwidths
    # L1TEX data path: 128 B per cycle per SM = 1 wavefront per cycle
    # (bw_l1_bytes_per_cycle_per_sm 126.9, smem_lds32_stride1 0.997 instr/cycle, 'shared wavefronts 1.00')
    l1_wavefronts_per_cycle: float = 1.0
    sectors_per_wavefront: int = 4  # 128 B / 32 B sectors (hardware fact)
    # L2 read bandwidth, whole GPU (bw_l2_read_GBps 9668: weak loads, 8-16 MB)
    l2_bytes_per_s: float = 9668.47e9
    # The L2 also takes at most this many line requests (tag lookups) per ns, whatever their sectors:
    # every SM reading a 24 MB L2-resident buffer with 32 sectors per warp load took 68 us with 8 or
    # 16 lines per load (254-257 sectors/ns, the byte limit) and 118-121 us with 32 lines of one
    # sector (143.4 and 147.2 lines/ns) (benchmarks/microbench/l2_lines, H200, 2026-11-30).
    l2_lines_per_ns: float = 145.3
    # Sectors entering the L2 -- filled from DRAM on a read or atomic miss, or written by an SM into
    # a sector the L2 did not hold (memory/l2.py C_L2_WRITE_FILL; ncu counts those as write hits) --
    # share this rate; writes into sectors it holds do not (l2_writes stores2.py: second passes
    # over L2-resident lines 11-17 TB/s). validation/typical17 (H200, 2026-12-04, ncu times, 4 -> 16
    # MB an array, the marginal bytes over the marginal time): stores alone into a flushed L2 4.4-4.6
    # TB/s, a copy's reads + stores 4.6-4.7, read + half-size stores 4.7-4.8, a transpose 4.8, where
    # reads alone run at the DRAM's 4.6; a copy of 16 MB took 9.5 us against 6.1 for the read alone
    # and 5.4 for the stores alone. 0: no such limit.
    l2_fill_bytes_per_s: float = 4.7e12
    # HBM read bandwidth, whole GPU (bw_dram_read_GBps 4553)
    dram_bytes_per_s: float = 4553.15e9
    # HBM write bandwidth (bw_dram_write_GBps 4574: write-only, 2 GiB) and a copy's (bw_dram_copy_GBps
    # 4163, bytes read + written: mixing reads and writes costs the bus turnarounds). The replay puts
    # the dirty lines the L2 writes back during the launch (per pc, memory system) on the same DRAM
    # queue as the reads: a written sector takes 1 / write rate, plus, in the share that recent reads
    # pair up with it (decaying counts, load_window_cycles), the turnaround cost that makes a 1:1
    # copy run at the copy rate (2 / copy - 1 / read - 1 / write). 0: writes take no DRAM time.
    # On since 2026-12-01: typical5's stencil3_double (67 MB read, 47 MB written back) 25.4 -> 29.4 us
    # (H200 35.4); validation/kernel_times.py over 92 launches 15.3 -> 15.1 %, simgpu validate's
    # kernel-time MAPE 13.0 -> 12.3 %.
    dram_write_bytes_per_s: float = 4574.41e9
    dram_copy_bytes_per_s: float = 4162.69e9
    # DRAM row activations (dram_rows.py): a fetch whose row is not open in its bank costs this much
    # DRAM time beyond its bytes, above a stream's one activation per row. validation/typical18
    # (H200, 2026-12-04): random 4-byte gathers over 256 MB fetched 8.29M sectors (64 B pairs, one
    # row each) in 108.4 us less the launch's 2.5, 13.08 ps a sector against a stream's 7.03 (4553
    # GB/s): (13.08 - 7.03) / (1/2 - 1/64) = 12.49 ps. Random whole lines, not used for it, then give
    # 38.4 + 2.5 us against the 40.9 measured. 0: no activation cost.
    dram_activation_ns: float = 0.01249
    # A sector the L2 writes back during the launch costs DRAM time beyond its bytes too
    # (dram_rows.write_back_cycles_per_sector): the memory system takes the dirty lines through a
    # table of open rows of their own as the L2 evicts them (memory/l2.py), and this is the cost of
    # an activation per sector above a stream's; besides, the DRAM writes 64 B at a time, so a lone
    # dirty sector takes two sectors' bus time. validation/typical19 (H200, 2026-12-04), 256 MB
    # stored in 16M float4s, nearly all written back during the launch: in order 58.7 us, to random
    # whole lines 90.0, random 64 B pairs 149.4, random 32 B sectors 289.9 (per written-back unit
    # less the launch and the index reads: sectors 34.1 ps, pairs 35.8, lines 45.3; a stream's
    # sector 7.0). From the pairs: 149.4 us less the launch's 2.5 and 3.7 for the 16.8 MB of indices
    # at the read rate, 35.8 ps a pair, less two sectors at the write rate (14.0), 21.8 ps over its
    # 1 - 2/64 activations above a stream's: 22.5 ps, 1.8x a read's. The lines and sectors, not used
    # for it, give 18.4 and 20.4 ps (the sectors with their 64 B writes; 27.5 without).
    dram_write_activation_ns: float = 0.0225
    # A store whose L2 allocation evicts dirty lines waits until the DRAM queue takes their
    # write-back (the L2 has no room for its line before the dirty one has left), so that stores
    # alone are paced by the write-backs they cause; loads already wait on that queue for their
    # fetches. Without it, a launch that only stores would never feel its write-backs.
    stores_wait_for_write_backs: bool = True
    # ASSUMED (not measured; memory/l2.py DRAM_ROW_BYTES, DRAM_BANKS, whose write-back table uses the
    # same): the rows a stream pays one activation for, and the banks whose open rows a hash of the
    # row picks; random accesses over more than a few MB miss whatever these are
    dram_row_bytes: int = DRAM_ROW_BYTES
    dram_banks: int = DRAM_BANKS
    sector_bytes: int = 32  # hardware fact
    # DRAM sectors per L2-missed sector when the memory system's per-pc DRAM bytes are not given:
    # an L2 miss fetches the aligned 64 B pair (simgpu.memory L2, fetch_bytes), but in a coalesced
    # access the pair's other sector is a miss of the same request, so 1 is the common case;
    # simulate_timing(per_pc=report.per_pc) gives the exact ratio per instruction
    dram_sectors_per_miss: float = 1.0
    # global atomics at L2, distinct addresses: 521.9 per ns device-wide (atomic_global_distinct_addresses_per_ns)
    atomics_per_ns: float = 521.884
    # same address: one per 1/1.343 ns (atomic_global_same_address_ptx_red_per_ns)
    same_address_atomics_per_ns: float = 1.343
    # The L2's line units (memory/line_units.py, benchmarks/microbench/l2_atomics): a warp's atomic
    # request to a line holds one of l2_line_units units (replay.line_unit) for its sector passes,
    # 1 / same_address_atomics_per_ns each. 32 distinct words of a line (4 passes) over many lines
    # ran at 521.9 per ns (atomic_global_distinct_addresses_per_ns): 521.9 x 4 / 32 / 1.343 = 49
    # units; one lane a line over 4,096 lines at 72.1 per ns (l2_atomics hist.py; 49 units: 65.8).
    # Lines whose addresses differ only in bits 7 and 9 share a unit (l2_atomics spacing.py: two
    # bins 128 or 512 B apart run as one, 256 B or 1 KB ... 64 MB apart twice as fast); the groups
    # of lines that leaves take consecutive units (l2_atomics hist.py, 4M keys, 9 bin layouts: mean
    # |log(simgpu / H200)| 0.31 with a multiplicative hash of the group, 0.23 so; the hash put the 64
    # groups of 4,096 double bins on 25 units, 4 on the busiest; not reproduced: 8 bins 4 KB apart
    # ran on 4 units, 64 KB apart on ~6, where consecutive units give 8). A global store takes a
    # pass on the unit of each line it leaves partly written (benchmarks/microbench/l2_writes
    # partial.py: one word per line onto many lines ran at 65.9-67.1 per ns, 49 units x 1.343 =
    # 65.8). 0 units: off (only the device-wide atomics_per_ns, and same-address lanes of one warp in
    # its latency).
    l2_line_units: int = 49

    # ---------------------------------------------------------------- loaded latency
    # A load's latency rises with the memory system's load well before the bandwidth limit
    # (loaded_latency_dram_* / loaded_latency_l2_* in h200_measurements.json: k = 1..64 warps per
    # SM on all 132 SMs chasing dependent coalesced random 128 B / 512 B loads). The replay keeps
    # an exponentially decaying count of the DRAM (L2) sectors issued, time constant
    # load_window_cycles, turns it into a rate as a fraction of dram_bytes_per_s (l2_bytes_per_s)
    # and adds the measured extra latency at that utilisation (linear between the points, held
    # at the last point; past it the token queues model saturation) to every DRAM-missing
    # (L2-hit) global load. load_window_cycles = 0 turns it off.
    load_window_cycles: float = 1000.0  # ASSUMED: about one loaded DRAM round trip
    # loaded_latency_dram: 512 B nodes 794 cycles idle, +11 at 1.33 TB/s, +63 at 2.50, +265 at
    # 4.04; 128 B nodes 738 idle, +12 at 1.43, +70 at 2.65 (in-loop rates at 1980 MHz / 4553 GB/s)
    dram_load_util: tuple[float, ...] = (0.0, 0.30, 0.56, 0.89)
    dram_load_extra_cycles: tuple[float, ...] = (0.0, 11.0, 67.0, 265.0)
    # loaded_latency_l2 (20 MB set): 512 B nodes 328 idle, +13 at 6.28 TB/s, +137 at 9.22;
    # 128 B nodes 309 idle, +0 at 3.47, +11 at 6.71 (fractions of 9668 GB/s)
    l2_load_util: tuple[float, ...] = (0.0, 0.36, 0.67, 0.95)
    l2_load_extra_cycles: tuple[float, ...] = (0.0, 0.0, 12.0, 137.0)

    # ---------------------------------------------------------------- queues (throttles)
    # ASSUMED: a sub-partition stops issuing global/local (lg_throttle) or shared/shuffle
    # (mio_throttle) instructions while the SM's L1TEX backlog exceeds this many cycles of work
    lsu_queue_cycles: int = 64
    mio_queue_cycles: int = 32
    # The L1TEX takes the requests of an SM's four sub-partitions in turn, and a scheduler whose
    # warps the LSU / MIO queue held back issues first the one held back longest ago (not the greedy
    # warp again): benchmarks/microbench/loads_in_flight burst (H200, 2026-12-05), one CTA of 16
    # warps each issuing 32 loads of 32 lines (32 cycles each at the L1): every warp's loads were
    # back at 15.3-16.7 thousand cycles (median 16.1), where simgpu, which let the first scheduler
    # and its greedy warp take every freed slot, finished one warp at 1.2 and the last at 16.6
    # thousand (median 9.0); with it, 16.5 (all within 5 %). Off: over the 255 recorded launches
    # (2026-12-05) it makes the warps that share an L1 move in step, and simgpu's LRU L1 then
    # evicts lines just before they are read again (typical16 row_dot_naive's L1 hit rate 58.7 ->
    # 24.9 % against the H200's 85.2 %, chunk_sum_u8 87.2 -> 70.9 against 86.6): issue-3 checks
    # passed 164 -> 160, L1 238 -> 234, L2 reads 210 -> 207; kernel-time MAPE 10.98 -> 11.00 %.
    # The H200's L1 does not fall off that cliff; its replacement is likely not LRU, the next
    # thing to model before this goes on. False: the schedulers in index order, greedy warp first.
    fair_lsu_arbitration: bool = False
    # A CTA's global stores leave on its own write path, a sector a cycle (memory/coalescer.py
    # store_write_cycles; benchmarks/microbench/l2_writes: one CTA of 4-32 warps stores a whole line
    # per 4.0 cycles, two and four CTAs on one SM 2x and 4x as fast). ASSUMED: like the LSU queue, a
    # warp stops issuing global stores while its CTA's write backlog exceeds this many cycles.
    # 0 turns the CTA write path off.
    cta_store_queue_cycles: int = 64
    # Stores that meet on that path (store_lines.py, benchmarks/microbench/l1_stores windows.cu and
    # burst.cu): a single-line store that reaches L1 while a single-line store of its CTA to that
    # line is still on the path joins it (its sectors L1 hits, written to L2 once).
    store_sequencer: bool = True
    # ... and still takes this share of the write-path cycles it would take alone. 1: joining
    # saves L2 writes, not path time (benchmarks/microbench/fences results_h100_run2, H100 2026-12-07:
    # each warp storing its own line again and again, 4 / 8 / 16 / 32 warps of a CTA, 9.3 / 16.7 /
    # 32.4 / 79.4 cycles a store each; share 0: 6.2 / 9.2 / 13.7 / 22.8, share 1: 12.2 / 21.4 /
    # 38.9 / 72.8; and validation/typical6 aos_float3_scale, whose joined stores cost nothing where
    # the H200 took the time all the same). Over the 272 recorded launches, side by side: time
    # mean |error| 9.98 -> 9.96 %, aos_float3_scale -29.7 -> -27.2 %, lookback_scan -41.6 -> -39.1 %,
    # no counter moved. 0: a joined store takes no path cycles (before 2026-12-07).
    store_join_path_share: float = 1.0
    # Global loads' L1 hits from the replay's issue order (l1_order.py): an SM's L1 walked again
    # with its loads and stores in the order the replay issued them, as the H200's warps drift
    # apart, instead of the functional engines' lock-step order. Off by default: over the 170
    # recorded launches (2026-12-03, side by side) it takes validation/typical13 cross_entropy_rows
    # from 7.47 to 21.05 % hits (H200 33.19; L2 reads +38.7 -> +18.4 %), lower_bound_search 43.18 ->
    # 41.73 (41.48), im2col_3x3 3.98 -> 4.74 (4.72), but loses typical7 wmma_gemm_f16 (80.09 -> 60.46,
    # H200 81.02) and softmax_block_rows (44.95 -> 49.81, H200 45.18): L1 within 3 points 159 -> 157,
    # L2 reads within 2 % 137 -> 133. The replay lets warps drift further apart than the H200's do:
    # its schedulers take an SM's LSU queue in a fixed order, so the fourth sub-partition's warps
    # issue their first wmma load up to 50,000 cycles late, and GTO holds a young CTA back
    # ~40,000 cycles behind the old ones, where 81 % hits need every CTA of the SM within a few
    # loop iterations. With those fixed (timing issue) this should come on.
    l1_loads_in_issue_order: bool = False
    # The default walk (l1_order.py): each warp's global loads and stores between two waits on a
    # load's data or a barrier (its run) go through the L1 together, as a greedy (GTO) scheduler
    # issues a warp's independent loads back to back; the runs are taken in the functional step of
    # their first row (so an SM's warps stay within one run of each other, as the H200 keeps a CTA's
    # warps within one loop step: benchmarks/microbench/warp_drift) and inside a step in the
    # replay's issue order. Over the 194 recorded launches (2026-12-03, side by side against the
    # functional order on the replay's SMs): validation/typical15 thread_chunk_sum (each thread's own
    # 128 B read 4 loads at a time, 256 KB an SM) 0.00 -> 74.72 % L1 hits (H200 79.53), L2 reads
    # +117.2 -> +24.2 %; cross_entropy_rows 7.47 -> 8.64 % (33.19); causal_softmax_rows L2 reads +7.5
    # -> +5.9 %; typical7 wmma_gemm_f16 stays 80.09 % (81.02, 60.46 in issue order); mean |error| of
    # L2 read sectors 2.72 -> 2.25 %, of L1 hit rates 0.97 -> 0.58 points; within 2 % 160 -> 158
    # (bf16_rmsnorm_vec8 -1.8 -> -5.0 %, coo_spmv_atomic +1.85 -> +2.06 %), L1 within 3 points
    # 182 -> 182. Counters only: the replay's times come from the functional answer. Ignored where
    # l1_loads_in_issue_order is on.
    l1_loads_in_runs: bool = True
    # a run ends only at a barrier or a wait on a load issued in the run itself; a wait on an older
    # load (ptxas's software pipeline: typical16 row_dot_naive keeps 22 loads ahead in a steady
    # FFMA LDG LDG, l1_order._waits_on_own_run) does not. Off: it matters only with
    # schedule_register_budget, whose schedules have that steady state. With both on, row_dot_naive's
    # L1 hit rate is 82.69 % (budget alone 72.26, neither 87.71, H200 85.15); over the 242 launches
    # (2026-12-05, before schedule_slow_paths_end_blocks) kernel-time MAPE 11.71 -> 11.63 %, nbody_forces
    # -48.2 -> -29.4 %, gemm_tiled_edges +2.5 -> +11.9 %, and one check lost: typical7 wmma_gemm_f16's
    # L2 reads -8.96 %
    l1_runs_end_on_own_loads: bool = False
    # Where that walk moved at least this share of the launch's global-load sectors between L1 hit
    # and miss, the launch is replayed once more with the walk's misses (retime.py) and its times
    # come from that replay (the counters stay the first replay's and the walk's). 0: off. On since
    # 2026-12-04, once a hit's L1TEX cost had its bank conflicts (memory/coalescer.load_wavefronts;
    # before, 32-line hits cost half what the H200 takes and this took validation/typical15
    # thread_chunk_sum from +72 % to -49 %) and a DRAM fetch the walk takes from one load goes to
    # the load that now misses. Measured side by side over the 203 recorded launches (with
    # validation/typical16): every counter the same; kernel-time MAPE 16.93 -> 14.38 %, within 10 %
    # 87 -> 92, more than 20 % slow 18 -> 10; thread_chunk_sum +71.6 -> -0.1 %, typical16
    # chunk_sum_u8 +61.0 -> -0.7 %, chunk_meanvar +71.0 -> +0.1 %, pitched_row_sum +209 -> -16 %;
    # worse: typical3 dgemm_naive -12.3 -> -16.5 %, chunk_sum_f4 +29.9 -> -17.8 %. The share was
    # 0.01 until 2026-12-04, when the 22 recorded launches with a share of 0.01-0.05 (calibration
    # gemm_tiled 0.041) moved by at most 3 points with the second replay (kernel-time MAPE over the
    # 179 launches of their suites 12.02 % with it, 12.01 % without; within 10 % 96 -> 95, within
    # 20 % 145 -> 146), where it cost a large gemm_tiled (bench_engine --large) 226 s of host time
    # against 145 without it.
    l1_walk_retime_min_share: float = 0.05
    # The same walk in the functional engines' order (each memory row at its trace step), but on the
    # SMs the replay ran the CTAs on, for launches of more than one wave: past the first wave the
    # replay starts a CTA on the SM where a slot frees first, as the H200 does
    # (benchmarks/microbench/dispatch_rounds), where the functional engines deal every wave out in
    # the same SM order, so that CTA i + k * ctas_per_wave always shares an SM with CTA i.
    # validation/typical14 switch_interp (CTA j reads table group j mod 4, 132 SMs): 96.77 -> 96.19 %
    # hits, the H200's 8,321,024 hit sectors exactly; L2 reads -18.6 -> +6.2 %. Over the 182 recorded
    # launches (2026-12-03, side by side): L1 hit rates of im2col_3x3 3.98 -> 4.74 (H200 4.72),
    # batched_gemm_z 0.12 -> 1.11 (1.22), bias_gelu_vec4 32.51 -> 32.26 (32.26), col_major_read
    # 0.00 -> 0.20 (0.98), coo_spmv_atomic 12.11 -> 11.97 (12.59); L1 within 3 points 171 -> 171,
    # L2 reads within 2 % 146 -> 145 (bias_gelu_vec4 +1.46 -> +2.15 %), kernel times unchanged.
    # Ignored where l1_loads_in_issue_order or l1_loads_in_runs is on (those walks use the replay's
    # SMs too, for every launch).
    l1_loads_on_replay_sms: bool = True
    # ... and so does a store of up to this many lines whose every line has a store of its CTA still
    # on the path (benchmarks/microbench/l1_stores multiline.cu, H200 2026-12-01: a warp's 2 or 3
    # stores right behind each other to the same 2-16 lines (8-32 sectors) reach L2 once per sector
    # with one warp per SM, the same 32 lines (one sector each) every time; 8 warps of 8 CTAs per SM
    # combine 2-3 lines fully and 8-16 lines hardly at all). 1: single-line stores only. With 16
    # (2026-12-01, side by side): multiline.cu's 84 launches in simgpu, mean |error| of L2 write
    # sectors 65.7 -> 15.0 %; L2 write sectors over the 89 recorded launches that store, 5.68 -> 3.15 %
    # (layernorm_welford_warp +2.75 -> +0.15 %, block_compact +17 -> +5.7 %, aos_float3_scale +190 ->
    # +50 %); validation/kernel_times.py 15.0 -> 15.2 % (aos_float3_scale -8.5 -> -30 %: its joined
    # stores cost nothing, the H200's took 8.0 us all the same).
    store_join_max_lines: int = 16
    # A global store into a line whose L1 fill (a load's miss on the same SM) is still on its way
    # counts its sectors as L1 misses where the functional walk, which has the line resident, counted
    # hits (validation/typical10 transpose_inplace_swap: each thread stores into the column line it
    # has just asked for, with the value of its other load; the H200 counts 1,382,780 of 2,359,040
    # store sectors as hits); so does a store into present sectors while another warp's fill of
    # other sectors of the line is on its way, not while the storing warp's own is
    # (benchmarks/microbench/l1_pending sectors.cu). Decided in the replay, which knows when each
    # load's data is back (store_lines.store_hits_lost).
    store_misses_pending_fill: bool = True
    # A single-line global store whose line the SM's store request before last wrote less than this
    # many cycles before, with another line's store between them, counts as an L1 miss
    # (store_lines.store_two_back; 0: off). benchmarks/microbench/l1_stores: burst.cu back_to_back
    # N = 1 (st [L]; st [X]; st [L] back to back: the last misses, L resident or not; N = 0 joins,
    # N >= 2 hits) and windows.cu (15-2,153 cycles after a store to its line, a store always hits).
    store_two_back_cycles: int = 15

    # ---------------------------------------------------------------- model switches
    # hits on lines another warp of the same step missed wait for that miss (no addresses in the
    # trace, so 'same step, same SM' stands for 'same line in flight'); see model.py
    merge_inflight_l1: bool = True
    merge_inflight_l2: bool = True
    # L1 -> L2 read merging decided at issue (load_lines.py, l2_merge.py; domains and the SMs per
    # request come from the memory system). A request stays open to joiners of its domain while its
    # data has not left the L2: until lat_l2_near (one unloaded SM -> L2 -> SM trip) before the
    # replay's own completion time of the load that opened it, queueing and DRAM fetch included, so
    # the window grows with the load by itself. That reproduces the H200's windows under a light
    # load (benchmarks/microbench/l2_drift README section 5, one 32-sector request per SM): a DRAM
    # fetch merges for ~350-450 cycles (lat_dram - lat_l2_near = 376) and an L2 hit for less than
    # 25. l2_merge_window_hit_cycles is the least window, for near L2 hits: the light warm run gave
    # 1.04 copies at d = 0 and 1.87 at d = 25, half merged at d ~ 13 (linear between the two).
    # Against the calibration file (simgpu validate, 2026-11-30, with the H200's second-round CTA
    # placement, core/dispatch.py): gemm_naive / gemm_tiled L2 read sectors -2.4 % / +3.4 %; with
    # the least window at 10 / 20: -0.8 / -4.5 % and +3.8 / +2.9 %; at 1: +12.4 / +5.5 %. (With the
    # round-robin second round used before: -1.1 / +1.6 %; the fixed burst windows, 75 cycles for
    # hits and 800 for fetches, gave +0.4 / +2.2 % there.) These were set before the in-flight
    # weight below; with it, -1.9 / +3.9 %.
    # l2_merge_in_time = False keeps the functional walk's merging (every warp of a step together).
    l2_merge_in_time: bool = True
    # An SM sends at most this many L1-miss lines a cycle to L2 (benchmarks/microbench/l1_inflight,
    # H200 2026-11-30: one CTA of 32 warps, 16,384 one-sector lines in 16,839 cycles = 0.97; 4 / 8
    # warps 0.84 / 0.92). Each line joins or opens its L2 request when it leaves (load_lines.py), so
    # SMs that ask for one line from different places in their queues reach the L2 apart. 0: misses
    # leave at the L1's tag rate.
    l1_miss_lines_per_cycle: float = 0.97
    l2_merge_window_hit_cycles: int = 13
    # The longest an L2-hit request stays open (0: until its data leaves the L2, however loaded).
    # l2_drift window.cu under its 1,024-sector burst, warm: the share of a TPC partner's misses d
    # cycles late that merged was 1.0 / 0.72 / 0.71 / 0.51 / 0.30 / 0.09 / 0 at d = 0 / 25 / 50 / 75 /
    # 100 / 200 / 300, which adds up to an equivalent window of ~90 cycles, the most measured. With
    # 90 (2026-12-01, validation/l2_reads.py, side by side): 66 of 75 launches within 2 % (64
    # without), mean |error| 1.34 % (1.69); col_major_read -17.1 -> +1.3 %, stencil3d -5.8 -> -3.7 %,
    # but gemm_tiled +0.4 -> +2.7 % (its A groups merge less: simgpu already reads 4.5 % too much
    # when only A is shared, l2_split), which would fail simgpu validate; 75: the same 66, gemm_tiled
    # +2.9 %. Weighting each join by that curve instead (no hard end) gave 64, gemm_tiled +7.6 %:
    # simgpu's lock-step CTAs a few cycles apart lose merges the H200 keeps. A like limit of 400 / 800
    # cycles on DRAM-fetch requests left gemm_naive at -8.9 / -9.1 % (its A rows merge within a few
    # cycles: lock step, not long windows), and this limit with l2_sm_latency on as well gave
    # gemm_tiled +11.1 %. On since 2026-12-01 at 160, past which the curve above has (almost) no
    # merges left (0.09 at 200, none at 300). validation/l2_reads.py with validation/typical5's 15
    # unseen launches (90 launches, before / after): 74 -> 78 within 2 %, mean |error| 2.15 -> 1.81 %;
    # col_major_read -17.1 -> -1.2 %, coo_spmv_atomic -6.5 -> +0.8 %, ell_spmv -8.3 -> -1.7 %,
    # gather_int64 -2.05 -> -0.35 %, softmax_block_rows -9.6 -> -2.8 %; gemm_tiled +0.35 -> +0.47 %
    # (simgpu validate: 119 of 120 either way, gemm_tiled +0.4 % against the calibration file). A
    # sweep of the same 90 with the scratch override of that day: 77 at 90 (but gemm_tiled +2.7 %),
    # 120 and 160, 76 at 200. The free-running kernels that merge too much (gemm_naive,
    # gemm_abt_naive, mlp_relu, dgemm_naive) do not move: their joins are closer than that.
    l2_merge_window_hit_max_cycles: int = 160
    # Record the first this-many L1-miss groups as they reach the merging (time, line, SM, domain,
    # missed and joined sectors, pc) in TimingResult.l2_merging.requests, for studying how far apart
    # the SMs that share lines ask for them (validation/merge_gaps.py). 0: not recorded. No effect
    # on any result.
    l2_request_log_groups: int = 0
    # A join also counts only as often as the two SMs' request streams are still in step: weight
    # 1 / (1 + (q_a + q_b) / (2 * this)), q = each SM's L1-miss lines in flight when it asked
    # (l2_merge.py). The H200 (benchmarks/microbench/l2_order, three chips, 2026-11-30): CTAs that
    # read the same data on two SMs of a TPC reach L2 1.02-1.05 times per shared sector with ~500
    # lines in flight per SM, 1.09-1.3 with 1-2k, 1.4-1.5 with 4-8k, 1.7-1.8 with 16k, whether the
    # lines come from more CTAs or from bigger ones. Fitted there (block_pair and big_cta, 14
    # launches, `compare.py --half-lines Q0`): mean |error| 0.066 / 0.088 copies per shared sector
    # on runs 1 / 3 at 3,000; 0.072 / 0.088 at 2,500; 0.078 / 0.090 at 4,000; every join in full
    # (0) 0.273 on run 3. 0 turns it off.
    l2_merge_inflight_half_lines: float = 3000.0
    # a request that waits for another merge domain's DRAM fetch of its sector stays open to its own
    # domain's joiners only as long as an L2 hit's (l2_merge_window_hit_cycles), not until the fetch
    # is back: a domain keeps the long window only for the fetch it started. With
    # l2_dram_fetch_in_time this fits the H200's split of gemm_tiled's and gemm_cp_async's merging
    # between A and B (benchmarks/microbench/l2_split: six variants within 3.3 %, before 1.2-20.8 %
    # off). Alone, the two over-merged mlp_relu (-46 %) and gemm_naive (-11 %), whose SMs ran in
    # step; with the per-SM miss queue (l1_miss_lines_per_cycle) they are on by default (2026-12-01,
    # validation/l2_reads.py: 63 of 75 launches within 2 %, mean |error| 1.73 %, largest 21 %;
    # before 61, 2.55 %, 38 %).
    l2_merge_pending_window_hit: bool = True
    # a line whose missed sectors all joined another SM's request answered with that request (its
    # data back when the leader's is, at the earliest lat_l1_hit after its own issue): a merged
    # response does release all its SMs at once on the H200 (the CTAs that share the loads that
    # pace them run in lock step, l2_drift README section 2), but here it locks far more CTAs than
    # the H200's timelines show and over-merges: calibration gemm_naive -13.1 % L2 read sectors
    # (gemm_tiled +0.7 %; 2026-11-30). Off: a joined line takes its own near/far latency.
    l2_merge_release_together: bool = False
    # which load of a line fetches its sectors from DRAM: the first to ask in issue order (True, the
    # physical rule), or the one the functional walk had fetch them (False: one engine step's lowest
    # warp, whenever it issues; a load issued earlier is then an L2 hit, a later one waits for that
    # fetch). False made the same CTAs pay every DRAM trip, the drift that once kept gemm_tiled's
    # merging near the H200's (l2_drift README section 7); True since the per-SM miss queue and
    # l2_merge_pending_window_hit (2026-12-01).
    l2_dram_fetch_in_time: bool = True
    # count a read lookup that reaches the L2 before its sector's DRAM fetch (another request's)
    # has as a miss, as ncu does (the H200's gemm_tiled: 26.5k L2 read sector misses for 16.5k
    # sectors read from DRAM), decided at issue with the fetch's own time. Off: the calibration
    # gemms' L2 hit rates with it 75.0 / 79.6 %, without 92.2 / 90.4 %, H200 88.9 / 84.0 %
    # (2026-11-30): the H200's gemm_naive has almost no such misses, the model's many, because
    # its CTAs of different GPCs still ask for the same cold sectors closer together in time.
    l2_pending_fetch_is_miss: bool = False
    # PTX ops that ptxas folds into other instructions (ld.param -> constant-bank operand,
    # cvta.to.global, mov of %ctaid/%ntid/%nctaid) take no issue slot
    fold_free_ops: bool = True
    # ... and the register copies and immediate moves register allocation leaves no instruction for
    # (timing/moves.py: typical22 smem_allreduce's PTX has 22 such movs a warp, its recorded SASS
    # none); a read of a folded copy waits for the copy's source. 272 recorded launches, side by
    # side (2026-12-07): warp instructions against ncu's mean |error| 12.5 -> 11.1 %, median -0.2 ->
    # -4.1 %, within 10 % 143 -> 151 (smem_allreduce +62.5 -> -6.2 %, allreduce_inplace +76.9 ->
    # -7.7 %); kernel time 9.83 -> 9.93 % (float shuffle chains lose a copy's 5 cycles each way).
    # benchmarks/microbench/shfl_chain (H100, 2026-12-07): a float `v += shfl(v)` step 29.7 cycles,
    # as an int one; simgpu 29.5 with the copies folded, 39.4 without
    fold_register_moves: bool = True
    # ptxas's convergence barriers (BSSY before a region a branch may split the warp in, BSYNC where
    # it meets again) take an issue slot each (timing/convergence.py convergence_barriers; the rule
    # checked against NVRTC's SASS of 245 recorded kernels and of tests/timing/
    # test_convergence_barriers.py's probes). 272 recorded launches side by side (2026-12-07): warp
    # instructions against ncu's mean |error| 11.12 -> 10.98 %, median -4.1 -> -3.3 %; kernel time
    # 9.93 -> 9.85 %; no issue-3 check moved. With the if-conversion limits below (over a global
    # load, not over a slow path, not to the exit) 10.69 % and 9.78 %; typical23 pair_min_dist
    # 39.4M -> 43.64M warp instructions (H100 43.65M), -37.9 -> -19.2 % in time
    convergence_barrier_slots: bool = True
    # ... and hold the warp this many cycles more a region (isa.StaticTable.delay, at the region's
    # entry, where the slots are): ptxas's stall counts after BSSY (3-4) and BSYNC (5), less the two
    # slots, plus what BSYNC costs past its stall count, measured: benchmarks/microbench/
    # branch_regions lane_if_all (H100 2026-12-07, no lane splits) ran 25.5 cycles an iteration past
    # its SASS's stall sum, two BSSY / BSYNC regions and one taken back edge (8.2, the straight
    # loop's) an iteration: (25.5 - 8.2) / 2 = 8.65, about a taken branch's redirect (8).
    # 3.5 + 5 - 2 + 8.65 = 15
    convergence_barrier_cycles: int = 15
    # ... and a warp that really splits at a region's branch (its active mask shrinks at the next
    # entry: timing/prepare.py; convergence.splitting_branches) waits this many cycles more there:
    # the second path's turn and its meeting at the BSYNC. branch_regions on the H100 (2026-12-07):
    # lane_if_half (lanes 0-15 take a region, 16-31 jump to its BSYNC) ran 61 cycles an iteration
    # past its SASS's stall sum, lane_if_all (the same code, no lane splits) 25.5, over the two
    # regions an iteration: (61 - 25.5) / 2 = 17.75. 262 recorded launches side by side (2026-12-07):
    # kernel time mean |error| 9.64 -> 9.62 %, median -5.36 -> -5.33 % (switch_interp -37.6 ->
    # -34.2 %, blelloch_scan +3.8 -> +6.5 %), no issue-3 check moved
    lat_divergent_split: int = 18
    # ... except what the SASS still reads with an instruction of its own: a 64-bit (mostly pointer)
    # parameter an LDC.64 (lat_const), %ctaid an S2R / S2UR, %ntid / %nctaid an LDC / ULDC (lat_int).
    # The recorded SASS of every suite has them (typical matrix_add_2d: 3 LDC.64, S2UR, S2R, LDC,
    # ULDC; 26 instructions a warp, simgpu's replay 18 without them, 25 with). Over the 272 recorded
    # launches, side by side (2026-12-07): the replay's warp instructions (sm__inst_executed.sum)
    # against ncu's smsp__inst_executed, mean |error| 17.5 -> 12.5 %, median -6.9 -> -0.2 %, within
    # 10 % 96 -> 143 launches; kernel time mean |error| 9.96 -> 9.83 %.
    prologue_reads_issue: bool = True
    # issue each basic block in a ptxas-like list-scheduled order (loads first) rather than in
    # PTX order: NVVM's PTX interleaves loads and their uses, ptxas hoists the loads
    schedule_blocks: bool = True
    # ptxas unrolls NVVM's unmarked counted loops again, by 4, where the body's SASS estimate is at
    # most 56 and it has at most 16 global loads (timing/unroll.py: nvcc 13.0 sm_90 SASS of the
    # recorded suites, 144 of 146 loops as ptxas unrolled them; the SASS bodies it unrolled were at
    # most 41 instructions, those it left at least 46; the one counted small loop it left with
    # more loads had 20)
    ptxas_unroll: bool = True
    ptxas_unroll_factor: int = 4
    ptxas_unroll_max_slots: int = 56
    ptxas_unroll_max_loads: int = 16
    # and keeps the copies' loads back for registers (reg_pressure.py's weights): typical10
    # dgemv_t_cols' unrolled SASS loop (16 double loads of A and 16 of x) keeps its loads spread
    # through the body, about 4 pairs in flight, not all 16 hoisted. False: every load hoisted
    ptxas_unroll_register_budget: bool = True
    # laid out as ptxas does (isa.hoisted_sequence): program order, each load hoisted while the
    # loaded values not yet used take at most this many registers. nvcc 13.0 sm_90 SASS of 7
    # recorded loops: 14-16 (dgemv_t_cols: 8 double loads ahead, then row j + 4's beside row j's
    # DFMA; gemv_cols and rows_runtime_trip 16 floats; col_sum_double 8 doubles; int8_gemv_dp4a 14
    # ints; batched_vecmat 15 floats; dgemm_naive 7 doubles), 32 registers a thread in each. 0:
    # list-scheduled within the kernel's register count instead (2026-12-05: 12 loads, a run of
    # uses, then 20 loads in a burst, where the SASS spreads them)
    ptxas_loaded_registers: int = 16
    # ... and in every other block, where the list scheduler (isa.schedule_sequence) keeps a load
    # back while the loaded values not yet used take ptxas_loaded_registers, as long as anything
    # else is ready. benchmarks/microbench/loads_in_flight col_stream, nvcc 13.0 sm_90 SASS of a
    # source-unrolled block of U loads then U sums: 16-17 of 32 floats, 16 of 16 floats, 8 of 16
    # doubles issue first, then a sum beside each further load; the H200's kernel time stops falling
    # there (64 CTAs x 128 threads: floats 87.3 / 86.6 us at U = 16 / 32, doubles 80.4 / 78.0 / 74.0
    # at U = 8 / 16 / 32), where simgpu, with all U loads first, went on halving it (36.8 us at 32
    # floats). False: the register count alone holds loads back there.
    ptxas_loaded_registers_in_blocks: bool = True
    # Where the kernel's SASS is at hand (NVRTC's cubin through nvdisasm: frontend/sass.py), each
    # loop ptxas unrolled hoists as many registers of loaded values as its SASS loop does.
    # ptxas decides that per kernel, not from the PTX's register pressure: at 32 registers the
    # calibration gemm_naive's loop keeps 13 ahead, the same loop with 64-bit offsets on A and B 5
    # (benchmarks/microbench/naive_latency: H200 19.9 and 47.5-50.8 us; simgpu with 16 ahead 14.6
    # and 14.5-15.4 us, with the SASS's 13 and 5: 19.2 and 35-36 us). Over the 255 recorded launches
    # (2026-12-05): kernel-time MAPE 10.98 -> 10.85 %, within 20 % 217 -> 218; cal gemm_naive -26.1
    # -> -2.8 %, int8_gemv_dp4a -24.7 -> -18.6 %; batched_vecmat -17.0 -> -22.2 %, causal_softmax_rows
    # +0.8 -> +5.0 %; every issue-3 check the same. False: ptxas_loaded_registers in every loop.
    ptxas_layout_from_sass: bool = True
    # In that layout a load whose address is ready goes before the next one in program order
    # where that one's address still needs arithmetic (isa.hoisted_sequence's ready_first): ptxas
    # fills the address arithmetic's latency with it. NVRTC 13.5 sm_90 SASS of naive_private_ab
    # (5 registers ahead): the A loads ([R18 + imm]) run one k ahead of the B loads (a 64-bit add
    # apiece), 2 B loads in flight at each FFMA's wait, not the 3 of the PTX's order (B first).
    # benchmarks/microbench/naive_latency, H200: one warp 47.5 us, simgpu 35.3 -> 46.5; full grid
    # 50.8, 35.7 -> 47.2; gemm_naive's shape 19.9, 19.2 -> 19.3. Over the 255 recorded launches
    # (2026-12-05): kernel-time MAPE 10.85 -> 10.68 %, within 10 % 147 -> 149; typical4
    # batched_vecmat -22.2 -> +3.8 %, typical3 dgemm_naive -18.0 -> +0.5 %, typical10 dgemv_t_cols
    # -7.3 -> -0.8 %, cal gemm_naive -2.8 -> -2.0 %, no other by 0.5 point; L2 reads within 2 %:
    # batched_vecmat now passes, typical5 gemm_abt_naive now fails (-1.4 -> -4.8 %).
    # benchmarks/microbench/ready_first: a blind test on six kernels written after it (predictions).
    ptxas_ready_load_first: bool = True
    # ptxas's loads share scoreboards, and a consumer waits until every load on its scoreboard
    # has landed (gemm_naive's SASS loop: SB2 SB2 SB3 SB3 SB4 SB4, then seven loads on SB5).
    # unroll.scoreboard_groups lays the groups over the loops ptxas unrolled, with the 4
    # scoreboards (SB2-SB5) the loads of 69 of 96 recorded kernels with 4+ loads use; its rule
    # gives ptxas's grouping for 90 of 113 recorded SASS loops (validation/sass_barriers.py).
    # Over the 255 recorded launches (2026-12-05): kernel-time MAPE 10.68 -> 10.65 %, within 10 %
    # 149 -> 150, within 20 % 219 -> 220; typical gemv_cols -4.0 -> +0.0 %, col_sum_double -16.6
    # -> -14.7 %, spmv_csr -11.2 -> -9.7 %, half2_gemv_rows -16.9 -> -15.4 %, cal gemm_naive -2.0
    # -> -0.8 %; batched_vecmat +3.8 -> +5.9 %, row_sum_naive +0.4 -> -0.6 %; no check changed.
    # (The rule that also joins an older busy group, 99 of 113 on the SASS, put loads issued
    # after a wait into it on the model's layouts: cal gemm_naive +23.4 %, MAPE 10.79 %.)
    ptxas_shared_scoreboards: bool = True
    ptxas_load_scoreboards: int = 4
    # the same rule in every other block with global loads (unroll.block_scoreboard_waits): a
    # consumer also waits for the last load of each scoreboard it waits on. ptxas's SASS of
    # benchmarks/microbench/gpc_inflight walk_16 (a `#pragma unroll 1` loop of 16 loads) puts 13
    # loads on SB5, so 12 FADDs wait for the last load and then run back to back: simgpu's warm
    # trip 362 -> 410 cycles (an H100 495), cold 932 -> 956 (1,025). Over the 255 recorded launches
    # (2026-12-05, side by side): kernel-time MAPE 10.50 % both, within 10 % 153 -> 154, no launch
    # moved by 1 point, no check changed.
    ptxas_shared_scoreboards_in_blocks: bool = True
    # schedule with a clock (one issue a cycle): among the ready instructions take what can issue
    # soonest, then the longest path, as ptxas fills a load's latency with independent work rather
    # than putting its consumer straight after it. Over the 242 recorded launches (2026-12-04, with
    # lat_mufu_guarded): kernel-time MAPE 11.84 -> 11.72 %, within 10 % 134 -> 139; spmv_csr +20.0
    # -> +3.9 %, gemm_tiled_edges +15.8 -> +2.5 %, spmm_csr_rowwarp +13.3 -> +5.5 %; worst
    # fft1024_shared -18.1 -> -23.0 %, warp_sort_i64 -20.5 -> -25.4 %; L2 read sectors mean |error|
    # 2.93 -> 2.92 % (gemm_tiled +4.5 -> +3.3 %, gemm_naive -9.0 -> -5.6 %).
    schedule_in_time: bool = True
    # an op ptxas compiles to a branch around a slow-path call (IEEE div / sqrt / rcp, 64-bit
    # integer div / rem: isa.slow_path_calls, 32 CALL.REL for 32 ops in benchmarks/microbench/
    # sass_ops' SASS) ends the block, so no load moves up past it, as in ptxas's SASS. Over the 242
    # recorded launches, side by side (2026-12-05): kernel-time MAPE 11.71 -> 11.53 %, within 20 %
    # 200 -> 202; thomas_batched -48.5 -> -16.5 % (each step's loads wait for the previous step's
    # 1 / x), layernorm_welford_warp -45.2 -> -39.9 %, fft1024_shared -23.3 -> -19.7 %; 11
    # launches moved, 2 by less than 0.6 point the wrong way; every acceptance check the same
    schedule_slow_paths_end_blocks: bool = True
    # keep that order within the kernel's register count (ptxas's, from NVRTC's cubin): past it,
    # loads wait until registers free up (reg_pressure.py counts the PTX registers live; implies
    # schedule_in_time). ptxas overlaps independent chains only while their values fit in the
    # registers it allocates: typical3 nbody_forces' 32 registers hold about two bodies of its
    # 8-body loop, not eight (benchmarks/microbench/warp_issue). On, over the 242 launches: nbody
    # -49.6 -> -29.4 %, MAPE 11.67 %. Off because the L1 walk's runs (l1_loads_in_runs) end at each
    # wait for a load, and ptxas's deep load prologues (22 loads ahead in typical16 row_dot_naive)
    # kept warps' runs long where the budget-limited order does not: row_dot_naive's L1 hit rate
    # 87.7 -> 72.3 % (H200 85.2), L2 reads -17 -> +70 %; cal gemm_tiled L2 reads +4.5 -> +9.9 %.
    schedule_register_budget: bool = False
    # latency the scheduler assumes for a global load when ranking instructions (about an L2 hit)
    schedule_load_latency: int = 400
    # ptxas predicates (if-converts) guarded forward branches over at most this many instructions;
    # they then neither end a scheduling block nor cost a branch. NVRTC 13 probes for sm_90
    # (`if (threadIdx.x < 40) { k ops }`, nvdisasm, 2026-12-07): k FFMAs or k shared loads are
    # predicated up to 8 PTX instructions and branched around from 9, global stores the same (a
    # shadow with an `__expf` is branched around from 5: not modelled)
    if_convert_max_instructions: int = 8
    # ... and up to this many where the shadow holds a global load (the same probes with 1, 2 or 3
    # ld.global of the k ops: predicated up to 20 PTX instructions, a BRA from 21; typical12
    # depthwise3x3's 12-instruction shadows around two loads each are predicated in its SASS). A
    # branch to the thread's end is never if-converted: ptxas makes it `@P EXIT` (isa._ends_thread).
    # Both, 272 launches side by side: warp instructions 10.98 -> 10.69 %, within 10 % 152 -> 156
    # (typical17 read_f4_* +11.8 -> 0.0 %); time 9.85 -> 9.78 % (depthwise3x3 +26.9 -> -11.2 %),
    # but depthwise3x3's L2 read sectors +0.42 -> -2.20 % (its cross-SM merging moved with the time)
    if_convert_max_with_load: int = 20
    # ... but never over an op ptxas branches around to a slow-path call (IEEE div / sqrt / rcp,
    # 64-bit integer div / rem): a CALL cannot be predicated (validation/typical23 pair_min_dist's
    # SASS on the H100). True: the old rule, which if-converted those shadows too
    if_convert_over_slow_paths: bool = False
    timeline_bins: int = 200

    @classmethod
    def from_measurements(cls, path: str | Path = MEASUREMENTS) -> TimingConfig:
        """The defaults, re-read from h200_measurements.json (so a re-run of the microbenchmarks
        on another GPU feeds straight in)."""
        try:
            m = json.loads(Path(path).read_text())["measurements"]
        except (OSError, KeyError, ValueError):
            return cls()

        def v(key, default):
            return float(m[key]["value"]) if key in m else default

        c = cls()
        b32, b256, b1024 = (v(f"latency_barsync_{n}threads_cycles", None) for n in (32, 256, 1024))
        bar_base, bar_per = c.bar_base_cycles, c.bar_per_warp_cycles
        if None not in (b32, b256, b1024):
            xs, ys = [1, 8, 32], [b32, b256, b1024]
            mx, my = sum(xs) / 3, sum(ys) / 3
            bar_per = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
            bar_base = my - bar_per * mx
        per_sm = lambda key, d: max(1, round(32 * 4 / v(key, 128 * 32 / 4 / d)))  # noqa: E731
        return replace(
            c,
            launch_overhead_ns=v("launch_empty_kernel_gpu_time_grid1x32_ns", c.launch_overhead_ns),
            cta_dispatch_ns=v("launch_empty_kernel_ns_per_cta_256threads", c.cta_dispatch_ns),
            lat_fp32=round(v("latency_ffma_cycles", c.lat_fp32)),
            lat_int=round(v("latency_iadd_xor_alternating_cycles", c.lat_int)),
            lat_imad=round(v("latency_imad_cycles", c.lat_imad)),
            lat_fp64=round(v("latency_dfma_cycles", c.lat_fp64)),
            lat_mufu=round(v("latency_mufu_ex2_cycles", c.lat_mufu)),
            lat_sin=round(v("latency_sin_approx_cycles", c.lat_sin)),
            lat_mufu_guarded=round(v("latency_rsqrtf_intrinsic_cycles", c.lat_mufu_guarded)),
            lat_shfl=round(v("latency_shfl_bfly_cycles", c.lat_shfl)),
            ii_fp32=per_sm("throughput_ffma_per_sm_per_cycle", c.ii_fp32),
            ii_int=per_sm("throughput_iadd_xor_alternating_per_sm_per_cycle", c.ii_int),
            ii_imad=per_sm("throughput_imad_per_sm_per_cycle", c.ii_imad),
            ii_fp64=per_sm("throughput_dfma_per_sm_per_cycle", c.ii_fp64),
            ii_mufu=per_sm("throughput_mufu_ex2_per_sm_per_cycle", c.ii_mufu),
            bar_base_cycles=round(bar_base, 2), bar_per_warp_cycles=round(bar_per, 3),
            lat_shared=round(v("latency_shared_cycles", c.lat_shared)),
            lat_l1_hit=round(v("latency_l1_hit_cycles", c.lat_l1_hit)),
            lat_local_l1_hit=round(v("latency_local_cycles", c.lat_local_l1_hit)),
            lat_l2_near=round(v("latency_l2_hit_cycles", c.lat_l2_near)),
            lat_l2_far=round(v("latency_l2_far_cycles", c.lat_l2_far)),
            lat_dram=round(v("latency_hbm_cycles", c.lat_dram)),
            l1_wavefronts_per_cycle=round(v("bw_l1_bytes_per_cycle_per_sm", 128.0) / 128.0, 2),
            l2_bytes_per_s=v("bw_l2_read_GBps", c.l2_bytes_per_s / 1e9) * 1e9,
            dram_bytes_per_s=v("bw_dram_read_GBps", c.dram_bytes_per_s / 1e9) * 1e9,
            dram_write_bytes_per_s=v("bw_dram_write_GBps", c.dram_write_bytes_per_s / 1e9) * 1e9,
            dram_copy_bytes_per_s=v("bw_dram_copy_GBps", c.dram_copy_bytes_per_s / 1e9) * 1e9,
            atomics_per_ns=v("atomic_global_distinct_addresses_per_ns", c.atomics_per_ns),
            same_address_atomics_per_ns=v("atomic_global_same_address_ptx_red_per_ns", c.same_address_atomics_per_ns),
            l2_line_units=round(v("atomic_global_distinct_addresses_per_ns", c.atomics_per_ns) * 4 / 32
                               / v("atomic_global_same_address_ptx_red_per_ns", c.same_address_atomics_per_ns)),
        )

    def timed_l1_walk(self, n_ctas: int, resident_ctas: int) -> bool:
        """Whether the global loads' L1 hits of a launch of n_ctas CTAs, of which the GPU holds
        resident_ctas at once, are walked again after the replay (l1_order.py): in issue order or
        in runs always; in the functional order on the replay's SMs only past one wave, since the
        first wave's CTAs sit on the same SMs in the functional engines and in the replay. The
        launch records the hit groups the walk reads (MemorySystem.record_load_hits) and the replay
        walks them by this one answer."""
        return (self.l1_loads_in_issue_order or self.l1_loads_in_runs
                or (self.l1_loads_on_replay_sms and n_ctas > resident_ctas))

    def describe(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


_DEFAULT: TimingConfig | None = None


def default_config() -> TimingConfig:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = TimingConfig.from_measurements()
    return _DEFAULT


@contextmanager
def overridden(**changes: object) -> Iterator[TimingConfig]:
    """Launches inside the block use the default config with these fields replaced (a field that
    does not exist is an error), e.g. ``with overridden(l1_loads_in_issue_order=True): kernel(...)``;
    the default comes back afterwards, also on an exception."""
    global _DEFAULT
    names = {f.name for f in fields(TimingConfig)}
    unknown = sorted(set(changes) - names)
    if unknown:
        raise TypeError(f"TimingConfig has no field {', '.join(map(repr, unknown))}")
    saved = _DEFAULT
    _DEFAULT = replace(default_config(), **changes)
    try:
        yield _DEFAULT
    finally:
        _DEFAULT = saved
