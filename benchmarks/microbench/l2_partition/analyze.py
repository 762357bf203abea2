#!/usr/bin/env python3
"""The numbers of README.md from results/first_touch.bin.gz (first_touch.cu on the H200).

    python benchmarks/microbench/l2_partition/analyze.py [results/first_touch.bin.gz]

Prints the first-touch latency clusters, which SMs see the far kind (the other side of SM 124's
partition), and the GF(2) fit of a line's home partition to its address bits, per 2 MB page.
"""

from __future__ import annotations

import gzip
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[2]))
FAR = 380  # cycles: between the two clusters (296 and 474 median)


def load(path: str | Path = HERE / "results" / "first_touch.bin.gz"):
    """(buffer address, lines, [(smid per block, latency per line, block per line)] per round)."""
    raw = gzip.open(path, "rb").read()
    nl, nsm, rounds = (int(x) for x in np.frombuffer(raw[:12], np.int32))
    base = int(np.frombuffer(raw[12:20], np.uint64)[0])
    o, out = 20, []
    for _ in range(rounds):
        smid = np.frombuffer(raw[o:o + 4 * nsm], np.int32).astype(np.int64)
        o += 4 * nsm
        lat = np.frombuffer(raw[o:o + 4 * nl], np.int32).astype(np.int64)
        o += 4 * nl
        blk = np.frombuffer(raw[o:o + 4 * nl], np.int32).astype(np.int64)
        o += 4 * nl
        out.append((smid, lat, blk))
    return base, nl, out


def sides_and_homes(rounds, nl: int, num_sms: int = 132):
    """Per SM its side (1: saw far loads), per line its home (1: on SM 124's side; -1: unknown)."""
    far = np.zeros(num_sms)
    n = np.zeros(num_sms)
    for smid, lat, blk in rounds:
        sm = smid[blk]
        np.add.at(far, sm, lat > FAR)
        np.add.at(n, sm, 1)
    side = (far / np.maximum(n, 1) > 0.25).astype(np.int64)
    home = np.full(nl, -1, np.int64)
    for smid, lat, blk in rounds:
        other = side[smid[blk]] == 1
        home[other] = lat[other] > FAR
    return side, home


def sm_near_latency(rounds, num_sms: int = 132) -> list[int]:
    """Per SM, the median latency of its near first-touch loads (cycles): the SM's own distance to
    the L2 (simgpu.memory.topology.H200_SM_L2_LATENCY)."""
    near: list[list[np.ndarray]] = [[] for _ in range(num_sms)]
    for smid, lat, blk in rounds:
        sm = smid[blk]
        for s in range(num_sms):
            x = lat[sm == s]
            near[s].append(x[x < FAR])
    return [int(np.median(np.concatenate(x))) for x in near]


def gf2_fit(bits: np.ndarray, y: np.ndarray):
    """Solve bits @ x = y over GF(2) (last column of bits: a constant); (x, consistent)."""
    a = np.concatenate([bits, y[:, None]], axis=1).astype(np.uint8)
    n = bits.shape[1]
    r, piv = 0, []
    for c in range(n):
        p = np.flatnonzero(a[r:, c])
        if not len(p):
            continue
        p = p[0] + r
        a[[r, p]] = a[[p, r]]
        m = a[:, c].astype(bool)
        m[r] = False
        a[m] ^= a[r]
        piv.append(c)
        r += 1
        if r == len(a):
            break
    consistent = not np.any((a[r:, :n].sum(1) == 0) & (a[r:, n] == 1))
    x = np.zeros(n, np.uint8)
    for i, c in enumerate(piv):
        x[c] = a[i, n]
    return x, consistent


def gpc_line_latency(rounds, per_sm: np.ndarray) -> None:
    """How much of a line's near latency (each SM's own distance taken out) belongs to the (GPC, line)
    pair: the correlation of two timings of one line by SMs of one GPC and of different GPCs, and the
    32 quantiles of the per-(GPC, line) mean (simgpu.memory.topology.H200_GPC_LINE_LATENCY)."""
    from simgpu.memory.topology import H200_DISPATCH_UNITS

    gpc = np.zeros(132, np.int64)
    for g, sms in enumerate(H200_DISPATCH_UNITS):
        gpc[list(sms)] = g
    lat = np.array([r[1] for r in rounds], float)
    sm = np.array([r[0][r[2]] for r in rounds])
    res = np.where(lat <= FAR, lat - per_sm[sm], np.nan)
    same, other = [], []
    for i in range(len(rounds)):
        for j in range(i + 1, len(rounds)):
            m = ~np.isnan(res[i]) & ~np.isnan(res[j])
            a, b = res[i][m] - np.nanmean(res[i]), res[j][m] - np.nanmean(res[j])
            g = gpc[sm[i]][m] == gpc[sm[j]][m]
            same.append(np.corrcoef(a[g], b[g])[0, 1])
            other.append(np.corrcoef(a[~g], b[~g])[0, 1])
    means = []
    for g in range(len(H200_DISPATCH_UNITS)):
        on = (gpc[sm] == g) & ~np.isnan(res)
        cnt = on.sum(0)
        means.append(np.where(on, res, 0).sum(0)[cnt >= 2] / cnt[cnt >= 2])
    v = np.concatenate(means)
    v -= v.mean()
    q = np.percentile(v, (np.arange(32) + 0.5) / 32 * 100)
    print(f"one line timed by two SMs: residuals correlate {np.mean(same):.2f} within a GPC, "
          f"{np.mean(other):.2f} across GPCs; per-(GPC, line) offset over {len(v)} pairs: SD {v.std():.1f} "
          f"cycles, 32 quantiles {np.rint(q).astype(int).tolist()}")


def main() -> None:
    base, nl, rounds = load(sys.argv[1] if len(sys.argv) > 1 else HERE / "results" / "first_touch.bin.gz")
    lat = np.concatenate([r[1] for r in rounds])
    side, home = sides_and_homes(rounds, nl)
    print(f"buffer 0x{base:x}, {nl} lines, {len(rounds)} rounds")
    print(f"first-touch latency: near median {np.median(lat[lat <= FAR]):.0f} (p5-p95 "
          f"{np.percentile(lat[lat <= FAR], 5):.0f}-{np.percentile(lat[lat <= FAR], 95):.0f}), far median "
          f"{np.median(lat[lat > FAR]):.0f} ({np.percentile(lat[lat > FAR], 5):.0f}-"
          f"{np.percentile(lat[lat > FAR], 95):.0f}) cycles")
    print(f"SMs on the far side of SM 124's partition ({side.sum()}): {np.flatnonzero(side).tolist()}")
    per_sm = np.array(sm_near_latency(rounds))
    print(f"per-SM median near latency: {per_sm.min()}-{per_sm.max()} cycles (mean {per_sm.mean():.1f}; "
          f"both SMs of a TPC within {np.abs(per_sm[0::2] - per_sm[1::2]).max()}): {per_sm.tolist()}")
    gpc_line_latency(rounds, per_sm)
    addr = base + np.arange(nl, dtype=np.int64) * 128
    for page in np.unique(addr >> 21):
        sel = np.flatnonzero((home >= 0) & ((addr >> 21) == page))
        bits = ((addr[sel, None] >> np.arange(7, 21)) & 1).astype(np.uint8)
        bits = np.concatenate([bits, np.ones((len(sel), 1), np.uint8)], axis=1)
        x, ok = gf2_fit(bits, home[sel].astype(np.uint8))
        acc = float(((bits @ x) % 2 == home[sel]).mean())
        print(f"page 0x{int(page) << 21:x}: {len(sel)} lines, home = parity of address bits "
              f"{[7 + i for i in range(14) if x[i]]} xor {int(x[14])}: {'exact' if ok else 'no exact fit'} "
              f"({100 * acc:.2f} % of lines)")


if __name__ == "__main__":
    main()
