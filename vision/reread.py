"""Re-read a hand's tiles cropped the way the hand lies (after a first layout).

The classifier reads each tile from a crop cut along the quad's own corners.
The locator names those corners in the frame of the row it put the tile in; a
tile it left in a row of its own (a short quad, a tile lying flat at a slant)
is often framed a quarter off, and a called tile lying sideways is cut
upright unless the locator flagged it. Either way the classifier sees a face
turned a quarter, which it reads as no tile or as some other one. Once the
layout has found the hand's row and its called tiles, each hand tile can be
cut as it lies: upright in the hand's frame, or turned a quarter when it is a
meld's sideways tile. The better reading of the two is kept.

A called tile the locator boxed upright, in a meld the first layout did not find, is cut
upright in the hand's frame too; but its box is shaped as it lies, much squatter than its
upright neighbours. Such a tile is read turned as well, and the hand chooses between the
two cuts (`wide_upright`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

import numpy as np
from agari.engine.errors import NoTiles
from agari.engine.tiles import NONE, Tile
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, LayoutConfig, LayoutPlan, analyse_layout
from agari.vision.layout_frame import aligned
from agari.vision.reading_cuts import called as called_in
from agari.vision.reading_cuts import cut_differently, either

WIDE_RATIO = 1.3
"""A hand tile cut upright whose along/across aspect in the hand's frame is at least this
many times its upright neighbours' (`NEIGHBOURS`) is read turned too (`wide_upright`). On
the tuning renders 1.2-1.4 read the same hands (1.15 one more misread tile); a sideways tile
is about 1.8 times as squat as an upright one."""
NEIGHBOURS = 4
"""The hand's upright tiles nearest a tile (by centre) whose median aspect it is judged by."""

Classify = Callable[[np.ndarray, Sequence[TileDetection]], list[TileDetection]]
"""``(image, detections) -> classified copies``, as `TileClassifier.classify_detections`."""


def reread_in_hand_frame(image: np.ndarray, dets: Sequence[TileDetection], classify: Classify,
                         *, layout: LayoutConfig = DEFAULT_LAYOUT,
                         plans: Sequence[LayoutPlan] | None = None,
                         wide: float | None = WIDE_RATIO, both: float | None = None,
                         unsure: float | None = None) -> list[TileDetection]:
    """``dets`` with each hand tile read again as it lies, where that reads it more surely.

    A tile is read again when the first layout's plan cuts it differently from the
    locator: its corners named a quarter turn round, or its sideways flag changed.
    The new reading replaces the old one (quad and flag with it) when its likeliest
    tile (any class but ``none``) is likelier than the old reading's. ``plans``: the
    first layout (`analyse_layout` of ``dets`` with ``layout``), when the caller has it.

    A hand tile cut upright but shaped like a called tile (``wide`` times squatter than its
    upright neighbours, `wide_upright`) is read turned as well; where that names another
    tile, it is read by whichever cut names each class more surely (`either`), its quad and
    flag kept. ``wide``: None reads no tile turned for its shape.

    ``both``: a tile whose cut as it lies names another tile at least this surely, though
    less surely than its first cut, is read by whichever cut names each class more surely
    (`either`, quad and flag kept) rather than by its first cut alone (None: never): the
    plan's frame is evidence too, and the hand decides (an upright 9s boxed as a called tile
    reads 9p at 0.93 sideways, 9s at 0.79 upright in the hand's frame).

    ``unsure``: a hand tile cut upright whose face is read less surely than this is read
    turned as well, whatever its shape, as a squat one is (a called 9p boxed upright, seen
    from above and so about as wide as tall, reads 9s at 0.87 upright, 9p at 0.94 turned).
    """
    dets = list(dets)
    try:
        plan = (plans if plans is not None else analyse_layout(dets, config=layout))[0]
    except NoTiles:
        return dets
    framed = aligned(dets, plan.frame)
    called = called_in(plan)
    todo = [(i, replace(framed[i], sideways=i in called)) for i in sorted(plan.role_of())
            if cut_differently(dets[i], framed[i], i in called)]
    squat = [] if wide is None else wide_upright(framed, plan, called, wide)
    if unsure is not None:
        squat = sorted({*squat, *unsure_upright(dets, framed, plan, called, unsure)})
    if not todo and not squat:
        return dets
    again = classify(image, [d for _, d in todo] + [replace(framed[i], sideways=True)
                                                     for i in squat])
    for (i, _), new in zip(todo, again[:len(todo)], strict=True):
        if likeliest_tile(new) > likeliest_tile(dets[i]):
            dets[i] = new
        elif both is not None and isinstance(new.label, Tile) \
                and isinstance(dets[i].label, Tile) and new.label != dets[i].label \
                and (new.confidence or 0.0) >= both:
            dets[i] = either(dets[i], new)
    for i, new in zip(squat, again[len(todo):], strict=True):
        # A called tile boxed upright is cut as its face turned a quarter, which reads surely
        # as another tile (sideways 0m as 0s at 0.97, 4p as 2p); yet squat is no proof that
        # it lies sideways (a flat tile seen at a slant): the hand decides between the cuts.
        # Taking the turned reading and flag where surer lost a hand (tuning renders).
        if isinstance(new.label, Tile) and new.label != dets[i].label:
            dets[i] = either(dets[i], new)
    return dets


def wide_upright(framed: Sequence[TileDetection], plan: LayoutPlan, called: set[int],
                 ratio: float) -> list[int]:
    """The plan's hand-row tiles (not indicators) cut upright whose along/across aspect in
    the hand's frame is at least ``ratio`` times the median of their `NEIGHBOURS` nearest
    upright hand tiles'."""
    roles = plan.role_of()
    ups = [i for i in sorted(roles) if roles[i] not in ("dora", "ura") and i not in called
           and not framed[i].sideways]
    if len(ups) < 3:
        return []
    q = np.asarray([framed[i].quad for i in ups], np.float64)
    along = np.linalg.norm((q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3]), axis=1)
    across = np.linalg.norm((q[:, 0] - q[:, 3]) + (q[:, 1] - q[:, 2]), axis=1)
    aspect = along / np.maximum(across, 1e-9)
    centres = q.mean(axis=1)
    out = []
    for k, i in enumerate(ups):
        dist = np.linalg.norm(centres - centres[k], axis=1)
        dist[k] = np.inf
        near = np.argsort(dist, kind="stable")[:NEIGHBOURS]
        if aspect[k] >= ratio * float(np.median(aspect[near])):
            out.append(i)
    return out


def unsure_upright(dets: Sequence[TileDetection], framed: Sequence[TileDetection],
                   plan: LayoutPlan, called: set[int], below: float) -> list[int]:
    """The plan's hand-row tiles (not indicators) cut upright whose first name, a face, has
    less probability than ``below``."""
    roles = plan.role_of()
    return [i for i in sorted(roles) if roles[i] not in ("dora", "ura") and i not in called
            and not framed[i].sideways and isinstance(dets[i].label, Tile)
            and dets[i].confidence is not None and dets[i].confidence < below]


def likeliest_tile(det: TileDetection) -> float:
    """The probability of the detection's likeliest class other than ``none``."""
    return max((p for name, p in det.alternatives if name != NONE), default=0.0)


__all__ = ["NEIGHBOURS", "WIDE_RATIO", "Classify", "likeliest_tile", "reread_in_hand_frame",
           "unsure_upright", "wide_upright"]
