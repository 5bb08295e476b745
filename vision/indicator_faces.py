"""Indicators the locator left out: the core net's lone quads where the dora should lie.

A dora indicator often lies alone behind the hand: on a stack of its own, or loose on
the table. The core net usually finds it, but the locator adds a lone net quad (one
with no like-sized quad near) only where the classifier is all but sure it frames a
tile (`LocateConfig.lone_tile`, 0.99), and a flat face seen obliquely rates lower; the
layout then reads no dora. Here, only where the layout reads none, each such quad that
no detection covers and that lies where indicators may lie (beside or behind the hand,
within the layout's reach: `agari.vision.layout_extras`) is read by the classifier; a
face it names surely is added as a detection (a likely but unsure one is re-framed
first, as `agari.vision.wall_faces` does). The layout then decides, as for any located
tile, whether it is an indicator.

Like `agari.vision.wall_faces`, this verifies quads found elsewhere (with
`IndicatorFacesConfig.search`, a small grid round each of them); it searches nothing else.

On in the pipeline since stop 35 (`agari.pipeline.PipelineConfig.indicator_faces`, with
`search`; `agari.vision.wall_faces.DEFAULT_WALL_FACES` with `WallFacesConfig.shifts`), under
that stop's rule for a change to indicators alone (exact layouts +3 over the five tuning
sets, hands and scores not down). Whole `photo_eval` at 61dd508, hands/scores/layouts, off ->
on: 1030000 81/74/58 -> 81/75/60 (1030067, 1030079), 1020000 79/74/60 -> 79/75/61
(1020057), 1000000 76/74/59 -> 76/75/61 (1000048, 1000068), 1040000 74/71/59, 990000
75/73/62 and guard 980000 78/74/59 the same; nothing lost. Before that, off by default:
interleaved read_photo A/B
at stop 31 (`/work/cache/helper-75/ab2.py SEED 100`, with `search` and
`WallFacesConfig.shifts` (-0.3, -0.15, 0.15, 0.3); hands/layouts/scores, off -> on):
1020000 69/53/69 -> 69/54/70 (1020057's 1m), 1000000 76/59/74 -> 76/60/74 (1000048's 8s),
950000 73/45/67 and 990000 72/60/71 the same; real photos the same (368/390, 19/30). No hand
is gained (indicators never change the hand), so it stays off under stop 31's rule. Of the
hand-right scenes with wrong indicators on those four sets (72), 26 have a visible indicator
never boxed; most of these have no net quad on the face at all, or one framing the face with
its stack or the ura below it, which is why this recovers so few.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from agari.engine.errors import NoTiles
from agari.vision.cores import CoreQuad
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.layout import DEFAULT_LAYOUT, LayoutConfig, analyse_layout
from agari.vision.quads import bounds_meeting, inside_image, quad_bounds, quad_overlap
from agari.vision.reframe import face_probability, sub_quad
from agari.vision.wall_faces import WallFacesConfig, accepted, rescued


@dataclass(frozen=True, slots=True)
class IndicatorFacesConfig:
    """Which net quads are read, and when a reading is kept."""

    accept: float = 0.9
    """A quad read as a face at least this surely is kept."""
    accept_white: float = 0.97
    """...a blank 白 at least this surely (a pale table or a stack's side reads alike)."""
    max_overlap: float = 0.3
    """A net quad covering more than this (of the smaller) of any detection is not read."""
    max_tries: int = 6
    """Most quads read per photo (nearest the hand first)."""
    rescue_floor: float | None = 0.3
    """A quad read as a face at least this likely, but not surely, is re-framed
    (`agari.vision.reframe`) and kept if it then reads surely. None: never."""
    parts: tuple[tuple[float, float, float, float], ...] = (
        (0.0, 0.0, 1.0, 1.0), (0.0, 0.0, 1.0, 0.6), (0.0, 0.0, 1.0, 0.5), (0.0, 0.5, 1.0, 1.0),
        (0.0, -0.3, 1.0, 0.7))
    """Sub-quads of each net quad read (`agari.vision.reframe.sub_quad` frames): the net
    frames a flat indicator with its stack's side below it, with the ura row below it, or
    only the face's lower part; the surest named reading of the parts stands."""
    face_down: bool = True
    """Read the net's face-down quads too: an indicator on a stack of its own is framed
    with the stack, which the net takes for a back."""
    search: bool = False
    """Also read a small grid of quads round each net quad (`steps` along and across the
    row, `heights` of lying faces, each a hand tile wide and parallel to the hand): the
    net's quad of a lone flat face is often its stack or its lower part, and no sub-quad
    of it fits the face."""
    steps: tuple[float, ...] = (-0.5, -0.25, 0.0, 0.25, 0.5)
    """Offsets of the grid, in the quad's own widths (along) and heights (across)."""
    heights: tuple[float, ...] = (0.4, 0.6, 0.85)
    """Lying faces' heights across the row tried, in hand tile widths."""
    width: float = 0.85
    """Lying faces' width along the row tried, in hand tile widths (a flat tile behind the
    hand lies a little farther off than the hand's faces)."""
    size: tuple[float, float] = (0.5, 2.0)
    """A quad's along-row extent must lie within these multiples of the hand's tile width
    (an indicator lies parallel to the hand, about as wide as its tiles)."""


DEFAULT_INDICATOR_FACES = IndicatorFacesConfig()


def find_indicator_faces(image: np.ndarray, dets: Sequence[TileDetection],
                         found: Sequence[CoreQuad], classify: Classify, *,
                         layout: LayoutConfig = DEFAULT_LAYOUT,
                         config: IndicatorFacesConfig = DEFAULT_INDICATOR_FACES,
                         stats: dict | None = None) -> list[TileDetection]:
    """The detections with the faces of lone net quads where indicators lie added.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the image the quads refer to.
        dets: classified detections.
        found: the core net's quads of the photo (`agari.vision.cores.find_cores`).
        classify: labels a batch of detections in ``image``.
        layout: the layout's thresholds (where indicators may lie).
        config: tuning.
        stats: if given, counts of quads ``tried`` and faces ``added`` are added to it.

    Returns:
        ``dets`` itself where nothing is added, else a new list.
    """
    near = _Near(dets)
    free = [c for c in found if (config.face_down or not c.face_down)
            and not near.covers(c.quad, config.max_overlap)]
    if not free:
        return dets
    try:
        plan = analyse_layout(list(dets), config=layout)[0]
    except NoTiles:
        return dets
    if plan.dora or not plan.hand_tiles:
        return dets  # the layout reads indicators already, or no hand to place them by
    size = (image.shape[1], image.shape[0])
    quads = [q for q in _in_reach(free, dets, plan, layout, config) if inside_image(q, size)]
    quads = quads[:config.max_tries]
    if stats is not None:
        stats["tried"] = stats.get("tried", 0) + len(quads)
    if not quads:
        return dets
    wf = WallFacesConfig(accept=config.accept, accept_white=config.accept_white,
                         rescue_floor=config.rescue_floor)
    best = _surest(image, [[sub_quad(q, f) for f in config.parts] for q in quads], classify)
    if config.search:
        # The grid only where no part of the net's quad reads a face surely.
        todo = [k for k, d in enumerate(best) if not accepted(d, wf)]
        found = _surest(image, [_grid(quads[k], plan.frame, config) for k in todo], classify)
        for k, d in zip(todo, found, strict=True):
            if face_probability(d) > face_probability(best[k]):
                best[k] = d
    if config.rescue_floor is not None:
        best = rescued(image, best, classify, wf)
    added = []
    for d in best:
        if accepted(d, wf) and not _Near(added).covers(d.quad, config.max_overlap):
            added.append(d)
    if not added:
        return dets
    if stats is not None:
        stats["added"] = stats.get("added", 0) + len(added)
    return [*dets, *added]


def _surest(image: np.ndarray, per: list[list[np.ndarray]], classify: Classify
            ) -> list[TileDetection]:
    """Per list of quads, the reading with the most face probability (quads outside the
    image are skipped, but the first is always read)."""
    size = (image.shape[1], image.shape[0])
    per = [[x for x in p if inside_image(x, size)] or p[:1] for p in per]
    read = classify(image, [TileDetection(as_quad(x)) for p in per for x in p])
    best, k = [], 0
    for p in per:
        best.append(max(read[k:k + len(p)], key=face_probability))
        k += len(p)
    return best


class _Near:
    """Detections' quads, asked whether any covers a quad (`quad_overlap`) more than a limit.

    Only quads whose bounding boxes meet can overlap, so only those are measured, in the
    detections' order: each net quad of a photo was measured against every detection (~2 600
    `quad_overlap` calls a photo, ~5 % of the reading's main-thread CPU). The quads are
    `quad_overlap`'s own float32 values, so the boxes are theirs and the answer the same."""

    def __init__(self, dets: Sequence[TileDetection]) -> None:
        self.quads = np.asarray([d.quad for d in dets], np.float32).reshape(-1, 4, 2)
        self.bounds = quad_bounds(self.quads)

    def covers(self, quad: object, limit: float) -> bool:
        q = np.asarray(quad, np.float32).reshape(4, 2)
        return any(quad_overlap(q, self.quads[j]) > limit
                   for j in bounds_meeting(self.bounds, q).tolist())


def _in_reach(free: list[CoreQuad], dets: Sequence[TileDetection], plan, layout: LayoutConfig,
              cfg: IndicatorFacesConfig) -> list[np.ndarray]:
    """The quads of ``free`` lying where indicators may (`ExtrasConfig`: beside or behind
    the hand, within `reach` of its ends and `max_gap` x `wall_reach` of their own heights),
    about a hand tile wide, nearest the hand first."""
    placed = sorted(plan.hand_tiles)
    frame = plan.frame
    hext = frame.project(np.asarray([dets[i].quad for i in placed], np.float64))
    u0, u1 = float(hext[:, 0].min()), float(hext[:, 1].max())
    v0, v1 = float(hext[:, 2].min()), float(hext[:, 3].max())
    tw = frame.tile_width
    ex = layout.extras
    ext = frame.project(np.asarray([c.quad for c in free], np.float64))
    out = []
    for c, (a0, a1, b0, b1) in zip(free, ext, strict=True):
        if (b0 + b1) / 2 < v0:
            continue  # in front of the hand
        if not cfg.size[0] * tw <= a1 - a0 <= cfg.size[1] * tw:
            continue
        if a1 < u0 - ex.reach * tw or a0 > u1 + ex.reach * tw:
            continue
        du = max(u0 - a1, a0 - u1, 0.0)
        dv = max(v0 - b1, b0 - v1, 0.0)
        distance = float(np.hypot(du, dv))
        if distance > ex.max_gap * ex.wall_reach * max(b1 - b0, 1.0):
            continue
        out.append((distance, np.asarray(c.quad, np.float64)))
    out.sort(key=lambda t: t[0])
    return [q for _, q in out]


def _grid(q: np.ndarray, frame, cfg: IndicatorFacesConfig) -> list[np.ndarray]:
    """Quads of lying faces parallel to the hand round ``q``'s centre
    (`IndicatorFacesConfig.search`)."""
    along = np.asarray(frame.along, np.float64)
    up = np.asarray(frame.up, np.float64)
    e = frame.project(q[None])[0]
    w0, h0 = float(e[1] - e[0]), float(e[3] - e[2])
    c = q.mean(axis=0)
    w = cfg.width * frame.tile_width
    out = []
    for hf in cfg.heights:
        h = hf * frame.tile_width
        a, b = along * w / 2, up * h / 2
        for i in cfg.steps:
            for j in cfg.steps:
                m = c + along * i * w0 + up * j * h0
                out.append(np.array([m - a + b, m + a + b, m + a - b, m - a - b]))
    return out
