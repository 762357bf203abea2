import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
CALIB = Path(__file__).resolve().parents[3] / "shared" / "calibration"
if not CALIB.exists():
    CALIB = Path("/work/shared/calibration")


@pytest.fixture
def calib_dir():
    if not (CALIB / "h200_ncu_raw.csv").exists():
        pytest.skip("calibration data (shared/calibration) not found")
    return CALIB


@pytest.fixture
def no_cupy(monkeypatch):
    """Make `import cupy` fail, as on a machine without CuPy."""
    import sys

    monkeypatch.setitem(sys.modules, "cupy", None)


@pytest.fixture
def fake_gpu(monkeypatch):
    """A CuPy stand-in built on simgpu, and a stand-in ncu on PATH."""
    import sys

    monkeypatch.syspath_prepend(str(HERE / "fakecupy"))
    monkeypatch.delitem(sys.modules, "cupy", raising=False)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(HERE / "fakecupy"), os.environ.get("PYTHONPATH", "")]))
    monkeypatch.setenv("PATH", os.pathsep.join([str(HERE / "fakencu"), os.environ.get("PATH", "")]))
    yield
    sys.modules.pop("cupy", None)
