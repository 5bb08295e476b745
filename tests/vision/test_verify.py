"""Ink share: the closing made around the candidates equals the whole-image computation."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from agari.vision.verify import ink_share


def _plain_ink_share(gray: np.ndarray, quads: np.ndarray, kernel: int, darkness: float,
                     inner: float = 0.6) -> np.ndarray:
    """The straightforward computation: a closing of the whole image, compared in float32."""
    k = cv2.getStructuringElement(cv2.MORPH_RECT, (kernel, kernel))
    closed = cv2.morphologyEx(gray, cv2.MORPH_CLOSE, k)
    ink = gray.astype(np.float32) <= (1.0 - darkness) * closed.astype(np.float32)
    h, w = gray.shape
    out = []
    for q in quads:
        lo, hi = q.min(axis=0), q.max(axis=0)
        c, half = (lo + hi) / 2, (hi - lo) * inner / 2
        x0, x1 = (int(np.clip(np.round(v), 0, w)) for v in (c[0] - half[0], c[0] + half[0]))
        y0, y1 = (int(np.clip(np.round(v), 0, h)) for v in (c[1] - half[1], c[1] + half[1]))
        out.append(ink[y0:y1, x0:x1].sum() / max((x1 - x0) * (y1 - y0), 1))
    return np.float32(out)


@pytest.mark.parametrize("dtype", [np.uint8, np.float32])
@pytest.mark.parametrize("kernel", [3, 4, 9, 23])
@pytest.mark.parametrize("darkness", [-0.3, 0.0, 0.2, 0.35, 1.0, 1.4])
def test_ink_share_equals_the_whole_image_closing(dtype, kernel: int, darkness: float) -> None:
    rng = np.random.default_rng(kernel)
    for _ in range(10):
        h, w = (int(v) for v in rng.integers(40, 240, 2))
        gray = cv2.GaussianBlur(rng.integers(0, 256, (h, w), dtype=np.uint8), (3, 3), 0)
        centre = rng.uniform(-10, (w + 10, h + 10), (6, 2))
        size = rng.uniform(3, 60, (6, 2))
        corners = np.float32([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
        quads = (centre[:, None, :] + size[:, None, :] * corners).astype(np.float32)
        got = ink_share(gray.astype(dtype), quads, kernel=kernel, darkness=darkness)
        want = _plain_ink_share(gray.astype(dtype), quads, kernel, darkness)
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-6)
