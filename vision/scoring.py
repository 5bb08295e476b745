"""Proposal scoring: how sure are we that a candidate quad is one whole tile?

A proposal's score is a weighted sum of a few plain measurements, read as a
log-odds (0 = even chance). The weights are a hand-rounded fit on the real
tray photos' proposals (`bench/locate_eval.py --fit-weights` prints a fresh
fit); they are kept few so that they carry over to other scenes:

- ``side_mean``/``side_2``: edge support of the four sides (`agari.vision.verify`),
  their mean and the second weakest side;
- ``seam``: the weakest seam a split cut along (1 for a region taken whole),
  capped; a cut through plain table or through the middle of a face is faint;
- ``uncut``: 1 for a region taken whole, which did not need a seam at all;
- ``votes``: how many other proposals found the same box, log-scaled: a real
  tile is found at many threshold levels and on several maps;
- ``size_dev``: |log(area / the local tile area)|;
- ``fill``: the region's area over its min-area box (a clean rectangle is 1);
- ``ink``: share of ink strokes in the middle of the quad, capped (a face
  nearly always carries some; a patch of table does not; backs count as inked);
- ``plate``: the margin's brightness over a ring of surroundings a little way
  out (`agari.vision.verify.Support.plate`), clipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

FEATURES: tuple[str, ...] = (
    "side_mean", "side_2", "seam", "uncut", "votes", "size_dev", "fill", "ink", "plate",
)
"""The measurements a score is made of, in the order `feature_matrix` stacks them."""


@dataclass(frozen=True, slots=True)
class ScoreWeights:
    """Weights of the proposal score (log-odds per unit of each feature)."""

    side_mean: float = 1.7
    side_2: float = 0.2
    seam: float = 5.9
    uncut: float = -1.0
    votes: float = 1.15
    size_dev: float = -2.9
    fill: float = 8.5
    ink: float = 28.0
    plate: float = 4.0
    bias: float = -13.5
    seam_cap: float = 0.5
    """Seams stronger than this count as this (a clear seam is clear enough)."""
    vote_cap: int = 20
    """Votes beyond this add nothing."""
    plate_cap: float = 0.3
    """Plate contrast is clipped to ± this."""
    ink_cap: float = 0.15
    """Ink beyond this share of a face's middle adds nothing (faces need only some)."""


def feature_matrix(feats: dict[str, np.ndarray], w: ScoreWeights = ScoreWeights()) -> np.ndarray:
    """Stack the raw measurements into float32 ``(N, len(FEATURES))``, transformed for scoring."""
    cols = []
    for name in FEATURES:
        v = np.asarray(feats[name], np.float32)
        if name == "seam":
            v = np.minimum(v, w.seam_cap)
        elif name == "votes":
            v = np.log1p(np.minimum(v, w.vote_cap))
        elif name == "ink":
            v = np.minimum(v, w.ink_cap)
        elif name == "plate":
            v = np.clip(v, -w.plate_cap, w.plate_cap)
        cols.append(v)
    return np.stack(cols, axis=1) if cols else np.zeros((0, 0), np.float32)


def tile_score(feats: dict[str, np.ndarray], w: ScoreWeights = ScoreWeights()) -> np.ndarray:
    """Log-odds that each candidate is one whole tile: float32 ``(N,)``."""
    x = feature_matrix(feats, w)
    coef = np.array([getattr(w, name) for name in FEATURES], np.float32)
    return (x @ coef + w.bias).astype(np.float32)


def count_votes(boxes: np.ndarray, iou: float, weights: np.ndarray | None = None) -> np.ndarray:
    """For each box, how many other boxes overlap it with at least ``iou``.

    Args:
        boxes: float32 ``(N, 4)`` rows ``x0, y0, x1, y1``.
        weights: ``(N,)`` how many finds each box stands for (default 1 each).

    Returns:
        float ``(N,)``: the weights of the alike boxes, less one for the box itself.
    """
    n = len(boxes)
    if n == 0:
        return np.zeros(0)
    w = np.ones(n) if weights is None else np.asarray(weights, float)
    order = np.argsort(boxes[:, 0])
    b = boxes[order]
    wo = w[order]
    votes = np.zeros(n)
    # Blocks keep the pairwise matrix small for images with thousands of proposals.
    block = 512
    for s in range(0, n, block):
        a = b[s:s + block]
        ix = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
        iy = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
        inter = np.clip(ix, 0, None) * np.clip(iy, 0, None)
        area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
        area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
        u = area_a[:, None] + area_b[None] - inter
        votes[s:s + block] = (inter >= iou * np.maximum(u, 1e-6)) @ wo - 1
    out = np.empty(n)
    out[order] = votes
    return out
