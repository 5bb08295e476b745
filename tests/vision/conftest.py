"""Fixtures of the vision tests: the bundled sample photo with its true tiles."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

SAMPLE = Path(__file__).resolve().parents[2] / "samples"


@pytest.fixture(scope="module")
def sample_hand():
    """The bundled sample photo (BGR), its true tiles (``hand.json``'s ``tiles``), and the
    shipped classifier."""
    from agari.models import TileClassifier

    image = cv2.imread(str(SAMPLE / "hand.jpg"))
    truth = json.loads((SAMPLE / "hand.json").read_text())["tiles"]
    return image, truth, TileClassifier.load(threads=1)
