"""Image files in datasets: listing, size from the header, reading and writing.

Readers need every image's size (YOLO stores normalised coordinates) but not
its pixels, so `image_size` reads only the PNG/JPEG header and falls back to a
full decode for other formats.
"""

from __future__ import annotations

import struct
from pathlib import Path

from agari.engine.errors import ImageError
from agari.models.classifier import read_image  # one decoder for crops, labels and datasets

__all__ = ["IMAGE_SUFFIXES", "image_size", "list_images", "read_image", "write_image"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")
_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def list_images(root: Path) -> list[Path]:
    """Image files under ``root`` (recursive), sorted by relative path for a stable order."""
    root = Path(root)
    return sorted(p for p in root.rglob("*") if p.suffix.lower() in IMAGE_SUFFIXES and p.is_file())


def image_size(path: Path) -> tuple[int, int]:
    """``(width, height)`` of an image file.

    Raises:
        ImageError: missing, unreadable or not an image.
    """
    path = Path(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(26)
            if head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR":
                w, h = struct.unpack(">II", head[16:24])
                return int(w), int(h)
            if head[:2] == b"\xff\xd8":
                size = _jpeg_size(fh)
                if size is not None:
                    return size
    except OSError as err:
        raise ImageError(f"cannot read image {path}: {err.strerror or err}") from None
    img = read_image(path)
    return int(img.shape[1]), int(img.shape[0])


def _jpeg_size(fh) -> tuple[int, int] | None:
    fh.seek(2)
    while True:
        marker = fh.read(2)
        if len(marker) < 2 or marker[0] != 0xFF:
            return None
        while marker[1] == 0xFF:  # fill bytes before a marker
            marker = marker[:1] + fh.read(1)
        kind = marker[1]
        if kind in (0xD8, 0x01) or 0xD0 <= kind <= 0xD7:
            continue
        raw = fh.read(2)
        if len(raw) < 2:
            return None
        length = struct.unpack(">H", raw)[0]
        if kind in _JPEG_SOF:
            data = fh.read(5)
            if len(data) < 5:
                return None
            h, w = struct.unpack(">HH", data[1:5])
            return int(w), int(h)
        fh.seek(length - 2, 1)


def write_image(path: Path, image, *, jpeg_quality: int = 92) -> None:
    """Encode BGR ``uint8`` to ``path`` (format from the suffix), creating folders.

    Raises:
        ImageError: the encoder refused the image or the file cannot be written.
    """
    import cv2

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    params = [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)] if path.suffix.lower() in (
        ".jpg", ".jpeg") else []
    ok, buf = cv2.imencode(path.suffix or ".png", image, params)
    if not ok:
        raise ImageError(f"cannot encode image as {path.suffix}: {path}")
    try:
        buf.tofile(path)
    except OSError as err:
        raise ImageError(f"cannot write image {path}: {err.strerror or err}") from None
