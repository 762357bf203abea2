"""Writes tests.txt for probe.cu (one test a line: kind R nj nr off rounds xlines); see probe.cu."""

from __future__ import annotations

import argparse


def tests() -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []

    def rows(R, nj, nr, off=0, rounds=4):
        out.append((0, R, nj, nr, off, rounds, 0))

    def evict(R, nj, nr, off=0, rounds=2, xlines=1024):
        out.append((1, R, nj, nr, off, rounds, xlines))

    # col_softmax's reads: 8 lines of each 32 KB row, an SM's offset 0 / 1 / 5 / 31 KB into the row
    for nr in (128, 160, 192, 208, 224, 256):
        for off in (0, 8, 40, 248):
            rows(256, 8, nr, off)
    for nr in (160, 224):  # rows padded by one line
        for off in (0, 8):
            rows(257, 8, nr, off)
    for total in (1280, 1664):  # lines a row, same rows
        for nj in (1, 2, 4, 16, 32):
            rows(256, nj, total // nj)
    for nr in (160, 208):  # row pitch
        for R in (16, 32, 64, 128, 512, 1024, 2048, 4096, 8192):
            if R * nr < 1_500_000:
                rows(R, 8, nr)
    for off in (1, 3, 4, 7):  # rows not starting at a 1 KB boundary
        rows(256, 8, 160, off)
    for R in (255, 264, 272, 288, 320, 384, 520):
        rows(R, 8, 160)
    for n in (1280, 1728, 1736, 1744, 1760, 1792, 2048):  # contiguous sweeps: the capacity
        rows(1, 1, n)
    for R in (2, 4, 32, 256, 512, 3, 5, 7, 31, 33):  # single strides, 216 KB
        rows(R, 1, 1728)
    for off in (16, 24, 32, 64, 128):  # more offsets into the row
        rows(256, 8, 160, off)
    for off in (4, 8):
        rows(256, 4, 320, off)
    for nr in (144, 152, 168, 176):  # where the loss starts
        rows(256, 8, nr)
    rows(256, 8, 160, 0, 6)  # six rounds: is the fourth the steady state
    rows(128, 8, 192)
    rows(512, 8, 192)
    # X (1,024 contiguous lines) read once, a pattern read twice, X again
    for nr in (128, 192):
        for off in (0, 8):
            evict(256, 8, nr, off)
    for nj in (1, 2, 4):
        evict(256, nj, 1024 // nj)
    evict(257, 8, 128)
    for R in (1, 2, 8, 32, 64, 128, 512, 1024, 3, 5, 7, 33, 9, 17, 129, 257, 1025):
        evict(R, 1, 1024)
    for k in range(3, 11):  # pairs of adjacent lines 2^k lines apart
        evict(1 << k, 2, 512)
    evict(256, 8, 128, 0, 2, 1536)
    evict(256, 8, 192, 0, 2, 1536)
    return out


XBASE = (200 << 20) // 128  # probe.cu's X, a 2 MB boundary
PAGE = (2 << 20) // 128


def set_tests() -> list[tuple[int, ...]]:
    """X (1,472 contiguous lines: 46 blocks of 4 lines for each of 8 sets, if that is the geometry)
    read once, one 512 B block B once, X again: the X lines lost are B's set's."""
    out: list[tuple[int, ...]] = []

    def block(off, nj=4, xlines=1472):
        out.append((1, 1, nj, 1, off, 1, xlines))

    for x in (1424, 1440, 1456, 1464, 1472, 1476, 1480, 1484, 1488, 1496):  # X alone
        out.append((1, 1, 1, 0, 0, 1, x))
    for k in range(64):  # 64 consecutive blocks 256 KB into X's page
        block(XBASE + 2048 + 4 * k)
    for j in range(6, 12):  # blocks 2^j blocks further
        block(XBASE + 2048 + 4 * (1 << j))
    for r in range(48):  # the first block of rows 32 KB apart, in X's page
        block(XBASE + 4096 + 256 * r)
    for m in range(1, 9):  # the same offset in the next 2 MB pages
        block(XBASE + m * PAGE)
    for k in range(8):  # blocks at the region's start, another page
        block(4 * k)
    block(XBASE + 2048, 1)  # one line, two lines, two blocks
    block(XBASE + 2048, 2)
    block(XBASE + 2048, 8)
    return out


def pair(z: int, d: int, xlines: int = 1472) -> tuple[int, ...]:
    """X read once, lines Z and Z + d once, X again: X loses lines only if Z and Z + d share a set."""
    return (1, d, 1, 2, z, 1, xlines)


def pair_tests() -> list[tuple[int, ...]]:
    """X (1,472 contiguous lines: one way spare in each set, if the L1 is 8 sets of 185) read once,
    two lines Z and Z + d once, X again: X loses lines only if Z and Z + d share a set."""
    out: list[tuple[int, ...]] = [(1, 1, 1, 0, 0, 1, 1472)]
    for z in (XBASE + 2048, XBASE + 2051):
        out.append((1, 1, 1, 1, z, 1, 1472))
        out.extend(pair(z, d) for d in range(1, 131))
    return out


COLLIDING = (10, 19, 43, 50, 71, 94, 122)  # pair_tests' colliding d at Z = XBASE + 2,048 (H100)


def pair2_tests() -> list[tuple[int, ...]]:
    """After pair_tests: the colliding pairs against X of other lengths (more sets, or more free
    ways?), d of one and two powers of two (bits 7-16 of the line number), d = 10 at other places,
    and d = 1-130 with Z's bit 8 set (the 32 KB rows)."""
    out: list[tuple[int, ...]] = []
    z = XBASE + 2048
    for x in (1440, 1456, 1464, 1468, 1476):
        out.append((1, 1, 1, 0, 0, 1, x))
        out.extend(pair(z, d, x) for d in COLLIDING + (1, 2, 3))
    for k in range(17):
        out += [pair(z, 1 << k), pair(z, 10 ^ (1 << k))]
    for m in range(1, 9):
        out += [pair(z + 4096 * m, 10), pair(z + 64 * m, 10)]
    out.extend(pair(z + 256, d) for d in range(1, 131))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("out", nargs="?", default="tests.txt")
    kind = ap.add_mutually_exclusive_group()
    kind.add_argument("--sets", dest="kind", action="store_const", const=set_tests,
                      help="the set-membership tests (set_tests)")
    kind.add_argument("--pairs", dest="kind", action="store_const", const=pair_tests,
                      help="which lines share a set (pair_tests)")
    kind.add_argument("--pairs2", dest="kind", action="store_const", const=pair2_tests,
                      help="the colliding pairs probed further (pair2_tests)")
    a = ap.parse_args()
    t = (a.kind or tests)()
    with open(a.out, "w") as f:
        for row in t:
            f.write(" ".join(map(str, row)) + "\n")
    print(f"{len(t)} tests -> {a.out}")


if __name__ == "__main__":
    main()
