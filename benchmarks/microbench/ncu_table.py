"""The rows of a device run that printed one line per launch (launches.txt) and profiled the same
program under ncu (`--csv --page raw --print-units base`, ncu.csv): per launch its launches.txt
words and the asked metrics. Shared by the microbenchmarks' table.py scripts."""

from __future__ import annotations

import csv
from pathlib import Path


def launch_rows(folder: Path, metrics: tuple[str, ...]) -> list[tuple[list[str], dict[str, float]]]:
    """(words of the launch's launches.txt line, {metric: value}) per launch, in launch order."""
    lines = [line for line in (folder / "ncu.csv").read_text().splitlines() if line.startswith('"')]
    table = list(csv.reader(lines))
    header, data = table[0], [r for r in table[1:] if r[0].isdigit()]
    names = [line.split() for line in (folder / "launches.txt").read_text().splitlines() if line.strip()]
    return [(words, {m: float(row[header.index(m)].replace(",", "")) for m in metrics})
            for words, row in zip(names, data, strict=True)]


def launch_fields(words: list[str], name: str = "kernel") -> dict:
    """A launches.txt line written as `NAME key value key value ...` (integer values) as a dict:
    {name: NAME, key: value, ...}."""
    return {name: words[0], **{k: int(v) for k, v in zip(words[1::2], words[2::2])}}
