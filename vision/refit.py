"""Refit: a classical proposal that holds only a part of a tile gives way to the core
net's quad of that tile.

The classical steps (`agari.vision.proposals`) box bright, plain regions. On a tile
lying flat seen at a low angle, whose face's outline is a thin sliver, the pale gaps
between a bamboo tile's sticks or between rows of circles are small bright plates of
their own, and they get boxed instead of the face. Such a box keeps the net's quad of
the tile out (a core quad overlapping a kept proposal is never added:
`agari.vision.cores.uncovered`), and the classifier reads the box as no tile (`none`).

A part is told by its size: it lies inside a sure core quad and covers at most
`RefitConfig.part_area` of it. The real set's core quads hold the printed middle of a
face (smaller than its outline), so a classical box that small inside one is never the
whole tile there either.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from agari.vision.cores import CoreQuad
from agari.vision.proposals import Proposal
from agari.vision.quads import bounds_meeting, quad_area, quad_bounds, quad_overlap


@dataclass(frozen=True, slots=True)
class RefitConfig:
    """When a classical proposal is a part of a core quad's tile."""

    min_core: float = 0.6
    """Core quads less sure than this (mean core probability) replace nothing."""
    inside: float = 0.8
    """A part lies at least this share inside the core quad."""
    part_area: float = 0.5
    """A part covers at most this share of the core quad's area."""
    clash: float = 0.45
    """A core quad overlapping a kept proposal that is not a part of it by more than this
    (of the smaller) replaces nothing: that tile, or its neighbour, is boxed already."""


def refit(proposals: list[Proposal], cores: list[CoreQuad], scale: float,
          cfg: RefitConfig = RefitConfig()) -> list[Proposal]:
    """The proposals with parts of tiles replaced by the core quads of those tiles.

    Args:
        proposals: kept classical proposals, working pixels.
        cores: the net's tiles, in the photo's pixels.
        scale: working pixels per photo pixel.
        cfg: tuning.

    Returns:
        The proposals in the same order; the first part of a tile takes its core quad
        (working pixels) and keeps its own score, the tile's other parts are dropped.
    """
    sure = [c.quad * np.float32(scale) for c in cores
            if not c.face_down and c.score >= cfg.min_core]
    if not sure or not proposals:
        return proposals
    taken = _parts(proposals, sure, cfg)
    if not taken:
        return proposals
    out, used = [], set()
    for i, p in enumerate(proposals):
        k = taken.get(i)
        if k is None:
            out.append(p)
        elif k not in used:
            used.add(k)
            out.append(replace(p, quad=sure[k].astype(np.float32), features=None))
    return out


def _parts(proposals: list[Proposal], sure: list[np.ndarray], cfg: RefitConfig
           ) -> dict[int, int]:
    """Proposal index -> index of the core quad (working pixels) it is a part of."""
    boxes = quad_bounds([p.quad for p in proposals])
    taken: dict[int, int] = {}
    for k, core in enumerate(sure):
        near = bounds_meeting(boxes, core)
        area = quad_area(core)
        parts = [int(i) for i in near if not proposals[i].face_down
                 and quad_area(proposals[i].quad) <= cfg.part_area * area
                 and quad_overlap(proposals[i].quad, core) >= cfg.inside]
        if not parts:
            continue
        if any(quad_overlap(core, proposals[i].quad) > cfg.clash
               for i in near if i not in parts):
            continue
        for i in parts:
            taken.setdefault(i, k)
    return taken


__all__ = ["RefitConfig", "refit"]
