"""Link one kernel (and the device functions it calls) into a flat, executable program.

The result holds everything the engine needs in plain arrays and lists: one closure per
instruction, register indices, branch targets, reconvergence points (immediate post-dominators),
and the layouts of shared, local, param and const space.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from simgpu.errors import UnsupportedInstructionError
from simgpu.exec import ops, wmma
from simgpu.exec.alignment import SYMBOL_BITS, known_alignment
from simgpu.exec.contract import find_contractions
from simgpu.exec.device_malloc import build_free, build_malloc
from simgpu.exec.memory import CODE_WINDOW, FUNC_PARAM_BASE
from simgpu.exec.printf import build_assertfail, build_vprintf
from simgpu.exec.ptxas_memory import MemoryRewrite, rewrite_memory_ops
from simgpu.exec.values import type_bits
from simgpu.frontend.cfg import build_cfg
from simgpu.frontend.ptx.ast import Addr, Function, Imm, Instruction, Module, Reg, Special, Sym, Variable, Vec

# instruction kinds the engine dispatches on
ALU, BRA, CALL, RET, EXIT, BAR, TRAP = range(7)


@dataclass
class CallSite:
    callee_entry: int
    copy_in: list[tuple[int, int, int]]  # (caller param offset, callee param offset, bytes)
    copy_out: list[tuple[int, int, int]]  # (callee retval offset, caller param offset, bytes)
    # a recursive callee's own (registers, local bytes, function-param bytes) ranges: saved at the
    # call and restored at its return, since a nested activation reuses them (core/engine.py)
    save: tuple[tuple[int, int], tuple[int, int], tuple[int, int]] | None = None


@dataclass
class IndirectCallSite:
    """A call through a register (a function pointer, a virtual function): the register, and a
    CallSite for each function whose address it may hold (every address-taken function of the
    module whose signature fits), with its name and address."""

    target_reg: int
    sites: list[CallSite]
    names: list[str]
    addresses: list[int]

    @cached_property
    def by_address(self) -> dict[int, int]:
        """A function's address -> its index in `sites`."""
        return {a: i for i, a in enumerate(self.addresses)}


def function_addresses(module: Module) -> dict[str, int]:
    """The address of every device function with a body (exec/memory.CODE_WINDOW)."""
    names = [n for n, f in module.functions.items() if not f.is_entry and not f.is_decl_only]
    return {n: CODE_WINDOW + 16 * i for i, n in enumerate(names)}


def address_taken(module: Module) -> list[str]:
    """The device functions whose address the module takes (an operand other than a call's callee,
    or a relocation in a variable's initializer): the possible targets of an indirect call."""
    funcs = function_addresses(module)
    seen: set[str] = set()
    for fn in module.functions.values():
        for ins in fn.body:
            ops_ = ins.operands[:1] + ins.operands[2:] if ins.opcode == "call" else ins.operands
            for op in ops_:
                seen.update(n for n in _symbols(op) if n in funcs)
    for v in module.variables:
        seen.update(n for _, n in v.relocations if n in funcs)
    return [n for n in funcs if n in seen]


# warp-synchronous ops: a lane on its way to exit through one of these still takes part (quiet_exit)
_SYNC_OPCODES = frozenset({"shfl", "vote", "match", "redux", "elect", "bar", "barrier"})
_WRITE_OPCODES = frozenset({"st", "atom", "red", "cp", "mbarrier", "stmatrix", "sust", "sured", "multimem"})


@dataclass
class BarrierInfo:
    kind: str  # "sync", "arrive", "red", "cluster_arrive", "cluster_wait"
    barrier_id: object  # getter or int
    count: object  # getter or None
    red_op: str | None = None  # popc / and / or
    red_src: object = None
    red_dst: int = -1
    red_dst_type: str = "u32"


@dataclass(frozen=True)
class VectorMember:
    """A scalar shared load (store) that ptxas would merge with its neighbours into one LDS.64/LDS.128
    (STS.64/STS.128).

    `leader` is the group's first access in program order; `size` the vector width in bytes;
    `delta` this load's offset within the vector (vector address = address - delta)."""

    leader: int
    size: int
    delta: int


@dataclass
class LinkedKernel:
    name: str
    instructions: list[Instruction]
    func_of_pc: list[str]
    kinds: np.ndarray  # int8 per pc
    execs: list  # closure per pc (ALU) or None
    guard_reg: np.ndarray  # int32 per pc, -1 = none
    guard_neg: np.ndarray  # bool per pc
    target: np.ndarray  # int64 per pc: branch target / callee entry
    rpc: np.ndarray  # int64 per pc: reconvergence pc of a conditional branch, -1 = exit
    call_sites: dict[int, CallSite | IndirectCallSite]
    barriers: dict[int, BarrierInfo]
    mem_class: list[str | None]  # "global_ld", "shared_st", ... per pc (for instruction counters)
    reg_names: list[str]
    reg_types: list[str]
    kernel_params: list[Variable]
    param_offsets: list[int]
    param_size: int
    shared_static: int
    shared_symbols: dict[str, int]
    local_size: int
    func_param_size: int
    const_symbols: dict[str, int]
    global_symbols: dict[str, int]
    registers_per_thread: int
    vector_groups: dict[int, VectorMember] = field(default_factory=dict)
    atom_as_red: set[int] = field(default_factory=set)  # atom whose result is unused: counted as red
    # global atomics on a warp-uniform address that ptxas has one lane do for the warp
    # (aggregates_in_one_lane): counted as one lane's access
    aggregated_atomics: set[int] = field(default_factory=set)
    # global loads whose cache operator changes what L1 does: pc -> "ld_bypass" | "ld_last_use"
    l1_policy: dict[int, str] = field(default_factory=dict)
    contracted: set[int] = field(default_factory=set)  # add/sub pcs executed as an fma with their mul
    # loads ptxas does not issue, executed as register copies (exec/ptxas_memory.py): pc -> the pc of
    # the load or store whose value they take (a hoisted load's: in its loop's preheader); stores it
    # drops, executed as nop
    reused_loads: dict[int, int] = field(default_factory=dict)
    dropped_stores: set[int] = field(default_factory=set)
    link: object = field(default=None, repr=False)  # the linker: register and symbol lookup (fast/decode.py)
    # the entry's launch bounds and cluster shape (frontend/ptx/ast.py Function), checked at launch
    max_ntid: tuple[int, ...] | None = None
    reqntid: tuple[int, ...] | None = None
    cluster_dims: tuple[int, ...] | None = None
    explicit_cluster: bool = False
    uses_malloc: bool = False  # calls device malloc / free (exec/device_malloc.py)
    recursive: bool = False  # some function it calls is on a cycle of the call graph
    # the unsimulated work a launch has already warned about (runtime/launch.py _warn_unsimulated)
    warned: set = field(default_factory=set, repr=False, compare=False)

    @property
    def num_regs(self) -> int:
        return len(self.reg_names)

    @cached_property
    def writes_memory(self) -> np.ndarray:
        """Per pc: the instruction may change memory or barrier state another warp polls (a store,
        an atomic, an async copy, an mbarrier operation, a barrier arrival); it wakes the warps the
        scheduler found spinning (core/engine.py)."""
        return np.array([(ins.opcode in _WRITE_OPCODES and not (ins.opcode == "mbarrier" and any(
                             m in ("test_wait", "try_wait", "pending_count") for m in ins.mods)))
                         or (ins.opcode == "wmma" and "store" in ins.mods)
                         or (ins.opcode in ("bar", "barrier") and "arrive" in ins.mods)
                         for ins in self.instructions] or [False], bool)

    @cached_property
    def quiet_exit(self) -> np.ndarray:
        """Per pc: a thread there only runs on to its exit -- straight-line code (unconditional
        branches followed) that writes no memory, waits at no barrier and calls nothing before an
        exit or the entry's ret. ptxas exits such lanes where they branch away (`@P0 EXIT` for NVRTC's
        `if (i >= n) return;`, whose PTX branches to a shared ret), so .sync ops do not wait for
        them (exec/ops.py)."""
        n = len(self.instructions)
        memo: dict[int, bool] = {}
        for start in range(n):
            path, seen, pc = [], set(), start
            while True:
                if pc in memo:
                    verdict = memo[pc]
                    break
                if not 0 <= pc < n or pc in seen:
                    verdict = False
                    break
                seen.add(pc)
                path.append(pc)
                kind = self.kinds[pc]
                if kind == EXIT and self.guard_reg[pc] < 0:
                    verdict = True
                    break
                if kind == BRA and self.guard_reg[pc] < 0:
                    pc = int(self.target[pc])
                    continue
                if kind != ALU or self.writes_memory[pc] or self.instructions[pc].opcode in _SYNC_OPCODES:
                    verdict = False
                    break
                pc += 1
            for q in path:
                memo[q] = verdict
        return np.array([memo[pc] for pc in range(n)], bool)

    @property
    def shared_dynamic_base(self) -> int:
        """Where extern __shared__ (dynamic) memory starts: after the static variables, aligned."""
        return _align(self.shared_static, DYNAMIC_SHARED_ALIGN)

    def where(self, pc: int) -> str:
        ins = self.instructions[pc]
        return f"kernel {self.name}, function {self.func_of_pc[pc]}, PTX line {ins.line}: {ins.text}"


DYNAMIC_SHARED_ALIGN = 16  # extern __shared__ starts at a 16-byte boundary


HOST_CALLS = ("vprintf", "__assertfail", "malloc", "free")


def _is_host_call(module: Module, name: str, callee: str) -> bool:
    """A call of CUDA's external `callee` (vprintf: device printf; __assertfail: a failed device
    assert; malloc / free: the device heap), declared but not defined in the PTX: simgpu runs it on
    the host (exec/printf.py, exec/device_malloc.py)."""
    fn = module.functions.get(name)
    return name == callee and (fn is None or fn.is_decl_only)


def _align(x: int, a: int) -> int:
    return -(-x // max(1, a)) * max(1, a)


class _Linker:
    def __init__(self, module: Module, kernel: str, global_addresses: dict[str, int], const_offsets: dict[str, int],
                 ptxas_memory: bool = True):
        if kernel not in module.functions or not module.functions[kernel].is_entry:
            raise KeyError(kernel)
        self.module = module
        self.ptxas_memory = ptxas_memory
        self.kernel = module.functions[kernel]
        self.global_addresses = global_addresses
        self.const_offsets = const_offsets
        self.func_addresses = function_addresses(module)
        self.recursive: set[str] = set()  # functions on a cycle of the call graph
        # per function: its (registers, local bytes, function-param bytes) ranges
        self.frame_ranges: dict[str, tuple[tuple[int, int], tuple[int, int], tuple[int, int]]] = {}
        self.reg_index: dict[tuple[str, str], int] = {}
        self.reg_names: list[str] = []
        self.reg_types: list[str] = []
        self.cur_func: str = kernel
        self.shared: dict[str, int] = {}
        self.local: dict[tuple[str, str], int] = {}
        self.fparams: dict[tuple[str, str], int] = {}
        self.kparams: dict[str, int] = {}
        self.entry_pc: dict[str, int] = {}

    def error(self, msg: str, ins: Instruction | None = None) -> UnsupportedInstructionError:
        where = f"kernel {self.kernel.name}"
        if self.cur_func != self.kernel.name:
            where += f", function {self.cur_func}"
        if ins is not None:
            where += f", PTX line {ins.line}: {ins.text}"
        return UnsupportedInstructionError(f"{msg} ({where})")

    # -- name resolution used by ops.build -------------------------------------------------
    def reg(self, name: str, ins: Instruction) -> int:
        key = (self.cur_func, name)
        if key not in self.reg_index:
            raise self.error(f"register {name} is not declared", ins)
        return self.reg_index[key]

    def symbol_address(self, name: str, ins: Instruction) -> tuple[int, str]:
        f = self.cur_func
        if name in self.shared:
            return self.shared[name], "shared"
        if (f, name) in self.local:
            return self.local[(f, name)], "local"
        if (f, name) in self.fparams:
            return FUNC_PARAM_BASE + self.fparams[(f, name)], "param"
        if f == self.kernel.name and name in self.kparams:
            return self.kparams[name], "param"
        if name in self.global_addresses:
            return self.global_addresses[name], "global"
        if name in self.const_offsets:
            return self.const_offsets[name], "const"
        if name in self.func_addresses:  # a function's address: a function pointer's value
            return self.func_addresses[name], "global"
        raise self.error(f"unknown symbol {name}", ins)

    def symbol_value(self, name: str, ins: Instruction) -> int:
        value, space = self.symbol_address(name, ins)
        return value

    # -- linking ---------------------------------------------------------------------------
    def reachable_functions(self) -> list[Function]:
        order = [self.kernel]
        seen = {self.kernel.name}
        stack = [(self.kernel, (self.kernel.name,))]
        while stack:
            fn, path = stack.pop()
            for ins in fn.body:
                if ins.opcode != "call":
                    continue
                callee = ins.operands[1].name
                if any(_is_host_call(self.module, callee, f) for f in HOST_CALLS):
                    continue  # device printf, assert, malloc and free: executed on the host
                # a call through a register may reach any function whose address the module takes
                callees = self.indirect_targets(ins) if callee.startswith("%") else [callee]
                for callee in callees:
                    if callee == self.kernel.name:
                        raise self.error(f"call of the kernel {callee} from device code", ins)
                    if callee in path:  # a cycle: each function on it keeps a stack of its activations
                        self.recursive.update(path[path.index(callee):])
                        continue
                    target = self.module.functions.get(callee)
                    if target is None or target.is_decl_only:
                        raise self.error(f"call of {callee}, which has no body in this module", ins)
                    if callee not in seen:
                        seen.add(callee)
                        order.append(target)
                    stack.append((target, path + (callee,)))
        return order

    def link(self) -> LinkedKernel:
        funcs = self.reachable_functions()
        # ptxas's view of the loads and stores (exec/ptxas_memory.py): hoisted loads add registers
        # and instructions, so every later step reads the rewritten functions
        rewrites: dict[str, MemoryRewrite] = {}
        for k, fn in enumerate(funcs):
            rewrites[fn.name] = (rewrite_memory_ops(fn, _defs_uses) if self.ptxas_memory
                                 else MemoryRewrite(fn, list(fn.body), {}, set()))
            funcs[k] = rewrites[fn.name].function
            if fn is self.kernel:
                self.kernel = funcs[k]
        # shared memory: module-scope first, then function bodies; extern (dynamic) after static
        offset = 0
        externs = []
        # module-scope shared variables count only for the kernels that use them
        referenced = {name for fn in funcs for ins in fn.body for op in ins.operands for name in _symbols(op)}
        shared_vars = [v for v in self.module.variables if v.space == "shared" and v.name in referenced]
        for fn in funcs:
            shared_vars += [v for v in fn.variables if v.space == "shared"]
        for v in shared_vars:
            if v.extern or v.size == 0:
                externs.append(v)
                continue
            offset = _align(offset, v.align)
            self.shared[v.name] = offset
            offset += v.size
        shared_static = offset
        dyn_base = _align(shared_static, DYNAMIC_SHARED_ALIGN)
        for v in externs:
            self.shared[v.name] = dyn_base
        # kernel params
        koff = 0
        param_offsets = []
        for p in self.kernel.params:
            koff = _align(koff, p.align)
            self.kparams[p.name] = koff
            param_offsets.append(koff)
            koff += p.size
        # per-thread local and function-param storage
        loff = 0
        foff = 0
        spans: dict[str, list[int]] = {}
        for fn in funcs:
            spans[fn.name] = [loff, foff]
            for v in fn.variables:
                if v.space == "local":
                    loff = _align(loff, v.align)
                    self.local[(fn.name, v.name)] = loff
                    loff += v.size
                elif v.space == "param":
                    foff = _align(foff, v.align)
                    self.fparams[(fn.name, v.name)] = foff
                    foff += v.size
            if not fn.is_entry:
                for v in fn.params + fn.returns:
                    foff = _align(foff, v.align)
                    self.fparams[(fn.name, v.name)] = foff
                    foff += v.size
            spans[fn.name] += [loff, foff]
        # registers
        for fn in funcs:
            r0 = len(self.reg_names)
            for name, t in fn.registers.items():
                self.reg_index[(fn.name, name)] = len(self.reg_names)
                self.reg_names.append(name if fn is self.kernel else f"{fn.name}:{name}")
                self.reg_types.append(t)
            l0, f0, l1, f1 = spans[fn.name]
            self.frame_ranges[fn.name] = ((r0, len(self.reg_names)), (l0, l1), (f0, f1))
        # flatten code
        instrs: list[Instruction] = []
        func_of_pc: list[str] = []
        ranges: dict[str, tuple[int, int]] = {}
        reused_loads: dict[int, int] = {}
        dropped_stores: set[int] = set()
        for fn in funcs:
            lo = len(instrs)
            self.entry_pc[fn.name] = lo
            rw = rewrites[fn.name]
            reused_loads.update({lo + i: lo + j for i, j in rw.reused.items()})
            dropped_stores.update(lo + i for i in rw.dropped)
            instrs.extend(rw.body)
            func_of_pc.extend([fn.name] * len(fn.body))
            ranges[fn.name] = (lo, len(instrs))
        n = len(instrs)
        kinds = np.zeros(n, np.int8)
        execs: list = [None] * n
        guard_reg = np.full(n, -1, np.int32)
        guard_neg = np.zeros(n, bool)
        target = np.full(n, -1, np.int64)
        rpc = np.full(n, -1, np.int64)
        mem_class: list[str | None] = [None] * n
        call_sites: dict[int, CallSite] = {}
        barriers: dict[int, BarrierInfo] = {}
        vector_groups: dict[int, VectorMember] = {}
        max_live = 0
        atom_as_red: set[int] = set()
        aggregated_atomics: set[int] = set()
        l1_policy: dict[int, str] = {}
        contracted: set[int] = set()
        uses_malloc = False  # the kernel calls device malloc or free (runtime/launch.py reserves the heap)
        for fn in funcs:
            self.cur_func = fn.name
            uniform_memo: dict[str, bool] = {}
            lo, hi = ranges[fn.name]
            targets: dict[int, int] = {}
            terms: set[int] = set()
            cond: set[int] = set()
            fused = find_contractions(fn, _defs_uses)  # mul + add -> FFMA / DFMA, as ptxas does (exec/contract.py)
            for i, ins in enumerate(instrs[lo:hi]):
                pc = lo + i
                if ins.guard is not None:
                    guard_reg[pc] = self.reg(ins.guard.name, ins)
                    guard_neg[pc] = ins.guard_negated
                op = ins.opcode
                if op in ("bra", "brx"):
                    if op == "brx":
                        raise self.error("indirect branches (brx.idx) are not supported", ins)
                    lab = ins.operands[0]
                    if not isinstance(lab, Sym) or lab.name not in fn.labels:
                        raise self.error(f"branch to unknown label {lab}", ins)
                    kinds[pc] = BRA
                    target[pc] = lo + fn.labels[lab.name]
                    targets[pc] = int(target[pc])
                    if ins.guard is not None:
                        cond.add(pc)
                elif op == "call" and _is_host_call(self.module, ins.operands[1].name, "vprintf"):
                    kinds[pc] = ALU
                    execs[pc] = self.vprintf(ins, fn)
                elif op == "call" and _is_host_call(self.module, ins.operands[1].name, "__assertfail"):
                    kinds[pc] = ALU
                    execs[pc] = build_assertfail(self.param_offsets(ins, fn, "__assertfail", 5))
                elif op == "call" and _is_host_call(self.module, ins.operands[1].name, "malloc"):
                    kinds[pc] = ALU
                    execs[pc] = build_malloc(self.param_offsets(ins, fn, "malloc", 1)[0], self.return_offset(ins, fn))
                    uses_malloc = True
                elif op == "call" and _is_host_call(self.module, ins.operands[1].name, "free"):
                    kinds[pc] = ALU
                    execs[pc] = build_free(self.param_offsets(ins, fn, "free", 1)[0])
                    uses_malloc = True
                elif op == "call":
                    kinds[pc] = CALL
                    indirect = ins.operands[1].name.startswith("%")
                    call_sites[pc] = self.indirect_call_site(ins, fn) if indirect else self.call_site(ins, fn)
                elif op == "ret":
                    kinds[pc] = EXIT if fn.is_entry else RET
                    if ins.guard is None:
                        terms.add(pc)
                elif op == "exit":
                    kinds[pc] = EXIT
                    if ins.guard is None:
                        terms.add(pc)
                elif op in ("trap", "brkpt"):
                    kinds[pc] = TRAP
                    if ins.guard is None:
                        terms.add(pc)
                elif op in ("bar", "barrier") and "warp" not in ins.mods:  # bar.warp.sync: a no-op (ops.build)
                    kinds[pc] = BAR
                    barriers[pc] = self.barrier(ins)
                elif i in fused:
                    kinds[pc] = ALU
                    j, pos = fused[i]
                    execs[pc] = ops.build_contracted(fn.body[j], ins, pos, self)
                    contracted.add(pc)
                else:
                    kinds[pc] = ALU
                    execs[pc] = ops.build(ins, self)
                    mem_class[pc] = _mem_class(ins, self)
                    if op == "atom" and (mem_class[pc] or "").startswith("global") \
                            and not _result_used(ins, fn) and not any(m in ("exch", "cas") for m in ins.mods):
                        # ptxas turns a global atomic whose old value nobody reads into a reduction
                        # (REDG); exch and cas have no RED form (ATOMG.E.EXCH / .CAS: sass_probes,
                        # atomics_more). A generic one stays an ATOM.E (the address may be shared:
                        # typical20 atomic_half2_bins, clusters cluster_hist SASS)
                        mem_class[pc] = mem_class[pc].replace("_atom", "_red") if mem_class[pc] else None
                        atom_as_red.add(pc)
                    if op in ("atom", "red") and (mem_class[pc] or "").startswith(("global", "generic")) \
                            and aggregates_in_one_lane(ins, fn, uniform_memo, op == "red" or pc in atom_as_red):
                        aggregated_atomics.add(pc)
                    policy = load_l1_policy(ins) if mem_class[pc] in ("global_ld", "generic_ld") else None
                    if policy:
                        l1_policy[pc] = policy
            # guarded ret/exit may fall through: keep them out of the terminator set (done above)
            cfg = build_cfg(lo, hi, targets, terms, cond)
            vector_groups.update(find_vector_groups(instrs, lo, cfg, mem_class))
            max_live = max(max_live, max_live_registers(fn, instrs, lo, cfg))
            for pc in cond:
                b = cfg.block_of[pc]
                ip = cfg.ipdom[b]
                rpc[pc] = cfg.starts[ip] if ip >= 0 else -1
        self.cur_func = self.kernel.name
        return LinkedKernel(
            name=self.kernel.name, instructions=instrs, func_of_pc=func_of_pc, kinds=kinds, execs=execs,
            guard_reg=guard_reg, guard_neg=guard_neg, target=target, rpc=rpc, call_sites=call_sites,
            barriers=barriers, mem_class=mem_class, reg_names=self.reg_names, reg_types=self.reg_types,
            kernel_params=self.kernel.params, param_offsets=param_offsets, param_size=koff,
            shared_static=shared_static, shared_symbols=dict(self.shared), local_size=_align(loff, 16),
            func_param_size=_align(foff, 16), const_symbols=dict(self.const_offsets),
            global_symbols=dict(self.global_addresses),
            registers_per_thread=estimate_registers(max_live),
            vector_groups=vector_groups, atom_as_red=atom_as_red, aggregated_atomics=aggregated_atomics,
            l1_policy=l1_policy, contracted=contracted, reused_loads=reused_loads,
            dropped_stores=dropped_stores, link=self,
            max_ntid=self.kernel.max_ntid, reqntid=self.kernel.reqntid,
            cluster_dims=self.kernel.cluster_dims, explicit_cluster=self.kernel.explicit_cluster,
            uses_malloc=uses_malloc, recursive=bool(self.recursive),
        )

    def param_offsets(self, ins: Instruction, caller: Function, what: str, n: int) -> list[int]:
        """The per-thread .param offsets of a call's n arguments (a library call run on the host)."""
        offsets = []
        for a in ins.operands[-1].elems:
            if not isinstance(a, Sym) or (caller.name, a.name) not in self.fparams:
                raise self.error(f"{what} argument {a} is not a .param variable", ins)
            offsets.append(self.fparams[(caller.name, a.name)])
        if len(offsets) != n:
            raise self.error(f"{what} takes {n} arguments; this call passes {len(offsets)}", ins)
        return offsets

    def return_offset(self, ins: Instruction, caller: Function) -> int | None:
        """The per-thread .param offset of a library call's result (None if the call drops it)."""
        rets = ins.operands[0]
        if not rets.elems:
            return None
        r = rets.elems[0]
        if not isinstance(r, Sym) or (caller.name, r.name) not in self.fparams:
            raise self.error(f"{ins.operands[1].name} result {r} is not a .param variable", ins)
        return self.fparams[(caller.name, r.name)]

    def vprintf(self, ins: Instruction, caller: Function):
        """`call (ret), vprintf, (fmt, args)`: device printf, formatted on the host (exec/printf.py)."""
        offsets = self.param_offsets(ins, caller, "vprintf (a format and an argument buffer)", 2)
        return build_vprintf(offsets[0], offsets[1], self.return_offset(ins, caller))

    @cached_property
    def address_taken(self) -> list[str]:
        """The module's address-taken functions (address_taken), found once per link."""
        return address_taken(self.module)

    def indirect_targets(self, ins: Instruction) -> list[str]:
        """The functions a call through a register may reach: those whose address the module takes
        and whose parameters and results match the call's in number."""
        rets, _, args = ins.operands
        names = [n for n in self.address_taken
                 if len(self.module.functions[n].params) == len(args.elems)
                 and len(self.module.functions[n].returns) == len(rets.elems)]
        if not names:
            raise self.error("indirect call, but the module takes the address of no function with this signature",
                             ins)
        return names

    def indirect_call_site(self, ins: Instruction, caller: Function) -> IndirectCallSite:
        names = self.indirect_targets(ins)
        sites = [self.call_site(ins, caller, name) for name in names]
        return IndirectCallSite(target_reg=self.reg(ins.operands[1].name, ins), sites=sites, names=names,
                                addresses=[self.func_addresses[n] for n in names])

    def call_site(self, ins: Instruction, caller: Function, callee_name: str | None = None) -> CallSite:
        rets, callee_sym, args = ins.operands
        callee = self.module.functions[callee_name or callee_sym.name]
        if len(args.elems) != len(callee.params):
            raise self.error(f"call of {callee.name} with {len(args.elems)} arguments; "
                             f"it takes {len(callee.params)}", ins)
        copy_in = []
        for a, p in zip(args.elems, callee.params):
            if not isinstance(a, Sym) or (caller.name, a.name) not in self.fparams:
                raise self.error(f"call argument {a} is not a .param variable", ins)
            copy_in.append((self.fparams[(caller.name, a.name)], self.fparams[(callee.name, p.name)], p.size))
        copy_out = []
        for r, p in zip(rets.elems, callee.returns):
            if not isinstance(r, Sym) or (caller.name, r.name) not in self.fparams:
                raise self.error(f"call return {r} is not a .param variable", ins)
            copy_out.append((self.fparams[(callee.name, p.name)], self.fparams[(caller.name, r.name)], p.size))
        # callee entry is filled in after flattening (entry_pc known then)
        save = self.frame_ranges[callee.name] if callee.name in self.recursive else None
        return CallSite(callee_entry=self.entry_pc[callee.name], copy_in=copy_in, copy_out=copy_out, save=save)

    def barrier(self, ins: Instruction) -> BarrierInfo:
        o = ops.Operands(ins, self)
        mods = ins.mods
        kind = "arrive" if "arrive" in mods else "red" if "red" in mods else "sync"
        if "cluster" in mods:  # barrier.cluster.arrive / .wait: every thread of the cluster (core/engine.py)
            if kind not in ("arrive",) and "wait" not in mods:
                raise self.error(ops.CLUSTER_UNSUPPORTED, ins)
            return BarrierInfo("cluster_" + ("arrive" if kind == "arrive" else "wait"), None, None)
        if not ins.operands:
            raise self.error("barrier without a barrier number", ins)
        bid = o.src(ins.operands[0], "u32")
        info = BarrierInfo(kind, bid, None)
        if kind == "red":
            # bar.red.popc.u32 d, a{, b}, {!}c ; bar.red.and.pred p, a{, b}, {!}c
            info.red_op = next(m for m in mods if m in ("popc", "and", "or"))
            info.red_dst_type = "u32" if info.red_op == "popc" else "pred"
            info.red_dst = self.reg(ins.operands[0].name, ins)
            info.barrier_id = o.src(ins.operands[1], "u32")
            info.red_src = o.src(ins.operands[-1], "pred")
            if len(ins.operands) == 4:
                info.count = o.src(ins.operands[2], "u32")
        elif len(ins.operands) > 1:
            info.count = o.src(ins.operands[1], "u32")
        return info


_CUTS_VECTOR_GROUPS = ("bar", "barrier", "call", "exit", "ret", "trap", "brkpt")
_CUTTING_CLASSES = ("shared_st", "shared_atom", "generic_st", "generic_atom", "ldgsts", "stsm")
# what cuts a group of shared stores: an access that may read or write their words in between
_CUTTING_STORE_GROUPS = ("shared_ld", "shared_atom", "generic_ld", "generic_st", "generic_atom", "ldgsts", "ldsm")


def is_async_copy(ins: Instruction) -> bool:
    """cp.async.{ca,cg}.shared.global: a copy (not commit_group / wait_group / wait_all)."""
    return ins.opcode == "cp" and ins.mods[:1] == ("async",) and len(ins.mods) > 1 \
        and ins.mods[1] not in ("commit_group", "wait_group", "wait_all", "bulk", "mbarrier")


def _written_regs(ins: Instruction) -> list[str]:
    """Registers named by an instruction's first operand when it writes it (not st / red)."""
    if ins.opcode in ("st", "red") or not ins.operands:
        return []
    op = ins.operands[0]
    if isinstance(op, Reg):
        return [op.name]
    if isinstance(op, Vec):
        return [e.name for e in op.elems if isinstance(e, Reg)]
    return []


_FLOAT_MODS = ("f32", "f16", "f16x2", "bf16", "bf16x2", "ftz", "f64")


def ieee_div_sqrt_rcp(ins: Instruction) -> bool:
    """An IEEE-rounded float div / sqrt / rcp (not .approx, not div.full)."""
    return (ins.opcode in ("div", "sqrt", "rcp") and any(m in _FLOAT_MODS for m in ins.mods)
            and "approx" not in ins.mods and "full" not in ins.mods)


def calls_slow_path(ins: Instruction) -> bool:
    """Whether ptxas compiles this PTX op to a fast path, a test and a branch around a call to a
    slow-path subroutine (`@!P0 BRA` around `CALL.REL.NOINC`): IEEE-rounded f32 / f64 div, sqrt and
    rcp and 64-bit integer div / rem (benchmarks/microbench/sass_ops' SASS: 32 CALL.REL for 32
    copies of each). The branch ends a SASS basic block there."""
    if ieee_div_sqrt_rcp(ins):
        return True
    return (ins.opcode in ("div", "rem") and not any(m in _FLOAT_MODS for m in ins.mods)
            and any(m in ("u64", "s64", "b64") for m in ins.mods))


def _cuts_vector_group(ins: Instruction, cls: str | None) -> bool:
    """Whether no shared load after `ins` fuses with one before it: a barrier, call or exit, a
    shared store or atomic, or an op ptxas branches around to a slow path (calls_slow_path:
    validation/typical23 pair_min_dist, whose `if (..) best = fminf(best, sqrtf(..))` after each
    float2 load kept every LDS.64 apart in the SASS, 2,097,152 shared loads on the GPU)."""
    return ins.opcode in _CUTS_VECTOR_GROUPS or cls in _CUTTING_CLASSES or calls_slow_path(ins)


def _equivalent_successor(cfg, preds: list[set[int]], b: int, instrs: list[Instruction],
                          mem_class: list[str | None]) -> tuple[int, set[str]] | None:
    """The block that runs exactly when block b runs, with the same lanes, and what lies between.

    That is b's immediate post-dominator ip, when [b, ip) is a forward single-entry region: every
    edge out of it goes forward to a block in (b, ip], only its own blocks lead into (b, ip], and
    nothing between (the blocks b+1 .. ip-1, an if-body the branch at b's end may skip) stores to
    shared memory, synchronises, calls or ends threads. Returns (ip, registers written between),
    or None (ptxas would not move a load across it)."""
    ip = cfg.ipdom[b]
    if ip <= b:
        return None
    for x in range(b, ip):
        if any(not b < t <= ip for t in cfg.succs[x]) or not cfg.succs[x]:
            return None
    for x in range(b + 1, ip + 1):
        if any(not b <= p < ip for p in preds[x]):
            return None
    written: set[str] = set()
    for pc in range(cfg.ends[b], cfg.starts[ip]):
        ins = instrs[pc]
        if _cuts_vector_group(ins, mem_class[pc]):
            return None
        written.update(_written_regs(ins))
    return ip, written


def find_vector_groups(instrs: list[Instruction], lo: int, cfg,
                       mem_class: list[str | None]) -> dict[int, VectorMember]:
    """Scalar 32-bit shared loads off one base register (or one __shared__ symbol) that together
    cover an aligned 16-byte window (3 of its 4 words are enough) or an aligned 8-byte one: ptxas
    emits them as one LDS.128 (LDS.64) when it can prove the alignment (exec/alignment.py: the
    base register must be a known multiple of the width; the engine also checks it at run time
    before counting them as one access). An `ld.shared.v2` of 32-bit words (NVVM's own fusion of
    two) takes part as two words.

    The loads may lie in one basic block or in a chain of control-equivalent blocks (each the
    post-dominator of the one before, with only skippable if-bodies between): ptxas hoists such
    loads to the first and fuses them (paged_decode's merge loop tests warp_l[w] > 0 for w = 0..3
    in turn: the H200 ran 320 shared-load instructions where the PTX has 416, and nvcc's SASS of it
    has one LDS.128 for the four). A group is cut by a redefinition of the base register, a shared
    store or atomic, a barrier, a call, a thread exit or an op with a slow-path call
    (calls_slow_path) in between. Only unguarded
    `ld.shared.{b32,u32,s32,f32}` take part.

    Stores fuse the same way into STS.64 / STS.128, within one basic block, when they write every
    word of the aligned window (validation/typical bitonic_sort_1024: s[2t] and s[2t + 1] written
    one after the other are one STS.64 on the H200, 40,960 fewer shared-store instructions); a
    shared load or atomic between them cuts the group."""
    out: dict[int, VectorMember] = {}
    preds: list[set[int]] = [set() for _ in cfg.starts]
    for x, ss in enumerate(cfg.succs):
        for t in ss:
            preds[t].add(x)
    chained: set[int] = set()  # blocks already scanned as the continuation of an earlier block
    hi = max(cfg.ends) if cfg.ends else lo
    align_bits = known_alignment(instrs, lo, hi)

    def base_bits(key: str) -> int:
        return SYMBOL_BITS if key.startswith("&") else align_bits.get(key, 0)

    def flush(open_loads: dict[str, list[tuple[int, int, int]]], reg: str, stores: bool = False) -> None:
        loads = open_loads.pop(reg, [])  # (pc, offset, words)
        by_off: dict[int, int] = {}  # word offset -> the first access that touches it
        span: dict[int, tuple[int, int]] = {}  # access -> its first and one-past-last byte offset
        for pc, off, words in loads:
            if any(off + 4 * i in by_off for i in range(words)):
                if stores:
                    return  # a word written twice: leave the stores as they are
                continue  # reads a word again: ptxas reuses the register, keep it simple
            for i in range(words):
                by_off[off + 4 * i] = pc
            span[pc] = (off, off + 4 * words)
        for window, size in ((16, 16), (8, 8)):
            if base_bits(reg) < size.bit_length() - 1:
                continue  # ptxas cannot prove the wide access aligned
            for w0 in sorted({o - o % window for o in by_off}):
                # an aligned quad of which 3 words are read is still one LDS.128 (ptxas reads the
                # fourth for nothing: benchmarks/microbench/sass_probes, ld_shared_unaligned); a
                # store must write all of them
                words = [w0 + 4 * i for i in range(size // 4) if w0 + 4 * i in by_off]
                pcs = sorted({by_off[o] for o in words})
                need = size // 4 if stores else (3 if size == 16 else 2)
                if len(words) < need or len(pcs) < 2 or any(p in out for p in pcs):
                    continue
                if any(span[p][0] < w0 or span[p][1] > w0 + size for p in pcs):
                    continue  # a v2 access across the window's edge
                for p in pcs:
                    out[p] = VectorMember(pcs[0], size, span[p][0] - w0)

    def candidate(ins: Instruction, cls: str | None, kind: str) -> tuple[str, int, int] | None:
        """(base key, offset, words) of an unguarded 32-bit shared load/store that may fuse."""
        if cls != kind or ins.opcode == "wmma" or ins.guard is not None \
                or any(m in ins.mods for m in ("v4", "volatile")) \
                or not any(m in ("b32", "u32", "s32", "f32") for m in ins.mods):
            return None
        addr = ins.operands[1] if kind == "shared_ld" else ins.operands[0]
        if not (isinstance(addr, Addr) and isinstance(addr.base, (Reg, Sym))):
            return None
        # a __shared__ symbol's address is a constant: never redefined
        key = addr.base.name if isinstance(addr.base, Reg) else "&" + addr.base.name
        return key, addr.offset, 2 if "v2" in ins.mods else 1  # ld.shared.v2.f32: two words, 8 bytes

    for first in range(len(cfg.starts)):
        if first in chained:
            continue
        open_loads: dict[str, list[tuple[int, int, int]]] = {}  # base -> [(pc, offset, words)]
        b: int | None = first
        while b is not None:
            open_stores: dict[str, list[tuple[int, int, int]]] = {}
            for pc in range(cfg.starts[b], cfg.ends[b]):
                ins = instrs[pc]
                cls = mem_class[pc]
                if _cuts_vector_group(ins, cls):
                    for reg in list(open_loads):
                        flush(open_loads, reg)
                if ins.opcode in _CUTS_VECTOR_GROUPS or cls in _CUTTING_STORE_GROUPS:
                    for reg in list(open_stores):
                        flush(open_stores, reg, stores=True)
                ld = candidate(ins, cls, "shared_ld")
                if ld is not None:
                    open_loads.setdefault(ld[0], []).append((pc, ld[1], ld[2]))
                st = candidate(ins, cls, "shared_st")
                if st is not None:
                    open_stores.setdefault(st[0], []).append((pc, st[1], st[2]))
                for n in _written_regs(ins):  # a write to a base register ends that base's group
                    if n in open_loads:
                        flush(open_loads, n)
                    if n in open_stores:
                        flush(open_stores, n, stores=True)
            for reg in list(open_stores):
                flush(open_stores, reg, stores=True)
            nxt = _equivalent_successor(cfg, preds, b, instrs, mem_class) if open_loads else None
            if nxt is None:
                break
            b, written = nxt
            chained.add(b)
            for reg in written & set(open_loads):
                flush(open_loads, reg)
        for reg in list(open_loads):
            flush(open_loads, reg)
    return out


def _mem_class(ins: Instruction, link: _Linker) -> str | None:
    op = ins.opcode
    if is_async_copy(ins):
        return "ldgsts"  # cp.async: one LDGSTS, global read and shared write (ncu counts it apart)
    if op in ("ld", "ldu", "st"):
        kind = "ld" if op in ("ld", "ldu") else "st"
    elif op == "ldmatrix":
        return "ldsm"  # LDSM, as wmma's shared loads of 16-bit multiplicands (exec/mma.py)
    elif op == "stmatrix":
        return "stsm"  # STSM: shared store wavefronts, but neither op_shared_st nor op_ldsm to ncu (exec/mma.py)
    elif op == "wmma" and ins.mods[:1] in (("load",), ("store",)):
        if wmma.memory_class(ins) == "ldsm":
            return "ldsm"  # LDSM (ldmatrix): shared wavefronts, but not a shared-load instruction to ncu
        kind = "ld" if ins.mods[0] == "load" else "st"  # LDG/LDS/STG/STS (exec/wmma.py memory_accesses)
    elif op in ("atom", "red"):
        kind = op
    else:
        return None
    space = next((m for m in ins.mods if m in ("global", "shared", "local", "param", "const")), None)
    if space is None:
        addr = next((x for x in ins.operands if isinstance(x, Addr)), None)
        if addr is not None and isinstance(addr.base, Sym):
            try:
                space = link.symbol_address(addr.base.name, ins)[1]
            except UnsupportedInstructionError:
                space = None
    if any(m.startswith("shared") for m in ins.mods):
        space = "shared"
    return f"{space or 'generic'}_{kind}"


_NO_DEST = {"st", "red", "bra", "brx", "call", "ret", "exit", "bar", "barrier", "membar", "fence", "prefetch",
            "prefetchu", "trap", "brkpt", "cp", "nanosleep", "pmevent", "griddepcontrol", "stmatrix"}


def _defs_uses(ins: Instruction) -> tuple[list[str], list[str]]:
    """Registers an instruction writes and reads (a guarded write also reads: it may keep the old value)."""
    ops = ins.operands
    n_dest = 0 if ins.opcode in _NO_DEST or (ins.opcode == "wmma" and ins.mods[:1] == ("store",)) \
        or (ops and isinstance(ops[0], Addr)) else 1  # an address first: written memory (mbarrier.init ...)
    if n_dest and len(ops) > 1 and ins.opcode in ("setp", "shfl", "match", "vote") and isinstance(ops[1], Reg) \
            and not ops[1].name.startswith("!") and ins.opcode != "vote" and (
                ins.opcode != "setp" or len(ops) >= 4) and (ins.opcode != "shfl" or len(ops) == 6):
        n_dest = 2
    if ins.opcode == "elect" and len(ops) == 3:  # elect.sync d|p, membermask
        n_dest = 2
    defs: list[str] = []
    for op in ops[:n_dest]:
        if isinstance(op, Reg):
            defs.append(op.name)
        elif isinstance(op, Vec):
            defs.extend(e.name for e in op.elems if isinstance(e, Reg))
    uses = [n for op in ops[n_dest:] for n in _walk_regs(op)]
    if ins.guard is not None:
        uses.append(ins.guard.name)
        uses.extend(defs)
    return defs, uses


def _symbols(op):
    if isinstance(op, Sym):
        yield op.name
    elif isinstance(op, Addr) and isinstance(op.base, Sym):
        yield op.base.name
    elif isinstance(op, Vec):
        for e in op.elems:
            yield from _symbols(e)


# instructions whose result is warp-uniform when their sources are (a short, safe list)
_UNIFORM_OPS = {"mov", "add", "sub", "mul", "mad", "shl", "shr", "and", "or", "xor", "not", "neg", "cvt",
                "cvta", "min", "max", "selp", "mul24", "mad24"}
_UNIFORM_SPECIALS = ("%ctaid", "%nctaid", "%ntid", "%nsmid", "%nwarpid", "%gridid", "%clusterid",
                     "%nclusterid", "%cluster_ctaid", "%cluster_nctaid", "%cluster_nctarank", "%cluster_ctarank",
                     "%envreg", "%dynamic_smem_size", "%total_smem_size")


def warp_uniform(op, fn: Function, memo: dict[str, bool]) -> bool:
    """Whether an operand has one value across a warp, as far as a static look at `fn` can prove:
    immediates, symbols, kernel parameters, %ctaid-like special registers, and registers with a
    single, unguarded definition from _UNIFORM_OPS of uniform sources. Conservative: a register
    written twice (a loop counter, two branches) or loaded from memory is taken as varying."""
    if isinstance(op, (Imm, Sym)):
        return True
    if isinstance(op, Special):
        return op.name.startswith(_UNIFORM_SPECIALS)
    if isinstance(op, Addr):
        return op.base is None or warp_uniform(op.base, fn, memo)
    if not isinstance(op, Reg):
        return False
    name = op.name.lstrip("!")
    if name in memo:
        return memo[name]
    memo[name] = False  # a cycle through this register: varying
    defs = [ins for ins in fn.body if name in _defs_uses(ins)[0]]
    ok = False
    if len(defs) == 1 and defs[0].guard is None:
        d = defs[0]
        if d.opcode == "ld" and "param" in d.mods:
            ok = True
        elif d.opcode in _UNIFORM_OPS:
            ok = all(warp_uniform(x, fn, memo) for x in d.operands[1:])
    memo[name] = ok
    return ok


def aggregates_in_one_lane(ins: Instruction, fn: Function, memo: dict[str, bool], is_red: bool) -> bool:
    """A global atomic on a warp-uniform address that ptxas turns into one lane's (measured on the
    H200, benchmarks/microbench/sass_probes: atomics_more, global_atomics_uniform, _more):

    * an integer add (32- or 64-bit, sub included) of a warp-uniform value, result used or not:
      VOTEU.ANY + POPC and one REDG / ATOMG of the count;
    * a 32-bit integer add of per-lane values whose result is used: a warp scan (SHFL.UP) and one
      ATOMG, each lane's old value handed out with SHFL;
    * a 32-bit integer add, min, max, and, or or xor whose result is unused: REDUX over the warp,
      then one REDG.

    Measured to stay one operation per lane: a 64-bit add of per-lane values, any float add, a max
    of a uniform value whose result is used."""
    mods = ins.mods
    int32 = any(m in ("u32", "s32", "b32") for m in mods)
    int64 = any(m in ("u64", "s64", "b64") for m in mods)
    if not (int32 or int64):
        return False
    addr = next((x for x in ins.operands if isinstance(x, Addr)), None)
    if addr is None or not warp_uniform(addr, fn, memo):
        return False
    if "add" in mods and warp_uniform(ins.operands[-1], fn, memo):
        return True
    if not int32:
        return False
    if "add" in mods and not is_red:
        return True
    return is_red and any(m in ("add", "min", "max", "and", "or", "xor") for m in mods)


def load_l1_policy(ins: Instruction) -> str | None:
    """What L1 does for a global load by its cache operator (memory/l1.py; measured: sass_probes'
    ld_cache_ops): None for a plain load (.ca, .cs, .nc, .lu's first touch aside)."""
    mods = ins.mods
    if any(m in ("cg", "cv", "volatile") or "no_allocate" in m for m in mods) or (
            any(m in ("relaxed", "acquire") for m in mods) and any(m in ("gpu", "sys") for m in mods)):
        return "ld_bypass"
    if "lu" in mods:
        return "ld_last_use"
    return None


def _result_used(ins: Instruction, fn: Function) -> bool:
    """Whether a register an instruction writes (or one element of a vector destination) is read
    anywhere in its function."""
    dest = ins.operands[0] if ins.operands else None
    if not isinstance(dest, (Reg, Vec)):
        return False
    names = set(_walk_regs(dest))
    return any(not names.isdisjoint(_defs_uses(other)[1]) for other in fn.body if other is not ins)


def _walk_regs(op):
    if isinstance(op, Reg):
        yield op.name.lstrip("!")
    elif isinstance(op, Addr) and isinstance(op.base, Reg):
        yield op.base.name
    elif isinstance(op, Vec):
        for e in op.elems:
            yield from _walk_regs(e)


def max_live_registers(fn: Function, instrs: list[Instruction], lo: int, cfg) -> int:
    """The most 32-bit register slots live at any point of `fn` (liveness by dataflow over its CFG;
    64-bit registers take two slots, predicates none: they live in their own register file)."""
    width = {name: (2 if type_bits(t) == 64 else 0 if t == "pred" else 1) for name, t in fn.registers.items()}
    nb = len(cfg.starts)
    du = [_defs_uses(instrs[pc]) for pc in range(lo, cfg.ends[-1])] if nb else []
    use_b: list[set[str]] = []
    def_b: list[set[str]] = []
    for s, e in zip(cfg.starts, cfg.ends):
        use, kill = set(), set()
        for pc in range(s, e):
            d, u = du[pc - lo]
            use.update(x for x in u if x not in kill)
            kill.update(d)
        use_b.append(use)
        def_b.append(kill)
    live_in: list[set[str]] = [set() for _ in range(nb)]
    changed = True
    while changed:
        changed = False
        for b in range(nb - 1, -1, -1):
            out = set().union(*(live_in[x] for x in cfg.succs[b])) if cfg.succs[b] else set()
            new = use_b[b] | (out - def_b[b])
            if new != live_in[b]:
                live_in[b] = new
                changed = True
    best = 0
    for b in range(nb):
        live = set().union(*(live_in[x] for x in cfg.succs[b])) if cfg.succs[b] else set()
        size = sum(width.get(x, 1) for x in live)
        best = max(best, size)
        for pc in range(cfg.ends[b] - 1, cfg.starts[b] - 1, -1):
            d, u = du[pc - lo]
            # the result and the operands are live together at the instruction itself
            best = max(best, size + sum(width.get(x, 1) for x in d if x not in live))
            live -= set(d)
            live |= set(u)
            size = sum(width.get(x, 1) for x in live)
            best = max(best, size)
    return best


def estimate_registers(max_live: int) -> int:
    """Registers per thread from the peak of live 32-bit values: ptxas needs them plus a few it
    always keeps (zero register aside, addresses of parameters and the stack), and allocates in
    pairs. PTX only has virtual registers, so this is an estimate; a launch can override it."""
    regs = max_live + 6
    return int(min(255, max(16, regs + regs % 2)))


def link_kernel(module: Module, kernel: str, global_addresses: dict[str, int] | None = None,
                const_offsets: dict[str, int] | None = None, ptxas_memory: bool = True) -> LinkedKernel:
    """Link `kernel` of `module` for execution; `ptxas_memory`: without the loads and stores ptxas
    does not issue (exec/ptxas_memory.py), else every one of the PTX's."""
    return _Linker(module, kernel, global_addresses or {}, const_offsets or {}, ptxas_memory).link()


__all__ = ["LinkedKernel", "link_kernel", "ALU", "BRA", "CALL", "RET", "EXIT", "BAR", "TRAP"]
