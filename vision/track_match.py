"""Which located tile is which tracked tile, and did it change: matching and signatures.

A track is matched to the located tile nearest its predicted position, within a
fraction of the tile's own size (greedy, nearest pairs first: tiles in a hand
are far apart compared with how far a tracked quad is off).

A *signature* is a small colour crop of a tile with a rim of what surrounds
it, each channel expressed as contrast relative to its own mean, ``(x - m) / m``:
a change of light or white balance (a gain per channel) leaves it unchanged,
while a different face changes it: other art moves the pattern, and a red five
for a black one changes the red channel's contrast (red ink barely shows in
it). An empty table where the tile was differs too: the rim keeps even a plain
back from looking like bare felt.
Signatures are cut from a half-size frame: the blur there makes them steady
under sub-pixel shake.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from agari.vision.crops import crop_matrix

SIGNATURE_SIZE = (24, 18)
"""Signature crop ``(height, width)`` of an upright tile."""


@dataclass(frozen=True, slots=True)
class MatchConfig:
    """Tuning of matching and signature comparison."""

    radius: float = 0.5
    """Largest centre distance of a match, in the tile's short sides."""
    same_face: float = 0.55
    """Signature similarity under which a tile has surely changed (its votes start afresh)."""
    recheck: float = 0.72
    """Under this a tile may have changed (two faces alike but for a detail, such as 4m and
    5m): it is read again, and its votes start afresh only if the reading disagrees."""
    faint: float = 0.02
    """RMS relative contrast under which a signature channel shows nothing (noise)."""
    size: tuple[int, int] = SIGNATURE_SIZE
    rim: float = 0.15
    """Context around the tile in a signature, as a share of its width and height per side."""


DEFAULT_MATCH = MatchConfig()


def short_side(quad: np.ndarray) -> float:
    """Mean length of a quad's shorter pair of opposite edges: ``quad`` is ``(4, 2)``."""
    a = (np.linalg.norm(quad[1] - quad[0]) + np.linalg.norm(quad[2] - quad[3])) / 2
    b = (np.linalg.norm(quad[3] - quad[0]) + np.linalg.norm(quad[2] - quad[1])) / 2
    return float(min(a, b))


def match(tracked: Sequence[np.ndarray], found: Sequence[np.ndarray], *,
          config: MatchConfig = DEFAULT_MATCH) -> list[tuple[int, int]]:
    """Pairs ``(track index, found index)``, nearest first, each index used once.

    Args:
        tracked: predicted quads ``(4, 2)`` of the tracks in the current frame.
        found: quads ``(4, 2)`` located in the current frame.
    """
    if not tracked or not found:
        return []
    tc = np.array([q.mean(axis=0) for q in tracked])
    fc = np.array([q.mean(axis=0) for q in found])
    dist = np.linalg.norm(tc[:, None, :] - fc[None, :, :], axis=2)
    reach = np.array([config.radius * short_side(q) for q in tracked])
    pairs: list[tuple[int, int]] = []
    used_t: set[int] = set()
    used_f: set[int] = set()
    for flat in np.argsort(dist, axis=None, kind="stable"):
        i, j = divmod(int(flat), len(found))
        if dist[i, j] > reach[i]:
            continue
        if i in used_t or j in used_f:
            continue
        pairs.append((i, j))
        used_t.add(i)
        used_f.add(j)
    return pairs


def half_frame(frame: np.ndarray) -> np.ndarray:
    """The frame at half size, each pixel the mean of a 2x2 block (signatures are cut from it)."""
    h, w = frame.shape[:2]
    return cv2.resize(frame, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)


def signatures(half: np.ndarray, quads: Sequence[np.ndarray], sideways: Sequence[bool], *,
               config: MatchConfig = DEFAULT_MATCH) -> np.ndarray:
    """Normalised signature crops of tiles.

    Args:
        half: `half_frame` of the frame, BGR ``uint8``.
        quads: full-frame quads ``(4, 2)`` TL, TR, BR, BL.
        sideways: per quad, whether the tile lies sideways.

    Returns:
        ``float32 (N, h, w, 3)``: per channel, contrast relative to the crop's mean.
    """
    h, w = config.size
    out = np.zeros((len(quads), h, w, 3), np.float32)
    for i, (q, side) in enumerate(zip(quads, sideways, strict=True)):
        m = crop_matrix(np.asarray(q, np.float32) * 0.5, sideways=side, size=(h, w),
                        margin=config.rim)
        crop = cv2.warpPerspective(half, m, (w, h), flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
        mean = crop.mean(axis=(0, 1))
        out[i] = (crop - mean) / np.maximum(mean, 1.0)
    return out


def similarity(a: np.ndarray, b: np.ndarray, *, config: MatchConfig = DEFAULT_MATCH) -> float:
    """How alike two signatures are, in [0, 1]: the worst channel's agreement.

    Per channel, ``1 - |a - b| / (|a| + |b|)`` (RMS norms): 1 for the same
    contrast, about 0.3 for an unrelated pattern, 0 for opposite ones. It is
    taken over the whole signature and over the face alone (without the rim,
    whose strong edge would hide a change of ink colour), and the lower counts.
    A channel faint in both is left out; two signatures that show nothing are alike.
    """
    h, w = a.shape[:2]
    # One pixel more than the rim: the tile's own edge is blurred over it.
    my, mx = (round(n * config.rim / (1 + 2 * config.rim)) + 1 for n in (h, w))
    face = (slice(my, h - my), slice(mx, w - mx))
    return min(_agreement(a, b, config.faint), _agreement(a[face], b[face], config.faint))


def _agreement(a: np.ndarray, b: np.ndarray, faint: float) -> float:
    scores = [1.0]
    for c in range(a.shape[-1]):
        x, y = a[..., c], b[..., c]
        nx, ny = float(np.sqrt((x * x).mean())), float(np.sqrt((y * y).mean()))
        if max(nx, ny) < faint:
            continue
        d = float(np.sqrt(((x - y) ** 2).mean()))
        scores.append(max(0.0, 1.0 - d / (nx + ny)))
    return min(scores)
