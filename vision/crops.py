"""Tile crops: perspective-warp a located tile to an upright, portrait colour image.

The classifier reads tiles from crops made here, and its training data is cut
the same way, so this module is the one definition of "a tile crop".

Geometry. A `TileDetection` quad lists the tile's corners TL, TR, BR, BL in the
row's upright frame (see `agari.vision.detection`). An upright tile's TL→TR edge
is its short side, so the crop maps TL to the crop's top-left corner. A
sideways (called) tile's TL→TR edge is its long side; the crop turns it a
quarter turn so that the quad's left edge (BL→TL) becomes the crop's top. A tile
can still come out upside down (a sideways tile turned the other way, a tile a
player faces the wrong way); the classifier reads both ways up.

Margin. ``margin`` is the fraction of the tile's own width (height) added as
context on the left and right (top and bottom); the crop is ``size`` including
that margin. A little context makes the crop tolerant of loose quads.

Images are BGR ``uint8`` arrays ``(H, W, 3)`` in and out, never converted to
grey: red fives need colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractContextManager
from contextvars import ContextVar

import cv2
import numpy as np
from agari.engine.errors import ImageError, InvalidInput
from agari.vision.detection import TileDetection
from agari.vision.memo_scope import memo_scope

CROP_SIZE: tuple[int, int] = (64, 48)
"""Default crop ``(height, width)``: a 4:3 portrait tile. The classifier passes its own."""

CROP_MARGIN = 0.06
"""Default context around the tile, as a fraction of its width/height on each side."""

QuadLike = Sequence[Sequence[float]] | np.ndarray


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Validate an image and return it as a BGR ``uint8 (H, W, 3)`` array.

    Grey ``(H, W)`` and BGRA ``(H, W, 4)`` images are converted (grey to three
    equal channels; alpha dropped); anything else is refused.

    Raises:
        ImageError: not a non-empty ``uint8`` array of shape ``(H, W)``, ``(H, W, 3)``
            or ``(H, W, 4)``.
    """
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        got = image.dtype if isinstance(image, np.ndarray) else type(image).__name__
        raise ImageError(f"expected a uint8 image array, got {got}")
    if image.size == 0:
        raise ImageError("image is empty")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise ImageError(f"expected an image of shape (H, W[, 3|4]), got {image.shape}")


def _quad_array(quad: QuadLike) -> np.ndarray:
    q = np.asarray(quad, dtype=np.float32)
    if q.shape != (4, 2):
        raise InvalidInput(f"quad must be 4 (x, y) points, got shape {q.shape}")
    if not np.isfinite(q).all():
        raise InvalidInput("quad has a non-finite coordinate")
    return q


def _check_size(size: tuple[int, int], margin: float) -> tuple[int, int]:
    h, w = (int(v) for v in size)
    if h < 4 or w < 4:
        raise InvalidInput(f"crop size must be at least 4x4 pixels, got {size}")
    if not 0.0 <= margin < 1.0:
        raise InvalidInput(f"margin must be in [0, 1), got {margin}")
    return h, w


def crop_matrix(
    quad: QuadLike,
    *,
    sideways: bool = False,
    size: tuple[int, int] = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """The 3×3 perspective matrix from image pixels to crop pixels (``float64``).

    Args:
        quad: ``(4, 2)`` corners TL, TR, BR, BL in the row's upright frame.
        sideways: the quad's TL→TR edge is the tile's long side.
        size: output ``(height, width)`` including the margin.
        margin: context per side as a fraction of the tile's extent.
    """
    q = _quad_array(quad)
    h, w = _check_size(size, margin)
    if sideways:
        q = q[[3, 0, 1, 2]]  # BL, TL, TR, BR: the quad's left edge becomes the top
    return cv2.getPerspectiveTransform(q, _target(h, w, margin))


def crop_tile(
    image: np.ndarray,
    quad: QuadLike,
    *,
    sideways: bool = False,
    size: tuple[int, int] = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """Warp one tile to an upright portrait colour crop.

    Args:
        image: BGR ``uint8 (H, W, 3)`` (grey or BGRA accepted, see `as_bgr`).
        quad: ``(4, 2)`` image points TL, TR, BR, BL in the row's upright frame
            (a `TileDetection.quad`).
        sideways: the tile lies with its long side along the row; it is turned
            a quarter turn to portrait.
        size: crop ``(height, width)`` in pixels, margin included.
        margin: context on each side as a fraction of the tile's extent.

    Returns:
        BGR ``uint8`` array of shape ``(size[0], size[1], 3)``. Pixels outside
        the image are filled by replicating the border.

    Raises:
        ImageError: the image is not a usable array.
        InvalidInput: a malformed quad, size or margin.
    """
    img = as_bgr(image)
    m = crop_matrix(quad, sideways=sideways, size=size, margin=margin)
    h, w = int(size[0]), int(size[1])
    # INTER_AREA is not supported by warpPerspective; shrink first when the tile is
    # much larger than the crop so that thin strokes are averaged, not aliased.
    img, m = _prescale(img, m, quad, sideways, (h, w))
    return cv2.warpPerspective(
        img, m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE
    )


_PRESCALE_FACTOR = 2.0
"""Shrink the source first when the tile is over this many times the crop's size."""


def _prescale(
    img: np.ndarray, m: np.ndarray, quad: QuadLike, sideways: bool, size: tuple[int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """The part of ``img`` the crop draws from, shrunk when the tile is much larger than
    the crop, and the matrix from it to the crop.

    Only the crop's own source region is resized (never the whole photo: on a
    50-megapixel photo that cost ~90 ms per tile).
    """
    q = _quad_array(quad)
    across = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    down = float(np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])) / 2
    tile_w, tile_h = (down, across) if sideways else (across, down)
    ratio = min(tile_w / size[1], tile_h / size[0])
    if ratio <= _PRESCALE_FACTOR:
        return img, m
    h, w = size
    corners = np.array([[[0, 0]], [[w, 0]], [[w, h]], [[0, h]]], dtype=np.float64)
    src = cv2.perspectiveTransform(corners, np.linalg.inv(m)).reshape(4, 2)
    x0, y0 = np.maximum(np.floor(src.min(axis=0)) - 2, 0).astype(int)
    x1, y1 = np.minimum(np.ceil(src.max(axis=0)) + 3, img.shape[1::-1]).astype(int)
    if x1 - x0 < 2 or y1 - y0 < 2:  # the crop lies outside the image: nothing to average
        return img, m
    f = _PRESCALE_FACTOR / ratio
    small = _shrunk(img, (int(x0), int(y0), int(x1), int(y1)), f)
    fx, fy = small.shape[1] / (x1 - x0), small.shape[0] / (y1 - y0)  # exact after rounding
    to_source = np.array([[1.0 / fx, 0.0, x0], [0.0, 1.0 / fy, y0], [0.0, 0.0, 1.0]])
    return small, m @ to_source


_shrinks: ContextVar[dict | None] = ContextVar("agari_shrinks", default=None)
"""What `remembered_shrinks` keeps: shrunk sources ``(id(img), box, f) -> (img, small)`` and
cut crops ``("crop", id(img), quad bytes, sideways, h, w, margin) -> (img, crop)``."""


def remembered_shrinks() -> AbstractContextManager[None]:
    """Within it (on this thread), `_prescale` shrinks each part of an image once per factor:
    one photo's reading cuts many tiles again from the same part at the same factor (a tile
    turned round, judged by the locator then read, read again at another working scale;
    half the shrinks of the 1080p renders 1050000-1050011), and `crop_tiles` cuts each
    tile (image, quad, flag, size, margin) once: the crops a photo's reading asks for twice
    are mostly the same quads again. The arrays are held until the block ends (an id is not
    reused meanwhile) and must not change within it."""
    return memo_scope(_shrinks)


def _shrunk(img: np.ndarray, box: tuple[int, int, int, int], f: float) -> np.ndarray:
    """``img[y0:y1, x0:x1]`` shrunk by ``f`` (area averaging); read-only and kept where
    `remembered_shrinks` keeps it."""
    memo = _shrinks.get()
    key = (id(img), box, f)
    kept = None if memo is None else memo.get(key)
    if kept is not None and kept[0] is img:
        return kept[1]
    x0, y0, x1, y1 = box
    small = cv2.resize(img[y0:y1, x0:x1], None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    if memo is not None:
        small.flags.writeable = False
        memo[key] = (img, small)
    return small


def crop_tiles(
    image: np.ndarray,
    quads: Sequence[QuadLike],
    *,
    sideways: Sequence[bool] | None = None,
    size: tuple[int, int] = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """Batched `crop_tile`: many quads from one image.

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        quads: N quads, each ``(4, 2)`` TL, TR, BR, BL.
        sideways: N flags (default all upright).
        size: crop ``(height, width)``.
        margin: context per side, fraction of the tile's extent.

    Returns:
        ``uint8`` array ``(N, size[0], size[1], 3)``; ``(0, H, W, 3)`` for no quads.
    """
    img = as_bgr(image)
    flags = [False] * len(quads) if sideways is None else list(sideways)
    if len(flags) != len(quads):
        raise InvalidInput(f"expected {len(quads)} sideways flags, got {len(flags)}")
    h, w = _check_size(size, margin)
    out = np.empty((len(quads), h, w, 3), dtype=np.uint8)
    try:
        qs = np.asarray(quads, dtype=np.float32)
    except ValueError:  # ragged: `crop_tile` says which quad is malformed
        qs = None
    if qs is None or qs.shape != (len(quads), 4, 2) or not np.isfinite(qs).all():
        for i, (q, s) in enumerate(zip(quads, flags, strict=True)):
            out[i] = crop_tile(img, q, sideways=s, size=(h, w), margin=margin)
        return out
    # `crop_tile` per quad, its checks and target corners made once for the batch, and the
    # shrinking's exact test (float32 norms) left to the tiles that come near it: ~1/3 less
    # time a crop, the same pixels.
    dst = _target(h, w, margin)
    near = _prescale_ratio(qs, np.asarray(flags, bool), (h, w)) > _PRESCALE_FACTOR * (1 - 1e-4)
    memo = _shrinks.get()  # a crop depends on the image, quad, flag, size and margin alone
    for i, s in enumerate(flags):
        q = qs[i]
        key = None
        if memo is not None:
            key = ("crop", id(img), q.tobytes(), bool(s), h, w, margin)
            kept = memo.get(key)
            if kept is not None and kept[0] is img:
                out[i] = kept[1]
                continue
        m = cv2.getPerspectiveTransform(q[[3, 0, 1, 2]] if s else q, dst)
        src = img
        if near[i]:
            src, m = _prescale(img, m, q, s, (h, w))
        # Warped straight into its row of the batch (no crop made and copied: ~3 us of ~20).
        row = out[i]
        got = cv2.warpPerspective(src, m, (w, h), dst=row, flags=cv2.INTER_LINEAR,
                                  borderMode=cv2.BORDER_REPLICATE)
        if got is not row:  # OpenCV wrote elsewhere (it returns ``dst`` itself when used)
            row[...] = got
        if key is not None:
            memo[key] = (img, row.copy())
    return out


def _target(h: int, w: int, margin: float) -> np.ndarray:
    """The crop's corners the quad's TL, TR, BR, BL go to: float32 ``(4, 2)``."""
    # The tile fills the crop less the margin on each side.
    mx, my = w * margin / (1 + 2 * margin), h * margin / (1 + 2 * margin)
    return np.array([[mx, my], [w - mx, my], [w - mx, h - my], [mx, h - my]], dtype=np.float32)


def _prescale_ratio(qs: np.ndarray, sideways: np.ndarray, size: tuple[int, int]) -> np.ndarray:
    """`_prescale`'s ratio of tile to crop size for N quads at once, in float64 (within a
    few float32 units in the last place of its own)."""
    q = qs.astype(np.float64)
    side = np.sqrt(((q[:, [1, 2, 3, 2]] - q[:, [0, 3, 0, 1]]) ** 2).sum(axis=2))
    across, down = (side[:, 0] + side[:, 1]) / 2, (side[:, 2] + side[:, 3]) / 2
    tile_w, tile_h = np.where(sideways, down, across), np.where(sideways, across, down)
    return np.minimum(tile_w / size[1], tile_h / size[0])


def crop_detections(
    image: np.ndarray,
    detections: Sequence[TileDetection],
    *,
    size: tuple[int, int] = CROP_SIZE,
    margin: float = CROP_MARGIN,
) -> np.ndarray:
    """Crops for `TileDetection` values: ``uint8 (N, size[0], size[1], 3)``."""
    return crop_tiles(
        image,
        [d.quad for d in detections],
        sideways=[d.sideways for d in detections],
        size=size,
        margin=margin,
    )


def box_quad(x: float, y: float, w: float, h: float) -> tuple[tuple[float, float], ...]:
    """The quad TL, TR, BR, BL of an axis-aligned box ``(x, y, w, h)`` in pixels."""
    return ((x, y), (x + w, y), (x + w, y + h), (x, y + h))


def fit_portrait(
    image: np.ndarray, *, size: tuple[int, int] = CROP_SIZE, margin: float = 0.0
) -> np.ndarray:
    """A whole image taken as one tile (a ready-made crop): turned portrait and resized.

    A landscape image is taken to be a sideways tile and given a quarter turn.

    Returns:
        BGR ``uint8 (size[0], size[1], 3)``.
    """
    img = as_bgr(image)
    ih, iw = img.shape[:2]
    # Pixel centres sit at integer coordinates, so the image's outer edge is at -0.5.
    quad = box_quad(-0.5, -0.5, float(iw), float(ih))
    return crop_tile(img, quad, sideways=iw > ih, size=size, margin=margin)
