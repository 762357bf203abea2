import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))  # calib_streams helper


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: long replays (run with -m slow)")


@pytest.fixture
def h200():
    from simgpu.arch import get_preset

    return get_preset("h200")
