"""Core parts: a net blob that may be two faces is taken as two where the judge is sure of both.

The cores of small or flat faces side by side blur into one blob (`agari.vision.cores`),
whose corners, averaged, frame a quad half on each face; nothing else frames them then,
for the classical steps miss such faces too (flat faces seen from low down, pale tables).
Blobs that split cleanly by the faces their pixels point at are cut by the net reading
itself (`CoreConfig.part`); a blob whose pixels spread less clearly carries the quads of its
two groups (`CoreQuad.parts`, `CoreConfig.judged_parts`), and here the judge (the
classifier's `tile_likeness`) settles it: the two quads replace the blob's where they frame
two faces (they hardly overlap) and the judge rates each a tile surely and at least as
surely as the blob's quad.

Both on in `HAND_LOCATE` (`CoreConfig(part=0.8, part_trim=0.1, judged_parts=(0.5, 1.6))`,
`PartsConfig()`; helper-74, stop 31). Hand and meld tiles no box covers at IoU 0.5 on
renders 1020000-1020099 (locator alone): 106 -> 47 of 1339; of the 106, 47 lay under a
net quad half on each of two faces, 33 were flat faces. Interleaved `read_photo` A/B
(photo_eval's settings, off -> on, exact hands/scores/layouts of 100 renders; hand tiles
missed): 1020000 66/68/51 -> 68/70/52 (54 -> 41), 1000000 73/71/55 -> 75/73/58 (84 -> 61),
950000 70/65/42 -> 73/67/45 (56 -> 47), 990000 70/70/58 -> 72/71/60 (60 -> 42), guard
980000 72/65/55 -> 76/73/57 (80 -> 60); no set lost a hand; tiles
given the wrong role rose (96 -> 99, 96 -> 108, 100 -> 99, 102 -> 119: found now, not
placed) and so did misread ones (11 -> 12, 11 -> 12, 13 -> 22, 7 -> 11). Real photos and
their variants: 368/390 tiles, 19/30 exact either way, photo by photo. Locator alone
(`bench/locate_eval.py --tray none --synth 100 --seed 10000 --size 1920x1080 --hand`):
hand tiles found 0.8998 -> 0.9251, all tiles 0.671 -> 0.724, precision 0.799 -> 0.813;
CPU 137 -> 145 ms a photo. The cost is the grouping of the blobs' pixels, in the net's
thread: `find_cores` on renders 1020000-1020029 took 34.1 ms a photo off and 45.7 on; a
cheaper grouping (the same quads) then took 57.4 -> 51.7 ms a photo over 90 photos (60
renders, the 30 real photo forms).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
from agari.vision.cores import CoreQuad
from agari.vision.quads import quad_iou


@dataclass(frozen=True, slots=True)
class PartsConfig:
    """When a blob's two parts replace it."""

    sure: float = 0.97
    """The judge rates each part a tile at least this surely..."""
    apart: float = 0.25
    """...and the parts overlap at most this much (IoU): two quads over one face are its
    halves, not two faces."""


def judged_parts(photo: np.ndarray, cores: list[CoreQuad],
                 judge: Callable[[np.ndarray, list[np.ndarray]], np.ndarray],
                 cfg: PartsConfig) -> list[CoreQuad]:
    """``cores`` with each blob that carries parts replaced by them where the judge takes
    them (see the module), in the same order; every quad returned carries no parts."""
    torn = [c for c in cores if c.parts and quad_iou(c.parts[0], c.parts[1]) <= cfg.apart]
    if not torn:
        return [replace(c, parts=()) if c.parts else c for c in cores]
    odds = iter(np.asarray(judge(photo, [q for c in torn for q in (c.quad, *c.parts)])).tolist())
    verdict = {}
    for c in torn:
        whole = next(odds)
        each = [next(odds) for _ in c.parts]
        verdict[id(c)] = min(each) >= cfg.sure and min(each) >= whole
    out: list[CoreQuad] = []
    for c in cores:
        if verdict.get(id(c)):
            out += [CoreQuad(q, c.score, c.face_down) for q in c.parts]
        else:
            out.append(replace(c, parts=()) if c.parts else c)
    return out


__all__ = ["PartsConfig", "judged_parts"]
