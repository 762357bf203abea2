"""A kernel launch: check it as CUDA would, lay out its arguments, run it, report it."""

from __future__ import annotations

import sys
import time
import weakref
from dataclasses import dataclass

import numpy as np
from numba.core import event

from simgpu.arch import GPUConfig, get_preset
from simgpu.core.engine import Engine
from simgpu.errors import LaunchError, warn_once
from simgpu.exec import wmma
from simgpu.exec.program import LinkedKernel
from simgpu.runtime.arrays import DeviceArray
from simgpu.runtime.device import current_device, current_gpu
from simgpu.stats.data_pipe import shared_pipe_extra_wavefronts
from simgpu.stats.report import LaunchReport, build_per_pc
from simgpu.stats.trace import ExecutionTrace
from simgpu.timing.config import TimingConfig, default_config
from simgpu.timing.isa import if_convertible_branches
from simgpu.timing.sass_counts import sass_extra_executions

_PARAM_KIND = {"u8": "u", "u16": "u", "u32": "u", "u64": "u", "s8": "i", "s16": "i", "s32": "i", "s64": "i",
               "f16": "f", "f32": "f", "f64": "f", "b8": "b", "b16": "b", "b32": "b", "b64": "b"}


def _dim3(x, what: str) -> tuple[int, int, int]:
    if isinstance(x, (int, np.integer)):
        x = (int(x),)
    try:
        t = tuple(int(v) for v in x)
    except TypeError:
        raise LaunchError(f"{what} must be an int or a tuple of up to 3 ints, got {x!r}") from None
    if not 1 <= len(t) <= 3:
        raise LaunchError(f"{what} must have 1 to 3 dimensions, got {x!r}")
    t = t + (1,) * (3 - len(t))
    if any(v <= 0 for v in t):
        raise LaunchError(f"{what} {x!r} has a dimension <= 0 (CUDA: invalid configuration argument)")
    return t  # type: ignore[return-value]


def pack_arguments(lk: LinkedKernel, args) -> np.ndarray:
    """Lay the arguments out in .param space; reject what CuPy/CUDA would get wrong or refuse."""
    params = lk.kernel_params
    if not isinstance(args, (tuple, list)):
        raise LaunchError(f"kernel {lk.name}: args must be a tuple, got {type(args).__name__}")
    if len(args) != len(params):
        raise LaunchError(f"kernel {lk.name} takes {len(params)} argument(s), got {len(args)}")
    buf = np.zeros(max(16, -(-lk.param_size // 16) * 16), dtype=np.uint8)
    for i, (arg, p, off) in enumerate(zip(args, params, lk.param_offsets)):
        where = f"kernel {lk.name}, argument {i} ({p.name}: .{p.type}" + (f"[{p.size}]" if p.type == "b8" else "") + ")"
        raw = _argument_bytes(arg, p, where)
        buf[off:off + p.size] = np.frombuffer(raw, dtype=np.uint8)
    return buf


def _argument_bytes(arg, p, where: str) -> bytes:
    size = p.size
    kind = _PARAM_KIND.get(p.type, "b")
    if isinstance(arg, DeviceArray):
        if size != 8:
            raise LaunchError(f"{where}: a device array (a pointer, 8 bytes) was passed to a {size}-byte parameter")
        return int(arg.ptr).to_bytes(8, "little")
    if isinstance(arg, np.ndarray) and arg.ndim > 0:
        if arg.dtype.kind == "V" and arg.size == 1 and size != 8:  # a struct meant by value
            raise LaunchError(f"{where}: a NumPy array was passed to a {size}-byte struct parameter; pass the "
                              "struct itself, a NumPy structured scalar such as x[0]")
        raise LaunchError(f"{where}: a NumPy array (host memory) was passed; kernels need device memory: "
                          "pass simgpu.asarray(x)")
    if hasattr(arg, "__cuda_array_interface__") or type(arg).__module__.startswith("cupy"):
        raise LaunchError(f"{where}: a CuPy array was passed to the simulator; use simgpu.asarray(x.get())")
    if isinstance(arg, np.generic) or (isinstance(arg, np.ndarray) and arg.ndim == 0):
        a = np.asarray(arg)
        if a.dtype.kind == "V" or kind == "b" and size > 8:
            if a.dtype.itemsize != size:
                raise LaunchError(f"{where}: a {a.dtype.itemsize}-byte value was passed to a {size}-byte parameter")
            return a.tobytes()
        if a.dtype.itemsize != size:
            raise LaunchError(f"{where}: a {a.dtype} ({a.dtype.itemsize} bytes) was passed to a {size}-byte "
                              f"parameter; pass np.{_suggest(p.type)}(...)")
        if kind == "f" and a.dtype.kind != "f":
            raise LaunchError(f"{where}: an integer {a.dtype} was passed to a floating-point parameter; "
                              f"pass np.{_suggest(p.type)}(...)")
        if kind in ("u", "i") and a.dtype.kind == "f":
            raise LaunchError(f"{where}: a {a.dtype} was passed to an integer parameter; "
                              f"pass np.{_suggest(p.type)}(...)")
        return a.tobytes()
    if isinstance(arg, bool):
        arg = int(arg)
    if isinstance(arg, int):
        if kind == "f":
            raise LaunchError(f"{where}: a Python int was passed to a floating-point parameter; "
                              f"pass np.{_suggest(p.type)}(...)")
        lo, hi = (-(1 << (8 * size - 1)), (1 << (8 * size)) - 1)
        if not lo <= arg <= hi:
            raise LaunchError(f"{where}: {arg} does not fit in {size} bytes")
        return (arg & ((1 << (8 * size)) - 1)).to_bytes(size, "little")
    if isinstance(arg, float):
        if kind == "f" and size == 8:
            return np.float64(arg).tobytes()
        raise LaunchError(f"{where}: a Python float was passed; CuPy would pass it as an 8-byte double. "
                          f"Pass np.{_suggest(p.type)}(...) instead")
    raise LaunchError(f"{where}: unsupported argument type {type(arg).__name__}")


def _suggest(t: str) -> str:
    return {"f32": "float32", "f64": "float64", "f16": "float16", "s32": "int32", "u32": "int32",
            "s64": "int64", "u64": "uint64", "b32": "int32", "b64": "int64", "s16": "int16", "u16": "uint16",
            "s8": "int8", "u8": "uint8"}.get(t, "int32")


@dataclass(frozen=True)
class Occupancy:
    ctas_per_sm: int
    limiter: str
    warps_per_cta: int
    registers_per_thread: int
    by_limit: dict[str, int]  # CTAs per SM each limit allows: warps, blocks, registers, shared memory


def occupancy_limits(gpu: GPUConfig, threads: int, regs: int, shared_per_cta: int) -> dict[str, int]:
    """CTAs per SM that each resource allows (warps, CTAs, registers, shared memory incl. 1 KB/CTA)."""
    lim = gpu.limits
    wpc = -(-threads // lim.warp_size)
    regs_per_warp = -(-regs * lim.warp_size // lim.register_alloc_granularity) * lim.register_alloc_granularity
    return {
        "warps": lim.max_warps_per_sm // wpc,
        "blocks": lim.max_ctas_per_sm,
        "registers": lim.registers_per_sm // (regs_per_warp * wpc) if regs_per_warp else lim.max_ctas_per_sm,
        "shared memory": lim.shared_mem_per_sm // (shared_per_cta + lim.shared_mem_reserved_per_block),
    }


def shared_mem_limit(gpu: GPUConfig, carveout_bytes: int, shared_per_cta: int) -> int:
    """CTAs per SM the configured carveout holds, as ncu's launch__occupancy_limit_shared_mem counts
    them: each CTA's shared memory plus the 1 KB reserved, in 128-byte granules (43 H200 launches of
    benchmarks/microbench: 32 B of shared memory in 32 KB -> 28 CTAs, 2,064 B in 100 KB -> 32,
    8 KB in 164 KB -> 18; none -> the carveout in KB)."""
    lim = gpu.limits
    per_cta = -(-(shared_per_cta + lim.shared_mem_reserved_per_block) // 128) * 128
    return int(carveout_bytes) // per_cta


def occupancy(gpu: GPUConfig, threads: int, regs: int, shared_per_cta: int) -> Occupancy:
    """Resident CTAs per SM, and which limit binds (warps, CTAs, registers, shared memory)."""
    by = occupancy_limits(gpu, threads, regs, shared_per_cta)
    limiter = min(by, key=lambda k: by[k])
    return Occupancy(by[limiter], limiter, -(-threads // gpu.limits.warp_size), regs, by)


@dataclass
class PreparedLaunch:
    """A checked launch with its engine built, not yet run (the stepper drives it step by step)."""

    kernel: object
    linked: LinkedKernel
    gpu: GPUConfig
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    shared_dynamic: int
    registers: int
    occupancy: Occupancy
    engine: Engine
    memsys: object
    trace: ExecutionTrace | None
    progress_bar: object = None
    timing: bool = True
    scheduler: str = "gto"
    keep_trace: bool = False
    registers_from: str = "estimated"  # "ptxas", "given" or "estimated" (LaunchReport.registers_from)
    sass_loops: tuple | None = None  # the SASS's loops with loads (frontend/sass.py), None: no SASS
    # the timing config in force when the launch was prepared: the engines recorded the trace for it
    # (the load hit groups of the timed L1 walk), so the replay at finish uses the same one
    timing_config: TimingConfig | None = None
    # the launch's arguments: their device arrays stay allocated while the launch can still run (a
    # stepper may hold it long after the caller dropped a temporary `sg.asarray(x)`)
    args: tuple = ()
    # ends the heap's hold (GlobalHeap.hold) once: at finish, or when an unfinished launch is dropped
    heap_release: object = None

    def finish(self, host_seconds: float, compile_seconds: float = 0.0) -> LaunchReport:
        """Close the launch and build its report (after the engine has run to the end)."""
        if self.progress_bar is not None:
            self.progress_bar.close()
        try:
            report = _report(self, host_seconds)
            report.compile_seconds = compile_seconds
        finally:
            if self.heap_release is not None:
                self.heap_release()
        if self.engine.printed:  # CUDA prints device printf output when the host synchronises
            report.printf = "".join(self.engine.printed)
            sys.stdout.write(report.printf)
            sys.stdout.flush()
        return report


MAX_PORTABLE_CLUSTER = 8  # CTAs per cluster without cudaFuncAttributeNonPortableClusterSizeAllowed (CUDA guide)


def _check_launch_bounds(lk: LinkedKernel, cfg: GPUConfig, g: tuple, b: tuple, threads: int) -> None:
    """What the kernel's own declarations demand of the launch: __launch_bounds__ (.maxntid), an
    exact block (.reqntid) and the cluster shape of __cluster_dims__ (.reqnctapercluster), which
    the grid must tile and which needs compute capability 9.0."""
    if lk.max_ntid is not None and threads > int(np.prod(lk.max_ntid)):
        raise LaunchError(f"kernel {lk.name}: block {b} has {threads} threads, more than its __launch_bounds__ "
                          f"allow ({int(np.prod(lk.max_ntid))}, .maxntid) (CUDA: too many resources requested for "
                          "launch)")
    if lk.reqntid is not None and tuple(lk.reqntid) + (1,) * (3 - len(lk.reqntid)) != tuple(b):
        raise LaunchError(f"kernel {lk.name}: block {b} is not the block {tuple(lk.reqntid)} the kernel requires "
                          "(.reqntid) (CUDA: invalid configuration argument)")
    dims = lk.cluster_dims
    if dims is None or dims == (1, 1, 1):
        return
    if cfg.compute_capability < (9, 0):
        raise LaunchError(f"kernel {lk.name}: thread-block clusters {dims} need compute capability 9.0; the "
                          f"{cfg.name} has {cfg.compute_capability[0]}.{cfg.compute_capability[1]}")
    size = int(np.prod(dims))
    if size > MAX_PORTABLE_CLUSTER:
        raise LaunchError(f"kernel {lk.name}: a cluster of {size} CTAs {dims} is more than the portable "
                          f"{MAX_PORTABLE_CLUSTER} (CUDA: cluster misconfiguration)")
    if any(v % d for v, d in zip(g, dims)):
        raise LaunchError(f"kernel {lk.name}: grid {g} is not a whole number of clusters {dims} (__cluster_dims__) "
                          "(CUDA: cluster misconfiguration)")


def _warn(lk, reason: str, message: str) -> None:
    """A FidelityWarning, once per linked kernel and reason, pointing at the user's line that launched."""
    warn_once(lk.warned, reason, message)


def _warn_unsimulated(lk) -> None:
    """Say what work a kernel makes the GPU do that simgpu does not simulate. The H200 figures are
    validation/typical11's (2026-12-02)."""
    if lk.uses_malloc:
        _warn(lk, "malloc", f"kernel {lk.name} calls device malloc/free: the allocator itself is not "
              "simulated. On an H200, 8,192 threads doing one malloc and one free each took 1.46 ms, some 1,076 "
              "warp instructions and 8 global atomics per pair, which this launch's counters and time leave out")
    if lk.recursive:
        _warn(lk, "recursion", f"kernel {lk.name} is recursive: the stack frames ptxas saves and restores "
              "in local memory are not simulated (an H200 running fib recursively in 16,384 threads made 720,025 "
              "local loads and 719,610 local stores that this simulation leaves out)")


def prepare_launch(kernel, grid, block, args, *, shared_mem: int = 0, gpu: str | GPUConfig | None = None,
                   warm_caches: bool = False, registers: int | None = None, progress: bool | None = None,
                   memory_counters: bool = True, trace: bool = False,
                   fuse_shared_loads: bool = True, timing: bool = True, scheduler: str = "gto",
                   engine: str | None = None, cooperative: bool | None = None,
                   shared_cas_loops: bool = True, ptxas_memory: bool = True) -> PreparedLaunch:
    """Check a launch as CUDA would and build its engine; see `launch` for the arguments."""
    cfg = get_preset(gpu) if gpu is not None else current_gpu()
    lim = cfg.limits
    lk = kernel.module.linked(kernel.name, cas_loops=shared_cas_loops, ptxas_memory=ptxas_memory)
    _warn_unsimulated(lk)
    g = _dim3(grid, "grid")
    b = _dim3(block, "block")
    threads = b[0] * b[1] * b[2]
    if threads > lim.max_threads_per_block:
        raise LaunchError(f"kernel {lk.name}: block {b} has {threads} threads; the {cfg.name} allows at most "
                          f"{lim.max_threads_per_block} per block (CUDA: invalid configuration argument)")
    for axis, (v, m) in enumerate(zip(b, lim.max_block_dim)):
        if v > m:
            raise LaunchError(f"kernel {lk.name}: block dimension {'xyz'[axis]} = {v} exceeds {m}")
    for axis, (v, m) in enumerate(zip(g, lim.max_grid_dim)):
        if v > m:
            raise LaunchError(f"kernel {lk.name}: grid dimension {'xyz'[axis]} = {v} exceeds {m}")
    _check_launch_bounds(lk, cfg, g, b, threads)
    shared_mem = int(shared_mem)
    if shared_mem < 0:
        raise LaunchError(f"kernel {lk.name}: shared_mem must be >= 0")
    total_shared = lk.shared_static + shared_mem
    if lk.shared_static > lim.shared_mem_per_block_default:
        raise LaunchError(f"kernel {lk.name}: {lk.shared_static} B of static __shared__ memory exceeds the "
                          f"{lim.shared_mem_per_block_default} B limit for static shared memory (CUDA refuses to "
                          "load such a module); use extern __shared__ with shared_mem= and "
                          "kernel.max_dynamic_shared_size_bytes")
    preferred = getattr(kernel, "preferred_shared_memory_carveout", -1)
    if isinstance(preferred, bool) or not isinstance(preferred, (int, np.integer)) or not -1 <= preferred <= 100:
        raise LaunchError(f"kernel {lk.name}: preferred_shared_memory_carveout must be an integer percent from 0 "
                          f"to 100, or -1 for no preference; got {preferred!r}")
    opt_in = max(lim.shared_mem_per_block_default, lk.shared_static + kernel.max_dynamic_shared_size_bytes)
    if total_shared > lim.shared_mem_per_block_default and total_shared > opt_in:
        raise LaunchError(
            f"kernel {lk.name}: {lk.shared_static} B static + {shared_mem} B dynamic shared memory exceeds the "
            f"{lim.shared_mem_per_block_default} B a block may use without opt-in; set "
            f"kernel.max_dynamic_shared_size_bytes (up to {lim.shared_mem_per_block_optin - lk.shared_static} B)")
    if total_shared > lim.shared_mem_per_block_optin:
        raise LaunchError(f"kernel {lk.name}: {total_shared} B of shared memory per block exceeds the "
                          f"{cfg.name}'s limit of {lim.shared_mem_per_block_optin} B")
    machine = kernel.machine_code  # ptxas's registers and code size, via NVRTC (None: a PTX module)
    regs, regs_from = kernel.register_count(lim, registers)
    if not 1 <= regs <= lim.max_registers_per_thread:
        raise LaunchError(f"kernel {lk.name}: {regs} registers per thread is outside 1..{lim.max_registers_per_thread}")
    occ = occupancy(cfg, threads, regs, total_shared)
    if occ.ctas_per_sm < 1:
        raise LaunchError(f"kernel {lk.name}: too many resources requested for launch ({occ.limiter}: "
                          f"{threads} threads x {regs} registers, {total_shared} B shared memory)")
    kparams = pack_arguments(lk, args)
    dev = current_device()
    n_ctas = g[0] * g[1] * g[2]
    if cooperative is None:
        cooperative = bool(getattr(kernel.module, "enable_cooperative_groups", False))
    grid_workspace = 0
    if cooperative:  # cudaLaunchCooperativeKernel: every CTA resident at once, a grid-sync workspace
        resident = occ.ctas_per_sm * cfg.num_sms
        if n_ctas > resident:
            raise LaunchError(f"kernel {lk.name}: a cooperative launch of {n_ctas} blocks is more than the {resident} "
                              f"that can be resident at once ({occ.ctas_per_sm} per SM x {cfg.num_sms} SMs; "
                              "CUDA: cudaErrorCooperativeLaunchTooLarge)")
        grid_workspace, _ = dev.heap.allocate(16)
    malloc_heap = dev.malloc_heap() if lk.uses_malloc else None  # reserved at its first use, kept
    memsys = dev.memory_system(cfg) if memory_counters else None
    tcfg = default_config()
    if memsys is not None:
        memsys.begin_kernel(total_shared, occ.ctas_per_sm, warm=warm_caches,
                            local_bytes_per_thread=lk.local_size,
                            code_bytes=machine.code_bytes if machine is not None
                            else len(lk.instructions) * memsys.cfg.instruction_bytes,
                            code_key=id(lk), heap_bases=dev.heap.bases, threads_per_cta=threads,
                            preferred_carveout_pct=int(preferred),
                            ctas_other=min(v for k, v in occ.by_limit.items() if k != "shared memory"),
                            record_load_hits=timing and tcfg.timed_l1_walk(n_ctas, occ.ctas_per_sm * cfg.num_sms))
    bar = None
    if progress is not False:
        from tqdm.auto import tqdm

        bar = tqdm(total=n_ctas, unit="block", desc=f"simgpu {lk.name}", delay=3.0, leave=False,
                   disable=None if progress is None else not progress)
    if scheduler not in ("gto", "lrr"):
        raise LaunchError(f"scheduler must be 'gto' or 'lrr', got {scheduler!r}")
    if timing and not memory_counters:
        raise LaunchError("the timing model needs the memory counters (memory_counters=True)")
    recorder = ExecutionTrace() if (trace or timing) else None
    if recorder is not None:
        recorder.heap_bases = np.asarray(dev.heap.bases, np.int64)
        recorder.load_hit_groups = memsys is not None and memsys.record_load_hits
    engine_cls = _engine_class(engine)
    # the dynamic shared memory (extern __shared__) starts aligned after the static variables: the
    # block's memory reaches that far, padding included
    block_shared = max(total_shared, lk.shared_dynamic_base + shared_mem) if shared_mem else total_shared
    engine = engine_cls(lk, dev.heap, kernel.module.const_buffer(), kparams, g, b, block_shared, shared_mem,
                    ctas_per_wave=occ.ctas_per_sm * cfg.num_sms, num_sms=cfg.num_sms, memsys=memsys,
                    progress=bar.update if bar is not None else None, trace=recorder,
                    fuse_vectors=fuse_shared_loads,
                    local_in_registers=machine is not None and machine.frame_bytes == 0,
                    grid_workspace=grid_workspace,
                    malloc_heap=malloc_heap,
                    **({"max_warps_per_wave": n_ctas * -(-threads // 32)} if cooperative else {}))
    prepared = PreparedLaunch(kernel, lk, cfg, g, b, shared_mem, regs, occ, engine, memsys, recorder, bar,
                          timing=timing, scheduler=scheduler, keep_trace=trace, registers_from=regs_from,
                          sass_loops=machine.loops if machine is not None else None,
                          args=tuple(args), timing_config=tcfg)
    dev.heap.hold()
    prepared.heap_release = weakref.finalize(prepared, dev.heap.release)
    if grid_workspace:
        dev.heap.free(grid_workspace)  # held back until the launch ends (GlobalHeap.hold)
    return prepared


def launch(kernel, grid, block, args, *, shared_mem: int = 0, gpu: str | GPUConfig | None = None,
           warm_caches: bool = False, registers: int | None = None, progress: bool | None = None,
           memory_counters: bool = True, trace: bool = False, fuse_shared_loads: bool = True,
           timing: bool = True, scheduler: str = "gto", engine: str | None = None,
           cooperative: bool | None = None, shared_cas_loops: bool = True,
           ptxas_memory: bool = True) -> LaunchReport:
    """Run `kernel` on the simulated GPU and return its LaunchReport.

    Beyond CuPy's arguments: `gpu` picks a preset for this launch; `warm_caches` keeps the L2's contents
    from the previous launch (ncu flushes them, so the default is cold; the L1s start empty either
    way, as the GPU invalidates them between launches); `registers` overrides the
    registers per thread (by default ptxas's count from NVRTC's cubin, else an estimate from the
    PTX); `trace` keeps the ExecutionTrace in the report; `fuse_shared_loads`
    counts adjacent aligned scalar shared loads as one LDS.64/LDS.128, as ptxas emits them;
    `shared_cas_loops` runs a shared-memory f32/f64/64-bit integer atomicAdd as the CAS loop ptxas
    makes of it (load, add, compare-and-swap, again for the lanes that lost), False as one atomic;
    `ptxas_memory` leaves out the loads and stores ptxas does not issue (a load that repeats one or
    reads what the thread stored, a store a later one overwrites, a loop-invariant load out of its
    loop: exec/ptxas_memory.py), False executes every load and store of the PTX;
    `timing` replays the launch through the timing model (kernel time, cycles, stall reasons) with the
    warp `scheduler` "gto" (greedy-then-oldest) or "lrr" (loose round-robin); `engine` is "fast" (numba)
    or "reference" (NumPy), default `simgpu.get_engine()`: both give bit-identical results;
    `cooperative` launches as cudaLaunchCooperativeKernel does (all CTAs resident, cooperative
    groups' grid.sync() works), default the module's `enable_cooperative_groups` (CuPy's flag).
    """
    prepared = prepare_launch(kernel, grid, block, args, shared_mem=shared_mem, gpu=gpu, warm_caches=warm_caches,
                              registers=registers, progress=progress, memory_counters=memory_counters,
                              trace=trace, fuse_shared_loads=fuse_shared_loads, timing=timing,
                              scheduler=scheduler, engine=engine, cooperative=cooperative,
                              shared_cas_loops=shared_cas_loops, ptxas_memory=ptxas_memory)
    t0 = time.perf_counter()
    compiling: list[float] = []
    try:
        # numba compiles simgpu's engine the first time it runs on a machine (then loads it from its
        # cache): that time is kept apart from the simulation's own
        with event.install_timer("numba:compile", compiling.append):
            prepared.engine.run()
    except BaseException:
        prepared.heap_release()  # a failed launch holds back no frees (its traceback may live on)
        raise
    finally:
        if prepared.progress_bar is not None:
            prepared.progress_bar.close()
            prepared.progress_bar = None
    compile_seconds = sum(compiling)
    host_seconds = time.perf_counter() - t0 - compile_seconds
    replay_compiling: list[float] = []
    with event.install_timer("numba:compile", replay_compiling.append):  # the timing replay's first run too
        report = prepared.finish(host_seconds, compile_seconds)
    report.compile_seconds += sum(replay_compiling)
    if report.timing is not None:
        report.timing_seconds = max(0.0, report.timing.host_seconds - sum(replay_compiling))
    return report


def _engine_class(name: str | None):
    from simgpu.runtime.device import get_engine

    name = get_engine() if name is None else name
    if name == "fast":
        from simgpu.fast.engine import FastEngine

        return FastEngine
    if name == "reference":
        return Engine
    raise LaunchError(f"engine must be 'fast' or 'reference', got {name!r}")


def _l1_geometry(memsys) -> tuple | None:
    """(sets, ways, heap_lines, victim rule) of the launch's L1 for the timed L1 walk (timing/l1_order.py), or
    None where it is not walked: no memory system, no L1 left by the carveout, or a fence that
    invalidated L1s during the launch."""
    if memsys is None or memsys.l1.nways <= 0 or memsys.l1.invalidations:
        return None
    return memsys.l1.sets, memsys.l1.nways, memsys.heap_lines, memsys.l1.victim_rule


def _report(pl: PreparedLaunch, host_seconds: float) -> LaunchReport:
    lk, cfg, occ, memsys = pl.linked, pl.gpu, pl.occupancy, pl.memsys
    g, b = pl.grid, pl.block
    lim = cfg.limits
    threads = b[0] * b[1] * b[2]
    n_ctas = g[0] * g[1] * g[2]
    stats = pl.engine.stats
    shared_mem, regs, recorder = pl.shared_dynamic, pl.registers, pl.trace
    if memsys is not None:
        memsys.end_kernel()
    mem_pc = memsys.per_instruction() if memsys is not None else None
    per_pc = build_per_pc(lk, stats, mem_pc)
    timing_result = None
    if pl.timing and recorder is not None:
        from simgpu.timing.model import simulate_timing

        timing_result = simulate_timing(lk, recorder, cfg, grid=g, block=b, ctas_per_sm=occ.ctas_per_sm,
                                        registers_per_thread=regs, policy=pl.scheduler, per_pc=per_pc,
                                        sass_loops=pl.sass_loops,
                                        config=pl.timing_config,
                                        merge_domain_of_sm=memsys.merge_dom if memsys is not None else None,
                                        merge_cap=memsys.merge_cap if memsys is not None else 0,
                                        l1_geometry=_l1_geometry(memsys),
                                        l2_side_copies=memsys.l2_side_copies if memsys is not None else None)
        if memsys is not None:
            memsys.l2_side_copies = timing_result.l2_side_copies
        if memsys is not None and (timing_result.l2_merging is not None or timing_result.store_merging is not None
                                   or timing_result.l1_loads is not None):
            if timing_result.l2_merging is not None:
                memsys.apply_timed_merging(timing_result.l2_merging.delta(), timing_result.l2_merging.pending)
            if timing_result.store_merging is not None:
                memsys.apply_timed_stores(timing_result.store_merging.hit_delta(),
                                          timing_result.store_merging.merged_sectors)
            if timing_result.l1_loads is not None:
                memsys.apply_timed_l1(timing_result.l1_loads.hit_delta())
            per_pc = build_per_pc(lk, stats, memsys.per_instruction())
    # ptxas's unrolled loops issue more warp-level instructions than the PTX where lanes leave them at
    # different trips (timing/sass_counts.py): requests and SASS instruction counts follow the SASS
    sass_extra = (sass_extra_executions(lk, recorder, stats.per_pc_warps, pl.timing_config)
                  if recorder is not None else {})
    if sass_extra and memsys is not None:
        memsys.apply_sass_unrolling(sass_extra)
        per_pc = build_per_pc(lk, stats, memsys.per_instruction())
    metrics: dict[str, float] = {}
    if memsys is not None:
        metrics.update(memsys.metrics())
        # shuffles, %tid reads, ... ride the shared data pipe too (stats/data_pipe.py)
        metrics["l1tex__data_pipe_lsu_wavefronts_mem_shared.sum"] += float(shared_pipe_extra_wavefronts(
            lk.instructions, stats.per_pc_warps, lk.mem_class, lk.target, -(-threads // 32),
            converted=if_convertible_branches(lk, pl.timing_config.if_convert_max_instructions,
                                              pl.timing_config.if_convert_over_slow_paths,
                                              pl.timing_config.if_convert_max_with_load)))
        metrics["launch__occupancy_limit_shared_mem"] = float(shared_mem_limit(
            cfg, memsys.carveout_bytes, lk.shared_static + shared_mem))
        metrics.update(_shared_sass_wavefronts(lk.mem_class, memsys.per_instruction(), memsys.instruction_kinds()))
    metrics.update(_instruction_metrics(stats))
    for pc, n in sass_extra.items():
        key = f"smsp__sass_inst_executed_op_{lk.mem_class[pc]}.sum" if lk.mem_class[pc] else None
        if key in metrics:
            metrics[key] += float(n)
    metrics.update(_tensor_metrics(lk, stats))
    if timing_result is not None:
        metrics.update(timing_result.metrics)
        metrics["smsp__inst_executed.sum"] = _sass_instruction_count(timing_result.metrics)
    metrics.update({
        "launch__grid_size": float(n_ctas), "launch__block_size": float(threads),
        "launch__registers_per_thread": float(regs), "launch__shared_mem_per_block_static": float(lk.shared_static),
        "launch__shared_mem_per_block_dynamic": float(shared_mem),
        # ncu's four limits, each on its own (benchmarks/microbench/*/results: blocks is always 32 on
        # sm_90, warps 64 / warps per CTA, registers with 256-register warp granules); the
        # shared-memory one is over the carveout the driver configured (below)
        "launch__occupancy_limit_blocks": float(occ.by_limit["blocks"]),
        "launch__occupancy_limit_warps": float(occ.by_limit["warps"]),
        "launch__occupancy_limit_registers": float(occ.by_limit["registers"]),
        "launch__waves_per_multiprocessor": n_ctas / float(occ.ctas_per_sm * cfg.num_sms),
        "sm__maximum_warps_per_active_cycle_pct": 100.0 * occ.ctas_per_sm * occ.warps_per_cta / lim.max_warps_per_sm,
    })
    return LaunchReport(kernel=lk.name, grid=g, block=b, gpu=cfg.name, shared_static=lk.shared_static,
                        shared_dynamic=shared_mem, registers_per_thread=regs, ctas_per_sm=occ.ctas_per_sm,
                        occupancy_limiter=occ.limiter, metrics=metrics, per_pc=per_pc,
                        host_seconds=host_seconds, trace=recorder if pl.keep_trace else None, linked=lk,
                        timing=timing_result, engine=pl.engine.name, registers_from=pl.registers_from,
                        sass_loops=pl.sass_loops)


def _sass_instruction_count(timing_metrics: dict[str, float]) -> float:
    """ncu's smsp__inst_executed counts SASS warp instructions; the PTX count is not that number
    (ptxas folds address arithmetic and 32-bit parameters into operands, adds prologue reads of
    64-bit parameters and special registers, unrolls loops, predicates short branches). The timing
    replay issues the SASS as it estimates it (sm__inst_executed.sum), so with the timing model the
    ncu-named count is that estimate: over the 272 recorded launches within 11.1 % of the H200's on
    average (median -4.1 %) where the PTX count is 17.2 % off (median +8.7 %) (2026-12-07, README).
    The PTX count stays as simgpu__ptx_inst_executed.sum."""
    return float(timing_metrics["sm__inst_executed.sum"])


def _tensor_metrics(lk, stats) -> dict[str, float]:
    """Tensor-pipe SASS instructions (H200, benchmarks/microbench/wmma): an mma.sync is one HMMA
    (f16, bf16, tf32) or IMMA (s8, u8); a wmma.mma two HMMA (measured for m16n16k16 f16, ASSUMED for
    the other shapes) or two IMMA (ASSUMED)."""
    hmma = imma = 0.0
    for pc, ins in enumerate(lk.instructions):
        if ins.opcode == "mma" or (ins.opcode == "wmma" and ins.mods[:1] == ("mma",)):
            n = float(stats.per_pc_warps[pc]) * (1 if ins.opcode == "mma" else 2)
            if any(x in wmma.INTEGER_TYPES for x in ins.mods):
                imma += n
            else:
                hmma += n
    return {"sm__inst_executed_pipe_tensor_op_hmma.sum": hmma, "sm__inst_executed_pipe_tensor_op_imma.sum": imma}


# the SASS instruction class a shared access's wavefronts are attributed to by ncu's sm__sass_ /
# smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_* (LDSM, STSM and LDGSTS have their own)
_SASS_SHARED_OP = {"shared_ld": "ld", "generic_ld": "ld", "shared_st": "st", "generic_st": "st",
                   "shared_atom": "atom", "generic_atom": "atom", "ldsm": "ldsm", "stsm": "stsm",
                   "ldgsts": "ldgsts"}


def _shared_sass_wavefronts(mem_class, per_pc: dict, kinds: dict) -> dict[str, float]:
    """Shared-memory wavefronts by the SASS instruction that made them, as ncu attributes them
    (sm__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_*): what the access patterns need, without
    the wavefronts the hardware counter l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld/st also
    counts when other traffic takes the banks (CTA launches beside running shared loads, shared
    stores beside other warps' loads: benchmarks/microbench/smem_arbitration). simgpu models no such
    arbitration: its l1tex op_ld is these op_ld plus the LDSM wavefronts, its op_st these op_st plus
    STSM's. On the H200 these equal the access patterns' own count in every launch of that
    microbenchmark."""
    out = {op: 0.0 for op in ("ld", "st", "atom", "ldsm", "stsm", "ldgsts")}
    for pc, d in per_pc.items():
        op = _SASS_SHARED_OP.get(mem_class[pc] or "")
        # a cp.async's pc is a global load to the memory system, its shared write's wavefronts beside
        if op is not None and (kinds.get(pc, ("",))[0] == "shared" or op == "ldgsts"):
            out[op] += d.get("wavefronts", 0.0)
    m = {}
    for op, v in out.items():
        for unit in ("sm", "smsp"):
            m[f"{unit}__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_{op}.sum"] = v
    return m


def _instruction_metrics(stats) -> dict[str, float]:
    m = {
        # the PTX's warp instructions, as the engines executed them; smsp__inst_executed.sum is this
        # count too unless the timing model ran (then its SASS estimate: _sass_instruction_count)
        "simgpu__ptx_inst_executed.sum": float(stats.inst_executed),
        "smsp__inst_executed.sum": float(stats.inst_executed),
        "smsp__thread_inst_executed.sum": float(stats.thread_inst_executed),
        "smsp__thread_inst_executed_pred_on.sum": float(stats.thread_inst_pred_on),
        "smsp__inst_executed_op_branch.sum": float(stats.branches),
        "smsp__inst_executed_op_barrier.sum": float(stats.barriers),
        "simgpu__divergent_branches.sum": float(stats.divergent_branches),
        # the scheduler (core/engine.py): the longest any ready warp waited, in steps, and how often
        # it turned fair for a starved one and put a spinning warp to sleep (spin loops; never in
        # ordinary kernels)
        "simgpu__scheduler_longest_wait_steps": float(stats.longest_wait),
        "simgpu__scheduler_fair_turns": float(stats.fair_turns),
        "simgpu__scheduler_spin_sleeps": float(stats.spin_sleeps),
    }
    for space in ("global", "shared", "local", "generic"):
        for op in ("ld", "st", "atom", "red"):
            m[f"smsp__sass_inst_executed_op_{space}_{op}.sum"] = float(stats.by_class.get(f"{space}_{op}", 0))
    # cp.async copies (LDGSTS): neither global loads nor shared stores to ncu
    m["smsp__sass_inst_executed_op_ldgsts.sum"] = float(stats.by_class.get("ldgsts", 0))
    # wmma.load of an f16/bf16 fragment from shared memory: one LDSM (ldmatrix), not a shared load to
    # ncu (benchmarks/microbench/wmma)
    m["smsp__sass_inst_executed_op_ldsm.sum"] = float(stats.by_class.get("ldsm", 0))
    return m
