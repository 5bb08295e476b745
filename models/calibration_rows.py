"""A whole row of the reference layout that the locator missed, made from its neighbours.

Rows of the layout are evenly spaced and their tiles stand under each other (rows start
at the same end), so a row missing between two rows found — a gap about twice the
others — lies halfway between them, and a row missing at either end lies one row
spacing past the last one. Its tiles are the neighbour row's quads moved there; the
classifier keeps those that look like tiles of the row's kinds (`looks_like`), and the
row only if at least half of it does (the rest is left to row completion, gaps and ends).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from agari.engine.tiles import BACK
from agari.models.calibration_layout import ReferenceLayout, _geometry
from agari.vision.detection import TileDetection

Row = list[TileDetection]
BLANK_KINDS = (BACK, "5z")
"""Kinds without ink: a crop of bare table can read as them."""


@dataclass(frozen=True, slots=True)
class Reading:
    """The classifier on candidate quads.

    Attributes:
        tile: ``(N,)`` how tile-like each quad's crop is, 1 - p(none) in [0, 1] (0 for a
            quad reaching out of the photo).
        logp: ``(N, C)`` log-probabilities of each quad's whole crop.
        classes: the class names of ``logp``'s columns.
        colour: ``(N, 3)`` median CIE Lab colour of each quad's middle (NaN for a quad
            reaching out of the photo).
    """

    tile: np.ndarray
    logp: np.ndarray
    classes: tuple[str, ...]
    colour: np.ndarray


def looks_like(reading: Reading, i: int, name: str, config, *, blank_pair: bool = False,
               ) -> bool:
    """Candidate ``i`` shows a tile, and the model reads it as ``name``, the kind the layout
    puts there, first or at ``config.min_kind``: bare table where a tile was taken away
    can pass for some tile (shadows, texture, bits of the neighbours) but rarely for the
    very kind missing. With ``blank_pair`` a blank kind may read as the other blank kind
    (a set's back can look like its 白 to the model; the caller checks it is no table)."""
    p = np.exp(reading.logp[i])
    kinds = BLANK_KINDS if blank_pair and name in BLANK_KINDS else (name,)
    cols = [reading.classes.index(k) for k in kinds]
    return bool(reading.tile[i] >= config.min_tile
                and (int(p.argmax()) in cols or p[cols].sum() >= config.min_kind))


def _levels(rows: Sequence[Row]) -> np.ndarray:
    """Each row's mean position along the layout's up direction (top row highest)."""
    right = np.concatenate([_geometry(r).right for r in rows]).mean(axis=0)
    up = np.array([right[1], -right[0]])
    return np.array([float(np.mean(_geometry(r).centre @ up)) for r in rows])


def _where_missing(rows: Sequence[Row], counts: tuple[int, ...], row_gap: float,
                   ) -> tuple[int, bool] | None:
    """``(index the missing row takes, laid from the near side)``, or None when unclear.

    Between rows only where the spacing there is ``row_gap`` times the others' (median);
    at an end only where no spacing is; the counts found must fit the rows left."""
    # In tile heights: rows nearer the camera lie farther apart in the photo.
    height = np.array([float(np.median(_geometry(r).height)) for r in rows])
    spacing = -np.diff(_levels(rows)) / ((height[1:] + height[:-1]) / 2)
    found = [len(r) for r in rows]
    best = None
    for near, way in ((True, counts), (False, counts[::-1])):
        for at in range(len(counts)):
            expect = way[:at] + way[at + 1:]
            if any(f > e for f, e in zip(found, expect, strict=True)):
                continue
            if 0 < at < len(counts) - 1:
                others = np.delete(spacing, at - 1)
                if not len(others) or spacing[at - 1] < row_gap * float(np.median(others)):
                    continue
            elif spacing.max() >= row_gap * float(np.median(spacing)):
                continue
            cost = sum(e - f for f, e in zip(found, expect, strict=True))
            if best is None or cost < best[0]:
                best = (cost, at, near)
    return None if best is None else best[1:]


def _moves(ref: Row, other: Row, near: bool) -> np.ndarray:
    """``(len(ref), 4, 2)``: per tile of ``ref``, the move of its quad's corners to the
    tile under it in ``other`` — tiles paired column by column from the end the rows start
    at, the move fitted as a straight line along the columns (a perspective shrinks it
    smoothly towards the far side) and carried on past the shorter row."""
    qr = np.array([d.quad for d in ref], np.float64)
    qo = np.array([d.quad for d in other], np.float64)
    m = min(len(qr), len(qo))
    cols = np.arange(m) if near else np.arange(len(qr) - m, len(qr))
    moves = (qo[:m] if near else qo[len(qo) - m:]) - qr[cols]
    if m < 3:
        return np.broadcast_to(moves.mean(axis=0), qr.shape).copy()
    design = np.stack([np.ones(m), cols], axis=1)
    coef, *_ = np.linalg.lstsq(design, moves.reshape(m, -1), rcond=None)
    every = np.stack([np.ones(len(qr)), np.arange(len(qr))], axis=1)
    return (every @ coef).reshape(qr.shape)


def with_missing_row(rows: list[Row], layout: ReferenceLayout,
                     read: Callable[[list[np.ndarray]], Reading], config) -> list[Row]:
    """``rows`` (top first, one fewer than the layout's) with the missing row made of the
    moved quads that look like tiles (``config.min_tile``), if at least half of the row's
    do; else ``rows`` unchanged."""
    if len(rows) < 2 or len(rows) != len(layout.counts) - 1:
        return rows
    where = _where_missing(rows, layout.counts, config.row_gap)
    if where is None:
        return rows
    at, near = where
    n = (layout.counts if near else layout.counts[::-1])[at]
    if at in (0, len(rows)):  # one row spacing past the end row, away from its neighbour
        ref, other = (rows[0], rows[1]) if at == 0 else (rows[-1], rows[-2])
        share = -1.0
    else:  # halfway between the rows either side, from the longer
        ref, other = sorted((rows[at - 1], rows[at]), key=len, reverse=True)
        share = 0.5
    quads = np.array([d.quad for d in ref], np.float64) + share * _moves(ref, other, near)
    # Rows start at the same end: the left in the layout's frame, the right from across it.
    quads = list(quads[:n] if near else quads[-n:])
    names = layout.rows[at] if near else layout.rows[::-1][at][::-1]
    first = 0 if near else n - len(quads)
    reading = read(quads) if quads else None
    ok = [looks_like(reading, j, names[first + j], config) for j in range(len(quads))]
    if sum(ok) < max(2, n / 2):
        return rows
    made = [TileDetection(quad=tuple(tuple(map(float, p)) for p in q))
            for q, good in zip(quads, ok, strict=True) if good]
    return rows[:at] + [made] + rows[at:]
