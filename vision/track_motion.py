"""Camera motion and scene change between video frames, on small thumbnails.

The tracker must tell three things apart cheaply, every frame:

- the camera shook (the whole picture moved): follow it, do no work;
- the light changed (the picture got darker, warmer, a gradient): do no work;
- something on the table changed (tiles laid, swapped, taken away): look again.

Everything here runs on a thumbnail ``MotionConfig.work_width`` pixels wide.
Light is taken out by working on the band-pass of the *log* intensity
(`structure`): a gain field that varies slowly over the picture adds a smooth
term to the log, which the band-pass removes, while tile edges and face art
stay. Camera motion is a similarity transform found by pyramidal Lucas-Kanade
on the structure images, from the keyframe's corners to the current frame,
with RANSAC. Change is measured after warping the current frame back onto the
keyframe, with a *tolerant* difference: how far each pixel lies outside the
range of the other image's 3x3 neighbourhood (both ways round), so that the
sub-pixel misregistration left by shake and resampling counts for nothing
while a new or different face counts in full; its mean per grid cell decides.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

IDENTITY = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])


@dataclass(frozen=True, slots=True)
class MotionConfig:
    """Tuning of thumbnails, motion estimation and change detection.

    Sizes are thumbnail pixels unless stated.
    """

    work_width: int = 512
    """Thumbnail width: 720p is worked on at 0.4x (a 25 px tile is 10 px here)."""
    log_floor: float = 12.0
    """Added to grey levels before the log, so dark noise is not blown up."""
    fine_sigma: float = 0.8
    coarse_sigma: float = 6.0
    """The band-pass keeps detail between these blur scales."""
    max_corners: int = 240
    corner_quality: float = 0.01
    corner_spacing: int = 6
    min_corners: int = 12
    """A keyframe with fewer corners (a bare mat) is taken as not moving."""
    lk_window: int = 15
    lk_levels: int = 3
    ransac_px: float = 1.0
    min_inlier_share: float = 0.35
    """Motion is trusted only when this share of the tracked corners agrees."""
    lk_gain: float = 160.0
    """Structure values are scaled by this around 128 to make Lucas-Kanade's 8-bit input."""
    cell: int = 6
    """Side of a change-grid cell."""
    change_level: float = 0.05
    """Mean tolerant structure difference over a cell that counts the cell as changed."""
    min_changed_cells: int = 2
    """Fewer changed cells than this is noise, not a change on the table."""
    edge_cells: int = 1
    """Cells this close to the thumbnail's border are ignored (warping leaves them empty)."""


DEFAULT_MOTION = MotionConfig()


@dataclass(frozen=True, slots=True)
class Thumb:
    """One frame made small.

    Attributes:
        scale: thumbnail pixels per frame pixel.
        grey: ``uint8 (h, w)`` grey thumbnail (BGR averaged with OpenCV's weights).
        structure: ``float32 (h, w)`` band-pass of the log grey: light-independent detail.
        detail: ``uint8 (h, w)`` the structure as 8-bit (what corners are found and followed on).
    """

    scale: float
    grey: np.ndarray
    structure: np.ndarray
    detail: np.ndarray


def make_thumb(frame: np.ndarray, config: MotionConfig = DEFAULT_MOTION) -> Thumb:
    """Thumbnail, grey and structure image of a BGR ``uint8 (H, W, 3)`` frame.

    The frame is halved (OpenCV's fast exact-2x area path) while it stays at
    least twice the working width, made grey, then resized to the working width.
    """
    h, w = frame.shape[:2]
    scale = min(1.0, config.work_width / w)
    small = frame
    while small.shape[1] >= 2 * config.work_width:
        small = cv2.resize(small, (small.shape[1] // 2, small.shape[0] // 2),
                           interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    size = (max(16, round(w * scale)), max(16, round(h * scale)))
    if grey.shape[1] != size[0] or grey.shape[0] != size[1]:
        grey = cv2.resize(grey, size, interpolation=cv2.INTER_AREA)
    st = structure(grey, config)
    detail = cv2.convertScaleAbs(st, alpha=config.lk_gain, beta=128.0)
    return Thumb(scale, grey, st, detail)


def structure(grey: np.ndarray, config: MotionConfig = DEFAULT_MOTION) -> np.ndarray:
    """Band-pass of ``log(grey + floor)``: ``float32`` of the same shape."""
    lg = cv2.log(grey.astype(np.float32) + np.float32(config.log_floor))
    fine = cv2.GaussianBlur(lg, (0, 0), config.fine_sigma)
    coarse = cv2.GaussianBlur(lg, (0, 0), config.coarse_sigma)
    return fine - coarse


def find_corners(thumb: Thumb, config: MotionConfig = DEFAULT_MOTION) -> np.ndarray:
    """Corners to follow from a keyframe: ``float32 (N, 1, 2)`` thumbnail points."""
    pts = cv2.goodFeaturesToTrack(thumb.detail, config.max_corners, config.corner_quality,
                                  config.corner_spacing, blockSize=5)
    return pts if pts is not None else np.zeros((0, 1, 2), np.float32)


def estimate_motion(key: Thumb, corners: np.ndarray, current: Thumb, guess: np.ndarray, *,
                    config: MotionConfig = DEFAULT_MOTION) -> np.ndarray | None:
    """Similarity transform from keyframe to current thumbnail.

    Args:
        key, current: thumbnails of the same size.
        corners: `find_corners` of ``key``.
        guess: ``(2, 3)`` last known transform (the search starts there).

    Returns:
        ``float64 (2, 3)`` thumbnail-to-thumbnail transform; the identity when the
        keyframe has too few corners to tell (a bare table shows no motion anyway);
        None when the corners no longer agree (the view was lost or changed a lot).
    """
    if len(corners) < config.min_corners:
        return IDENTITY.copy()
    start = cv2.transform(corners, guess).astype(np.float32)
    moved, status, _ = cv2.calcOpticalFlowPyrLK(
        key.detail, current.detail, corners, start.copy(),
        winSize=(config.lk_window, config.lk_window), maxLevel=config.lk_levels,
        flags=cv2.OPTFLOW_USE_INITIAL_FLOW)
    ok = status.ravel() == 1
    if ok.sum() < config.min_corners:
        return None
    matrix, inliers = cv2.estimateAffinePartial2D(
        corners[ok], moved[ok], method=cv2.RANSAC, ransacReprojThreshold=config.ransac_px)
    if matrix is None or inliers is None:
        return None
    if inliers.sum() < max(config.min_corners, config.min_inlier_share * len(corners)):
        return None
    return matrix


def to_frame(matrix: np.ndarray, scale: float) -> np.ndarray:
    """A thumbnail-to-thumbnail transform expressed in full-frame pixels."""
    out = matrix.copy()
    out[:, 2] /= scale
    return out


def shift_of(matrix: np.ndarray) -> float:
    """How far the transform moves the thumbnail's origin, in thumbnail pixels."""
    return float(math.hypot(matrix[0, 2], matrix[1, 2]))


@dataclass(frozen=True, slots=True)
class ChangeMap:
    """Where two structure images differ, per grid cell.

    Attributes:
        cells: ``bool (rows, cols)`` changed cells (border cells always False).
        cell: cell side in thumbnail pixels.
    """

    cells: np.ndarray
    cell: int

    @property
    def count(self) -> int:
        return int(self.cells.sum())


def back_to_key(current: Thumb, matrix: np.ndarray) -> np.ndarray:
    """The current structure image warped onto the keyframe (``matrix``: key → current)."""
    h, w = current.structure.shape
    return cv2.warpAffine(current.structure, matrix, (w, h),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


_NEIGHBOURS = np.ones((3, 3), np.uint8)


def tolerant_difference(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per pixel, how far each image lies outside the other's 3x3 range (the smaller way).

    Args:
        a, b: ``float32 (h, w)`` images of the same shape.

    Returns:
        ``float32 (h, w)``, ≥ 0; zero wherever a one-pixel shift explains the difference.
    """
    def outside(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        above = cv2.subtract(x, cv2.dilate(y, _NEIGHBOURS))
        below = cv2.subtract(cv2.erode(y, _NEIGHBOURS), x)
        return cv2.max(cv2.max(above, below), 0.0)

    return cv2.min(outside(a, b), outside(b, a))


def change_map(a: np.ndarray, b: np.ndarray, *, config: MotionConfig = DEFAULT_MOTION
               ) -> ChangeMap:
    """Cells where structure images ``a`` and ``b`` (same shape, float32) differ."""
    c = config.cell
    h, w = a.shape
    rows, cols = h // c, w // c
    diff = tolerant_difference(a[:rows * c, :cols * c], b[:rows * c, :cols * c])
    means = cv2.resize(diff, (cols, rows), interpolation=cv2.INTER_AREA)
    cells = means > config.change_level
    e = config.edge_cells
    if e > 0:
        cells[:e, :] = cells[-e:, :] = False
        cells[:, :e] = cells[:, -e:] = False
    return ChangeMap(cells, c)


def significant(change: ChangeMap, config: MotionConfig = DEFAULT_MOTION) -> bool:
    """Whether a change map shows a real change rather than noise."""
    return change.count >= config.min_changed_cells
