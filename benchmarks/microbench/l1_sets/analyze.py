"""Reads probe.cu's results (launches.txt, bits.bin) and, with --sim, replays each test through
simgpu's L1 policy under a set index, to compare line by line.

    python analyze.py results_h100 [--bits bits_strong.bin] [--sim] > table.txt

Per test: the hit share of each round (rows) or of X's second read (evict), the H100's and
simgpu's (its L1 alone, whole lines, a line's number in its allocation as the set index's input)."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from numba import njit

from simgpu.memory.config import MemoryConfig
from simgpu.memory.l1 import REREAD, _l1_alloc, _l1_find, l1_set_of

MAX_ACC = 8192
XBASE = (200 << 20) // 128


def load(folder: Path, bits: str = "bits.bin") -> list[dict]:
    raw = np.fromfile(folder / bits, dtype=np.uint32).reshape(-1, MAX_ACC // 32 + 64)
    tests = []
    for line, row in zip((folder / "launches.txt").read_text().splitlines(), raw):
        f = line.split()
        t = {f[i]: int(f[i + 1]) for i in range(2, len(f), 2)}
        t["index"] = int(f[1])
        t["hits"] = np.unpackbits(row[: MAX_ACC // 32].view(np.uint8), bitorder="little").astype(bool)
        t["hist"] = row[MAX_ACC // 32:]
        tests.append(t)
    return tests


def sequence(t: dict) -> np.ndarray:
    """The lines a test reads, in order."""
    r = np.arange(t["nr"], dtype=np.int64)[:, None] * t["R"] + np.arange(t["nj"], dtype=np.int64)[None, :]
    rows = np.tile((t["off"] + r).ravel(), t["rounds"])
    if t["kind"] == 1:
        x = XBASE + np.arange(t["xlines"], dtype=np.int64)
        return np.concatenate([x, rows, x])
    return rows


def round_length(t: dict) -> int:
    """Accesses in one round of a rows test, or in one read of X (evict)."""
    return t["xlines"] if t["kind"] == 1 else t["nr"] * t["nj"]


def last_round(t: dict, hits: np.ndarray) -> float:
    """Hit % of a rows test's last round, or of an evict test's second read of X."""
    n = len(sequence(t))
    return float(hits[n - round_length(t):n].mean() * 100)


def summary(t: dict, hits: np.ndarray) -> str:
    if t["kind"] == 1:
        return f"X kept {last_round(t, hits):6.2f}"
    per = round_length(t)
    return " ".join(f"{hits[q * per:(q + 1) * per].mean() * 100:6.2f}" for q in range(t["rounds"]))


@njit(cache=True)
def _replay(lines, nsets, ways, pool, second_chance):
    """simgpu's L1 (memory/l1.py: its set index and victim rule) on one SM, whole lines: hit per
    access."""
    tags = -np.ones((1, nsets, ways), np.int64)
    valid = np.zeros((1, nsets, ways), np.uint8)
    lru = np.zeros((1, nsets, ways), np.int64)
    wreq = np.zeros((1, nsets, ways), np.int64)
    stamp = np.zeros(1, np.int64)
    rule = -pool if second_chance else pool
    hits = np.zeros(len(lines), np.bool_)
    for k in range(len(lines)):
        s = l1_set_of(lines[k], nsets)
        w = _l1_find(tags, 0, s, lines[k], ways)
        if w >= 0:
            hits[k] = True
            valid[0, s, w] |= REREAD
        else:
            w = _l1_alloc(tags, valid, lru, wreq, stamp, 0, s, lines[k], lines[k], ways, rule)
        stamp[0] += 1
        lru[0, s, w] = stamp[0]
    return hits


PROBE_CARVEOUT = 64 * 1024  # what the probe got (ncu launch__shared_mem_config_size, README)


def simulate(t: dict, capacity_lines: int | None = None) -> np.ndarray:
    """The test's hit bits in simgpu's L1 (the default config's sets, pool and second chance; by
    default as large as simgpu makes it beside the probe's carveout: 1,480 lines)."""
    cfg = MemoryConfig()
    if capacity_lines is None:
        capacity_lines = cfg.l1_bytes(PROBE_CARVEOUT) // 128
    return _replay(sequence(t), cfg.l1_sets, capacity_lines // cfg.l1_sets, cfg.l1_victim_pool,
                   cfg.l1_second_chance)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folder", type=Path)
    ap.add_argument("--bits", default="bits.bin", help="bits.bin (plain loads) or bits_strong.bin")
    ap.add_argument("--sim", action="store_true", help="add simgpu's column")
    ap.add_argument("--capacity", type=int, help="L1 lines (default: simgpu's beside the 64 KB carveout)")
    a = ap.parse_args()
    for t in load(a.folder, a.bits):
        head = f"{t['index']:3d} {'rows ' if t['kind'] == 0 else 'evict'} R {t['R']:5d} nj {t['nj']:2d} " \
               f"nr {t['nr']:4d} off {t['off']:3d} x {t['xlines']:4d} |"
        cols = [summary(t, t["hits"])] + ([summary(t, simulate(t, a.capacity))] if a.sim else [])
        print(head, " | ".join(cols))


if __name__ == "__main__":
    main()
