"""The state of the CTAs resident together (a wave), held in flat arrays.

Registers are a [warps, registers, 32] array of raw bits; shared memory is one byte array with a
slice per CTA; local and function-param memory are byte arrays with a slice per thread. The
instruction closures in `exec/ops.py` read and write this state through the few methods below,
which also route every memory access to the memory system's counters.
"""

from __future__ import annotations

import numpy as np

from simgpu.errors import KernelRuntimeError
from simgpu.exec.memory import (
    CLUSTER_RANK_SHIFT,
    CONST_WINDOW,
    FUNC_PARAM_BASE,
    LOCAL_WINDOW,
    SHARED_WINDOW,
    UINT_OF_SIZE,
    WINDOW_SIZE,
    GlobalHeap,
    gather,
    scatter,
)
from simgpu.exec.ops import atomic_apply
from simgpu.exec.program import LinkedKernel
from simgpu.exec.values import from_raw, to_raw
from simgpu.frontend.ptx.cas_loops import spinning_cas
from simgpu.memory.banks import spin_wavefronts

LANES = np.arange(32, dtype=np.uint32)


class WaveContext:
    """Registers, special registers and memory of the warps of a set of resident CTAs."""

    def __init__(self, lk: LinkedKernel, heap: GlobalHeap, const_buf: np.ndarray, kparams: np.ndarray,
                 cta_ids: np.ndarray, grid: tuple[int, int, int], block: tuple[int, int, int],
                 shared_bytes: int, dynamic_shared: int, sm_of_cta: np.ndarray, warp_uid_base: int,
                 memsys=None, num_sms: int = 132) -> None:
        self.lk = lk
        self.heap = heap
        self.const_buf = const_buf
        self.kparams = kparams
        self.memsys = memsys
        self.grid, self.block = grid, block
        self.num_sms = num_sms
        threads = block[0] * block[1] * block[2]
        self.warps_per_cta = -(-threads // 32)
        n_cta = len(cta_ids)
        self.n_cta = n_cta
        W = n_cta * self.warps_per_cta
        self.W = W
        self.failed_polls: np.ndarray | None = None  # warps an mbarrier wait found waiting (core/engine)
        # Stored register-major (one register of every warp side by side): a step reads a register
        # across all its warps, so that read is one contiguous stream rather than a gather strided
        # by a warp's whole file (registers x 256 B). `regs` is the (warp, register, lane) view the
        # engine indexes.
        self.regs_by_reg = np.zeros((max(1, lk.num_regs), W, 32), dtype=np.uint64)
        self.regs = self.regs_by_reg.transpose(1, 0, 2)
        self.cta_of_warp = np.repeat(np.arange(n_cta), self.warps_per_cta)
        self.warp_in_cta = np.tile(np.arange(self.warps_per_cta), n_cta)
        self.warp_uid = warp_uid_base + np.arange(W, dtype=np.int64)
        linear = self.warp_in_cta[:, None] * 32 + LANES[None, :].astype(np.int64)
        self.thread_valid = linear < threads
        self.tid_x = (linear % block[0]).astype(np.uint32)
        self.tid_y = ((linear // block[0]) % block[1]).astype(np.uint32)
        self.tid_z = (linear // (block[0] * block[1])).astype(np.uint32)
        cid = cta_ids.astype(np.int64)
        self.ctaid_x = (cid % grid[0]).astype(np.uint32)
        self.ctaid_y = ((cid // grid[0]) % grid[1]).astype(np.uint32)
        self.ctaid_z = (cid // (grid[0] * grid[1])).astype(np.uint32)
        self.cta_ids = cid
        # clusters (the parser gives __cluster_dims__ as 3 numbers): each CTA's cluster, numbered within
        # the wave, its rank in it (x fastest), and the wave's CTA of each (cluster, rank), -1 when
        # not in this wave (cluster barriers: core/engine.py; distributed shared memory: _resolve)
        self.cluster_dims = dx, dy, dz = lk.cluster_dims or (1, 1, 1)
        key = ((self.ctaid_x // dx).astype(np.int64) + (1 << 20) * (self.ctaid_y // dy).astype(np.int64)
               + (1 << 40) * (self.ctaid_z // dz).astype(np.int64))
        _, self.cluster_of_cta = np.unique(key, return_inverse=True)
        self.cluster_rank_of_cta = ((self.ctaid_x % dx) + dx * ((self.ctaid_y % dy) + dy * (self.ctaid_z % dz))
                                    ).astype(np.int64)
        self.cta_of_cluster_rank = np.full((int(self.cluster_of_cta.max()) + 1, dx * dy * dz), -1, np.int64)
        self.cta_of_cluster_rank[self.cluster_of_cta, self.cluster_rank_of_cta] = np.arange(n_cta)
        self.sm_of_cta = sm_of_cta.astype(np.int64)
        self.sm_of_warp = self.sm_of_cta[self.cta_of_warp]
        self.shared_bytes = shared_bytes
        self.dynamic_shared = dynamic_shared
        self.smem_stride = max(16, -(-shared_bytes // 16) * 16)
        self.smem = np.zeros(n_cta * self.smem_stride, dtype=np.uint8)
        self.local_stride = lk.local_size
        self.local = np.zeros(W * 32 * max(self.local_stride, 0), dtype=np.uint8)
        self.fparam_stride = lk.func_param_size
        self.fparam = np.zeros(W * 32 * max(self.fparam_stride, 0), dtype=np.uint8)
        self.carry = np.zeros((W, 32), dtype=bool)
        self.issued = np.zeros(W, dtype=np.int64)  # per-warp clock (engine clock_step per issue), read by %clock
        self.pc = None  # set by the engine (for error messages)
        self.trace = None  # an ExecutionTrace, when the launch records one
        self.class_counts: dict[str, int] = {}  # memory instructions by class (global_ld, ...)
        self.fuse_vectors = True  # count ptxas-style LDS.64/128 groups as one access
        self.local_in_registers = False  # ptxas kept the local arrays in registers: count no local access

    # -- registers ---------------------------------------------------------------------------
    def write_reg(self, ws, r: int, m: np.ndarray, raw) -> None:
        raw = np.asarray(raw, dtype=np.uint64)
        if m.all():
            self.regs[ws, r] = raw
        else:
            self.regs[ws, r] = np.where(m, raw, self.regs[ws, r])

    def set_carry(self, ws, m, carry) -> None:
        self.carry[ws] = np.where(m, carry, self.carry[ws])

    def get_carry(self, ws) -> np.ndarray:
        return self.carry[ws]

    def special(self, name: str, ws) -> np.ndarray:
        """Raw bits of a special register for warps ws ([k,32] or broadcastable)."""
        base, _, comp = name.partition(".")
        if base == "%tid":
            return {"x": self.tid_x, "y": self.tid_y, "z": self.tid_z}[comp][ws].astype(np.uint64)
        if base == "%ntid":
            return np.uint64(self.block["xyz".index(comp)])
        if base == "%ctaid":
            arr = {"x": self.ctaid_x, "y": self.ctaid_y, "z": self.ctaid_z}[comp]
            return arr[self.cta_of_warp[ws]].astype(np.uint64)[:, None]
        if base == "%nctaid":
            return np.uint64(self.grid["xyz".index(comp)])
        if base == "%laneid":
            return LANES.astype(np.uint64)[None, :]
        if base == "%warpid":
            return self.warp_in_cta[ws].astype(np.uint64)[:, None]
        if base == "%nwarpid":
            return np.uint64(64)
        if base == "%smid":
            return self.sm_of_warp[ws].astype(np.uint64)[:, None]
        if base == "%nsmid":
            return np.uint64(self.num_sms)
        if base in ("%clock", "%clock64", "%clock_hi"):
            v = self.issued[ws].astype(np.uint64)[:, None]
            if base == "%clock_hi":
                return v >> np.uint64(32)
            return v & np.uint64(0xFFFFFFFF) if base == "%clock" else v
        if base.startswith("%globaltimer"):
            v = self.issued[ws].astype(np.uint64)[:, None] * np.uint64(1)  # ns-like, monotonic
            if base == "%globaltimer_lo":
                return v & np.uint64(0xFFFFFFFF)
            if base == "%globaltimer_hi":
                return v >> np.uint64(32)
            return v
        if base.startswith("%lanemask_"):
            kind = base[len("%lanemask_"):]
            lane = LANES.astype(np.uint64)
            one = np.uint64(1)
            v = {"eq": one << lane, "lt": (one << lane) - one, "le": (one << (lane + one)) - one,
                 "gt": ~((one << (lane + one)) - one) & np.uint64(0xFFFFFFFF),
                 "ge": ~((one << lane) - one) & np.uint64(0xFFFFFFFF)}[kind]
            return v[None, :]
        if base == "%dynamic_smem_size":
            return np.uint64(self.dynamic_shared)
        if base == "%total_smem_size":
            return np.uint64(self.shared_bytes)
        if base == "%gridid":
            return np.uint64(1)
        if base.startswith("%envreg"):
            # cooperative groups' grid.sync() finds its workspace at %envreg1 (high word) : %envreg2
            # (low word); 0 outside a cooperative launch, where the kernel traps (as on a GPU)
            ws_addr = int(getattr(self, "grid_workspace", 0))
            return np.uint64({1: ws_addr >> 32, 2: ws_addr & 0xFFFFFFFF}.get(int(base[len("%envreg"):]), 0))
        if "cluster" in base:
            return self._cluster_special(base, comp, ws)
        raise KernelRuntimeError(f"special register {name} is not supported ({self.where()})")

    def _cluster_special(self, base: str, comp: str, ws) -> np.ndarray:
        """The thread-block cluster registers: the grid is tiled by clusters of the kernel's
        __cluster_dims__ shape (.reqnctapercluster), or of one CTA when it declares none."""
        dims = self.cluster_dims
        if base == "%is_explicit_cluster":
            return np.uint64(1 if self.lk.explicit_cluster else 0)
        if base == "%cluster_nctarank":
            return np.uint64(dims[0] * dims[1] * dims[2])
        if base in ("%cluster_nctaid", "%nclusterid"):
            i = "xyz".index(comp)
            return np.uint64(dims[i] if base == "%cluster_nctaid" else self.grid[i] // dims[i])
        if base == "%cluster_ctarank":  # the CTA's rank in its cluster, x fastest
            return self.cluster_rank_of_cta[self.cta_of_warp[ws]].astype(np.uint64)[:, None]
        i = "xyz".index(comp)
        c = (self.ctaid_x, self.ctaid_y, self.ctaid_z)[i][self.cta_of_warp[ws]].astype(np.uint64)[:, None]
        d = np.uint64(dims[i])
        if base == "%cluster_ctaid":
            return c % d
        if base == "%clusterid":
            return c // d
        raise KernelRuntimeError(f"special register {base}.{comp} is not supported ({self.where()})")

    # -- memory --------------------------------------------------------------------------------
    def where(self, ws=None, lane_mask: np.ndarray | None = None) -> str:
        s = self.lk.where(self.pc) if self.pc is not None else f"kernel {self.lk.name}"
        if ws is not None and lane_mask is not None and lane_mask.any():
            wi, li = np.argwhere(lane_mask)[0]
            w = np.arange(self.W)[ws][wi]
            c = self.cta_of_warp[w]
            s += (f"; block ({self.ctaid_x[c]}, {self.ctaid_y[c]}, {self.ctaid_z[c]}), thread "
                  f"({self.tid_x[w, li]}, {self.tid_y[w, li]}, {self.tid_z[w, li]})")
        return s

    def _fault(self, what: str, ws, bad: np.ndarray, addr: np.ndarray) -> None:
        wi, li = np.argwhere(bad)[0]
        a = int(addr[wi, li])
        detail = what.format(addr=a)
        if "global" in what:
            detail += f" ({self.heap.describe(a)})"
        raise KernelRuntimeError(f"{detail} in {self.where(ws, bad)}")

    def _split_generic(self, addr: np.ndarray, m: np.ndarray):
        sh = (addr >= np.uint64(SHARED_WINDOW)) & (addr < np.uint64(SHARED_WINDOW + WINDOW_SIZE))
        lo = (addr >= np.uint64(LOCAL_WINDOW)) & (addr < np.uint64(LOCAL_WINDOW + WINDOW_SIZE))
        co = (addr >= np.uint64(CONST_WINDOW)) & (addr < np.uint64(CONST_WINDOW + WINDOW_SIZE))
        gl = ~(sh | lo | co)
        return [("global", m & gl, addr), ("shared", m & sh, addr - np.uint64(SHARED_WINDOW)),
                ("local", m & lo, addr - np.uint64(LOCAL_WINDOW)), ("const", m & co, addr - np.uint64(CONST_WINDOW))]

    def _check_aligned(self, space: str, ws, m: np.ndarray, addr: np.ndarray, size: int) -> None:
        """Fault if an active lane's address is not a multiple of the access size."""
        if (addr & np.uint64(size - 1)).any() and ((addr & np.uint64(size - 1)) != 0)[m].any():
            self._fault(f"misaligned {space} address 0x{{addr:x}} for a {size}-byte access", ws,
                        m & ((addr & np.uint64(size - 1)) != 0), addr)

    def _resolve(self, space: str, ws, m: np.ndarray, addr: np.ndarray, size: int):
        """(buffer, flat byte offsets of the active lanes) for one concrete space, after checks."""
        self._check_aligned(space, ws, m, addr, size)
        if space == "global":
            a = addr[m]
            idx, ok = self.heap.locate(a, size)
            if not ok.all():
                bad = m.copy()
                bad[m] = ~ok
                self._fault("out-of-bounds global address 0x{addr:x}", ws, bad, addr)
            return idx, a
        if space == "shared":
            off = addr[m]
            cta = np.broadcast_to(self.cta_of_warp[ws][:, None], m.shape)[m]
            rank1 = off >> np.uint64(CLUSTER_RANK_SHIFT)
            if rank1.any():  # another CTA's shared memory (mapa): distributed shared memory
                cta = self._cluster_peer(cta, rank1.astype(np.int64) - 1, ws, m, addr)
                off = off & np.uint64((1 << CLUSTER_RANK_SHIFT) - 1)
            if (off + np.uint64(size) > np.uint64(self.shared_bytes)).any():
                bad = m.copy()
                bad[m] = off + np.uint64(size) > np.uint64(self.shared_bytes)
                self._fault(f"out-of-bounds shared address 0x{{addr:x}} (the block has {self.shared_bytes} "
                            "bytes of shared memory)", ws, bad, addr)
            return self.smem, cta.astype(np.uint64) * np.uint64(self.smem_stride) + off
        if space == "local":
            off = addr[m]
            if (off + np.uint64(size) > np.uint64(self.local_stride)).any():
                bad = m.copy()
                bad[m] = off + np.uint64(size) > np.uint64(self.local_stride)
                self._fault(f"out-of-bounds local address 0x{{addr:x}} ({self.local_stride} bytes per thread)",
                            ws, bad, addr)
            w = np.broadcast_to(np.arange(self.W)[ws][:, None], m.shape)[m]
            lane = np.broadcast_to(LANES[None, :], m.shape)[m]
            thread = w.astype(np.uint64) * np.uint64(32) + lane.astype(np.uint64)
            return self.local, thread * np.uint64(self.local_stride) + off
        if space == "const":
            off = addr[m]
            if (off + np.uint64(size) > np.uint64(len(self.const_buf))).any():
                bad = m.copy()
                bad[m] = off + np.uint64(size) > np.uint64(len(self.const_buf))
                self._fault("out-of-bounds const address 0x{addr:x}", ws, bad, addr)
            return self.const_buf, off
        if space == "param":
            off = addr[m]
            fp = off >= np.uint64(FUNC_PARAM_BASE)
            if fp.any():
                if not fp.all():
                    raise KernelRuntimeError(f"param access mixes kernel and function parameters ({self.where()})")
                o = off - np.uint64(FUNC_PARAM_BASE)
                w = np.broadcast_to(np.arange(self.W)[ws][:, None], m.shape)[m]
                lane = np.broadcast_to(LANES[None, :], m.shape)[m]
                thread = w.astype(np.uint64) * np.uint64(32) + lane.astype(np.uint64)
                return self.fparam, thread * np.uint64(self.fparam_stride) + o
            if (off + np.uint64(size) > np.uint64(len(self.kparams))).any():
                self._fault("out-of-bounds kernel parameter offset 0x{addr:x}", ws, m, addr)
            return self.kparams, off
        raise KernelRuntimeError(f"unknown state space {space} ({self.where()})")

    def _account(self, space: str, op: str, ws, m: np.ndarray, addr: np.ndarray, nbytes: int,
                 min_wavefronts: np.ndarray | None = None, spin: bool = False) -> None:
        ms = self.memsys
        if ms is None or not m.any():
            return
        rows = m.any(axis=1)
        if space == "global":
            sms = self.sm_of_warp[ws]
            walk_op = self.lk.l1_policy.get(self.pc, op) if op == "ld" else op  # ld_bypass / ld_last_use
            ms.global_access(walk_op, self.pc, sms[rows], addr[rows], m[rows], nbytes, self.warp_uid[ws][rows])
        elif space == "shared":
            # lanes in another CTA's shared memory (distributed shared memory) are not LSU shared
            # accesses of this SM: the H200 counted neither their instructions nor their wavefronts
            # (validation/clusters)
            own = self._own_cta(ws, addr)
            if self.trace is not None and (m & ~own).any():
                self.trace.dsmem_pcs.add(self.pc)
            m = m & own
            rows = m.any(axis=1)
            if not rows.any():
                return
            ms.shared_access(op, self.pc, addr[rows], m[rows], nbytes,
                             None if min_wavefronts is None else min_wavefronts[rows],
                             spin_wavefronts(m[rows], nbytes) if spin else None)
        elif space == "local":
            if self.local_in_registers:
                return
            ms.local_access(op, self.pc, self.sm_of_warp[ws][rows], self.warp_uid[ws][rows], addr[rows], m[rows],
                            nbytes)
        else:
            return
        if self.trace is not None:
            self.trace.add_memory(space, op, self.warp_uid[ws][rows], ms.last_warp_summary())

    def invalidate_l1(self, ws, m: np.ndarray) -> None:
        """The L1s of the SMs of the warps with an active lane drop their lines (exec/ops.py's
        acquire and fence instructions)."""
        if self.memsys is not None and m.any():
            self.memsys.l1.invalidate(np.unique(self.sm_of_warp[ws][m.any(axis=1)]))

    def _own_cta(self, ws, shared_offsets: np.ndarray) -> np.ndarray:
        """Which shared offsets of warps ws name their own CTA's shared memory: no cluster rank above
        the offset (exec/memory.CLUSTER_RANK_SHIFT), or the CTA's own rank (mapa to itself)."""
        bits = np.asarray(shared_offsets, np.uint64) >> np.uint64(CLUSTER_RANK_SHIFT)
        own = self.cluster_rank_of_cta[self.cta_of_warp[ws]].astype(np.uint64)[:, None] + np.uint64(1)
        return (bits == 0) | (bits == own)

    def _cluster_peer(self, cta: np.ndarray, rank: np.ndarray, ws, m: np.ndarray, addr: np.ndarray) -> np.ndarray:
        """The wave's index of the CTA of rank `rank` (-1: the CTA itself) in each source CTA's cluster."""
        size = self.cta_of_cluster_rank.shape[1]
        if (rank >= size).any():
            bad = m.copy()
            bad[m] = rank >= size
            self._fault(f"shared::cluster address 0x{{addr:x}} names a CTA rank past the cluster's {size}", ws, bad,
                        addr)
        peer = np.where(rank < 0, cta, self.cta_of_cluster_rank[self.cluster_of_cta[cta], np.maximum(rank, 0)])
        if (peer < 0).any():
            raise KernelRuntimeError(f"distributed shared memory: a cluster's CTAs are not all resident together "
                                     f"({self.where()})")
        return peer

    def _spaces(self, space: str, m: np.ndarray, addr: np.ndarray):
        if space == "generic":
            return [(s, mm, a) for s, mm, a in self._split_generic(addr, m) if mm.any()]
        return [(space, m, addr)]

    def _count(self, m: np.ndarray, ws=None, space: str = "", addr: np.ndarray | None = None) -> None:
        """One memory instruction per warp with an active lane, by its static class. A generic one
        whose lanes all reach global memory counts as global, as ncu counts LD.E / ATOM.E there
        (validation/typical8's grid_sync_normalize: its generic atom.release.gpu in op_global_atom),
        one with lanes in its CTA's own shared memory as shared; a shared one only with lanes in its
        own CTA's (the H200 counted none for warps whose lanes all went to other CTAs of the cluster:
        validation/clusters)."""
        cls = self.lk.mem_class[self.pc]
        rows = m.any(axis=1)
        dynamic = addr is not None and ws is not None
        if cls is not None and cls.startswith("generic_") and space == "generic" and dynamic:
            parts = self._split_generic(np.broadcast_to(addr, m.shape), m)
            to_global = rows & ~(m & ~parts[0][1]).any(axis=1)
            to_shared = ~to_global & (parts[1][1] & self._own_cta(ws, parts[1][2])).any(axis=1)
            for sp, sel in (("global", to_global), ("shared", to_shared)):
                key = sp + "_" + cls[len("generic_"):]
                self.class_counts[key] = self.class_counts.get(key, 0) + int(sel.sum())
            rows = rows & ~to_global & ~to_shared
        elif cls is not None and cls.startswith("shared_") and dynamic:
            rows = (m & self._own_cta(ws, np.broadcast_to(addr, m.shape))).any(axis=1)
        if cls is not None and not (self.local_in_registers and cls.startswith("local")):
            self.class_counts[cls] = self.class_counts.get(cls, 0) + int(rows.sum())

    def _vector_group(self, space: str, m: np.ndarray, addr: np.ndarray):
        """(vector address, size, is_leader) when this access is part of an aligned LDS/STS.64/128 group."""
        if not self.fuse_vectors or space != "shared":
            return None
        vm = self.lk.vector_groups.get(self.pc)
        if vm is None:
            return None
        base = addr - np.uint64(vm.delta)
        if ((base & np.uint64(vm.size - 1)) != 0)[m].any():
            return None
        return base, vm.size, vm.leader == self.pc

    def account_read(self, space: str, ws, m: np.ndarray, addr: np.ndarray, size: int, count: int) -> None:
        """Count a load of `count` `size`-byte elements per lane: instruction class, memory system, trace
        (a member of an LDS.64/128 group counts only once, at its leader, as one wide access)."""
        group = self._vector_group(space, m, addr)
        if group is None or group[2]:
            self._count(m, ws, space, addr)
        for sp, mm, a in self._spaces(space, m, addr):
            if group is None:
                self._account(sp, "ld", ws, mm, a, size * count)
            elif group[2]:
                self._account(sp, "ld", ws, mm, group[0], group[1])

    def account_write(self, space: str, ws, m: np.ndarray, addr: np.ndarray, size: int, count: int,
                      op: str = "st", parts: list | None = None, min_wavefronts: np.ndarray | None = None) -> None:
        """Count a store to global or shared memory (the fast engine moves the data itself); a member
        of an STS.64/128 group counts only once, at its leader, as one wide access. op "ldgsts": the
        shared write of a cp.async, whose instruction its global read counted. parts: the access
        split by space (_spaces), if the caller has it already; min_wavefronts: per warp row, the
        least wavefronts (a cp.async's source lines, memory/system.shared_access)."""
        group = self._vector_group(space, m, addr) if op == "st" else None
        if op == "st" and (group is None or group[2]):
            self._count(m, ws, space, addr)
        for sp, mm, a in parts if parts is not None else self._spaces(space, m, addr):
            if group is None:
                self._account(sp, op, ws, mm, a, size * count, min_wavefronts)
            elif group[2]:
                self._account(sp, op, ws, mm, group[0], group[1])

    def _check_vector(self, parts: list, ws, nbytes: int) -> None:
        """A PTX vector access (ld/st .v2/.v4/.v8) is one access of its whole size: aligned to it (an
        8-byte ld.global.v2.f32 at a 4-byte boundary faults on the GPU as a misaligned address).
        parts: the access split by space (_spaces); each element's bounds are checked as it moves."""
        if nbytes & (nbytes - 1) == 0:
            for sp, mm, a in parts:
                self._check_aligned(sp, ws, mm, a, nbytes)

    def mem_read(self, space: str, ins, ws, m: np.ndarray, addr: np.ndarray, size: int, count: int,
                 valid_bytes: np.ndarray | None = None, vector: bool = False) -> list[np.ndarray]:
        """Load `count` consecutive `size`-byte elements per lane; returns raw uint64 arrays (vector:
        a PTX vector load, aligned to size * count)."""
        out = [np.zeros(m.shape, np.uint64) for _ in range(count)]
        parts = self._spaces(space, m, addr)
        if vector and count > 1:
            self._check_vector(parts, ws, size * count)
        self.account_read(space, ws, m, addr, size, count)
        for sp, mm, a in parts:
            for e in range(count):
                ae = a + np.uint64(e * size)
                if sp == "global":
                    idx, flat = self._resolve(sp, ws, mm, ae, size)
                    vals = np.zeros(len(flat), np.uint64)
                    for alloc in np.unique(idx):
                        sel = idx == alloc
                        off = flat[sel] - np.uint64(self.heap.bases[alloc])
                        vals[sel] = gather(self.heap.buffers[alloc], off, size)
                else:
                    buf, off = self._resolve(sp, ws, mm, ae, size)
                    vals = gather(buf, off, size)
                if valid_bytes is not None:
                    vb = valid_bytes[mm]
                    vals = np.where(np.uint64(e * size) < vb.astype(np.uint64), vals, np.uint64(0))
                out[e][mm] = vals
        return out

    def mem_write(self, space: str, ins, ws, m: np.ndarray, addr: np.ndarray, size: int,
                  values: list[np.ndarray], op: str = "st", min_wavefronts: np.ndarray | None = None,
                  vector: bool = False) -> None:
        parts = self._spaces(space, m, addr)
        for sp, mm, _ in parts:
            if sp == "const":
                raise KernelRuntimeError(f"store to read-only {sp} space ({self.where(ws, mm)})")
        if vector and len(values) > 1:
            self._check_vector(parts, ws, size * len(values))
        self.account_write(space, ws, m, addr, size, len(values), op, parts, min_wavefronts)
        for sp, mm, a in parts:
            for e, v in enumerate(values):
                ae = a + np.uint64(e * size)
                vals = np.broadcast_to(v, mm.shape)[mm]
                if sp == "global":
                    idx, flat = self._resolve(sp, ws, mm, ae, size)
                    for alloc in np.unique(idx):
                        sel = idx == alloc
                        off = flat[sel] - np.uint64(self.heap.bases[alloc])
                        scatter(self.heap.buffers[alloc], off, size, vals[sel])
                else:
                    buf, off = self._resolve(sp, ws, mm, ae, size)
                    if sp == "param" and buf is self.kparams:
                        raise KernelRuntimeError(f"store to a kernel parameter ({self.where(ws, mm)})")
                    scatter(buf, off, size, vals)

    def mem_atomic(self, space: str, ins, ws, m: np.ndarray, addr: np.ndarray, size: int, t: str, op: str,
                   b: np.ndarray, c: np.ndarray | None, is_red: bool, vec: int = 1) -> np.ndarray:
        """Atomics in a deterministic order: warps in issue order, lanes in lane order. A vector
        atomic (sm_90 `atom.global.add.v2.f32`, vec > 1: b is [vec, k, 32], so is the result) is one
        memory request of vec * size bytes per lane, performed element by element (PTX: atomic
        per element, not as a whole)."""
        old_all = np.zeros((vec,) + m.shape if vec > 1 else m.shape, np.uint64)
        self._count(m, ws, space, addr)
        for sp, mm, a in self._spaces(space, m, addr):
            as_red = (is_red or self.pc in self.lk.atom_as_red) and sp == "global"
            counted = mm
            if sp == "global" and self.pc in self.lk.aggregated_atomics:  # one lane does the warp's
                counted = mm & (np.cumsum(mm, axis=1) == 1)
            # the CAS of a shared atomic-add loop (frontend/ptx/cas_loops.py marks it "spin")
            spin = sp == "shared" and spinning_cas(ins)
            self._account(sp, "red" if as_red else "atom", ws, counted, a, size * vec, spin=spin)
            if space == "generic" and sp == "global" and not as_red and self.memsys is not None:
                self.memsys.generic_atomic_wavefronts(int(counted.any(axis=1).sum()),
                                                      2 if size * vec >= 8 or op == "cas" else 1)
            if vec == 1:
                old_all[mm] = self._atomic_rmw(sp, ws, mm, a, size, t, op, b[mm],
                                               c[mm] if c is not None else None)
                continue
            self._resolve(sp, ws, mm, a, size * vec)  # the whole vector: aligned and in bounds
            for k in range(vec):
                old_all[k][mm] = self._atomic_rmw(sp, ws, mm, a + np.uint64(k * size), size, t, op, b[k][mm], None)
        return old_all

    def _atomic_rmw(self, sp: str, ws, mm: np.ndarray, a: np.ndarray, size: int, t: str, op: str,
                    bv: np.ndarray, cv: np.ndarray | None) -> np.ndarray:
        """The read-modify-write of one atomic's active lanes mm (values bv, cv per active lane, in
        lane order) in space sp; returns their old raw values."""
        if sp == "global":
            idx, flat = self._resolve(sp, ws, mm, a, size)
            keys = flat
            bufs = [(alloc, idx == alloc) for alloc in np.unique(idx)]
        else:
            buf, flat = self._resolve(sp, ws, mm, a, size)
            keys = flat
            bufs = [(None, np.ones(len(flat), bool))]
        olds = np.zeros(len(keys), np.uint64)
        raw_t = "b32" if t in ("f16x2", "bf16x2") else t  # a packed pair is one 32-bit word
        for alloc, sel in bufs:
            if alloc is None:
                target = buf
                offs = flat[sel]
            else:
                target = self.heap.buffers[alloc]
                offs = flat[sel] - np.uint64(self.heap.bases[alloc])
            view = target.view(UINT_OF_SIZE[size])
            elem = (offs // np.uint64(size)).astype(np.int64)
            sel_idx = np.flatnonzero(sel)
            # rank of each lane among earlier lanes with the same address: lanes of one rank touch
            # distinct words, so each round is one vectorised read-modify-write
            order = np.argsort(elem, kind="stable")
            sorted_e = elem[order]
            starts = np.r_[0, np.flatnonzero(np.diff(sorted_e)) + 1]
            group_start = np.repeat(starts, np.diff(np.r_[starts, len(sorted_e)]))
            rank = np.empty(len(elem), np.int64)
            rank[order] = np.arange(len(elem)) - group_start
            for r in range(int(rank.max()) + 1 if len(rank) else 0):
                pick = rank == r
                e = elem[pick]
                old_raw = view[e].astype(np.uint64)
                old_t = from_raw(old_raw, raw_t)
                new_t = atomic_apply(op, t, old_t, bv[sel_idx[pick]], cv[sel_idx[pick]] if cv is not None else None)
                view[e] = to_raw(new_t, raw_t).astype(view.dtype)
                olds[sel_idx[pick]] = old_raw
        return olds
