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

* one per warp and shared load or store that ptxas predicated off: a guarded forward branch over
  a short straight-line shadow (``if (t < k) s[t] += s[t + k];``) becomes predicated instructions
  (if-conversion, the timing model's if_convert_max_instructions), and a warp none of whose lanes
  take the shadow still issues its LDS / STS with the predicate false, and each takes a wavefront.
  The recorded launches fit it exactly where the shadow holds only shared and arithmetic
  instructions: reduce_tree_atomic's tree (52 idle warp-levels x 3 = 156 a CTA; ncu 155.9 over
  2,048 CTAs), reduce6's two tree steps (4 x 3 + 6 x 3 = 30; ncu 29.97 over 256), radix_digit_count's
  ``if (t < 16) c[t] = 0`` (7; ncu 6.8 over 1,024). A shadow that also holds a global store or
  atomic (``if (t == 0) out[b] = s[0]``) adds nothing: ptxas keeps the branch there.

Not counted, since no rule was found: ``vote``, ``redux`` and ``match`` take none; barriers without
shared memory add ~130-170 per launch.
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


def _predicated_shared_shadows(instructions, mem_class, target, converted) -> dict[int, int]:
    """Of the branches ptxas if-converts (`converted`, timing.isa.if_convertible_branches), those whose
    shadow holds shared loads or stores and no other memory access, and no label another branch
    jumps to (so the warps at the next pc are the ones that did not skip it): branch pc -> those
    loads and stores (module docstring)."""
    n = len(instructions)
    targets = {int(target[pc]) for pc in range(n) if instructions[pc].opcode == "bra"}
    out = {}
    for pc in converted:
        shadow = range(pc + 1, int(target[pc]))
        if any(q in targets for q in shadow):
            continue
        classes = [mem_class[q] for q in shadow if mem_class[q] is not None]
        if classes and all(c in ("shared_ld", "shared_st") for c in classes):
            out[pc] = len(classes)
    return out


def shared_pipe_extra_wavefronts(instructions, per_pc_warps, mem_class, target, warps_per_cta: int,
                                 converted=frozenset()) -> int:
    """Wavefronts of the shared data pipe that are not shared loads, stores or atomics (module
    docstring): shuffles, S2R reads, cp.async instructions, one per CTA and barrier that is followed by
    shared accesses, and shared loads and stores ptxas predicated off. instructions: the kernel's PTX
    instructions by pc; per_pc_warps: the warps that executed each; mem_class: each pc's instruction
    class ("ldgsts" for cp.async); target: each branch's target pc; warps_per_cta: the warps of one
    CTA; converted: the branch pcs ptxas if-converts (timing.isa.if_convertible_branches)."""
    total = 0
    for b, accesses in _predicated_shared_shadows(instructions, mem_class, target, converted).items():
        skipped = int(per_pc_warps[b]) - int(per_pc_warps[b + 1])  # warps none of whose lanes ran it
        total += max(0, skipped) * accesses
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
