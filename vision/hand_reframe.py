"""Re-framing the hand's unsure tiles once the layout has found the hand.

A located box over a hand tile is sometimes loose (over part of a neighbour, or a face and
the table below it) and the classifier names a face there only unsurely, while a crop on
the tile itself reads right. Re-framing every unsure located tile before row completion
costs more hands than it saves (`PipelineConfig.reframe`); here only the tiles the layout
puts in the hand (concealed and winning tile), read as a face below ``below``, are read
again through `agari.vision.reframe`'s variants and then, still unsure, through the box
grown to its row's tile height; a new reading stands only when it is a confident face
(``reframe.accept_confidence``), and the tile keeps the locator's quad.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from agari.engine.errors import InvalidInput, NoTiles
from agari.engine.tiles import Tile
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.layout import LayoutConfig, analyse_layout
from agari.vision.reframe import DEFAULT_REFRAME, ReframeConfig, reframe


@dataclass(frozen=True, slots=True)
class HandReframeConfig:
    """Which hand tiles are re-framed, and how."""

    below: float = 0.5
    """A hand tile read as a face less surely than this is re-framed."""
    sure: float = 0.8
    """Hand tiles read at least this surely give the row's top and bottom lines."""
    row_fit: bool = True
    """Also read the tile's quad grown or shrunk upwards, its bottom edge kept, to the median
    height of its sure row-mates (`row_quad`: a box cut short at the top of the face, or run
    past it; lines fitted through the mates' corners copied their own offset)."""
    reframe: ReframeConfig = replace(DEFAULT_REFRAME, sideways=False)
    """The variants and the confidence a new reading needs (no quarter turns: the layout
    has already told the hand's tiles upright from called ones)."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.below <= 1.0:
            raise InvalidInput("hand re-framing's 'below' must lie in [0, 1]")


DEFAULT_HAND_REFRAME = HandReframeConfig()


def unsure_hand_tiles(dets: Sequence[TileDetection], hand: Sequence[int],
                      below: float) -> set[int]:
    """Indices in ``hand`` whose detection is an upright face read below ``below``."""
    return {i for i in hand
            if isinstance(dets[i].label, Tile) and not dets[i].sideways
            and dets[i].confidence < below}


def reframe_hand(image: np.ndarray, dets: list[TileDetection], classify: Classify, *,
                 plans=None, flip: bool | None = None, layout: LayoutConfig,
                 config: HandReframeConfig = DEFAULT_HAND_REFRAME):
    """``(dets, plans)`` with the hand's unsure tiles re-framed; ``plans`` is kept where
    nothing changed and None where something did (the layout is made again)."""
    try:
        first = plans or analyse_layout(dets, config=layout, flip=flip)
    except NoTiles:
        return dets, plans
    plan = first[0]
    hand = [*plan.concealed, *([] if plan.win is None else [plan.win])]
    todo = unsure_hand_tiles(dets, hand, config.below)
    if not todo:
        return dets, first
    # The threshold for "weak" in reframe is lifted so that every chosen tile is tried.
    cfg = replace(config.reframe, weak_confidence=max(config.reframe.weak_confidence,
                                                      config.below))
    out = reframe(image, dets, classify, config=cfg, only=todo)
    if config.row_fit:
        out = _row_fit(image, out, classify, hand, todo, config)
    if out == dets:
        return dets, first
    return out, None


def row_quad(quad: np.ndarray, mates: Sequence[np.ndarray]) -> np.ndarray | None:
    """``quad`` grown or shrunk upwards, its bottom edge kept, to the median height of
    ``mates`` (its sure row-mates): a box cut short at the top (or run past it) gets the
    row's tile height. None with under two mates."""
    if len(mates) < 2:
        return None
    m = np.asarray(mates, np.float64)
    height = float(np.median(np.linalg.norm(m[:, 3] - m[:, 0], axis=1)
                             + np.linalg.norm(m[:, 2] - m[:, 1], axis=1)) / 2)
    q = np.asarray(quad, np.float64).copy()
    for top, bottom in ((0, 3), (1, 2)):
        side = q[top] - q[bottom]
        n = float(np.linalg.norm(side))
        if n < 1.0:
            return None
        q[top] = q[bottom] + side / n * height
    return q


def _row_fit(image: np.ndarray, dets: list[TileDetection], classify: Classify,
             hand: Sequence[int], todo: set[int], config: HandReframeConfig
             ) -> list[TileDetection]:
    """Unsure tiles (still unsure after re-framing) read through their row-fitted quad; the
    reading (not the quad: the layout measures the locator's shapes) stands when sure."""
    sure = [i for i in hand if isinstance(dets[i].label, Tile) and not dets[i].sideways
            and dets[i].confidence >= config.sure]
    order = sorted(sure, key=lambda i: _centre_x(dets[i]))
    want, quads = [], []
    for i in sorted(todo):
        if dets[i].confidence >= config.below:
            continue  # re-framing has read it surely
        x = _centre_x(dets[i])
        near = sorted(order, key=lambda j: abs(_centre_x(dets[j]) - x))[:4]  # the nearest
        q = row_quad(np.asarray(dets[i].quad, np.float64),
                     [np.asarray(dets[j].quad) for j in near])
        if q is not None:
            want.append(i)
            quads.append(TileDetection(as_quad(q), sideways=False))
    if not want:
        return dets
    out = list(dets)
    for i, read in zip(want, classify(image, quads), strict=True):
        if (isinstance(read.label, Tile) and read.confidence >= config.reframe.accept_confidence
                and read.label not in config.reframe.never):
            out[i] = replace(read, quad=dets[i].quad)
    return out


def _centre_x(det: TileDetection) -> float:
    return float(np.mean(np.asarray(det.quad)[:, 0]))


__all__ = ["DEFAULT_HAND_REFRAME", "HandReframeConfig", "reframe_hand", "row_quad",
           "unsure_hand_tiles"]
