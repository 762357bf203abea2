"""Frozen description of the memory hierarchy (shared-memory banks, L1/TEX, L2, DRAM).

Every number carries where it comes from. "Assumed" marks a modelling choice for which we found
no primary source we trust; those are the first things to measure on the device.

Sources referred to below:
  [CUDA-PG]   CUDA C++ Programming Guide, "Compute Capability 9.0" / "Shared Memory" sections:
              32 banks, successive 32-bit words in successive banks; unified L1/shared 256 KB per SM;
              shared-memory carveouts 0, 8, 16, 32, 64, 100, 132, 164, 196, 228 KB.
  [NCU-KPG]   Nsight Compute Kernel Profiling Guide, "Memory" terms: a sector is an aligned 32-byte
              chunk, L1 and L2 lines are four sectors (128 B); hits are per sector.
  [H200]      DESIGN.md "Facts about the H200" (device query): L2 = 62,914,560 B; 132 SMs.
  [CALIB]     /work/shared/calibration/h200_metrics.json (ncu on a real H200).
  [LIMIT]     CUDA runtime cudaLimitMaxL2FetchGranularity: "maximum fetch granularity of L2
              (in bytes), 0..128, a hint".
  [HOPPER-WP] NVIDIA H100 Tensor Core GPU Architecture whitepaper: 50 MB L2 on H100 SXM5, split in
              two partitions; L1/shared 256 KB per SM.
  [A100-WP]   NVIDIA A100 Tensor Core GPU Architecture whitepaper: 40 MB L2, two partitions,
              192 KB L1/shared per SM (carveouts up to 164 KB).
  [L2MERGE]   benchmarks/microbench/l2_merge (ncu on the H200, 2026-11-29): see topology.py.
  [L1HITS]    benchmarks/microbench/l1_hits (ncu on the H200, 2026-11-30): global-store L1 hits
              (l1.py) and the DRAM reads of a launch beyond its data (code_fetch.cu).
  [L2PART]    benchmarks/microbench/l2_partition (H200, 2026-11-30): each SM's side, a line's home.
  [L2HIT]     benchmarks/microbench/l2_hit_rate (ncu on the H200, 2026-12-01): the L2 sectors by
              source unit (tex, ltcfabric, gcc), operation and lookup result.
  [L2CAP]     benchmarks/microbench/l2_capacity (ncu on the H200, 2026-12-01): what takes the L2's
              room (reads twice, writes then reads, vector adds of 16-72 MB).
  [L1GEOM]    benchmarks/microbench/l1_geometry (ncu on the H200, 2026-12-02): how much an L1 beside
              the 32, 64 and 132 KB carveouts holds; sweeps at other starts and strides.
  [L1REPL]    benchmarks/microbench/l1_replacement (ncu on an H100, 2026-12-06): what the L1 keeps of
              sweeps past its capacity, by load kind, request shape and warps.
  [L1POLICY]  benchmarks/microbench/l1_policy (ncu on the H200, 2026-12-02): 8-round sweeps and hot
              blocks re-read beside a stream.
  [L1RECENCY] benchmarks/microbench/l1_recency (ncu on an H100, 2026-12-06): which lines a stream
              past the capacity takes, the older ones or those read once.
  [L1SETS]    benchmarks/microbench/l1_sets (clock64 per load on two H100s, 2026-12-06): which lines
              of a sweep hit, line by line; what l1_sets below does not reproduce.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace

from simgpu.memory.topology import H200_L2_SIDE, H200_MERGE_DOMAINS, H200_MERGE_MAX_SMS

KB = 1024
MB = 1024 * KB


@dataclass(frozen=True)
class MemoryConfig:
    """Sizes, widths and policies of the simulated memory system (default: NVIDIA H200)."""

    # --- granularity --------------------------------------------------------------------------
    sector_bytes: int = 32  # [NCU-KPG] a sector is an aligned 32-byte chunk
    line_bytes: int = 128  # [NCU-KPG] L1 and L2 lines are four sectors

    # --- shared memory ------------------------------------------------------------------------
    shared_banks: int = 32  # [CUDA-PG] 32 banks ...
    shared_bank_bytes: int = 4  # [CUDA-PG] ... of successive 32-bit words
    # Bytes one wavefront moves (32 banks x 4 B). A warp access of W bytes per lane is processed
    # in phases of 128 // W lanes (64-bit: half-warps, 128-bit: quarter-warps); see banks.py.
    shared_wavefront_bytes: int = 128

    # --- L1 / TEX (one per SM) ----------------------------------------------------------------
    l1_shared_unified_bytes: int = 256 * KB  # [CUDA-PG]/[HOPPER-WP] unified L1 + shared per SM (H100/H200)
    # Carveouts the driver can give to shared memory [CUDA-PG, cc 9.0]. The L1 gets the rest.
    shared_carveouts_kb: tuple[int, ...] = (0, 8, 16, 32, 64, 100, 132, 164, 196, 228)
    # [H200] 1 KB reserved per CTA ([CALIB] launch__shared_mem_per_block_driver = 1024)
    shared_reserved_per_cta: int = 1 * KB
    # The carveout the driver picks (driver_carveout), from 180 launches whose
    # launch__shared_mem_config_size ncu recorded ([CALIB], validation/, benchmarks/microbench; [L2HIT]
    # carveout.cu: 72 launches of 9 block sizes x 8 dynamic shared-memory sizes): 169 reproduced.
    # * No shared memory: room for zero_shared_carveout_factor x the thread-limited CTAs (at most
    #   max_ctas_per_sm) x the reserved 1 KB: 256 threads -> 32 KB (80 launches), 512 -> 16 KB,
    #   1,024 -> 8 KB, 32 -> 32 KB (l1_size.cu; 224 KB left, of which the L1 holds 217, [L1GEOM]).
    # * Shared memory: room for shared_carveout_ctas_factor x the CTAs the other limits (threads,
    #   registers, blocks) allow, at most max_ctas_per_sm, each with its shared memory + 1 KB, where
    #   that fits shared_carveout_double_limit_kb; else room for those CTAs once; else as many as the
    #   largest carveout holds. gemm_tiled (8 CTAs x 3 KB): 48 KB -> 64; transpose 8 x 5 KB -> 100;
    #   paged_decode 12 x 5.1 KB: 123 KB -> 132; 256 threads x 12 KB: 2 x 8 x 13 KB is over 132, so
    #   8 x 13 KB -> 132.
    # * Not reproduced (11 of 180): 1,024-thread blocks with shared memory get room for their 2 CTAs
    #   once, not twice (5 launches); 128-thread blocks with 32-64 B of shared memory get 32 KB, not 64
    #   (3); 192 x 6 KB, 512 x 24 KB and 768 x 40 KB get 132 KB, not 100 (3).
    zero_shared_carveout_factor: int = 4
    shared_carveout_ctas_factor: int = 2
    shared_carveout_double_limit_kb: int = 132
    # What the L1 holds of the 256 KB the carveout leaves ([L1GEOM]): one warp per SM sweeping N KB 4
    # times hits every re-read up to 217 KB and loses some from 218 KB beside the 32 KB carveout,
    # up to 185 / from 186 beside 64 KB, up to 117 / from 118 beside 132 KB: 7 KB less, whatever the
    # carveout (why is not documented). With whole ways per set simgpu's L1 holds 216 / 184 / 116 KB
    # there (240 KB beside the 8 KB carveout, where the H200 re-reads a 240 KB buffer with no miss).
    l1_reserved_bytes: int = 7 * KB
    # Associativity and replacement are not documented. 32 sets (a power of two)
    # indexed by the XOR of the 5-bit groups of the line's number in its allocation (l1.l1_set_of,
    # l1.hierarchy_batch's rel), the ways whatever the carveout leaves less l1_reserved_bytes (224 KB:
    # 54 ways; 248 KB: 60). [L1GEOM]: no loss at strides of 128 B to 4 MB nor at any start within a
    # 2 MB page; odd strides (3 to 1,000 lines) lose 34-49 % of a 216 KB sweep, as a hashed index
    # does (the XOR fold too, a modulo index would not). [L2HIT] l1_size.cu swept 128-256 KB at strides
    # of 128 B to 32 KB through a 224 KB L1: every sweep up to 216 KB hit fully at every stride, so
    # the index has no power-of-two aliasing (a line % 28-set index would give an 8 KB stride 7 of
    # its 28 sets); the XOR fold spreads every power-of-two stride and every contiguous range evenly
    # over 32 sets and reproduces those full hits, and the older facts: 240 KB read twice by one CTA
    # all hits the second time in 248 KB, so do 64 lines 32 KB or 4 KB apart (sass_probes reread,
    # reread_strided), and 1,024 lines 8 KB apart, each read 8 times, hit 87.55 % (validation/typical2
    # matvec_ldg4). Past the capacity the H200 loses its hits gradually (224 KB: 71 % of a possible
    # 87.5; 256 KB: 19-30 %) where LRU sets lose them at once: l1_victim_pool below. Not reproduced
    # ([L1SETS]): rows 32 KB apart, 1 or 4 KB of each, fit only about 3/4 of the L1 (1,024 of 1,480
    # lines fit, 1,152 do not) where the fold spreads them over all of it; the kept shares rule
    # out any XOR index over equal sets, two lines collide about 1 time in 18, and physical
    # address bits above the 2 MB page take part (rows 1 MB apart: 40 % in one run, 100 in two).
    l1_sets: int = 32
    # The victim of an L1 allocation: drawn among the l1_victim_pool least recently used ways of
    # the set (a hash of the line's number in its allocation and the set's stamps, so the draw does not
    # depend on where earlier allocations put the array; memory/l1.py _l1_alloc); 1 is LRU.
    # [L1REPL]: past its capacity the L1 keeps part of a swept region, losing more the further over
    # (a 32-line-a-request sweep of 224 / 240 / 256 / 288 KB through a 217 KB L1 loses 19 / 51 / 82 /
    # 99 % of its re-reads, the same for plain and read-only loads and one-line requests; 8 warps
    # lose less), where LRU loses all from 218 KB; each thread re-reading its own line with 7 or 8
    # CTAs of 256 threads an SM (224 or 256 KB of lines live) hits 69.7 / 46.9 %. Over its 58
    # launches (sweeps of 208-288 KB by 1 and 8 warps, the re-reads) a plain draw (no second chance,
    # below) is nearest among 16: mean |hit rate error| 5.0 points (LRU 33.0, pool 8 11.5, 12 7.0,
    # 24 6.3, 32 8.6); on l1_geometry's H200 sweeps ([L1GEOM]) 6.0 points on the overflowing ones
    # where LRU is 57.0.
    l1_victim_pool: int = 11
    # [L1RECENCY]: lines a load hit are kept against a stream: 64 KB read 4 times, then 64 KB read once,
    # then 32-160 KB of new lines (224-288 KB in all through a 217 KB L1) leave every line of the first
    # block in L1 and take the overflow out of the second, which keeps 86 / 48 / 13 / 0.6 % at 224 /
    # 240 / 256 / 288 KB; read once, the first block loses the same share and the second nothing. So
    # a drawn way that a load hit since it was filled is not evicted: it is unmarked, made the newest
    # and the draw repeats (memory/l1.py _l1_alloc; a second chance, as a CLOCK cache gives). It
    # also keeps l1_policy's hot blocks beside a stream ([L1POLICY]: a 128 KB block re-read after
    # every 64 KB of new lines, H200 65.62 % of loads hit; the plain draw 56.0). The pool, chosen with
    # the second chance on these microbenchmarks only, mean |error| in points over l1_replacement's 58
    # launches / l1_recency's 28 re-reads / l1_policy's 8 hot blocks and 14 8-round sweeps /
    # l1_geometry's 78 overflowing sweeps: 11: 4.73 / 5.21 / 0.23 / 1.72 / 5.95 (the least mean of
    # the five, 3.57, and of the 186, 4.89); 8: 6.75 / 5.28 / 0.32 / 4.84 / 8.64; 10: 4.94 / 5.30 /
    # 0.05 / 1.80 / 5.84; 12: 4.59 / 5.27 / 0.42 / 1.94 / 6.52; 14: 5.34 / 6.54 / 0.82 / 2.48 / 8.17;
    # 16: 5.97 / 6.71 / 1.20 / 3.02 / 10.66; the plain draw among 16 (the default before):
    # 5.01 / 17.26 / 6.22 / 5.61 / 6.04. A global store that finds its line resident marks it too
    # ([L1RECENCY] run_store.sh, H100: A read once and stored once keeps 100 % of its lines through
    # 160 KB of stream and B loses 86 / 13 / 0.75 % kept at 224 / 256 / 288 KB, as A read 4 times).
    l1_second_chance: bool = True
    # L1 policies (Hopper): global loads allocate in L1 (default ld.ca-like caching on sm_70+,
    # [CALIB] gemm_naive shows 87.5 % L1 hits); global stores are write-through (Volta/Turing tuning
    # guides: "L1 can cache write operations (write-through)") and allocate the line in L1; a store
    # into a resident line counts as hits unless the SM's previous request stored to that line
    # ([L1HITS]; the rule is in l1.py). Atomics/reductions are performed at L2 and invalidate the
    # touched sectors of the SM's L1 line. Local memory (spills, local arrays) is cached in L1 with
    # write-allocate (stores fill the line).

    # --- L2 (one per GPU) ---------------------------------------------------------------------
    l2_bytes: int = 62_914_560  # [H200] device query
    # Two partitions of half the size each ([HOPPER-WP]), 16-way LRU sets (ways assumed), an XOR-folded
    # set hash (no pathological power-of-two strides; the real slice hash is not published). A line
    # lives in its home partition; the other side's copies take room in theirs ([L2CAP]): 132 SMs
    # reading R MB twice miss nothing in the second pass up to 32 MB and half of it at 44 MB (home
    # lines + the far half's copies = 1.5 R > 60 MB), one SM reading R twice misses its near-homed
    # half from 40 MB on (R of home lines and copies in its 30 MB partition) while the far half
    # hits at home; an SM that wrote a line far from home reads it back from its own side (the
    # write left a copy). simgpu, same launches: DRAM reads -3.0 to +9.5 % at every size (l2.py).
    l2_ways: int = 16
    # At most this many bytes of the L2 dirty: a write past it makes the L2 write a dirty line back at
    # once, the oldest first (l2.py). validation/typical17 and typical19 (H200, 2026-12-04): stores
    # alone of 64 and 256 MB left 27.1 and 26.9 MB dirty at the end (fill_f4_64mb wrote back 40.0 MB
    # of its 67.1 during the launch, typical19's fill_f4 241.5 of 268.4), where simgpu with no limit
    # left ~40 (27.4 and 228.6 written back); typical9's adam_step kept all of the 25.2 MB it updates
    # in place dirty (1.5 MB written back), so the limit is the whole L2's, not a share of each set
    # (7 of 16 ways took adam_step to 6.1 MB). None: no limit.
    l2_dirty_bytes_max: int | None = 27_000_000
    # The partition (0 or 1: there are two, [HOPPER-WP], l2.SIDE_PARTITIONS) each SM sits beside
    # ([L2PART]: benchmarks/microbench/l2_partition; the line's home partition is
    # memory/l2.home_partition). A read from the other side is looked up in the near
    # partition's copies first, then over the L2 fabric at home; writes and atomics from there are
    # forwarded home ([L2HIT]: benchmarks/microbench/l2_hit_rate). ncu counts those fabric lookups
    # in lts__t_sectors and the L2 hit rates. None (or a tuple not of num_sms entries): one
    # partition, no fabric lookups.
    l2_sm_sides: tuple[int, ...] | None = H200_L2_SIDE
    # Write-back, write-allocate: a store marks its sectors valid+dirty without reading DRAM
    # (byte-masked sectors); dirty sectors go to DRAM only when evicted.
    # ncu counts L2 write lookups as hits on a cold L2 ([CALIB] strided_copy_s1: 131,072 read misses
    # + 131,072 writes give lts__t_sector_hit_rate 53.6 %, impossible unless the writes hit); we count
    # every write sector as a hit.
    l2_write_counts_as_hit: bool = True
    # What ncu's cold start leaves in the L2 ([L2CAP]): kernels that only read write ~2.3 MB to DRAM
    # once they stream more than ~44 MB (2,375,424-2,461,440 B in seven launches of 44-64 MB, median
    # 2,416,384), and a write-then-read kernel writes back all it wrote plus 2.27 MB: lines ncu's
    # replay (save/restore of the kernel's memory, then the flush) leaves dirty. simgpu starts a cold
    # launch with this many bytes of dirty lines, the oldest of their sets, spread evenly over both
    # partitions (not at any address a kernel can touch). Warm launches keep what the last left.
    l2_dirty_bytes_at_cold_start: int = 2_416_384
    # DRAM fetch granularity on an L2 read miss: the aligned 64-byte sector pair ([LIMIT] default;
    # [CALIB] strided_copy_s32 reads one sector per 128-byte line and DRAM reads 64 B per sector:
    # 67,115,776 B for 1,048,576 sectors, while s8 reading whole lines reads 32 B per sector).
    l2_fetch_bytes: int = 64
    # [L2MERGE] L1 read misses of different SMs to one sector, in flight together, reach L2 once when
    # the SMs are in one merge domain (a GPC; measured groups in topology.py), at most
    # l2_merge_max_sms SMs per L2 request. None = every L1 miss is its own L2 request. The domains
    # are the measured H200's (chip-specific floorsweeping); they are used only when they cover
    # exactly the simulated GPU's SM ids 0..num_sms-1.
    l2_merge_domains: tuple[tuple[int, ...], ...] | None = H200_MERGE_DOMAINS
    l2_merge_max_sms: int = H200_MERGE_MAX_SMS

    # --- DRAM ---------------------------------------------------------------------------------
    # ncu's dram__bytes_read/write count 32-byte sector transfers ([NCU-KPG]): bytes = 32 x sectors.
    dram_atom_bytes: int = 32
    # A cold launch also reads its machine code and its launch constants from DRAM ([L1HITS]):
    # kernels that read no data read 88 DRAM sectors with 384 B of SASS, 152 with 2,432 B, 600 with
    # 16,768 B (one grid or 132 CTAs alike: the code comes from DRAM once), i.e. the code's sectors
    # plus 76; the built-in programs show code + 48..78. The code size is the SASS ptxas makes inside
    # NVRTC (frontend/cubin.py); for a module given as PTX it is estimated as instruction_bytes per
    # PTX instruction (a SASS instruction is 128 bits on sm_70+; ptxas makes 0.8x (shared-load
    # fusion) to 2.6x (loop unrolling) as many SASS as PTX instructions on the programs measured).
    # Warm launches fetch them only the first time a kernel runs.
    instruction_bytes: int = 16
    launch_fetch_sectors: int = 76

    # --- local memory -------------------------------------------------------------------------
    # Assumed base of the simulated local-memory window (far above the global heap) and the per-thread
    # local size used to place each warp's interleaved block (begin_kernel can override it).
    local_base: int = 1 << 46
    local_bytes_per_thread: int = 1 * KB

    # --- derived ------------------------------------------------------------------------------
    @property
    def sectors_per_line(self) -> int:
        return self.line_bytes // self.sector_bytes

    @property
    def l2_lines(self) -> int:
        return self.l2_bytes // self.line_bytes

    @property
    def l2_sets(self) -> int:
        return self.l2_lines // self.l2_ways

    def shared_carveout(self, need_bytes: int) -> int:
        """Smallest carveout (bytes) in shared_carveouts_kb that holds need_bytes.

        The brief's rule (smallest carveout >= ctas_per_sm * (shared_per_cta + 1 KB)). NOTE: the
        real driver often picks a larger one ([CALIB] launch__shared_mem_config_size: 32 KB for 8 CTAs
        x 1 KB, 64 KB for 8 x 3 KB, 100 KB for 8 x 5 KB); begin_kernel accepts carveout_bytes= to
        pass the real value.
        """
        for c in self.shared_carveouts_kb:
            if c * KB >= need_bytes:
                return c * KB
        raise ValueError(f"shared memory need of {need_bytes} B exceeds the largest carveout")

    def driver_carveout(self, shared_per_cta: int, threads_per_cta: int, ctas_other: int,
                        max_threads_per_sm: int, max_ctas_per_sm: int) -> int:
        """The carveout (bytes) the driver gives a launch (see shared_carveout_ctas_factor): shared_per_cta
        its static + dynamic shared memory per CTA, ctas_other the CTAs per SM its threads,
        registers and the block limit allow."""
        reserved = self.shared_reserved_per_cta
        largest = max(self.shared_carveouts_kb) * KB
        if shared_per_cta <= 0:
            ctas = min(self.zero_shared_carveout_factor * max(1, max_threads_per_sm // max(1, threads_per_cta)),
                       max_ctas_per_sm)
            return self.shared_carveout(ctas * reserved)
        per_cta = shared_per_cta + reserved
        twice = min(self.shared_carveout_ctas_factor * ctas_other, max_ctas_per_sm) * per_cta
        if twice <= self.shared_carveout_double_limit_kb * KB:
            return self.shared_carveout(twice)
        ctas = min(ctas_other, max(1, largest // per_cta))
        return self.shared_carveout(min(ctas * per_cta, largest))

    def preferred_carveout(self, percent: int) -> int:
        """The carveout a preference of `percent` (cudaFuncAttributePreferredSharedMemoryCarveout) asks
        for: that share of the largest carveout, rounded up to a supported one. The driver takes it as
        a floor ([L1GEOM]: 32-thread CTAs without shared memory got their default 32 KB at 0, 3, 7 and
        14 %, 64 KB at 28 %, 132 KB at 57 %)."""
        if not 0 <= percent <= 100:
            raise ValueError(f"a preferred carveout is a percent from 0 to 100, got {percent}")
        largest = max(self.shared_carveouts_kb) * KB
        return self.shared_carveout(-(-largest * percent // 100))

    def l1_bytes(self, carveout_bytes: int) -> int:
        """The L1's data capacity beside a shared-memory carveout (before rounding to whole ways)."""
        return self.l1_shared_unified_bytes - carveout_bytes - self.l1_reserved_bytes


def memory_config_for(gpu) -> MemoryConfig:
    """The memory configuration for a GPUConfig preset (L2 size and unified L1 size by name), with
    the fields an enclosing `overridden` block replaces."""
    return replace(_preset_config(gpu), **_CHANGES)


def _preset_config(gpu) -> MemoryConfig:
    name = getattr(gpu, "name", str(gpu)).upper()
    base = MemoryConfig()
    if "H200" in name:
        return base
    if "H100" in name:
        # [HOPPER-WP] 50 MB L2 on H100 SXM5. Same GH100 die and 132 SMs: the H200's measured merge
        # domains are kept (assumed: the same floorsweeping pattern).
        return replace(base, l2_bytes=50 * MB)
    if "A100" in name:
        return replace(
            base,
            l2_bytes=40 * MB,  # [A100-WP]
            l1_shared_unified_bytes=192 * KB,  # [A100-WP]
            shared_carveouts_kb=(0, 8, 16, 32, 64, 100, 132, 164),  # [CUDA-PG, cc 8.0]
            l2_merge_domains=None,  # not measured on an A100
            l2_sm_sides=None,  # not measured on an A100
        )
    return base


_CHANGES: dict[str, object] = {}


def victim_rule_fields(rule: int) -> dict:
    """The MemoryConfig fields of an L1 victim rule written as memory/l1.py L1Caches.victim_rule
    writes it (the pool; negative: with the second chance), for ``overridden(**...)`` in the
    microbenchmarks' tables."""
    return {"l1_victim_pool": abs(int(rule)), "l1_second_chance": int(rule) < 0}


@contextmanager
def overridden(**changes: object) -> Iterator[None]:
    """Memory systems made inside the block (launches, crosschecks) use their preset's config with
    these fields replaced (a field that does not exist is an error), e.g. ``with
    overridden(l1_victim_pool=16): kernel(...)``; as timing.config.overridden, for trying a model
    change against recorded launches (validation/snapshot.py --set)."""
    global _CHANGES
    unknown = sorted(set(changes) - {f.name for f in fields(MemoryConfig)})
    if unknown:
        raise TypeError(f"MemoryConfig has no field {', '.join(map(repr, unknown))}")
    saved = _CHANGES
    _CHANGES = {**saved, **changes}
    try:
        yield
    finally:
        _CHANGES = saved
