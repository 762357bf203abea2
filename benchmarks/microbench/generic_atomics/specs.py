"""kernels.cu's atomics on generic and .global addresses, for what ptxas makes of them and what ncu
counts (validation/typical/run.sh runs this folder on a GPU host)."""

import numpy as np

N = 1 << 18  # threads: one atomic each
WORDS = 4096  # slot 2: random words of 16 KB, as typical20's atomic_half2_bins bins


def _idx():
    return np.random.default_rng(7).integers(0, WORDS, N).astype(np.int32)


def _words(slot: int) -> int:
    return N if slot == 0 else N // 32 if slot == 1 else WORDS


def _counts(slot: int, idx: np.ndarray) -> np.ndarray:
    pick = np.arange(N) if slot == 0 else np.arange(N) >> 5 if slot == 1 else idx
    return np.bincount(pick, minlength=_words(slot))


def specs():
    idx = _idx()
    out = []
    slots = {0: "own", 1: "one", 2: "rand"}
    for kernel, dtype in (("gen_u32", np.uint32), ("glob_u32", np.uint32), ("gen_f32", np.float32),
                          ("gen_u64", np.uint64), ("gen_f16x2", np.float16), ("glob_f16x2", np.float16)):
        for slot, sname in slots.items():
            for use in (0, 1):
                if use and slot != 2 and kernel not in ("gen_u32", "gen_f16x2"):
                    continue  # the used-result runs: all kernels on random words, two on the others
                halves = dtype == np.float16
                acc = np.zeros(_words(slot) * (2 if halves else 1), dtype)
                old = np.zeros(N * (2 if dtype == np.uint64 else 1), np.uint32)

                def ref(a, i, o, s, u, slot=slot, dtype=dtype, halves=halves):
                    c = _counts(slot, idx)
                    return [np.repeat(c, 2).astype(dtype) if halves else c.astype(dtype)]
                out.append(dict(name=f"{kernel}_{sname}{'_used' if use else ''}", kernel=kernel,
                                grid=(N // 256,), block=(256,),
                                args=[acc, idx, old, np.int32(slot), np.int32(use)], outputs=[0], reference=ref))
    for slot, sname in ((0, "own"), (2, "rand")):
        acc = np.zeros(_words(slot), np.uint32)
        ref = (lambda a, i, o, s, u: [np.arange(1, N + 1, dtype=np.uint32)]) if slot == 0 else None
        out.append(dict(name=f"gen_cas_{sname}", kernel="gen_cas", grid=(N // 256,), block=(256,),
                        args=[acc, idx, np.zeros(N, np.uint32), np.int32(slot), np.int32(0)],
                        outputs=[0] if slot == 0 else [], reference=ref))
    return out
