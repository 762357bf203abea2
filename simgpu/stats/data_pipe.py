"""What else passes the L1's shared-memory data pipe besides shared loads, stores and atomics.

ncu's ``l1tex__data_pipe_lsu_wavefronts_mem_shared.sum`` is not the sum of its ``_op_ld``,
``_op_st`` and ``_op_atom`` parts on the H200: kernels with no shared memory at all show thousands
of wavefronts, which ncu files under ``_op_misc``. Measured (benchmarks/microbench/data_pipe,
pipe.cu: one candidate per kernel, 264 CTAs; and the 77 recorded launches of validation/typical*
and the calibration suite, exact for the 51 without shared memory):

* one per warp instruction of ``shfl.sync`` (0, 1, 5, 16 shuffles a warp: 1, 2, 6, 17 a warp with
  the %tid read below; a double shuffles as two);
* one per warp for each component of ``%tid`` the kernel reads and for ``%laneid`` (ptxas reads each
  once with ``S2R``; ``%ctaid`` comes through ``S2UR`` and costs nothing: 1-, 2- and 3-D blocks give
  1, 2 and 3 a warp, a kernel that reads only %laneid 1, one that reads neither 0);
* one per warp instruction of ``cp.async``, ``cp.async.commit_group`` and ``cp.async.wait_group``
  (LDGSTS, LDGDEPBAR, DEPBAR) in ``_op_misc``: pipe.cu's kernels, one of each a round, show
  3.22-3.24 a round for 4-, 8- and 16-byte copies, barriers included; typical's gemm_cp_async (two
  copies a commit) fits one each within 2.4 %, three per copy 8.5 % over. The copy's shared write
  counts in the total as well, as many wavefronts as the memory system gives it (the banks, at
  least one per source line): 1 / 2 a copy for 4 / 8 bytes from one line (under an LDGSTS
  category), 2 for 4 bytes from two lines, 4 for 16 bytes (``.cg``: ncu files those under ``_op_ld``);
* one per CTA and barrier after which the CTA's warps access shared memory before the next
  barrier (pipe.cu smem_rounds: 0.96-0.98 per CTA and such barrier; transpose_padded, one barrier
  in 1,024 CTAs: 65,536 + 16,384 + 1,024 = 82,944, ncu 82,936; gemm_tiled, 32 of them: ~0.96).
  Which barriers those are is read from the control flow (a shared load, store, atomic, cp.async or
  generic access reachable without passing another barrier). pipe.cu smem_bars, whose stores come
  before its barriers and whose load after the last, shows half of that (132 for 264 CTAs).

Not counted, since no rule was found: ``vote``, ``redux`` and ``match`` take none; barriers without
shared memory add ~130-170 per launch; a shared reduction tree with idle warps (``if (t < k)``)
adds ~165 per CTA of 256 threads (pipe.cu smem_tree, validation/typical reduce_tree_atomic).
"""

from __future__ import annotations

from simgpu.frontend.ptx.ast import Special

# special registers read with S2R (one wavefront per warp each); %ctaid & co. are S2UR
_S2R = ("%tid.x", "%tid.y", "%tid.z", "%laneid")


def _shared_access_follows(instructions, mem_class, target) -> set[int]:
    """The barrier pcs from which a shared-memory access (or a generic one, which may be) can be
    reached without passing another barrier: a forward walk of the control flow (calls are stepped
    over; a conditional branch goes both ways)."""
    n = len(instructions)
    is_bar = [ins.opcode in ("bar", "barrier") and "warp" not in ins.mods for ins in instructions]
    shared = [c is not None and (c.startswith(("shared_", "generic_")) or c == "ldgsts") for c in mem_class]
    found = set()
    for b in (pc for pc in range(n) if is_bar[pc]):
        seen, todo = set(), [b + 1]
        while todo:
            pc = todo.pop()
            if pc >= n or pc in seen:
                continue
            seen.add(pc)
            if shared[pc]:
                found.add(b)
                break
            if is_bar[pc]:
                continue
            ins = instructions[pc]
            if ins.opcode in ("ret", "exit", "trap") and ins.guard is None:
                continue
            if ins.opcode == "bra":
                todo.append(int(target[pc]))
                if ins.guard is None:
                    continue
            todo.append(pc + 1)
    return found


def shared_pipe_extra_wavefronts(instructions, per_pc_warps, mem_class, target, warps_per_cta: int) -> int:
    """Wavefronts of the shared data pipe that are not shared loads, stores or atomics (module
    docstring): shuffles, S2R reads, cp.async instructions and one per CTA and barrier that is followed by
    shared accesses. instructions: the kernel's PTX instructions by pc; per_pc_warps: the warps that
    executed each; mem_class: each pc's instruction class ("ldgsts" for cp.async); target: each
    branch's target pc; warps_per_cta: the warps of one CTA."""
    total = 0
    for b in _shared_access_follows(instructions, mem_class, target):
        total += int(per_pc_warps[b]) // max(1, warps_per_cta)
    s2r_warps = dict.fromkeys(_S2R, 0)  # per register, the most warps that read it at one pc
    for ins, warps in zip(instructions, per_pc_warps):
        warps = int(warps)
        if not warps:
            continue
        if ins.opcode == "shfl":
            total += warps
        elif ins.opcode == "cp" and "async" in ins.mods:  # LDGSTS, LDGDEPBAR, DEPBAR
            total += warps
        for op in ins.operands:
            if isinstance(op, Special) and op.name in s2r_warps and warps > s2r_warps[op.name]:
                s2r_warps[op.name] = warps
    return total + sum(s2r_warps.values())
