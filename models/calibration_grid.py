"""Rows of a calibration photo mended with what the reference layout says about them.

The layout is rows of evenly pitched tiles, and a row of tiles on a table is a
straight line in any photo of it (a perspective maps lines to lines). A
locator's reading that almost fits carries that structure, and what spoils it
is mostly local:

- a row broken in two (a tile boxed askew, a box across two tiles) is joined
  again: pieces whose centres lie on one line along the tiles' own row direction;
- a tile boxed twice, or a box straddling two tiles, shows as centres closer than
  a tile's width along the row: the box in more such conflicts (the straddler),
  else the one read less surely, goes;
- a row still short is offered candidate tiles in its gaps of about two pitches or
  more (quads interpolated between the neighbours'), then past its ends (the end
  quad stepped by a pitch). The caller's ``is_tile`` (the classifier) keeps only
  candidates that look like tiles: where a tile is really absent the candidate is
  bare table, is refused, and the row stays short (the layout error names it).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from agari.models.calibration_layout import (
    DEFAULT_BIND,
    BindConfig,
    ReferenceLayout,
    _geometry,
    _without_stray_singles,
    group_rows,
)
from agari.models.calibration_rows import BLANK_KINDS, Reading, looks_like, with_missing_row
from agari.vision.detection import TileDetection

Row = list[TileDetection]


TileReader = Callable[[list[np.ndarray]], Reading]
"""Quads ``(4, 2)`` float -> the classifier's `Reading` of them."""


@dataclass(frozen=True, slots=True)
class GridConfig:
    """Tolerances of `completed_rows`.

    Attributes:
        join_offset: pieces join into one row when every centre lies within this many
            tile heights of their common line.
        join_turn: ... and that line is within this many degrees of the tiles' own
            row direction.
        duplicate: two boxes whose centres are closer than this many tile widths along
            the row are one tile boxed twice (or a box across two tiles).
        gap: a spacing of at least this many pitches between neighbours holds tiles
            the locator missed.
        max_missing: at most this many tiles are added to one row.
        same_box: a box this much of whose area (or of the other's, the smaller) lies
            in a box read more surely is the same tile boxed twice.
        row_gap: rows this many times farther apart than the others have the row the
            locator missed between them.
        min_tile: a candidate is kept when its `Reading` ``tile`` is at least this ...
        min_kind: ... and the model reads it as the layout's kind there first, or at
            least at this probability.
        min_contrast: a blank kind added past a row's end differs by at least this
            (CIE Lab) from the table a step further out.
    """

    join_offset: float = 0.3
    join_turn: float = 15.0
    duplicate: float = 0.6
    gap: float = 1.6
    max_missing: int = 3
    min_tile: float = 0.5
    min_kind: float = 0.2
    min_contrast: float = 15.0
    same_box: float = 0.6
    row_gap: float = 1.6


DEFAULT_GRID = GridConfig()


def _quality(det: TileDetection) -> float:
    """How surely the reading took this box for a tile (unread boxes last)."""
    return det.confidence if det.label is not None else -1.0


def _line(dets: Sequence[TileDetection]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(centres (N, 2), unit direction along the row, unit mean tile direction)``."""
    g = _geometry(dets)
    mean_right = g.right.mean(axis=0)
    mean_right /= max(float(np.linalg.norm(mean_right)), 1e-9)
    if len(dets) < 2:
        return g.centre, mean_right, mean_right
    rel = g.centre - g.centre.mean(axis=0)
    direction = np.linalg.svd(rel, full_matrices=False)[2][0]
    if direction @ mean_right < 0:
        direction = -direction
    return g.centre, direction, mean_right


def _sorted_along(dets: Sequence[TileDetection]) -> Row:
    centres, direction, _ = _line(dets)
    return [dets[i] for i in np.argsort(centres @ direction, kind="stable")]


def _join_cost(dets: Sequence[TileDetection], config: GridConfig) -> float | None:
    """How far off one line the tiles lie (tile heights), or None when they are not one row."""
    centres, direction, mean_right = _line(dets)
    if direction @ mean_right < np.cos(np.radians(config.join_turn)):
        return None
    normal = np.array([-direction[1], direction[0]])
    off = np.abs((centres - centres.mean(axis=0)) @ normal)
    cost = float(off.max() / np.median(_geometry(dets).height))
    return cost if cost <= config.join_offset else None


def joined_rows(rows: Sequence[Sequence[TileDetection]], config: GridConfig = DEFAULT_GRID,
                ) -> list[Row]:
    """Pieces of one row joined (the best-fitting pair first), each sorted along its line."""
    rows = [list(r) for r in rows if r]
    while True:
        best = None
        for a in range(len(rows)):
            for b in range(a + 1, len(rows)):
                cost = _join_cost(rows[a] + rows[b], config)
                if cost is not None and (best is None or cost < best[0]):
                    best = (cost, a, b)
        if best is None:
            return [_sorted_along(r) for r in rows]
        _, a, b = best
        rows[a] = rows[a] + rows[b]
        del rows[b]


def deduplicated(row: Sequence[TileDetection], config: GridConfig = DEFAULT_GRID) -> Row:
    """``row`` without boxes that share a tile with another (see `GridConfig.duplicate`)."""
    row = _sorted_along(row)
    while len(row) > 1:
        centres, direction, _ = _line(row)
        t = centres @ direction
        width = _geometry(row).width
        close = np.abs(t[:, None] - t[None]) < config.duplicate * (width[:, None] + width) / 2
        np.fill_diagonal(close, False)
        conflicts = close.sum(axis=1)
        if not conflicts.any():
            break
        worst = max(range(len(row)), key=lambda i: (conflicts[i], -_quality(row[i])))
        row = row[:worst] + row[worst + 1:]
    return row


def distinct(detections: Sequence[TileDetection], config: GridConfig = DEFAULT_GRID,
             ) -> Row:
    """``detections`` less boxes mostly covering a box read more surely (a tile boxed twice).

    Before rows are chained: a second box on a tile can chain with a stray of its own and
    make a row of two, which keeps rows from being joined."""
    order = sorted(detections, key=_quality, reverse=True)
    polys = [np.asarray(d.quad, np.float32) for d in order]
    areas = [abs(float(cv2.contourArea(p))) for p in polys]
    kept: list[int] = []
    for i, poly in enumerate(polys):
        if all(_shared(poly, polys[j], areas[i], areas[j]) < config.same_box for j in kept):
            kept.append(i)
    return [order[i] for i in sorted(kept, key=lambda i: detections.index(order[i]))]


def _shared(a: np.ndarray, b: np.ndarray, area_a: float, area_b: float) -> float:
    """Intersection over the smaller area of two convex quads."""
    if min(area_a, area_b) <= 0:
        return 0.0
    inter, _ = cv2.intersectConvexConvex(a, b)
    return float(inter) / min(area_a, area_b)


def _pitch_ratio(rows: Sequence[Row]) -> float:
    """Centre-to-centre spacing of neighbours in tile widths, over all rows (median)."""
    ratios = []
    for row in rows:
        if len(row) < 2:
            continue
        centres, direction, _ = _line(row)
        t = centres @ direction
        width = _geometry(row).width
        ratios += list(np.diff(t) / ((width[1:] + width[:-1]) / 2))
    ratios = [r for r in ratios if 0.8 <= r <= 1.4]  # gaps and duplicates say nothing
    return float(np.median(ratios)) if ratios else 1.1


def _as_det(quad: np.ndarray) -> TileDetection:
    return TileDetection(quad=tuple(tuple(map(float, p)) for p in quad))


def _gap_candidates(row: Row, missing: int, ratio: float, config: GridConfig,
                    ) -> list[tuple[int, np.ndarray]]:
    """``(insert before index, quad)`` for tiles missing between neighbours; none at all
    when the gaps hold more tiles than ``missing`` (then the row is not the layout's)."""
    if len(row) < 2:
        return []
    centres, direction, _ = _line(row)
    t = centres @ direction
    width = _geometry(row).width
    quads = np.array([d.quad for d in row], np.float64)
    out = []
    for k in range(len(row) - 1):
        steps = (t[k + 1] - t[k]) / (ratio * (width[k] + width[k + 1]) / 2)
        if steps < config.gap:
            continue
        n = int(round(steps)) - 1
        out += [(k + 1, quads[k] + j / (n + 1) * (quads[k + 1] - quads[k]))
                for j in range(1, n + 1)]
    return out if len(out) <= missing else []


def _end_candidates(row: Row, missing: int, ratio: float) -> tuple[list, list]:
    """Quads stepped a pitch at a time past the row's first and last tiles: on the row's
    line, shaped as its median tile (an end tile boxed askew would send steps astray)."""
    centres, direction, _ = _line(row)
    mean = centres.mean(axis=0)
    t = (centres - mean) @ direction
    quads = np.array([d.quad for d in row], np.float64)
    shape = np.median(quads - centres[:, None], axis=0)
    pitch = ratio * float(np.median(_geometry(row).width))
    if len(row) > 1:
        steps = np.diff(t)
        normal = steps[(steps > 0.7 * pitch) & (steps < 1.3 * pitch)]
        pitch = float(np.median(normal)) if len(normal) else pitch
    before = [mean + (t[0] - k * pitch) * direction + shape for k in range(1, missing + 1)]
    after = [mean + (t[-1] + k * pitch) * direction + shape for k in range(1, missing + 1)]
    return before, after


def _with_gaps(rows: list[Row], short: dict[int, tuple[int, tuple[str, ...]]], ratio: float,
               read: TileReader, config: GridConfig) -> None:
    """Fill each short row's gaps where every candidate in it looks like its kind (in place)."""
    asked = {r: _gap_candidates(rows[r], n, ratio, config) for r, (n, _) in short.items()}
    flat = [q for cands in asked.values() for _, q in cands]
    if not flat:
        return
    reading = read(flat)
    i = 0
    for r, cands in asked.items():
        names = short[r][1]
        # Candidates come in row order: the m-th lands at its index plus m in the new row.
        ok = [looks_like(reading, i + m, names[at + m], config)
              for m, (at, _) in enumerate(cands)]
        i += len(cands)
        if cands and all(ok):
            for at, quad in reversed(cands):  # last first: earlier indices stay put
                rows[r].insert(at, _as_det(quad))


def _with_ends(rows: list[Row], short: dict[int, tuple[int, tuple[str, ...]]], ratio: float,
               read: TileReader, config: GridConfig) -> None:
    """Add each short row's missing tiles past its ends (in place): the split of them
    between the two ends under which the whole row reads most like the layout's kinds,
    among those whose new tiles all look like tiles.

    A row one short at its right end would, completed at its left, read 1p as 2p, 2p as
    3p...: the layout's order tells the ends apart where tile-likeness cannot (a quad
    beside the row's end tile shows half of it)."""
    for r, (n, names) in short.items():
        # One step more each side: table past the row's end, what a blank kind must not look like.
        before, after = _end_candidates(rows[r], n + 1, ratio)
        own = [np.asarray(d.quad, np.float64) for d in rows[r]]
        reading = read(own + before + after)
        k, m = len(own), n + 1
        best = None
        for a in range(n + 1):
            new = list(range(k + a - 1, k - 1, -1)) + list(range(k + m, k + m + n - a))
            order = new[:a] + list(range(k)) + new[a:]
            table = {j: k + a for j in range(a)} | {j: k + m + n - a for j in range(k + a, k + n)}
            if not all(looks_like(reading, order[j], names[j], config, blank_pair=True)
                       and _apart(reading, order[j], t, names[j], config)
                       for j, t in table.items()):
                continue
            score = sum(reading.logp[i, reading.classes.index(name)]
                        for i, name in zip(order, names, strict=True))
            if best is None or score > best[0]:
                best = (float(score), a)
        if best is not None:
            a = best[1]
            rows[r] = ([_as_det(q) for q in before[:a][::-1]] + rows[r]
                       + [_as_det(q) for q in after[:n - a]])


def _apart(reading: Reading, i: int, table: int, name: str, config: GridConfig) -> bool:
    """A blank kind (a back, a plain 白) past a row's end differs in colour from the table
    a step further: bare table reads as a back as easily as a back does."""
    if name not in BLANK_KINDS:
        return True
    gap = float(np.linalg.norm(reading.colour[i] - reading.colour[table]))
    return gap >= config.min_contrast  # NaN (a quad out of the photo) never is


def _short_rows(rows: list[Row], layout: ReferenceLayout, config: GridConfig,
                ) -> dict[int, tuple[int, tuple[str, ...]]]:
    """Rows the layout wants longer: how many tiles short, and the row's kinds in the
    photo's order (the way up that fits the counts better; from across the table the
    rows come last first, each right to left)."""
    found = [len(r) for r in rows]
    ways = [[list(row) for row in layout.rows], [list(row[::-1]) for row in layout.rows[::-1]]]

    def misfit(way: list[list[str]]) -> tuple[int, int]:
        pairs = list(zip(found, (len(w) for w in way), strict=True))
        return sum(max(f - n, 0) for f, n in pairs), sum(abs(f - n) for f, n in pairs)

    want = min(ways, key=misfit)
    return {r: (len(names) - f, tuple(names))
            for r, (f, names) in enumerate(zip(found, want, strict=True))
            if 0 < len(names) - f <= config.max_missing}


def completed_rows(detections: Sequence[TileDetection], layout: ReferenceLayout,
                   read: TileReader, *, bind: BindConfig = DEFAULT_BIND,
                   config: GridConfig = DEFAULT_GRID, across: bool = False) -> list[Row]:
    """The layout's rows mended: joined, boxes shared by two dropped, short rows
    completed where ``read`` finds tiles (see the module doc).

    ``across``: rows run across most quads' TL→TR edges (see `layout_tiles`).

    Returns:
        Rows top first, each left to right (as `group_rows`), for `bind_rows`; rows that
        could not be mended are returned as they are, and binding says what is wrong.
    """
    rows = joined_rows(group_rows(distinct(detections, config), config=bind, across=across),
                       config)
    rows = [deduplicated(r, config) for r in rows]
    rows = _without_singles(_without_scraps(rows), len(layout.counts))
    if not len(layout.counts) - 1 <= len(rows) <= len(layout.counts):
        return rows
    ratio = _pitch_ratio(rows)
    for _ in range(2):  # a row made from its neighbours is completed in the second round
        if len(rows) == len(layout.counts):
            _with_gaps(rows, _short_rows(rows, layout, config), ratio, read, config)
            _with_ends(rows, _short_rows(rows, layout, config), ratio, read, config)
        else:
            rows = with_missing_row(rows, layout, read, config)
    return rows


def _without_scraps(rows: list[Row]) -> list[Row]:
    """Without one-box rows far smaller than a tile (a scrap between rows is a row of its own
    to chaining, and would take the place of a row the locator missed)."""
    if not rows:
        return rows
    g = _geometry([d for r in rows for d in r])
    median = float(np.median(g.width * g.height))
    return [r for r in rows
            if len(r) > 1 or float(_geometry(r).width[0] * _geometry(r).height[0]) >= median / 2]


def _without_singles(rows: list[Row], wanted: int) -> list[Row]:
    """Rows in up order; one-tile rows dropped, farthest first, while there are too many."""
    if not rows:
        return []
    up = _up(rows)
    rows = sorted(rows, key=lambda r: -float(np.mean(_geometry(r).centre @ up)))
    return _without_stray_singles(rows, wanted)


def _up(rows: Sequence[Row]) -> np.ndarray:
    right = np.concatenate([_geometry(r).right for r in rows]).mean(axis=0)
    return np.array([right[1], -right[0]])

