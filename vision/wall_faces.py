"""Indicators the locator missed on a dead wall: read where the wall's stacks leave room.

A dead wall (王牌) is a row of face-down stacks with the dora indicators turned face
up on top of some of them. Where the locator boxes the stacks' backs but not an
indicator, the layout sees a row of backs one stack short, or with a one-stack
gap, and no dora on a wall. Then (and only then) each row of backs near the hand
proposes a quad in every such gap and one stack beyond each of its ends (a
neighbouring stack's quad stepped along the row by the stacks' pitch); the
classifier reads them, and a face it names surely is added as a detection, in
place of any box over that spot that was read as no tile or an unsure back. The
layout then decides, as for any located tile, whether it is an indicator.

Like `agari.vision.fill`, this verifies quads derived from located tiles; it
finds no tile of its own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from agari.engine.errors import NoTiles
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.layout import DEFAULT_LAYOUT, LayoutConfig, analyse_layout, is_tile
from agari.vision.layout_geometry import (
    columns_of,
    find_rows,
    frame_of_row,
    is_face_down,
    median,
    quads_of,
)
from agari.vision.layout_plan import LayoutPlan
from agari.vision.layout_tokens import WHITE_DRAGON
from agari.vision.quads import inside_image, quad_overlap
from agari.vision.reframe import ReframeConfig, face_probability, reframe


@dataclass(frozen=True, slots=True)
class WallFacesConfig:
    """Where a missed indicator is looked for, and when a read is kept."""

    min_backs: int = 2
    """A row needs at least this many backs (stacks) to be taken for a wall."""
    accept: float = 0.9
    """A quad read as a face at least this surely is kept."""
    accept_white: float = 0.97
    """...a blank 白 at least this surely (a pale back or bare table reads alike)."""
    touch: float = 1.35
    """Stacks whose centres lie at most this many tile widths apart touch: their spacing is
    the wall's pitch."""
    gap_stacks: int = 2
    """Gaps of up to this many missing stacks are looked into."""
    fit: float = 0.3
    """A gap is looked into only when its width is within this many pitches of a whole
    number of stacks."""
    ends: bool = True
    """Also look one stack beyond each end of the row (at the pitch of its touching stacks)."""
    max_overlap: float = 0.3
    """A quad covering more than this (of the smaller) of a located face, or of a back read
    at least `firm_back` surely, is not read."""
    firm_back: float = 0.5
    max_tries: int = 8
    """Most quads read per photo (nearest rows first)."""
    shifts: tuple[float, ...] = ()
    """Where a quad reads no face surely (re-framed too), it is read moved along the row by
    these fractions of the wall's pitch, and the surest sure face of them stands. A quad
    stepped from a neighbouring stack lands off an indicator where the locator's boxes are
    unevenly spaced. Empty: the quad alone. Measured only together with
    `agari.vision.indicator_faces` (see there: layouts +2, scores +1 over four tuning sets, no
    hand changed). Tried with `accept_white` 0.85 as well: 1020067's and 990050's 白 were
    read, but 950088 lost its 2z to a pale back read 白 at 0.90 elsewhere on the wall."""
    rescue_floor: float | None = 0.3
    """A quad read as a face at least this likely, but not surely, is re-framed (moved,
    trimmed: `agari.vision.reframe`) and kept if it then reads surely: a stepped quad lands
    a little off an indicator that sits higher or narrower than the backs. None: never."""


DEFAULT_WALL_FACES = WallFacesConfig(shifts=(-0.3, -0.15, 0.15, 0.3))
"""The pipeline's: with `WallFacesConfig.shifts`, measured together with
`agari.vision.indicator_faces`."""


def find_wall_faces(image: np.ndarray, dets: Sequence[TileDetection], classify: Classify, *,
                    layout: LayoutConfig = DEFAULT_LAYOUT,
                    config: WallFacesConfig = DEFAULT_WALL_FACES,
                    stats: dict | None = None) -> list[TileDetection]:
    """The detections with indicators found on a dead wall the layout read none on.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the image the quads refer to.
        dets: classified detections.
        classify: labels a batch of detections in ``image``.
        layout: the layout's thresholds (where indicators may lie).
        config: tuning.
        stats: if given, counts of quads ``tried`` and faces ``added`` are added to it.

    Returns:
        ``dets`` itself where nothing is added, else a new list.
    """
    dets = list(dets)
    if sum(1 for d in dets if is_face_down(d)) < config.min_backs:
        return dets  # no wall to look along (spares the layout's cost)
    try:
        plan = analyse_layout(dets, config=layout)[0]
    except NoTiles:
        return dets
    walls = _wall_rows(dets, plan, layout, config)
    if not walls or any(i in row for row, _ in walls for i in plan.dora):
        return dets  # no wall near the hand, or its indicators were read
    trials, anchors = [], []
    size = (image.shape[1], image.shape[0])
    moves = (0.0, *config.shifts)
    for _, quads in walls:
        for q, anchor, stride in quads:
            if len(trials) >= config.max_tries:
                break
            if inside_image(q, size) and not _blocked(q, dets, config):
                trials.append([q + stride * m for m in moves])
                anchors.append(anchor)
    if stats is not None:
        stats["tried"] = stats.get("tried", 0) + len(trials)
    if not trials:
        return dets
    read = classify(image, [TileDetection(as_quad(t[0])) for t in trials])
    if config.rescue_floor is not None:
        read = rescued(image, read, classify, config)
    if config.shifts:
        # The moves only where the quad itself reads no face surely, even re-framed: a move
        # lands on a neighbouring stack's side as readily as on the indicator.
        todo = [k for k, d in enumerate(read) if not accepted(d, config)]
        moved = _surest(image, [trials[k][1:] for k in todo], classify, size)
        for k, d in zip(todo, moved, strict=True):
            if d is not None and accepted(d, config):
                read[k] = d
    found = []
    for det, anchor in zip(read, anchors, strict=True):
        if accepted(det, config) and not any(
                quad_overlap(np.asarray(det.quad), np.asarray(f.quad)) > config.max_overlap
                for f, _ in found):
            found.append((det, anchor))
    if not found:
        return dets
    if stats is not None:
        stats["added"] = stats.get("added", 0) + len(found)
    out = list(dets)
    for det, anchor in found:
        q = np.asarray(det.quad)
        # Boxes over the spot read as no tile or an unsure back give way to the face.
        out = [d for d in out if quad_overlap(q, np.asarray(d.quad)) <= config.max_overlap]
        at = next((k for k, d in enumerate(out) if d is anchor), len(out) - 1)
        out.insert(at + 1, det)
    return out


def _surest(image: np.ndarray, trials: list[list[np.ndarray]], classify: Classify,
            size: tuple[int, int]) -> list[TileDetection | None]:
    """Per trial, the reading of its quads inside the image with the most face probability
    (None where none lies inside)."""
    flat, owner = [], []
    for k, quads in enumerate(trials):
        for q in quads:
            if inside_image(q, size):
                flat.append(TileDetection(as_quad(q)))
                owner.append(k)
    best: list[TileDetection | None] = [None] * len(trials)
    for k, d in zip(owner, classify(image, flat) if flat else [], strict=True):
        if best[k] is None or face_probability(d) > face_probability(best[k]):
            best[k] = d
    return best


def rescued(image: np.ndarray, read: list[TileDetection], classify: Classify,
             cfg: WallFacesConfig) -> list[TileDetection]:
    """``read`` with its likely but unsure faces re-framed where that reads them surely."""
    weak = [k for k, d in enumerate(read)
            if not accepted(d, cfg) and face_probability(d) >= cfg.rescue_floor]
    if not weak:
        return read
    rescue = ReframeConfig(weak_confidence=1.0, accept_confidence=cfg.accept, sideways=False)
    again = reframe(image, [read[k] for k in weak], classify, config=rescue)
    out = list(read)
    for k, new in zip(weak, again, strict=True):
        if new is not read[k] and accepted(new, cfg):
            out[k] = new
    return out


def accepted(det: TileDetection, cfg: WallFacesConfig) -> bool:
    """``det`` is read as a face surely enough (`WallFacesConfig.accept`, `accept_white`)."""
    if not isinstance(det.label, Tile):
        return False
    return det.confidence >= (cfg.accept_white if det.label == WHITE_DRAGON else cfg.accept)


def _blocked(q: np.ndarray, dets: list[TileDetection], cfg: WallFacesConfig) -> bool:
    """A located face, or a sure back, already covers the spot."""
    centre = q.mean(axis=0)
    reach = float(np.linalg.norm(q[0] - q[2]))
    for d in dets:
        firm = isinstance(d.label, Tile) or (d.label == BACK and d.confidence >= cfg.firm_back)
        if not firm:
            continue
        dq = np.asarray(d.quad, np.float64)
        if np.linalg.norm(dq.mean(axis=0) - centre) < reach and \
                quad_overlap(q, dq) > cfg.max_overlap:
            return True
    return False


def _wall_rows(dets: list[TileDetection], plan: LayoutPlan, layout: LayoutConfig,
               cfg: WallFacesConfig
               ) -> list[tuple[list[int], list[tuple[np.ndarray, object, np.ndarray]]]]:
    """Rows of backs near the hand (nearest first): their members and the quads to read,
    each with the back it was stepped from and the wall's stride (pitch along the row)."""
    placed = set(plan.hand_tiles)
    if not placed:
        return []
    outside = [i for i, d in enumerate(dets) if i not in placed and is_tile(d)]
    quads = quads_of(dets)
    hext = plan.frame.project(quads[sorted(placed)])
    hand = (float(hext[:, 0].min()), float(hext[:, 1].max()),
            float(hext[:, 2].min()), float(hext[:, 3].max()))
    tw = plan.frame.tile_width
    ex = layout.extras
    found = []
    for row in find_rows([dets[i] for i in outside]):
        members = [outside[j] for j in row]
        backs = [i for i in members if is_face_down(dets[i])]
        if len(backs) < cfg.min_backs:
            continue
        hb = plan.frame.project(quads[backs])
        u0, u1 = float(hb[:, 0].min()), float(hb[:, 1].max())
        v0, v1 = float(hb[:, 2].min()), float(hb[:, 3].max())
        if (v0 + v1) / 2 < hand[2]:
            continue  # in front of the hand
        if u1 < hand[0] - ex.reach * tw or u0 > hand[1] + ex.reach * tw:
            continue
        du = max(hand[0] - u1, u0 - hand[1], 0.0)
        dv = max(hand[2] - v1, v0 - hand[3], 0.0)
        height = median(hb[:, 3] - hb[:, 2])
        distance = float(np.hypot(du, dv))
        if distance > ex.max_gap * ex.wall_reach * max(height, 1.0):
            continue
        found.append((distance, members, _steps(dets, backs, quads, cfg)))
    found.sort(key=lambda f: f[0])
    return [(members, steps) for _, members, steps in found]


def _steps(dets: list[TileDetection], backs: list[int], quads: np.ndarray,
           cfg: WallFacesConfig) -> list[tuple[np.ndarray, object, np.ndarray]]:
    """Quads where a stack of this row of backs is missing: in its gaps, beyond its ends;
    each with the back it was stepped from and the stride between stacks."""
    frame = frame_of_row(dets, backs)
    ext = frame.project(quads)
    cols = columns_of(backs, ext)
    tops = [col[-1] for col in cols]  # an indicator lies on a stack's top, level with the others
    mids = [(ext[i, 0] + ext[i, 1]) / 2 for i in tops]
    diffs = np.diff(mids)
    touching = [d for d in diffs if 0 < d <= cfg.touch * frame.tile_width]
    if not touching:
        return []
    pitch = median(np.asarray(touching))
    along = np.asarray(frame.along, np.float64)
    stride = along * pitch
    out: list[tuple[np.ndarray, object, np.ndarray]] = []
    for k, d in enumerate(diffs):
        stacks = round(d / pitch)
        if 2 <= stacks <= cfg.gap_stacks + 1 and abs(d / pitch - stacks) <= cfg.fit:
            step = d / stacks
            for m in range(1, stacks):
                out.append((quads[tops[k]] + along * step * m, dets[tops[k]], stride))
    if cfg.ends:
        out.append((quads[tops[0]] - stride, dets[tops[0]], stride))
        out.append((quads[tops[-1]] + stride, dets[tops[-1]], stride))
    return out
