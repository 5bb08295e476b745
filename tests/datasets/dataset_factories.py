"""Small factories for dataset tests: annotations and tiny image files."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
from agari.datasets.annotation import ImageAnnotation, TileAnnotation, box_quad


def make_image(path: Path, width: int = 64, height: int = 48) -> Path:
    """A small real image file (noise, so encoders do real work)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(len(path.name))
    cv2.imwrite(str(path), rng.integers(0, 255, (height, width, 3), dtype=np.uint8))
    return path


def make_annotation(name: str = "a.png", width: int = 200, height: int = 100) -> ImageAnnotation:
    """An image with one of each kind of tile the formats must carry."""
    tiles = (
        TileAnnotation(quad=box_quad(10, 10, 20, 28), label="1m", role="concealed", rotation=0),
        TileAnnotation(quad=((40, 12), (62, 14), (60, 42), (38, 40)), label="0p", role="win",
                       rotation=180),
        TileAnnotation(quad=((70, 20), (98, 20), (98, 40), (70, 40)), label="7z", sideways=True,
                       role="meld", group=0, rotation=90, visible=0.8),
        TileAnnotation(quad=box_quad(110, 10, 20, 28), label="back", face_down=True, role="dora"),
        TileAnnotation(quad=box_quad(140, 50, 20, 28), label="9s", score=0.75),
    )
    return ImageAnnotation(name, width, height, tiles, hand="123m406p789s 777z", win="0p",
                           meta=(("scene", "test"),))
