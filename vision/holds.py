"""Holds: a classical proposal that holds a core-net face with more round it.

A tile lying flat shows its face and, below it, its front side; the classical steps
(`agari.vision.proposals`) often box both together (1.6 to 3 times the face), or a face
and half its neighbour. Such a box covers the net's quad of the face, which is then
never added (`agari.vision.cores.uncovered`), and the classifier reads the box worse
than the face. The contests of `agari.vision.locate` catch a box that straddles two
sure net quads or fits one badly (IoU under a half); a box twice its face's size
that holds it whole still fits it at IoU about a half, and its net quad is often
less sure than a contest asks.

Here every such pair is a dispute for the judge (the classifier), settled as the
locator's contests are, with a doubt of its own (`HoldConfig.doubt`). On the real
set the net's quads hold only the printed part of a face, so a good classical box
holds its net quad with more round it too: it stays where the judge rates it a tile
surely (the judge decides, never the shapes alone). On the tuning renders (seeds 910000
and 920000; the 28 where such a box is rated under 0.9 or 0.7) exact hands 9 -> 11, hand
tiles missed 78 -> 57, wrong role 45 -> 56; no hand lost.
"""

from __future__ import annotations

from dataclasses import dataclass

from agari.vision.proposals import Proposal
from agari.vision.quads import bounds_meeting, quad_area, quad_bounds, quad_overlap


@dataclass(frozen=True, slots=True)
class HoldConfig:
    """When a classical proposal holding a net quad is judged against it."""

    min_core: float = 0.6
    """Net quads less sure than this (mean core probability) dispute nothing."""
    inside: float = 0.8
    """The net quad lies at least this share inside the proposal..."""
    min_ratio: float = 1.6
    """...and the proposal is at least this many times its area."""
    doubt: float = 0.5
    """The proposal gives way only where the judge rates it a tile under this (it more
    likely holds none)... On the real photos' variants 0.6 broke the table photo's rows
    (328 -> 301 tiles of 390; 0.8: 285): there the box holds the whole face, the net's
    quad its printed part, and the classifier rates both alike. 0.5: 328 either way."""
    margin: float = 0.1
    """...and rates the net quads it holds higher by this."""


def held(proposals: list[Proposal], found: list[Proposal], scores: list[float],
         cfg: HoldConfig) -> list[tuple[Proposal, list[Proposal]]]:
    """The proposals that hold face-up net quads with more round them, each with the
    quads it holds (all in working pixels).

    Args:
        proposals: classical proposals.
        found: the net's quads as proposals.
        scores: each net quad's mean core probability (as ``found``).
        cfg: tuning.
    """
    cores = [f for f, s in zip(found, scores, strict=True)
             if not f.face_down and s >= cfg.min_core]
    if not cores or not proposals:
        return []
    boxes = quad_bounds([c.quad for c in cores])
    areas = [quad_area(c.quad) for c in cores]
    disputes = []
    for p in proposals:
        if p.face_down:
            continue
        near = bounds_meeting(boxes, p.quad)
        area = quad_area(p.quad)
        inner = [cores[j] for j in near if area >= cfg.min_ratio * areas[j]
                 and quad_overlap(cores[j].quad, p.quad) >= cfg.inside]
        if inner:
            disputes.append((p, inner))
    return disputes


__all__ = ["HoldConfig", "held"]
