"""Summaries of ncu's source pages (results/src_*.csv, from run.sh): per kernel the share of stall
samples by reason, and the SASS lines with the most samples. `python stalls.py [RESULTS] [TOP]`."""
import csv
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def read(path: Path) -> tuple[str, list[dict]]:
    rows = list(csv.reader(path.read_text().splitlines()))
    name = rows[0][1] if rows and rows[0][:1] == ["Kernel Name"] else path.stem
    head = next(i for i, r in enumerate(rows) if r[:2] == ["Address", "Source"])
    return name, [dict(zip(rows[head], r)) for r in rows[head + 1:] if len(r) == len(rows[head])]


def num(x: str) -> float:
    try:
        return float(x.replace(",", ""))
    except ValueError:
        return 0.0


def main() -> None:
    res = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE / "results"
    top = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    for path in sorted(res.glob("src_*.csv")):
        name, lines = read(path)
        reasons = [k for k in lines[0] if k.startswith("stall_") and "Not Issued" not in k] if lines else []
        total = sum(num(r["Warp Stall Sampling (All Samples)"]) for r in lines) or 1.0
        share = {k: sum(num(r[k]) for r in lines) / total for k in reasons}
        print(f"\n{name}: {total:,.0f} samples, {len(lines)} SASS lines; "
              + ", ".join(f"{k[6:]} {v:.0%}" for k, v in sorted(share.items(), key=lambda kv: -kv[1]) if v >= 0.01))
        hot = sorted(range(len(lines)), key=lambda i: -num(lines[i]["Warp Stall Sampling (All Samples)"]))[:top]
        for i in sorted(hot):
            r = lines[i]
            why = sorted(((num(r[k]), k[6:]) for k in reasons), reverse=True)[:2]
            print(f"  {i:4d} {num(r['Warp Stall Sampling (All Samples)']):7.0f}  {r['Source'].strip()[:60]:60s} "
                  + " ".join(f"{k} {v:.0f}" for v, k in why if v))


if __name__ == "__main__":
    main()
