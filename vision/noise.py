"""Sensor noise: measure it on the working image, and soften it where it would break seams.

The locator reads thin dark seams and ink by low percentiles and thresholds in
pixels; grain of a few grey levels (a phone in dim light, a webcam) darkens
every line a little and fills the blank bands between faces with false ink, so
rows stop repeating (a table photo with noise of σ 8 added lost all 13 hand
tiles). Clean photos are left exactly as they are: only a photo whose measured
noise is above `NoiseConfig.above` is softened, by a 3×3 median, which keeps a
seam's edges where a Gaussian spreads them (real table photo with noise: 10 of
13 hand tiles read right with the median, 0 with a Gaussian of σ 0.9, 0
unsoftened).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
from agari.engine.errors import InvalidInput

_RESIDUAL = np.array([[1, -2, 1], [-2, 4, -2], [1, -2, 1]], np.float32)
"""Cancels any locally planar image; on white noise of σ its response has σ·6."""
_MAD_TO_SIGMA = 0.6745 * 6.0
"""Median |response| of Gaussian noise of σ 1."""


@dataclass(frozen=True, slots=True)
class NoiseConfig:
    """When and how much the working image is softened."""

    above: float = 3.0
    """Noise σ (grey levels) above which the image is softened. Clean photos measure under
    1, the real tray photos up to about 2. A 3×3 median also wipes out one-pixel seams:
    from 2 up it shifted quads of the unit tests' drawn rows (noise σ 2.5) by a few
    pixels, so mild grain is left alone."""
    median: int = 3
    """Side of the median filter (odd)."""

    def __post_init__(self) -> None:
        if self.median < 3 or self.median % 2 == 0:
            raise InvalidInput(f"median must be an odd size >= 3, got {self.median}")


def noise_sigma(gray: np.ndarray) -> float:
    """The noise σ of a grey ``uint8`` image, from the median of a residual that cancels
    smooth shading (edges are few, so the median ignores them)."""
    if min(gray.shape[:2]) < 3:
        return 0.0
    r = cv2.filter2D(gray, cv2.CV_16S, _RESIDUAL)[1:-1:2, 1:-1:2]  # every other pixel: enough
    median = _clipped_median(r)
    return (_median_of(np.abs(r)) if median is None else median) / _MAD_TO_SIGMA


def _clipped_median(r: np.ndarray) -> float | None:
    """``float(np.median(np.abs(r)))`` of ``int16`` residuals, read off the histogram of
    ``|r|`` clipped to 8 bits by OpenCV (a third of `_median_of`'s time on a working
    image): the order statistics below the clip are those of the unclipped values. None
    where the median reaches the clip (noise far past any threshold) or there are too
    many values for the float32 counts to be exact."""
    clipped = cv2.convertScaleAbs(r)  # min(|r|, 255)
    if clipped.size >= 1 << 24:
        return None
    counts = cv2.calcHist([clipped], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    order = np.cumsum(counts)
    n = int(order[-1])
    lo, hi = np.searchsorted(order, [(n - 1) // 2, n // 2], side="right").tolist()
    return None if hi >= 255 else (lo + hi) / 2.0


def _median_of(values: np.ndarray) -> float:
    """``float(np.median(values))`` of small non-negative integers, read off their histogram
    (a quarter of a megapixel's residuals: partitioning them cost 1.5 ms, counting 0.4)."""
    order = np.cumsum(np.bincount(values.ravel()))
    n = int(order[-1])
    # The values at sorted positions (n - 1) // 2 and n // 2 (the same one when n is odd).
    lo, hi = np.searchsorted(order, [(n - 1) // 2, n // 2], side="right").tolist()
    return (lo + hi) / 2.0


def soften(bgr: np.ndarray, cfg: NoiseConfig = NoiseConfig(), *,
           gray: np.ndarray | None = None) -> np.ndarray:
    """``bgr`` itself when clean; a median-filtered copy when its noise is above ``cfg.above``
    (``gray``: ``bgr`` in grey, when the caller has it)."""
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY) if gray is None else gray
    if noise_sigma(gray) <= cfg.above:
        return bgr
    return cv2.medianBlur(bgr, cfg.median)
