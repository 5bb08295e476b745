"""Each hand tile read as the layout plan lays it: upright, or turned as a called tile.

A called tile lies sideways (横向き), and the classifier must see its face
turned a quarter to read it. When the locator does not flag it sideways, it
is cut upright and the classifier sees the face squeezed a quarter round: a
sideways 8p reads 6s at 0.97, a sideways 5s reads 5p. The layout may still
guess which tile of a meld is the called one (its squattest, `layout_lying`),
but one reading per detection cannot serve both guesses: the plan that calls
the tile would read the upright cut's 6s and find no set.

So every meld tile that some plan lays otherwise than it was cut is read once
more, cut as that plan lays it (`other_cuts`). A plan that lays the tile so reads
it by both cuts where they name different tiles, each class at its better cut
(`as_laid`, `either`): the plan's guess of the called tile is no certainty, so the
cut it implies adds evidence rather than replacing it. Which plan wins is decided
by the reading, as always: a pon 8p 8p 8p read from the right cut beats a row that
holds no set.

A concealed or winning tile the locator cut otherwise than upright in the hand's frame
(flagged sideways, or framed a quarter off) is read once more cut upright too, when
`agari.vision.reading_repair` may want it (`hand_cuts`, keys ``(i, None)``): the re-reading
before the layout (`agari.vision.reread`) keeps only the surer cut, and an upright 9p boxed
as a called tile reads 9s at 0.91 sideways (1030096).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

import numpy as np
from agari.vision.detection import Classify, TileDetection, label_of
from agari.vision.layout import LayoutPlan
from agari.vision.layout_frame import aligned

Cuts = Mapping[tuple[int, bool | None], TileDetection]
"""``(detection index, sideways)`` -> the meld tile's reading cut that way; ``(detection
index, None)`` -> a concealed or winning tile's reading cut upright in the hand's frame
(`hand_cuts`; kept apart from the meld keys, which `as_laid` reads)."""

MAX_OTHER_CUTS = 12
"""Tiles read again at most per photo (the likeliest plans' first)."""
MAX_HAND_CUTS = 8
"""Hand tiles read again upright at most per photo (`hand_cuts`)."""


def called(plan: LayoutPlan) -> set[int]:
    """Detections lying sideways in the plan's melds (both of an added kan's stack)."""
    return {i for m in plan.melds if m.sideways_index is not None
            for i in m.columns[m.sideways_index]}


def other_cuts(image: np.ndarray, dets: Sequence[TileDetection], plans: Sequence[LayoutPlan],
               classify: Classify, *, limit: int = MAX_OTHER_CUTS) -> Cuts:
    """The readings of meld tiles cut as some plan lays them where they were cut otherwise.

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        dets: classified detections.
        plans: the layout's plans, likeliest first.
        classify: labels detections in ``image``.
        limit: tiles read again at most.

    Returns:
        ``(detection index, sideways)`` -> its reading cut that way in the first plan that
        lays it so (quad in that plan's frame); and the hand tiles' upright cuts
        (`hand_cuts`, keys ``(i, None)``).
    """
    todo: dict[tuple[int, bool | None], TileDetection] = {}
    for plan in plans:
        side, framed = called(plan), None
        for i in (i for m in plan.melds for i in m.faces):
            key = (i, i in side)
            if key in todo or len(todo) >= limit:
                continue
            framed = framed if framed is not None else aligned(list(dets), plan.frame)
            if cut_differently(dets[i], framed[i], i in side):
                todo[key] = replace(framed[i], sideways=i in side)
    read = classify(image, list(todo.values())) if todo else []
    return {**dict(zip(todo, read, strict=True)), **hand_cuts(image, dets, plans, classify)}


def hand_cuts(image: np.ndarray, dets: Sequence[TileDetection], plans: Sequence[LayoutPlan],
              classify: Classify, *, limit: int = MAX_HAND_CUTS) -> Cuts:
    """The readings of hand tiles cut upright in the hand's frame where they were cut
    otherwise: ``(i, None)`` -> the tile so cut (quad in the frame of the first plan that
    holds it). The likeliest plans' concealed and winning tiles come first, then their meld
    tiles (a tile boxed sideways that a plan calls may stand in the hand: a repair reads it
    upright, `reading_repair.UPRIGHT_FIX`).
    """
    todo: dict[tuple[int, bool | None], TileDetection] = {}
    order = [(plan, i) for plan in plans
             for i in (*plan.concealed, *((plan.win,) if plan.win is not None else ()))]
    order += [(plan, i) for plan in plans for m in plan.melds for i in m.faces]
    frames: dict[int, list[TileDetection]] = {}
    for plan, i in order:
        key = (i, None)
        if key in todo or len(todo) >= limit:
            continue
        framed = frames.get(id(plan))
        if framed is None:
            framed = frames[id(plan)] = aligned(list(dets), plan.frame)
        if cut_differently(dets[i], framed[i], False):
            todo[key] = replace(framed[i], sideways=False)
    if not todo:
        return {}
    return dict(zip(todo, classify(image, list(todo.values())), strict=True))


def as_laid(dets: Sequence[TileDetection], plan: LayoutPlan, cuts: Cuts | None
            ) -> Sequence[TileDetection]:
    """``dets`` with each meld tile that the plan lays otherwise than it was cut, and that reads
    as another tile cut the plan's way, read both ways (`either`)."""
    if not cuts:
        return dets
    side = called(plan)
    swap = [(i, cuts[key]) for m in plan.melds for i in m.faces
            if (key := (i, i in side)) in cuts and cuts[key].label != dets[i].label]
    if not swap:
        return dets
    out = list(dets)
    for i, cut in swap:
        out[i] = either(dets[i], cut)
    return out


def either(first: TileDetection, second: TileDetection) -> TileDetection:
    """``first`` read as whichever of two cuts names each class more surely: per class the
    larger probability of the two top-k lists, best first (``first``'s quad and flag kept).

    The plan's cut is no certainty (its called tile is a guess from the shape); where the
    two cuts disagree, each class keeps its better evidence and the hand decides.
    """
    best: dict[str, float] = dict(first.alternatives)
    for name, p in second.alternatives:
        best[name] = max(best.get(name, 0.0), p)
    ranked = tuple(sorted(best.items(), key=lambda kv: -kv[1]))[:len(first.alternatives)]
    return replace(first, label=label_of(ranked[0][0]), confidence=ranked[0][1],
                   alternatives=ranked)


def cut_differently(det: TileDetection, framed: TileDetection, sideways: bool) -> bool:
    """Whether cutting ``framed`` (turned ``sideways``) gives another crop than ``det``'s:
    corners a quarter round, or the flag changed (half a turn round the classifier reads
    alike: tiles lie either way up)."""
    if det.sideways != sideways:
        return True
    old, new = np.asarray(det.quad), np.asarray(framed.quad)
    return not (np.array_equal(old, new) or np.array_equal(np.roll(old, 2, axis=0), new))


__all__ = ["Cuts", "MAX_HAND_CUTS", "MAX_OTHER_CUTS", "as_laid", "called", "cut_differently",
           "either", "hand_cuts", "other_cuts"]
