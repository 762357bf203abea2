"""Shared-memory bank model: wavefronts and bank conflicts of warp accesses, vectorised over warps.

Model (sm_70 .. sm_90; sources below):

* Shared memory has 32 banks of 4 bytes; byte address a is in word a // 4, bank (a // 4) % 32
  (CUDA C++ Programming Guide, "Shared Memory", cc 5.x and later, unchanged through cc 9.0).
* One wavefront moves at most one 4-byte word per bank (128 B). Lanes reading the *same* word
  share it (broadcast / multicast), so for 8-, 16- and 32-bit accesses a warp needs
  ``max over banks of the number of distinct words in that bank`` wavefronts.
* 64-bit and 128-bit accesses move 256 B / 512 B per warp, so they take at least 2 / 4
  wavefronts. The warp is processed in *phases* of 128 B: half-warps (lanes 0-15, 16-31) for 64-bit,
  quarter-warps (lanes 0-7, 8-15, 16-23, 24-31) for 128-bit, and bank conflicts only arise between
  lanes of the same phase. Sources: CUTLASS issue #328 (NVIDIA engineer, 2021: "8B per thread: each
  half-warp ..., 16B per thread: each quarter-warp ..."); maxas SGEMM notes (Scott Gray: "128 bit
  vector loads require at a minimum 2 transactions ... only need to be concerned about bank
  conflicts within the lower or upper 16 threads" on Maxwell); NVIDIA developer forum thread
  "Clarification: bank conflicts metric vs wavefronts for shared memory LDS.128" (sm_90 ncu data:
  LDS.128 with no conflicts = 4 wavefronts, and l1tex__data_bank_conflicts = wavefronts - 4).
  A phase's wavefronts = max over banks of distinct words in the phase (each lane contributes
  size/4 consecutive words); the instruction's wavefronts = sum over phases that have an active lane.
* Ideal wavefronts = number of phases with an active lane (1 for <= 32-bit accesses);
  bank conflicts = wavefronts - ideal (what ncu's l1tex__data_bank_conflicts_* count, up to the
  "few percent of other arbitration" that DESIGN.md mentions).
* Uniform-address packing (NVIDIA developer forum "Unexpected shared memory bank conflict", answer
  for cc 7.x: LDS.128 needs 4 requests, 2 when thread pairs Tn/Tn^1, or Tn/Tn^2, have the same
  addresses for all active threads, because the return path packs two registers): when that pair
  condition holds, a 128-bit access is processed in half-warp phases (2 wavefronts minimum) and a
  64-bit access in one full-warp phase (1 minimum; our extrapolation of the same rule). Confirmed on
  sm_90 by [CALIB] gemm_tiled: its 4 LDS.128 per tile read As[ty][k..k+3], two distinct 16-byte
  addresses per warp (lanes 0-15 / 16-31), and ncu shows 2 wavefronts each (786,432 wavefronts =
  32,768 warp-tiles x (16 LDS.32 + 4 LDS.128 x 2)) with 0 bank conflicts. A warp none of whose
  pairs has both lanes active does not pack (vacuously equal pairs): typical's bitonic_sort_1024
  stores its compare-exchange as one STS.64 under a data-dependent branch, and the H200's
  SASS-attributed store wavefronts (validation/shared_sass) are 646,071, 100 more than with such
  warps packed into one full-warp phase, as in typical8's run of it (81).
* Atomics on shared memory: ncu counts their wavefronts like loads' (distinct words per bank; lanes on
  the same word share one). Measured on the H200 for simgpu's `histogram` program (64 bins, skewed
  data, 2,048 warp-level ATOMS): ncu 3,783 wavefronts, this rule 3,783; serialising same-word lanes
  would give 33,538. MemorySystem therefore passes is_atom=False. The is_atom=True variant (every
  active lane-word is its own bank access) is kept as the model of the *time* same-word atomics take
  (the microbenchmarks measure 1.09 same-address vs 31.1 distinct shared atomics per cycle per SM).
"""

from __future__ import annotations

import numpy as np

NUM_BANKS = 32
BANK_BYTES = 4
_SENTINEL = np.iinfo(np.int64).max


def _phase_layout(size: int) -> tuple[int, int]:
    """(words per lane, lanes per phase) for an access of ``size`` bytes per lane."""
    if size not in (1, 2, 4, 8, 16):
        raise ValueError(f"shared access size must be 1, 2, 4, 8 or 16 bytes, got {size}")
    words = max(1, size // BANK_BYTES)
    return words, 32 // words


def _phases_wavefronts(words: np.ndarray, valid: np.ndarray, lanes_per_phase: int, atom: bool):
    """words/valid [k, 32, nwords]: per-warp (sum over phases of max-bank distinct words, active phases)."""
    k, _, nwords = words.shape
    nphases = 32 // lanes_per_phase
    rows = k * nphases
    per_row = lanes_per_phase * nwords
    w = np.where(valid, words, _SENTINEL).reshape(rows, per_row)
    if atom:
        count = w != _SENTINEL  # every active lane-word is its own bank access
        ws = w
    else:
        ws = np.sort(w, axis=1)
        count = np.empty(ws.shape, dtype=bool)
        count[:, 0] = True
        count[:, 1:] = ws[:, 1:] != ws[:, :-1]
        count &= ws != _SENTINEL
    bank = np.where(count, ws % NUM_BANKS, 0)
    row_idx = np.repeat(np.arange(rows, dtype=np.int64), per_row)
    per_bank = np.bincount(row_idx * NUM_BANKS + bank.ravel(), weights=count.ravel(),
                           minlength=rows * NUM_BANKS)
    phase_wf = per_bank.reshape(rows, NUM_BANKS).max(axis=1).astype(np.int64)  # 0 for an empty phase
    active = valid[:, :, 0].reshape(k, nphases, lanes_per_phase).any(axis=2)
    return phase_wf.reshape(k, nphases).sum(axis=1), active.sum(axis=1).astype(np.int64)


def spin_lanes(addr: np.ndarray, mask: np.ndarray, size: int) -> np.ndarray:
    """bool[k, 32]: the lanes an ATOMS.CAST.SPIN (the CAS of ptxas's shared atomic-add loop,
    frontend/ptx/cas_loops.py) attempts: in each phase of the access (`_phase_layout`: the whole
    warp for 4 bytes, each half-warp for 8), the first active lane of each bank. The others fail
    without trying and go round the loop again, so a pass needs no bank-conflict replay.
    benchmarks/microbench/shared_cas: 32 lanes on 1,024 random floats take 3.72 trips a warp atomic
    on the H200 (32 lanes in 32 banks, most in one bank: ~3.8), where failing only on a changed
    value would take 2.2; 64 random doubles 6.6 (half-warp phases: 6.8, whole warp 7.6)."""
    addr = np.asarray(addr, np.int64)
    mask = np.asarray(mask, dtype=bool)
    _, lanes_per_phase = _phase_layout(size)
    lane = np.arange(32)
    bank = (addr // max(size, BANK_BYTES)) % (NUM_BANKS * BANK_BYTES // max(size, BANK_BYTES))
    group = (lane // lanes_per_phase)[None, :] * NUM_BANKS + bank  # (phase, bank) of every lane
    group = np.where(mask, group, -1)
    # a lane is first in its group when no lower active lane shares the group
    earlier = (group[:, :, None] == group[:, None, :]) & (lane[None, :] < lane[:, None])[None, :, :]
    return mask & ~earlier.any(axis=2)


def spin_wavefronts(mask: np.ndarray, size: int) -> np.ndarray:
    """int64[k]: the wavefronts of a spinning CAS (ATOMS.CAST.SPIN) whose trying lanes are `mask`
    (spin_lanes: one a bank a phase): two for each phase with a lane, none of them a bank conflict.
    benchmarks/microbench/shared_cas results/ncu_sass.csv: ncu's SASS-attributed wavefronts are 2.000
    per float CAS in all ten float launches, whatever the contention, and 3.45 / 3.20 per double CAS
    (two half-warp phases, not always both with a lane)."""
    mask = np.asarray(mask, dtype=bool)
    _, lanes_per_phase = _phase_layout(size)
    phases = mask.reshape(mask.shape[0], 32 // lanes_per_phase, lanes_per_phase).any(axis=2)
    return 2 * phases.sum(axis=1).astype(np.int64)


def pair_packed(addr: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """bool[k]: lanes n and n^1 (or n and n^2) have equal addresses wherever both are active, and at
    least one such pair is active (a warp none of whose pairs has both lanes active does not pack:
    validation/shared_sass, typical's bitonic_sort_1024)."""
    lane = np.arange(32)
    out = np.zeros(addr.shape[0], dtype=bool)
    for d in (1, 2):
        other = lane ^ d
        both = mask & mask[:, other]
        out |= np.all(~both | (addr == addr[:, other]), axis=1) & both.any(axis=1)
    return out


def shared_wavefronts(addr: np.ndarray, mask: np.ndarray, size: int,
                      op: str = "ld") -> tuple[np.ndarray, np.ndarray]:
    """Wavefronts and ideal wavefronts per warp.

    addr: int/uint[k, 32] byte offsets in the shared window; mask: bool[k, 32]; size: bytes per lane.
    Returns (wavefronts int64[k], ideal int64[k]); a warp with no active lane gets (0, 0).
    """
    addr = np.asarray(addr)
    mask = np.asarray(mask, dtype=bool)
    if addr.ndim == 1:
        addr, mask = addr[None, :], mask[None, :]
    nwords, lanes_per_phase = _phase_layout(size)
    atom = op == "atom"
    a = addr.astype(np.int64)
    words = (a // BANK_BYTES)[:, :, None] + np.arange(nwords, dtype=np.int64)  # [k, 32, nwords]
    valid = np.broadcast_to(mask[:, :, None], words.shape)
    wf, ideal = _phases_wavefronts(words, valid, lanes_per_phase, atom)
    if nwords > 1 and not atom:
        packed = pair_packed(a, mask)
        if packed.any():
            wf2, ideal2 = _phases_wavefronts(words[packed], valid[packed], 2 * lanes_per_phase, atom)
            wf[packed], ideal[packed] = wf2, ideal2
    return wf, ideal


def shared_wavefronts_reference(addr, mask, size: int, op: str = "ld") -> tuple[list[int], list[int]]:
    """Per-lane brute-force reference of shared_wavefronts (slow; for tests)."""
    nwords, base_phase = _phase_layout(size)
    wfs, ideals = [], []
    for a_row, m_row in zip(np.asarray(addr).tolist(), np.asarray(mask).tolist(), strict=True):
        total, ideal = 0, 0
        lanes_per_phase = base_phase
        if nwords > 1 and op != "atom":
            for d in (1, 2):
                if all(not (m_row[n] and m_row[n ^ d]) or a_row[n] == a_row[n ^ d] for n in range(32)) \
                        and any(m_row[n] and m_row[n ^ d] for n in range(32)):
                    lanes_per_phase = 2 * base_phase
        for p0 in range(0, 32, lanes_per_phase):
            banks: dict[int, list[int]] = {}
            active = False
            for lane in range(p0, p0 + lanes_per_phase):
                if not m_row[lane]:
                    continue
                active = True
                for j in range(nwords):
                    word = int(a_row[lane]) // 4 + j
                    lst = banks.setdefault(word % 32, [])
                    if op == "atom" or word not in lst:
                        lst.append(word)
            if active:
                ideal += 1
                total += max(len(v) for v in banks.values())
        wfs.append(total)
        ideals.append(ideal)
    return wfs, ideals


# ---------------------------------------------------------------------------------------------
# numba fast path (same result as shared_wavefronts(); used by MemorySystem)

from numba import njit  # noqa: E402

_NO_WORD = np.int64(-(1 << 62))  # below any word index an address can give


@njit(cache=True)
def warp_wavefronts_nb(addr, mask, delta, size, is_atom, words, cnt):
    """(wavefronts, ideal wavefronts) of one warp's access: addr[32] minus delta (the fused LDS.64/128
    start, same dtype as addr), mask[32]; words (64) and cnt (NUM_BANKS) are scratch. One warp at a
    time, so the fast engine counts a warp straight from its address row."""
    nwords = size // 4 if size >= 4 else 1
    tot = 0
    idl = 0
    per_phase = 32 // nwords
    if nwords > 1 and not is_atom:
        for d in (1, 2):
            ok = True
            paired = False  # some pair has both lanes active (none: no packing)
            for lane in range(32):
                o = lane ^ d
                if mask[lane] and mask[o]:
                    if addr[lane] != addr[o]:
                        ok = False
                        break
                    paired = True
            if ok and paired:
                per_phase = 64 // nwords
                break
    for p0 in range(0, 32, per_phase):
        if not is_atom:
            # common case first: every bank sees at most one distinct word -> one wavefront
            # (cnt holds each bank's word, _NO_WORD for none; a second distinct word sends the
            # phase to the general count below)
            cnt[:] = _NO_WORD
            active = False
            clash = False
            for lane in range(p0, p0 + per_phase):
                if mask[lane] and not clash:
                    base = np.int64(addr[lane] - delta) // 4
                    active = True
                    for j in range(nwords):
                        x = base + j
                        bank = x % NUM_BANKS
                        if cnt[bank] == _NO_WORD:
                            cnt[bank] = x
                        elif cnt[bank] != x:
                            clash = True
            if not active:
                continue
            if not clash:
                idl += 1
                tot += 1
                continue
        n = 0
        last = np.int64(0)
        seen = False
        for lane in range(p0, p0 + per_phase):
            if mask[lane]:
                base = np.int64(addr[lane] - delta) // 4
                if seen and base == last and not is_atom:
                    continue  # the same words as the lane before (a broadcast): nothing new
                last = base
                seen = True
                for j in range(nwords):
                    x = base + j
                    if is_atom:
                        words[n] = x
                    else:  # insertion into sorted words[:n]
                        i = n
                        while i > 0 and words[i - 1] > x:
                            words[i] = words[i - 1]
                            i -= 1
                        words[i] = x
                    n += 1
        if n == 0:
            continue
        idl += 1
        cnt[:] = 0
        for i in range(n):
            if is_atom or i == 0 or words[i] != words[i - 1]:
                cnt[words[i] % NUM_BANKS] += 1
        tot += cnt.max()
    return tot, idl


@njit(cache=True)
def shared_wavefronts_nb(addr, mask, size, is_atom, wf, ideal):
    """Loop version of shared_wavefronts(): fills wf[k] and ideal[k]."""
    words = np.empty(64, dtype=np.int64)
    cnt = np.zeros(NUM_BANKS, dtype=np.int64)
    for w in range(addr.shape[0]):
        wf[w], ideal[w] = warp_wavefronts_nb(addr[w], mask[w], np.int64(0), size, is_atom, words, cnt)
