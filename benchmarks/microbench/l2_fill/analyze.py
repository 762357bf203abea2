"""Print fill.cu's counters per case (ncu CSVs from run.sh), in MB and per store/atomic.

    python analyze.py results/ncu_1.csv [results/ncu_2.csv]
"""

import csv
import sys

CASES = [  # name, stores or atomics (the count the per-op columns divide by)
    ("st_byte_s32_16mb", 16 << 15), ("st_byte_s32_256mb", 256 << 15), ("st_full_256mb", 256 << 15),
    ("st_half_256mb", 256 << 15), ("st_byte_s64_256mb", 256 << 14), ("st_byte_s128_256mb", 256 << 13),
    ("st_byte_late_128mb", 128 << 20), ("st_byte_late_16mb", 16 << 20), ("atom_s32_16mb", 16 << 15),
    ("atom_s64_16mb", 16 << 14), ("atom_s128_16mb", 16 << 13), ("ld_s64_16mb", 16 << 14),
    ("ld_s128_16mb", 16 << 13), ("atom_hash_16mb", 1 << 22), ("atom_hash_128mb", 1 << 22),
    ("atom_s64_256mb", 256 << 14),
]
SHOW = ["dram__bytes_read.sum", "dram__bytes_write.sum", "lts__t_sectors_srcunit_tex_op_write.sum",
        "lts__t_sectors_srcunit_tex_op_red.sum", "lts__t_sectors_srcunit_tex_op_read.sum", "gpu__time_duration.sum"]


def rows(path):
    with open(path) as f:
        lines = [ln for ln in f if ln.startswith('"')]
    r = list(csv.DictReader(lines))
    return [x for x in r if x.get("ID", "").isdigit()]


def main() -> None:
    for path in sys.argv[1:]:
        print(path)
        print(f"{'case':22s} {'DRAM rd MB':>11s} {'rd B/op':>8s} {'DRAM wr MB':>11s} {'wr B/op':>8s} "
              f"{'L2 wr sec':>10s} {'L2 red sec':>10s} {'L2 rd sec':>10s} {'us':>8s}")
        for (name, ops), r in zip(CASES, rows(path)):
            v = {k: float(r[k].replace(",", "")) for k in SHOW if r.get(k) not in (None, "", "n/a")}
            rd, wr = v.get(SHOW[0], 0), v.get(SHOW[1], 0)
            print(f"{name:22s} {rd / 2**20:11.2f} {rd / ops:8.2f} {wr / 2**20:11.2f} {wr / ops:8.2f} "
                  f"{v.get(SHOW[2], 0):10.0f} {v.get(SHOW[3], 0):10.0f} {v.get(SHOW[4], 0):10.0f} "
                  f"{v.get(SHOW[5], 0) / 1000:8.1f}")


if __name__ == "__main__":
    main()
