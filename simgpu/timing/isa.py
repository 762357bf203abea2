"""Static timing class of each PTX instruction: pipe, latency, issue interval, registers.

PTX is not SASS: ptxas folds some PTX ops away (ld.param becomes a constant-bank operand,
cvta.to.global disappears into the address) and expands others (div.rn.f32, integer division).
The table below maps each PTX op to the SASS pipe it ends up on, with the latency and issue
interval from TimingConfig. Register dependencies come from the PTX operands: the destination
operands (first one, or two for `setp p|q` / `shfl d|p`, or a vector) and every other register.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

import numpy as np

from simgpu.exec import mma, wmma
from simgpu.exec.ops import SIMD_VIDEO_OPCODES
from simgpu.exec.program import (
    BAR,
    BRA,
    CALL,
    EXIT,
    RET,
    TRAP,
    LinkedKernel,
    _defs_uses,
    calls_slow_path,
    ieee_div_sqrt_rcp,
)
from simgpu.frontend.ptx.ast import Addr, Imm, Reg, Special, Sym, Vec
from simgpu.frontend.ptx.cas_loops import spinning_cas
from simgpu.timing.config import TimingConfig
from simgpu.timing.convergence import convergence_barriers, guarded_shuffles, splitting_branches
from simgpu.timing.moves import foldable_moves, forwarded_sources
from simgpu.timing.reg_pressure import PressureTracker, row_registers

# pipes (per sub-partition issue resources)
P_FP32, P_INT, P_IMAD, P_FP64, P_MUFU, P_LSU, P_BRANCH, P_NONE, P_TENSOR = range(9)
N_PIPES = 9
PIPE_NAMES = ("fp32", "int", "imad", "fp64", "mufu", "lsu", "branch", "none", "tensor")

# what an instruction is, for the replay
(K_ALU, K_GLD, K_GST, K_GATOM, K_SLD, K_SST, K_SATOM, K_SHFL, K_BAR, K_EXIT, K_BRANCH, K_FREE, K_LLD, K_LST,
 K_CONST, K_FENCE) = range(16)

# scoreboard class of a produced register (what a consumer waiting on it is stalled on)
SB_WAIT, SB_SHORT, SB_LONG = 0, 1, 2

# stall reasons (ncu names, smsp__average_warp_latency_issue_stalled_<name>)
REASONS = ("selected", "not_selected", "wait", "short_scoreboard", "long_scoreboard", "barrier",
           "math_pipe_throttle", "lg_throttle", "mio_throttle", "branch_resolving", "drain", "no_instruction",
           "dispatch_stall", "membar")
(R_SELECTED, R_NOT_SELECTED, R_WAIT, R_SHORT, R_LONG, R_BARRIER, R_MATH, R_LG, R_MIO, R_BRANCH, R_DRAIN, R_NOINST,
 R_DISPATCH, R_MEMBAR) = range(14)

MAX_SRC = 32  # wmma.mma reads up to 24 registers (A, B and C fragments of 8 each)
MAX_DST = 8  # wmma.load / wmma.mma write up to 8

_F32_OPS = {"add", "sub", "mul", "fma", "mad", "min", "max", "neg", "abs", "setp", "selp", "set", "testp",
            "copysign", "slct", "fmax", "fmin"}
_INT_OPS = {"add", "sub", "and", "or", "xor", "not", "shl", "shr", "min", "max", "setp", "selp", "set", "mov",
            "cnot", "lop3", "bfe", "bfi", "prmt", "popc", "clz", "brev", "bfind", "neg", "abs", "slct", "shf",
            "vote", "activemask", "addc", "subc", "fns", "sad", "dp4a", "dp2a", "nanosleep", "membar", "fence",
            "isspacep", "match", "elect", "szext", "bmsk", "getctarank", "mapa", "cvta", "discard",
            "prefetch", "prefetchu", "applypriority", "createpolicy", *SIMD_VIDEO_OPCODES}
_MUFU_OPS = {"ex2", "lg2", "rsqrt", "sqrt", "rcp", "tanh", "sin", "cos", "div"}
_GUARDED_MUFU_OPS = {"ex2", "lg2", "rsqrt", "sqrt", "rcp"}  # .approx.f32 without .ftz
_FOLDED_SPECIALS = ("%ctaid", "%ntid", "%nctaid", "%nsmid", "%gridid")
_TIMER_SPECIALS = ("%clock", "%globaltimer")


def _types(mods) -> set[str]:
    return {m for m in mods if m[:1] in "fsubp" and m[1:].isdigit() or m == "pred"}


def _is_float(mods) -> bool:
    return any(m in ("f32", "f16", "f16x2", "bf16", "bf16x2", "ftz") for m in mods)


def _is_f64(mods) -> bool:
    return "f64" in mods


def _is_int64(mods) -> bool:
    return any(m in ("u64", "s64", "b64") for m in mods)


@dataclass
class StaticTable:
    kind: np.ndarray  # int8 per pc: K_*
    pipe: np.ndarray  # int8 per pc
    lat: np.ndarray  # int32 per pc: issue -> dependent issue (fixed-latency ops)
    ii: np.ndarray  # int32 per pc: pipe busy cycles
    sb: np.ndarray  # int8 per pc: scoreboard class of the destinations
    src: np.ndarray  # int32 [n_pc, MAX_SRC], -1 padded
    dst: np.ndarray  # int32 [n_pc, MAX_DST], -1 padded
    n_regs: int
    # bool per pc: a read-only load (ld.global.nc / ldu / tex): the data is read-only for the whole
    # kernel (PTX ISA), so no store of the kernel can alias it and ptxas moves it across stores
    readonly: np.ndarray | None = None
    # int32 per pc: issue slots (SASS instructions of a ptxas-expanded op: sass_slots), 1 for most
    slots: np.ndarray | None = None
    # bool per pc: reads a timer (%clock, %clock64, %globaltimer). ptxas keeps such a read (CS2R /
    # S2UR) where the source puts it, so that clock64 stamps time the code between them: nothing
    # is scheduled across it (benchmarks/microbench/loads_in_flight's SASS)
    timer: np.ndarray | None = None
    # int32 per pc: cycles a warp waits after issuing the pc on top of its usual next-issue time, for
    # the convergence barriers ptxas adds there (scheduled_blocks; config convergence_barrier_cycles)
    delay: np.ndarray | None = None
    # bool per pc: a forward branch that opens a convergence-barrier region, where a warp whose lanes
    # go both ways splits (scheduled_blocks; config lat_divergent_split; the trace says whether it did)
    split: np.ndarray | None = None

    def remapped(self, pc_map: np.ndarray, src: np.ndarray, dst: np.ndarray, n_regs: int) -> StaticTable:
        """The table with row p taken from row pc_map[p] of this one (unroll.with_copies' copies),
        every per-pc array remapped, the register tables and count given."""
        per_pc = {f.name: getattr(self, f.name)[pc_map] for f in fields(self)
                  if f.name not in ("src", "dst") and isinstance(getattr(self, f.name), np.ndarray)}
        return replace(self, **per_pc, src=src, dst=dst, n_regs=n_regs)


def _reg_index(lk: LinkedKernel):
    idx = {n: i for i, n in enumerate(lk.reg_names)}

    def get(pc: int, r: Reg) -> int:
        f = lk.func_of_pc[pc]
        name = r.name if f == lk.name else f"{f}:{r.name}"
        i = idx.get(name)
        if i is None:
            i = idx.get(r.name, -1)
        return i

    return get


def _regs_of(op) -> list[Reg]:
    if isinstance(op, Reg):
        return [op]
    if isinstance(op, Vec):
        return [e for e in op.elems if isinstance(e, Reg)]
    if isinstance(op, Addr) and isinstance(op.base, Reg):
        return [op.base]
    return []


def _num_dst(ins) -> int:
    op, mods, ops = ins.opcode, ins.mods, ins.operands
    if op in ("st", "stmatrix", "red", "bra", "bar", "barrier", "ret", "exit", "trap", "membar", "fence", "prefetch",
              "prefetchu", "call", "cp", "discard", "applypriority", "nanosleep"):
        return 0
    if op == "setp":
        boolop = any(m in ("and", "or", "xor") for m in mods)
        return max(1, len(ops) - 2 - (1 if boolop else 0))
    if op == "shfl":
        return 2 if len(ops) >= 6 else 1
    if op == "elect":
        return 2
    if op in ("vote", "match") and len(ops) >= 4:
        return 2 if "any" not in mods and "all" not in mods and "uni" not in mods else 1
    return 1


def classify(ins, kind: int, mem_class: str | None, cfg: TimingConfig):
    """-> (K_*, pipe, latency, issue interval, scoreboard class)"""
    op, mods = ins.opcode, ins.mods
    if kind == BAR:  # a cluster's wait releases lat_cluster_barrier later (replay.py)
        return K_BAR, P_BRANCH, cfg.lat_cluster_barrier if "cluster" in ins.mods and "wait" in ins.mods else 0, \
            cfg.ii_branch, SB_WAIT
    if kind in (EXIT, RET):
        return K_EXIT, P_BRANCH, 0, cfg.ii_branch, SB_WAIT
    if kind in (BRA, CALL, TRAP):
        return K_BRANCH, P_BRANCH, cfg.lat_branch, cfg.ii_branch, SB_WAIT
    scope = _fence_scope(mods) if op in ("membar", "fence") else None
    if scope is not None:
        # the warp issues nothing until the fence is done (replay.py holds the warp lat cycles,
        # stalled on "membar" as ncu names it, and no memory op moves across it in the block
        # schedule); a cluster-scope fence as a GPU one (ASSUMED: cl.sync()'s release is a
        # MEMBAR.ALL.GPU in the SASS)
        lat = {"cta": cfg.lat_fence_cta, "sys": cfg.lat_fence_sys}.get(scope, cfg.lat_fence_gpu)
        return K_FENCE, P_BRANCH, lat, cfg.ii_fence_cta if scope == "cta" else cfg.ii_branch, SB_WAIT
    if op == "wmma":
        return _classify_wmma(ins, mem_class, cfg)
    if op == "mma":  # mma.sync: the tensor pipe (exec/mma.py mma_class)
        cls = mma.mma_class(mods)
        if cls == "dmma":
            return K_ALU, P_TENSOR, cfg.lat_dmma, cfg.ii_dmma, SB_WAIT
        if cls == "half":
            return K_ALU, P_TENSOR, cfg.lat_mma_half, cfg.ii_mma_half, SB_WAIT
        return K_ALU, P_TENSOR, cfg.lat_mma_full, cfg.ii_mma_full, SB_WAIT
    if mem_class == "ldsm":  # ldmatrix: one LDSM, a shared load to the LSU and the bank model
        return K_SLD, P_LSU, cfg.lat_ldsm, 1, SB_SHORT
    if mem_class == "stsm":  # stmatrix: one STSM, a shared store (ASSUMED: STS's latency)
        return K_SST, P_LSU, cfg.lat_shared, 1, SB_SHORT
    if mem_class == "ldgsts":
        # cp.async: a global load whose data goes to shared memory, so its L1 misses merge in time
        # like any load's; build_static ties it to cp.async.wait_group through three pseudo registers
        return K_GLD, P_LSU, cfg.lat_l1_hit, 1, SB_LONG
    if op == "mbarrier" and mods[:1] != ("pending_count",) or op == "cp" and mods[:2] == ("async", "mbarrier"):
        # an mbarrier operation (SYNCS on the H200): an 8-byte shared read-modify-write of its lanes
        # (exec/mbarrier.py); ASSUMED: a shared atomic's latency, not measured
        return K_SATOM, P_LSU, cfg.lat_shared, 1, SB_SHORT
    if op == "cp" and mods[:2] == ("async", "bulk") and len(mods) > 3 and "global" in mods[2:4]:
        # a 1-D bulk copy (TMA): global -> shared like a load whose data goes to shared memory,
        # shared -> global like a store; nothing waits on it but the mbarrier / bulk group (ASSUMED)
        return (K_GST if mods[2] == "global" else K_GLD), P_LSU, cfg.lat_l1_hit, 1, SB_LONG
    if mem_class is not None:
        space, _, what = mem_class.partition("_")
        if space == "param":
            if cfg.prologue_reads_issue and _types(mods) & {"u64", "b64", "s64"}:
                return K_ALU, P_INT, cfg.lat_const, cfg.ii_int, SB_SHORT  # 64-bit, mostly a pointer: LDC.64
            return K_FREE, P_NONE, 0, 0, SB_WAIT
        if space == "const":
            return K_CONST, P_LSU, cfg.lat_const, 1, SB_LONG
        return _memory_kind(mem_class, cfg, spin=spinning_cas(ins))
    if op in ("ld", "ldu", "st", "atom", "red", "tex", "tld4", "suld", "sust"):
        k = {"ld": K_GLD, "ldu": K_GLD, "st": K_GST, "tex": K_GLD, "tld4": K_GLD, "suld": K_GLD,
             "sust": K_GST}.get(op, K_GATOM)
        return k, P_LSU, cfg.lat_l1_hit, 1, SB_LONG
    if op == "shfl":
        return K_SHFL, P_LSU, cfg.lat_shfl, 1, SB_SHORT
    if op in ("redux",):
        return K_SHFL, P_LSU, cfg.lat_shfl, 1, SB_SHORT
    if op == "cvta" and "to" in mods or op == "nop":  # nop: a store ptxas drops (exec/dead_stores.py)
        return K_FREE, P_NONE, 0, 0, SB_WAIT
    if op == "mov" and len(ins.operands) == 2 and ins.guard is None and (
            isinstance(ins.operands[1], Sym)
            or isinstance(ins.operands[1], Special) and ins.operands[1].name.startswith(_FOLDED_SPECIALS)):
        if cfg.prologue_reads_issue and isinstance(ins.operands[1], Special):
            return K_ALU, P_INT, cfg.lat_int, cfg.ii_int, SB_WAIT  # S2R / S2UR / (U)LDC
        return K_FREE, P_NONE, 0, 0, SB_WAIT  # constant-bank / uniform operand in SASS
    if op == "cvt":
        ts = [m for m in mods if m[:1] in "fsub" and m[1:].isdigit() or m in ("f16", "bf16")]
        fl = [t for t in ts if t[0] == "f" or t == "bf16"]
        if fl and len(fl) < len(ts) or ("f64" in ts and "f32" in ts) or ("f16" in ts and "f32" in ts and False):
            return K_ALU, P_MUFU, cfg.lat_cvt, cfg.ii_cvt, SB_SHORT  # int <-> float, f32 <-> f64
        if len(fl) == 2 and fl[0] == fl[1]:
            return K_ALU, P_FP32, cfg.lat_fp32, cfg.ii_fp32, SB_WAIT  # cvt.rni.f32.f32 (FRND)
        return K_ALU, P_INT, cfg.lat_int, cfg.ii_int, SB_WAIT
    if op in _MUFU_OPS:
        approx = "approx" in mods
        if _is_f64(mods):
            ieee = {"div": cfg.lat_div_rn_f64, "sqrt": cfg.lat_sqrt_rn_f64, "rcp": cfg.lat_rcp_rn_f64}
            lat = cfg.lat_mufu_f64_approx if approx else ieee.get(op, cfg.lat_mufu_f64_approx)
            return K_ALU, P_FP64, lat, cfg.ii_fp64 * 8, SB_SHORT
        if op in ("sin", "cos"):
            return K_ALU, P_MUFU, cfg.lat_sin, cfg.ii_mufu, SB_SHORT
        if op == "div":
            if not _is_float(mods):
                return K_ALU, P_IMAD, _idiv_latency(mods, cfg), cfg.ii_imad * 6, SB_SHORT
            if approx or "full" in mods:  # MUFU.RCP and an FMUL
                return K_ALU, P_MUFU, cfg.lat_mufu + cfg.lat_fp32, cfg.ii_mufu, SB_SHORT
            return K_ALU, P_MUFU, cfg.lat_div_rn_f32, cfg.ii_mufu, SB_SHORT
        if op in ("rcp", "sqrt") and not approx:
            return K_ALU, P_MUFU, cfg.lat_rcp_rn_f32 if op == "rcp" else cfg.lat_sqrt_rn_f32, cfg.ii_mufu, SB_SHORT
        if op in _GUARDED_MUFU_OPS and "f32" in mods and "ftz" not in mods:  # subnormal guard
            return K_ALU, P_MUFU, cfg.lat_mufu_guarded, cfg.ii_mufu, SB_SHORT
        return K_ALU, P_MUFU, cfg.lat_mufu, cfg.ii_mufu, SB_SHORT
    if op == "rem":
        return K_ALU, P_IMAD, _idiv_latency(mods, cfg), cfg.ii_imad * 6, SB_SHORT
    if _is_f64(mods) and op in _F32_OPS | {"fma", "mad", "mul", "add", "sub"}:
        return K_ALU, P_FP64, cfg.lat_fp64, cfg.ii_fp64, SB_WAIT
    if _is_float(mods) and op in _F32_OPS:
        return K_ALU, P_FP32, cfg.lat_fp32, cfg.ii_fp32, SB_WAIT
    if op in ("mul", "mad", "mul24", "mad24") or (op in ("mul", "mad") and "wide" in mods):
        return K_ALU, P_IMAD, cfg.lat_imad, cfg.ii_imad, SB_WAIT
    if op in ("add", "sub") and _is_int64(mods):  # IADD3 + IADD3.X, or IMAD.WIDE with a mul.wide
        return K_ALU, P_INT, cfg.lat_int64_add, cfg.ii_int, SB_WAIT
    if op in ("bar", "barrier") and "warp" not in mods:  # bar.warp.sync (WARPSYNC): an ALU slot
        return K_BAR, P_BRANCH, 0, cfg.ii_branch, SB_WAIT
    return K_ALU, P_INT, cfg.lat_int, cfg.ii_int, SB_WAIT


def _fence_scope(mods) -> str | None:
    """"cta", "gpu", "sys" (or "cluster") for membar.{cta,gl,sys} and fence.{sc,acq_rel}.<scope>;
    None for the proxy, mbarrier-init and other fences, which order no generic memory traffic."""
    if any(m.startswith(("proxy", "mbarrier_init", "op_restrict")) for m in mods):
        return None
    for m in mods:
        if m in ("cta", "gpu", "sys", "cluster"):
            return m
        if m == "gl":
            return "gpu"
    return None


def _classify_wmma(ins, mem_class: str | None, cfg: TimingConfig):
    """wmma.mma: the tensor pipe (lat_wmma_mma, ii_wmma_mma; on doubles, DMMA: lat_dmma, ii_dmma).
    wmma.load / wmma.store: the memory instructions they become (exec/wmma.py memory_accesses), one
    LSU issue each; LDSM as a shared load."""
    if ins.mods[:1] == ("mma",):
        if "f64" in ins.mods:
            return K_ALU, P_TENSOR, cfg.lat_dmma, cfg.ii_dmma, SB_WAIT
        return K_ALU, P_TENSOR, cfg.lat_wmma_mma, cfg.ii_wmma_mma, SB_WAIT
    n = max(1, wmma.lowered_instructions(ins))
    if mem_class == "ldsm":
        return K_SLD, P_LSU, cfg.lat_ldsm, n, SB_SHORT
    k, p, lat, _, sb = _memory_kind(mem_class, cfg)
    return k, p, lat, n, sb


def _memory_kind(mem_class: str | None, cfg: TimingConfig, spin: bool = False):
    """A shared, local or global / generic access of class "<space>_<op>" (None: a generic load);
    `spin`: the CAS of a shared atomic-add loop (frontend/ptx/cas_loops.py)."""
    space, _, what = (mem_class or "generic_ld").partition("_")
    if space == "shared" and spin:
        return K_SATOM, P_LSU, cfg.lat_shared_cas_spin, 1, SB_SHORT
    if space == "shared":
        return {"ld": K_SLD, "st": K_SST}.get(what, K_SATOM), P_LSU, cfg.lat_shared, 1, SB_SHORT
    if space == "local":
        return (K_LLD if what == "ld" else K_LST), P_LSU, cfg.lat_local_l1_hit, 1, SB_LONG
    return {"ld": K_GLD, "st": K_GST}.get(what, K_GATOM), P_LSU, cfg.lat_l1_hit, 1, SB_LONG


def _idiv_latency(mods, cfg: TimingConfig) -> int:
    """Integer div / rem: measured per width and signedness (config sass_* comment)."""
    if _is_int64(mods):
        return cfg.lat_idiv64
    return cfg.lat_sdiv32 if "s32" in mods else cfg.lat_idiv32


def sass_slots(ins, cfg: TimingConfig, reciprocal: bool = False) -> int:
    """Issue slots of one PTX instruction: the SASS instructions ptxas makes of it where that is a
    sequence (integer div / rem, IEEE div / sqrt / rcp: config sass_*), else 1; always 1 unless
    config sass_sequences is on. `reciprocal`: a 32-bit integer div / rem that also computes its
    divisor's reciprocal (divisor_reciprocals)."""
    if not cfg.sass_sequences:
        return 1
    op, mods = ins.opcode, ins.mods
    if _int_division(ins):
        if _is_int64(mods):
            return cfg.sass_idiv64
        extra = cfg.sass_idiv32_reciprocal if reciprocal else 0
        return extra + (cfg.sass_sdiv32 if "s32" in mods else cfg.sass_idiv32)
    if ieee_div_sqrt_rcp(ins):
        if _is_f64(mods):
            return {"div": cfg.sass_fdiv64, "sqrt": cfg.sass_fsqrt64, "rcp": cfg.sass_frcp64}[op]
        return cfg.sass_fdiv32
    return 1


def _backward_loops(lk: LinkedKernel) -> list[tuple[int, int]]:
    """(target, branch pc) of every backward branch: the pcs between them are a loop's body."""
    return [(int(lk.target[pc]), pc) for pc in range(len(lk.instructions))
            if int(lk.kinds[pc]) == BRA and 0 <= int(lk.target[pc]) <= pc]


def _int_division(ins) -> bool:
    """An integer div / rem, of any width."""
    return ins.opcode in ("div", "rem") and not (_is_float(ins.mods) or _is_f64(ins.mods))


def divisor_reciprocals(lk: LinkedKernel) -> set[int]:
    """pcs of the 32-bit integer div / rem that compute their divisor's reciprocal where they stand
    (I2F.U32.RP, MUFU.RCP, F2I and the first Newton step: config sass_idiv32_reciprocal). ptxas
    computes it once where it can: out of a loop that does not write the divisor (sass_ops' chains
    divide by a kernel parameter inside a loop: 9.5 SASS a div.u32, none of them an I2F or a MUFU),
    and once for divisions by the same register in one basic block (i / d beside i % d). A
    division by an immediate is a multiply and never needs one."""
    ins_list = lk.instructions
    writes = [set(_defs_uses(ins)[0]) for ins in ins_list]
    loops = _backward_loops(lk)
    loop_writes = [set().union(*writes[t:j + 1]) for t, j in loops]
    out = set()
    for a, b in basic_blocks(lk):
        seen: set[tuple[str, bool]] = set()  # (divisor, signed) whose reciprocal this block has
        for pc in range(a, b):
            ins = ins_list[pc]
            if (_int_division(ins) and not _is_int64(ins.mods) and len(ins.operands) == 3
                    and isinstance(ins.operands[2], Reg)):
                name = ins.operands[2].name
                key = (name, "s32" in ins.mods)
                invariant = any(t <= pc <= j and name not in w for (t, j), w in zip(loops, loop_writes))
                if not invariant and key not in seen:
                    out.add(pc)
                seen.add(key)
            seen = {k for k in seen if k[0] not in writes[pc]}
    return out


def slow_path_calls(lk: LinkedKernel) -> set[int]:
    """pcs of the PTX ops ptxas compiles to a fast path, a test and a branch to a slow-path
    subroutine (`@!P0 BRA` around `CALL.REL.NOINC`): IEEE div / sqrt / rcp in f32 and f64 and
    64-bit integer div / rem. Each such branch ends a SASS basic block, so ptxas cannot hoist the
    loads after the op above it: validation/typical5 layernorm_welford_warp issues each float4
    load right before its four divisions (one LDG.E.128 per block of the unrolled loop), where the
    PTX block would let all four loads go first. Found in benchmarks/microbench/sass_ops'
    SASS (H200, nvcc 13.0 sm_90): 32 CALL.REL per 32 copies of each of these ops, none for
    div.u32 / div.s32 / rem.u32 / __fdividef."""
    return {pc for pc, ins in enumerate(lk.instructions) if calls_slow_path(ins)}


def build_static(lk: LinkedKernel, cfg: TimingConfig) -> StaticTable:
    n = len(lk.instructions)
    kind = np.zeros(n, np.int8)
    pipe = np.zeros(n, np.int8)
    lat = np.zeros(n, np.int32)
    ii = np.ones(n, np.int32)
    sb = np.zeros(n, np.int8)
    slots = np.ones(n, np.int32)
    src = np.full((n, MAX_SRC), -1, np.int32)
    dst = np.full((n, MAX_DST), -1, np.int32)
    get = _reg_index(lk)
    reciprocals = divisor_reciprocals(lk)
    # Three pseudo registers past the kernel's (replay.py): UNCOMMITTED, when the copies since the
    # last cp.async.commit_group are done (each copy raises it, with no write-after-write wait);
    # LAST, when the most recently committed group is; OLDER, when every group committed before it
    # is. commit_group folds LAST into OLDER and UNCOMMITTED into LAST. cp.async.wait_group N > 0
    # waits for OLDER (N > 1 as if 1: a little too long), wait_all and wait_group 0 for all three.
    n_regs = max(1, lk.num_regs) + 3
    uncommitted, last, older = n_regs - 3, n_regs - 2, n_regs - 1
    src_regs: list[list[int]] = []
    dst_regs: list[list[int]] = []
    for pc, ins in enumerate(lk.instructions):
        k, p, l, i, s = classify(ins, int(lk.kinds[pc]), lk.mem_class[pc], cfg)
        if k == K_FREE and not cfg.fold_free_ops:
            k, p, l, i, s = K_ALU, P_INT, cfg.lat_int, cfg.ii_int, SB_WAIT
        if p == P_LSU and k != K_CONST:  # each of its MIO instructions holds the sub-partition's port
            i *= cfg.ii_mio
        if pc in reciprocals:
            l += cfg.lat_idiv32_reciprocal
        if k == K_ALU and cfg.ii_alu and _on_alu(ins, p):  # the ALU's 16 lanes a sub-partition
            p, i = P_INT, cfg.ii_alu
        kind[pc], pipe[pc], lat[pc], ii[pc], sb[pc] = k, p, l, i, s
        slots[pc] = sass_slots(ins, cfg, pc in reciprocals)
        nd = _num_dst(ins)
        ops = ins.operands
        dregs: list[int] = []
        sregs: list[int] = []
        for j, o in enumerate(ops):
            regs = [get(pc, r) for r in _regs_of(o)]
            if j < nd and not isinstance(o, Addr):
                dregs += regs
            else:
                sregs += regs
        if ins.guard is not None:
            sregs.append(get(pc, ins.guard))
        if ins.opcode in ("atom",) and not dregs:
            pass
        if lk.mem_class[pc] == "ldgsts":
            dregs.append(uncommitted)
        elif ins.opcode == "cp" and ins.mods[:2] == ("async", "commit_group"):
            dregs.append(older)
        elif ins.opcode == "cp" and ins.mods[:2] in (("async", "wait_group"), ("async", "wait_all")):
            n_newer = int(ops[0].value) if ops and isinstance(ops[0], Imm) and isinstance(ops[0].value, int) else 0
            sregs += [older] if n_newer > 0 else [uncommitted, last, older]
        sregs = [r for r in dict.fromkeys(sregs) if r >= 0][:MAX_SRC]
        dregs = [r for r in dict.fromkeys(dregs) if r >= 0][:MAX_DST]
        src[pc, :len(sregs)] = sregs
        dst[pc, :len(dregs)] = dregs
        src_regs.append(sregs)
        dst_regs.append(dregs)
    _cross_pipe_latency(lk, kind, pipe, lat, cfg)
    _predicate_branch_latency(lk, kind, lat, src_regs, dst_regs, cfg)
    if cfg.fold_free_ops and cfg.fold_register_moves:
        _fold_moves(lk, get, kind, pipe, lat, ii, sb, src, src_regs, dst_regs)
    readonly = np.array([k == K_GLD and (ins.opcode in ("ldu", "tex", "tld4") or "nc" in ins.mods)
                         for k, ins in zip(kind, lk.instructions)], bool)
    return StaticTable(kind, pipe, lat, ii, sb, src, dst, n_regs, readonly, slots, timer_reads(lk),
                       np.zeros(n, np.int32), np.zeros(n, np.bool_))


# which of an SM sub-partition's units reads or writes an op's registers in SASS (_sass_unit): the
# FMA pipe (FFMA / FADD / FMUL, IMAD), the ALU (FMNMX / FSETP / FSEL, LOP3 / SHF / ISETP / IADD3 /
# SEL / LEA), or the MIO (loads, stores, shuffles, atomics: an address or a value they read)
_FMA_OPS = {"add", "sub", "mul", "fma", "mad"}
_F32_ALU_OPS = {"min", "max", "setp", "selp", "set", "slct", "fmax", "fmin", "testp", "copysign"}
_INT_ALU_OPS = {"add", "sub", "and", "or", "xor", "not", "cnot", "shl", "shr", "shf", "lop3", "min", "max",
                "setp", "selp", "set", "slct", "prmt", "bfe", "bfi"}


def _sass_unit(ins, kind: int, pipe: int) -> str:
    """"fma", "alu", "mio" or "" (another unit, or one ptxas picks either way: moves)."""
    if pipe == P_LSU or kind == K_SHFL:
        return "mio"
    if (pipe == P_IMAD or pipe == P_FP32) and ins.opcode in _FMA_OPS:  # not a div / rem sequence
        return "fma"
    if (pipe == P_FP32 and ins.opcode in _F32_ALU_OPS) or (pipe == P_INT and ins.opcode in _INT_ALU_OPS
                                                           and not _is_int64(ins.mods)):
        return "alu"
    return ""


def _on_alu(ins, pipe: int) -> bool:
    """An op only the ALU runs (config ii_alu): FP32 compares, selects, min / max, and the integer
    logic, shift, compare, select and min / max ops; not integer add / sub / shl, which ptxas puts
    on the ALU (IADD3, SHF, LEA) or the FMA pipe (VIADD, IMAD.IADD, IMAD.SHL) as each is loaded
    (the recorded suites' SASS: 2,612 IADD3 against 781 VIADD / IMAD.IADD)."""
    return _sass_unit(ins, K_ALU, pipe) == "alu" and not (pipe == P_INT and ins.opcode in ("add", "sub", "shl"))


def _cross_pipe_latency(lk: LinkedKernel, kind, pipe, lat, cfg: TimingConfig) -> None:
    """An FMA-pipe op (FP32 arithmetic, IMAD) whose result an ALU op or the MIO reads, and an FP32
    ALU op (min / max / setp / selp) whose result an FMA-pipe op or the MIO reads, take
    lat_cross_pipe more, in place: ptxas's stall counts between a producer and its adjacent reader
    say 4 cycles within a pipe and 5 across (config lat_cross_pipe). Per producer, where any of
    its register's data readers in the kernel is across (a guard is not a data read). Integer ALU
    ops keep lat_int (5, measured on a chain that crosses every step)."""
    if not cfg.lat_cross_pipe:
        return
    ins_list = lk.instructions
    units = [_sass_unit(ins, int(kind[pc]), int(pipe[pc])) for pc, ins in enumerate(ins_list)]
    readers: dict[str, set[str]] = {}
    for pc, ins in enumerate(ins_list):
        if not units[pc]:
            continue
        guard = ins.guard.name if ins.guard is not None else None
        for r in _defs_uses(ins)[1]:
            if r != guard:
                readers.setdefault(r, set()).add(units[pc])
    across = {"fma": {"alu", "mio"}, "alu": {"fma", "mio"}}
    for pc, ins in enumerate(ins_list):
        if kind[pc] != K_ALU or not (units[pc] == "fma" or (units[pc] == "alu" and "f32" in ins.mods)):
            continue
        if any(readers.get(d, set()) & across[units[pc]] for d in _defs_uses(ins)[0]):
            lat[pc] += cfg.lat_cross_pipe


def _predicate_branch_latency(lk: LinkedKernel, kind, lat, src_regs, dst_regs, cfg: TimingConfig) -> None:
    """A fixed-latency op writing a predicate a `bra` reads takes lat_predicate_branch (ptxas's
    ISETP -> @P BRA distance) in place: the branch cannot issue sooner. Its other readers, if any,
    wait as long (rare: NVRTC's PTX gives a branch its own setp). Not where the op's sources are
    all loop-invariant in its innermost loop: ptxas hoists such a compare to before the loop
    (benchmarks/microbench/branch_regions: uniform_if's four ISETPs at the loop's top, the lane
    kernels' one before it), so the branch finds its predicate long ready."""
    guards = {src_regs[pc][-1] for pc, ins in enumerate(lk.instructions)
              if ins.opcode == "bra" and ins.guard is not None and src_regs[pc]}
    if not guards:
        return
    loops = [(int(lk.target[pc]), pc) for pc, ins in enumerate(lk.instructions)
             if ins.opcode == "bra" and 0 <= int(lk.target[pc]) <= pc]
    for pc, regs in enumerate(dst_regs):
        if kind[pc] == K_ALU and lat[pc] < cfg.lat_predicate_branch and any(r in guards for r in regs):
            inner = min(((b - a, a, b) for a, b in loops if a <= pc <= b), default=None)
            if inner is not None and not any(r in src_regs[pc] for q in range(inner[1], inner[2] + 1)
                                             for r in dst_regs[q]):
                continue  # loop-invariant: hoisted
            lat[pc] = cfg.lat_predicate_branch


def _fold_moves(lk: LinkedKernel, get, kind, pipe, lat, ii, sb, src, src_regs, dst_regs) -> None:
    """Fold the `mov`s ptxas issues nothing for (timing/moves.py) in place: each becomes K_FREE, and
    every read of its destination reads its source instead (an immediate's: nothing to wait for)."""
    def takes_immediate(pc: int) -> bool:
        return int(kind[pc]) in (K_ALU, K_SHFL) and lk.instructions[pc].opcode != "mov"

    folded = foldable_moves(lk.instructions, dst_regs, src_regs, get, takes_immediate)
    if not folded:
        return
    for pc in folded:
        kind[pc], pipe[pc], lat[pc], ii[pc], sb[pc] = K_FREE, P_NONE, 0, 0, SB_WAIT
    forward = forwarded_sources(folded, dst_regs)
    for pc, regs in enumerate(src_regs):
        if any(r in forward for r in regs):
            new = [forward.get(r, r) for r in regs]
            new = [r for r in dict.fromkeys(new) if r >= 0][:MAX_SRC]
            src[pc, :] = -1
            src[pc, :len(new)] = new


def clock_steps(lk: LinkedKernel, cfg: TimingConfig | None = None) -> np.ndarray:
    """int64 per pc: the cycles from a lone warp's issue of the instruction to its next issue, by the
    replay's own table: the latency when the next instruction in program order reads its result (a
    branch's: lat_branch, lat_branch_taken for an unconditional one or a loop's back edge), else
    its issue slots, 0 for ops ptxas folds away. The functional run advances a warp's %clock /
    %clock64 / %globaltimer by these, so that a clock64 spin of D cycles spins about D cycles when
    replayed: counting one a warp instruction (before 2026-12-06) made benchmarks/microbench/
    l1_pending's spins of 1,600 cycles last 7,600 (4 instructions of 5, 5, 5 and 4 cycles an
    iteration). Stamps of a replayed launch come from TimingResult.clock_reads."""
    cfg = cfg or TimingConfig()
    st = build_static(lk, cfg)
    n = len(lk.instructions)
    out = np.zeros(n, np.int64)
    for pc in range(n):
        k = int(st.kind[pc])
        if k == K_FREE and cfg.fold_free_ops:
            continue
        step = int(st.slots[pc])
        if k == K_BRANCH or k == K_FENCE:
            step = max(step, int(st.lat[pc]))
            ins = lk.instructions[pc]
            if k == K_BRANCH and (ins.opcode != "bra" or ins.guard is None or int(lk.target[pc]) <= pc):
                step = max(step, cfg.lat_branch_taken)  # taken always, or a loop's back edge: mostly
        elif pc + 1 < n:
            dst = st.dst[pc][st.dst[pc] >= 0]
            if len(dst) and np.isin(st.src[pc + 1], dst).any():
                step = max(step, int(st.lat[pc]))
        out[pc] = step
    return out


def timer_reads(lk: LinkedKernel) -> np.ndarray:
    """bool per pc: the instruction reads %clock, %clock64 or %globaltimer."""
    return np.array([any(isinstance(o, Special) and o.name.startswith(_TIMER_SPECIALS) for o in ins.operands)
                     for ins in lk.instructions], bool)


# ------------------------------------------------------------------------------------------------
# ptxas-like static scheduling of each basic block
# ------------------------------------------------------------------------------------------------
_MEM_KINDS = {K_GLD, K_GST, K_GATOM, K_SLD, K_SST, K_SATOM, K_LLD, K_LST, K_CONST, K_SHFL}
_STORE_KINDS = {K_GST, K_GATOM, K_SST, K_SATOM, K_LST}
_FENCE_KINDS = {K_BAR, K_EXIT, K_BRANCH, K_FENCE}
_LOAD_KINDS = {K_GLD, K_SLD, K_LLD, K_CONST}
LOAD_KINDS = (K_GLD, K_LLD, K_CONST)  # loads whose data comes through L1 / the constant cache


def if_convertible_branches(lk: LinkedKernel, max_shadow: int, over_slow_paths: bool = False,
                            max_shadow_with_load: int = 0) -> set[int]:
    """Guarded forward branches over at most `max_shadow` straight-line instructions, or
    `max_shadow_with_load` where the shadow holds a global load: ptxas turns these into predicated
    instructions (if-conversion), so they neither end a block nor cost a branch (config
    if_convert_max_instructions, if_convert_max_with_load). Not over an op ptxas branches around to
    a slow-path call (program.calls_slow_path), which cannot be predicated, unless
    `over_slow_paths` (config if_convert_over_slow_paths): validation/typical23 pair_min_dist's
    `if (..) best = fminf(best, sqrtf(..))` is a BRA with BSSY / BSYNC around it in the SASS the
    H100 ran. A branch to the end of the thread is not one: ptxas makes it `@P EXIT`
    (typical10 transpose_inplace_swap's `if (x > y && x < n) { two loads, two stores }`)."""
    n = len(lk.instructions)
    longest = max(max_shadow, max_shadow_with_load)
    out = set()
    for pc in range(n):
        if int(lk.kinds[pc]) != BRA or int(lk.guard_reg[pc]) < 0:
            continue
        tgt = int(lk.target[pc])
        if not pc < tgt <= pc + 1 + longest or tgt > n:
            continue
        if _ends_thread(lk, tgt):
            continue  # `@P EXIT`: the lanes leave, nothing is predicated
        shadow = range(pc + 1, tgt)
        if tgt - pc - 1 > max_shadow and not any(lk.mem_class[q] in ("global_ld", "generic_ld") for q in shadow):
            continue
        if all(int(lk.kinds[q]) not in (BRA, CALL, RET, EXIT, BAR, TRAP) for q in shadow) \
                and (over_slow_paths or not any(calls_slow_path(lk.instructions[q]) for q in shadow)):
            out.add(pc)
    return out


def _ends_thread(lk: LinkedKernel, pc: int) -> bool:
    """Whether the code at pc only ends the thread: an unguarded ret / exit, or an unconditional
    branch to one (NVRTC's shared `ret` after an `if (i < n) { ... }`)."""
    for _ in range(4):
        if pc >= len(lk.instructions) or int(lk.guard_reg[pc]) >= 0:
            return False
        k = int(lk.kinds[pc])
        if k in (RET, EXIT):
            return k == EXIT or lk.func_of_pc[pc] == lk.name  # a device function's ret returns
        if k != BRA:
            return False
        pc = int(lk.target[pc])
    return False


def basic_blocks(lk: LinkedKernel, converted: set[int] = frozenset(),
                 starts: set[int] = frozenset(), ends: set[int] = frozenset()) -> list[tuple[int, int]]:
    """[start, end) pc ranges of straight-line code (branches, barriers, calls and exits end a
    block; if-converted branches do not; each pc of `starts` begins one, each pc of `ends` ends
    one: guarded_shuffle_regions, slow_path_calls)."""
    n = len(lk.instructions)
    leaders = {0}
    leaders.update(starts)
    leaders.update(pc + 1 for pc in ends)
    for pc in range(n):
        k = int(lk.kinds[pc])
        if pc in converted:
            continue
        if k in (BRA, CALL, RET, EXIT, BAR, TRAP):
            leaders.add(pc + 1)
            if k in (BRA, CALL) and 0 <= int(lk.target[pc]) < n:
                leaders.add(int(lk.target[pc]))
    ls = sorted(x for x in leaders if x < n)
    return [(a, b) for a, b in zip(ls, ls[1:] + [n])]


def scheduled_blocks(lk: LinkedKernel, st: StaticTable, cfg: TimingConfig) -> tuple[set[int], list[tuple[int, int]]]:
    """The branches the timing model if-converts (in `st`, in place, made one-cycle predicate ops)
    and the basic blocks it schedules around them: those branches inside blocks, the guarded
    shuffles' regions blocks of their own, slow-path calls (config schedule_slow_paths_end_blocks)
    ending one. Also adds the issue slots of ptxas's convergence barriers to `st` (config
    convergence_barrier_slots), so call it once per table. Shared by model.simulate_timing and
    sass_counts.py, so both see the same loops."""
    conv = if_convertible_branches(lk, cfg.if_convert_max_instructions, cfg.if_convert_over_slow_paths,
                                   cfg.if_convert_max_with_load)
    for pc in conv:  # a predicate, not a branch
        st.kind[pc], st.pipe[pc], st.lat[pc], st.ii[pc] = K_ALU, P_INT, 1, cfg.ii_int
    if cfg.convergence_barrier_slots:
        for pc, n in convergence_barriers(lk, conv).items():
            st.slots[pc] += n
            if st.delay is not None:
                st.delay[pc] += n // 2 * cfg.convergence_barrier_cycles
        if st.split is not None:
            st.split[sorted(splitting_branches(lk, conv))] = True
    ends = slow_path_calls(lk) if cfg.schedule_slow_paths_end_blocks else set()
    blocks = basic_blocks(lk, conv, set(), ends)
    return conv, basic_blocks(lk, conv, guarded_shuffle_regions(lk, blocks), ends)


def guarded_shuffle_regions(lk: LinkedKernel, blocks: list[tuple[int, int]]) -> set[int]:
    """Where the regions of the shuffles ptxas guards begin and end (convergence.guarded_shuffles):
    in each block, from its first guarded shfl to one past its last. The `BRA.DIV` before the first
    jumps to a slow path that re-enters after the last, so nothing moves into or out of the region
    (nvcc 13.0 sm_90 SASS: paged_decode_attention's V loads stay below its butterfly) while loads
    of the region move up inside it (tests/timing/test_convergence.py's tload_loop: three of the
    four unrolled LDGs right behind the BRA.DIV)."""
    guarded = sorted(guarded_shuffles(lk))
    out: set[int] = set()
    for a, b in blocks:
        inside = [pc for pc in guarded if a <= pc < b]
        if inside:
            out.update((inside[0], inside[-1] + 1))
    return out


_SHARED_KINDS = {K_SLD, K_SST, K_SATOM}


def schedule_block(st: StaticTable, a: int, b: int, load_latency: int,
                   shadows: dict[int, int] | None = None,
                   pressure: tuple[np.ndarray, set[int], set[int], int] | None = None,
                   in_time: bool = False, held: tuple[np.ndarray, set[int], int] | None = None) -> list[int]:
    """Order of the pcs a..b-1 as a list scheduler would issue them: respect register (RAW, WAR,
    WAW) and memory-order dependencies (no memory op crosses a store, atomic or barrier, except
    read-only loads, which no store can alias), keep
    the block's last control instruction last, and among ready instructions take the one with
    the longest latency-weighted path to the end of the block (loads move up). `in_time` (implied
    by `pressure`) keeps a clock, one issue a cycle, and takes what can issue soonest first, so a
    load's consumer does not follow it straight away while other work is ready.

    `pressure` = (register weights, live-in ids, live-out ids, budget) keeps the live registers
    within the budget where it can: when the longest-path choice would go past it, take the ready
    instruction that adds the fewest registers instead (reg_pressure.py). `held` = (register
    weights, live-out ids, budget): loads wait while the loaded values not yet used take `budget`
    registers (schedule_sequence)."""
    if b - a <= 2:
        return list(range(a, b))
    shadows = shadows or {}
    seq = list(range(a, b))
    guards = [[bpc - a for bpc, tgt in shadows.items() if a <= bpc < pc < tgt] for pc in seq]
    srcs = [row_registers(st.src[pc]) for pc in seq]
    dsts = [row_registers(st.dst[pc]) for pc in seq]
    order = schedule_sequence(st, seq, srcs, dsts, load_latency, guards, pressure, in_time, held)
    return [a + i for i in order]


def sequence_dependencies(st: StaticTable, seq: list[int], srcs: list[list[int]], dsts: list[list[int]],
                          load_latency: int, guards: list[list[int]] | None = None
                          ) -> tuple[list[set[int]], np.ndarray, set[tuple[int, int]]]:
    """What holds the instructions of a straight-line run apart (schedule_sequence's arguments):
    per position the earlier positions it must follow (register, memory-order, guard, fence and
    timer dependencies), each position's latency, and the (producer, consumer) pairs where the
    consumer reads the producer's result."""
    n = len(seq)
    guards = guards or [[] for _ in range(n)]
    preds: list[set[int]] = [set() for _ in range(n)]
    last_w: dict[int, int] = {}
    readers: dict[int, list[int]] = {}
    last_store = [-1, -1]  # per space class: global-like, shared
    mem_since_store: list[list[int]] = [[], []]
    lat = np.zeros(n, np.int64)
    raw: set[tuple[int, int]] = set()  # (producer, consumer): the consumer reads the producer's result
    last_timer = -1
    for i in range(n):
        pc = seq[i]
        k = int(st.kind[pc])
        if last_timer >= 0:
            preds[i].add(last_timer)  # nothing moves above a timer read ...
        if st.timer is not None and st.timer[pc]:
            preds[i].update(range(i))  # ... nor below it
            last_timer = i
        lat[i] = load_latency if k in LOAD_KINDS else max(1, int(st.lat[pc]))
        srcs_i, dsts_i = srcs[i], dsts[i]
        for r in srcs_i:
            if r in last_w:
                preds[i].add(last_w[r])
                raw.add((last_w[r], i))
        for r in dsts_i:
            if r in last_w:
                preds[i].add(last_w[r])
            for j in readers.get(r, ()):
                preds[i].add(j)
        for r in srcs_i:
            readers.setdefault(r, []).append(i)
        for r in dsts_i:
            last_w[r] = i
            readers[r] = []
        preds[i].update(guards[i])  # predicated by the if-converted branches
        spaces = (1,) if k in _SHARED_KINDS else (0,) if k in _MEM_KINDS and k != K_SHFL else ()
        if st.readonly is not None and st.readonly[pc]:
            spaces = ()  # read-only data: no store can alias it
        if k in _FENCE_KINDS:
            spaces = (0, 1)
        for sp_ in spaces:
            if last_store[sp_] >= 0:
                preds[i].add(last_store[sp_])
            if k in _STORE_KINDS or k in _FENCE_KINDS:
                preds[i].update(mem_since_store[sp_])
                last_store[sp_] = i
                mem_since_store[sp_] = []
            else:
                mem_since_store[sp_].append(i)
        if k in _FENCE_KINDS:
            preds[i].update(range(i))
    return [{p for p in ps if p != i} for i, ps in enumerate(preds)], lat, raw


def dependent_loads(st: StaticTable, seq: list[int], srcs: list[list[int]], dsts: list[list[int]]) -> bool:
    """Whether a load of the run takes its address (through any chain of results) from a value a
    load of the run produced: an index load feeding a gather."""
    preds, _, raw = sequence_dependencies(st, seq, srcs, dsts, 0)
    is_load = [int(st.kind[pc]) in LOAD_KINDS for pc in seq]
    waits = [False] * len(seq)
    for i in range(len(seq)):
        waits[i] = any((p, i) in raw and (is_load[p] or waits[p]) for p in preds[i])
        if waits[i] and is_load[i]:
            return True
    return False


def hoisted_sequence(st: StaticTable, seq: list[int], srcs: list[list[int]], dsts: list[list[int]],
                     pressure: tuple[np.ndarray, set[int], set[int], int],
                     guards: list[list[int]] | None = None, ready_first: bool = False) -> list[int]:
    """A straight-line run in program order with each load hoisted as early as `pressure`'s
    budget allows: before each instruction, the next loads (with what their addresses need) go
    first while the tracked registers stay within it. How ptxas lays out the loops it unrolls
    (timing/unroll.py): it keeps their order and hoists loads while the loaded values not yet used
    fit in 16 registers (unrolled_order's budget), in the nvcc 13.0 sm_90 SASS of typical10
    dgemv_t_cols (8 double loads ahead, then row j + 4's beside row j's DFMA), typical gemv_cols
    (16 floats), typical12 col_sum_double (8 doubles), typical2 rows_runtime_trip (16 floats),
    typical5 int8_gemv_dp4a (14 ints), typical4 batched_vecmat (15 floats), typical3 dgemm_naive
    (7 doubles). For runs without dependent_loads: ptxas lays out an index load and the load it
    feeds otherwise (typical spmv_csr: twelve index and value loads, then the x loads), so they
    are list-scheduled instead. With `ready_first`, where the next load's address needs
    arithmetic not yet issued, the load after it goes first (once) if its address is ready
    (nothing it needs is left) and it fits: ptxas fills the address arithmetic's latency with it. In the
    NVRTC 13.5 sm_90 SASS of benchmarks/microbench/naive_latency's naive_private_ab (5 registers
    ahead) the A loads ([R18+imm]) run one k ahead of the B loads (a 64-bit add apiece), so 2 B
    loads are in flight at each FFMA's wait, where program order (B before A in the PTX) keeps 3.
    Returns positions in issue order."""
    n = len(seq)
    preds = sequence_dependencies(st, seq, srcs, dsts, 0, guards)[0]
    is_load = [int(st.kind[pc]) in LOAD_KINDS for pc in seq]
    tracker = PressureTracker(srcs, dsts, pressure)
    done = [False] * n
    order: list[int] = []

    def emit(i: int) -> None:
        tracker.issue(i)
        done[i] = True
        order.append(i)

    def needs(j: int) -> list[int]:  # j and its not yet issued ancestors, in program order
        seen, stack = {j}, [j]
        while stack:
            for p in preds[stack.pop()]:
                if not done[p] and p not in seen:
                    seen.add(p)
                    stack.append(p)
        return sorted(seen)

    loads = [i for i in range(n) if is_load[i]]
    nxt = cursor = 0
    swapped_for = -1
    while len(order) < n:
        while nxt < len(loads):
            if done[loads[nxt]]:
                nxt += 1
                continue
            group = needs(loads[nxt])
            if ready_first and len(group) > 1 and swapped_for != nxt:  # one ready load per waiting one
                swapped_for = nxt
                later = next((j for j in loads[nxt + 1:] if not done[j]), None)
                if later is not None and needs(later) == [later] and tracker.fits([later]):
                    emit(later)
            if not tracker.fits(group):
                break
            for i in group:
                emit(i)
            nxt += 1
        while done[cursor]:
            cursor += 1
        emit(cursor)
    return order


def loaded_weights(st: StaticTable, seq: list[int], dsts: list[list[int]], weights: np.ndarray) -> np.ndarray:
    """`weights` kept for the registers the run's loads write and zero elsewhere: what a
    PressureTracker counts when only loaded values not yet used take the budget."""
    loaded = np.zeros_like(weights)
    for pc, ds in zip(seq, dsts):
        if int(st.kind[pc]) in LOAD_KINDS:
            loaded[ds] = weights[ds]
    return loaded


def schedule_sequence(st: StaticTable, seq: list[int], srcs: list[list[int]], dsts: list[list[int]],
                      load_latency: int, guards: list[list[int]] | None = None,
                      pressure: tuple[np.ndarray, set[int], set[int], int] | None = None,
                      in_time: bool = False, held: tuple[np.ndarray, set[int], int] | None = None) -> list[int]:
    """schedule_block's list scheduler over any straight-line run of instructions: seq[i] is the
    pc of the i-th (its kind and latency), srcs[i] / dsts[i] the register ids it reads and writes
    (the StaticTable's, or renamed ones: timing/unroll.py's unrolled copies), guards[i] the
    positions of the if-converted branches whose shadow it is in. With `held` = (register weights,
    live-out ids, budget) a load waits while the loaded values not yet used take `budget`
    registers, as long as anything else is ready (ptxas: benchmarks/microbench/loads_in_flight's
    col_stream SASS issues 16 of 32 float loads, or 8 of 16 double loads, then a sum beside each
    further load). Returns the positions 0..len(seq)-1 in issue order (program order where the
    dependencies have a cycle)."""
    n = len(seq)
    if n <= 2:
        return list(range(n))
    preds, lat, raw = sequence_dependencies(st, seq, srcs, dsts, load_latency, guards)
    succs: list[list[int]] = [[] for _ in range(n)]
    for i, ps in enumerate(preds):
        for p in ps:
            succs[p].append(i)
    height = np.zeros(n, np.int64)
    for i in range(n - 1, -1, -1):
        height[i] = lat[i] + max((height[s] for s in succs[i]), default=0)
    npred = [len(p) for p in preds]
    ready = [i for i in range(n) if npred[i] == 0]
    order = []
    tracker = PressureTracker(srcs, dsts, pressure) if pressure is not None else None
    loaded = None  # the loaded values not yet used
    if held is not None:
        loaded = PressureTracker(srcs, dsts, (loaded_weights(st, seq, dsts, held[0]), set(), held[1], held[2]))
    earliest = np.zeros(n, np.int64)  # the cycle each instruction's inputs are ready, one issue a cycle
    clock = 0

    def soonest(i: int) -> tuple:
        return (max(clock, int(earliest[i])), -height[i], i)

    in_time = in_time or tracker is not None
    while ready:
        if not in_time:
            ready.sort(key=lambda i: (-height[i], i))
        else:  # what can issue soonest, then the longest path
            ready.sort(key=soonest)
            if tracker is not None and tracker.over_budget(ready[0]):  # loads wait for registers
                ready.sort(key=lambda i: (tracker.delta(i) > 0 and int(st.kind[seq[i]]) in _LOAD_KINDS,
                                          *soonest(i)))
        pick = 0
        if loaded is not None:  # a load over the loaded-register budget goes after anything else ready
            pick = next((j for j, i in enumerate(ready)
                         if not (int(st.kind[seq[i]]) in LOAD_KINDS and loaded.over_budget(i))), 0)
        i = ready.pop(pick)
        if tracker is not None:
            tracker.issue(i)
        if loaded is not None:
            loaded.issue(i)
        if in_time:
            clock = max(clock, int(earliest[i])) + 1
            for s in succs[i]:
                earliest[s] = max(earliest[s], clock - 1 + (lat[i] if (i, s) in raw else 1))
        order.append(i)
        for s in succs[i]:
            npred[s] -= 1
            if npred[s] == 0:
                ready.append(s)
    if len(order) != n:  # cycle (should not happen): keep program order
        return list(range(n))
    return order
