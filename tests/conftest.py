"""Shared fixtures: the development data in ../shared/data (skipped when absent)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


def shared_data_dir() -> Path | None:
    """``$AGARI_SHARED_DATA`` or ``../shared/data`` beside the checkout, if present."""
    env = os.environ.get("AGARI_SHARED_DATA")
    candidates = [Path(env)] if env else []
    candidates.append(REPO.parent / "shared" / "data")
    for c in candidates:
        if c.is_dir():
            return c
    return None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """Root of the shared development data; skips the test cleanly when absent."""
    root = shared_data_dir()
    if root is None:
        pytest.skip("../shared/data is not present (a fresh clone has none)")
    return root


@pytest.fixture(scope="session")
def tile_art(shared_data: Path) -> Path:
    """The CC0 tile art in ../shared/data/tile-art."""
    return shared_data / "tile-art"


@pytest.fixture(scope="session")
def real_dev(shared_data: Path) -> Path:
    """Real development photos in ../shared/data/real-dev."""
    return shared_data / "real-dev"
