"""Shared fixtures: the project root and the real data folder (NLIC_DATA_DIR, else ../shared/data)."""
import os
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def root():
    return ROOT


@pytest.fixture(scope="session")
def real_data():
    d = Path(os.environ.get("NLIC_DATA_DIR") or ROOT.parent / "shared" / "data")
    if not d.is_dir():
        pytest.skip(f"real data not found at {d}; set NLIC_DATA_DIR")
    return d


@pytest.fixture(autouse=True)
def offline(monkeypatch):
    "Tests never download: a missing file must fail fast with a clear error."
    monkeypatch.setenv("NLIC_OFFLINE", "1")
