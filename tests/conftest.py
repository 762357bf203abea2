"""Shared fixtures: where the calibration data lives (../shared beside the checkout)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CALIBRATION = Path(os.environ.get("SIMGPU_CALIBRATION", REPO.parent / "shared" / "calibration"))


@pytest.fixture(scope="session")
def calibration_dir() -> Path:
    if not (CALIBRATION / "specs.py").exists():
        pytest.skip(f"calibration data not found at {CALIBRATION} (set SIMGPU_CALIBRATION)")
    return CALIBRATION
