"""What else passes the L1's shared-memory data pipe besides shared loads, stores and atomics.

ncu's ``l1tex__data_pipe_lsu_wavefronts_mem_shared.sum`` is not the sum of its ``_op_ld``,
``_op_st`` and ``_op_atom`` parts on the H200: kernels with no shared memory at all show thousands
of wavefronts. The recorded launches (validation/typical*, the calibration suite: 77 launches,
ncu 2026-11-29) fit, exactly for the 51 launches without shared memory, this sum:

* the shared ld / st / atom wavefronts;
* one per warp instruction of ``shfl.sync`` (warp shuffles go through the shared-memory crossbar:
  reduce_shfl_atomic 10,560 shuffles + 2,112 warps = 12,672; a double shuffles as two);
* one per warp for each component of ``%tid`` the kernel reads (ptxas reads each once, with
  ``S2R SR_TID.X`` / ``.Y`` / ``.Z``, which is answered over this pipe: a 1-D block gives one per
  warp, 16x16 blocks two; vector_add 131,072 warps -> 131,072, gemm_naive 2,048 -> 4,096);
* one per CTA when the kernel uses shared memory (transpose_padded 8,192 warps of 1,024 CTAs:
  65,536 + 16,384 + 1,024 = 82,944, ncu 82,936).

Not counted, since no rule was found: ``vote``, ``redux`` and ``match`` take none (warp_sum_redux,
exact without them); kernels with many ``bar.sync`` rounds on shared memory show more on the H200
(reduce_tree_atomic +335k, bitonic_sort_1024 +43k, scan_block +12k, gemm_tiled +7.6k, about one
per CTA and barrier in the gemm but not in the others), and cp.async (LDGSTS) writes its shared
destination over this pipe too (gemm_cp_async +247k).
"""

from __future__ import annotations

from simgpu.frontend.ptx.ast import Special

_TID = ("%tid.x", "%tid.y", "%tid.z")


def shared_pipe_extra_wavefronts(instructions, per_pc_warps, n_ctas: int, uses_shared: bool) -> int:
    """Wavefronts of the shared data pipe that are not shared loads, stores or atomics (module
    docstring): shuffles, %tid reads and one per CTA of a kernel with shared memory.
    instructions: the kernel's PTX instructions by pc; per_pc_warps: the warps that executed each."""
    shuffles = 0
    tid_warps = dict.fromkeys(_TID, 0)  # per component, the most warps that read it at one pc
    for ins, warps in zip(instructions, per_pc_warps):
        warps = int(warps)
        if not warps:
            continue
        if ins.opcode == "shfl":
            shuffles += warps
        for op in ins.operands:
            if isinstance(op, Special) and op.name in tid_warps and warps > tid_warps[op.name]:
                tid_warps[op.name] = warps
    return shuffles + sum(tid_warps.values()) + (n_ctas if uses_shared else 0)
