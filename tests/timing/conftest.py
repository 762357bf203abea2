"""Shared fixtures of the timing tests."""

import dataclasses

import pytest

import simgpu.timing.config as timing_config


@pytest.fixture
def timing_override(monkeypatch):
    """Set TimingConfig fields for one test: the default config with those fields replaced, put
    back after the test."""

    def override(**fields) -> None:
        monkeypatch.setattr(timing_config, "_DEFAULT", dataclasses.replace(timing_config.default_config(), **fields))

    return override
