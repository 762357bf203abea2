"""The README's sim-vs-H200 table is generated from the committed validation JSON, not typed."""

from __future__ import annotations

import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _tool():
    spec = importlib.util.spec_from_file_location("make_readme_table", REPO / "validation" / "make_readme_table.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_readme_table_matches_the_committed_report():
    tool = _tool()
    readme = (REPO / "README.md").read_text()
    assert tool.readme_block(tool.newest()) in readme, (
        "README's validation table is stale: run python validation/make_readme_table.py --readme README.md")
