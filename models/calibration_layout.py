"""The reference layout a tile set is photographed in, and binding found tiles to it.

The layout (`ReferenceLayout`) is five rows, face up, read as a player sitting
below them reads a hand::

    row 1   1m 2m 3m 4m 5m 6m 7m 8m 9m        萬子 manzu
    row 2   1p 2p 3p 4p 5p 6p 7p 8p 9p        筒子 pinzu
    row 3   1s 2s 3s 4s 5s 6s 7s 8s 9s        索子 souzu
    row 4   1z 2z 3z 4z 5z 6z 7z              東 南 西 北 白 發 中
    row 5   0m 0p 0s  back                    赤五 (those the set has), one tile face down

Tiles in a row stand a little apart (a finger's width at most); rows a third
to a whole tile height apart. The photo may be taken from either side: the
row lengths (9 9 9 7 k+1) tell which way up it is.

`bind_layout` finds the rows among a locator's detections by chaining each
tile to its neighbour along its own row direction (robust to perspective),
orders rows along the layout's up direction and binds each tile to the kind
at its position; a photo that does not fit raises `LayoutMismatch`, saying
which row is off and how.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK
from agari.models.calibration import RED_FIVE_NAMES
from agari.vision.detection import TileDetection

SUIT_ROWS: tuple[tuple[str, ...], ...] = (
    tuple(f"{n}m" for n in range(1, 10)),
    tuple(f"{n}p" for n in range(1, 10)),
    tuple(f"{n}s" for n in range(1, 10)),
    tuple(f"{n}z" for n in range(1, 8)),
)
"""The four fixed rows: manzu, pinzu, souzu, honours (E S W N, haku, hatsu, chun)."""

ROW_TITLES = ("1m-9m manzu 萬子", "1p-9p pinzu 筒子", "1s-9s souzu 索子",
              "1z-7z honours 字牌 (東 南 西 北 白 發 中)")


class LayoutMismatch(InvalidInput):
    """The calibration photo does not show the reference layout."""

    code = "layout_mismatch"


def parse_reds(text: str | None) -> tuple[str, ...]:
    """Red fives from ``"0m,0p,0s"``, ``"0p"``, ``"all"`` or ``"none"`` (canonical order).

    Raises:
        InvalidInput: a name that is not a red five, or one given twice.
    """
    if text is None or text.strip().lower() == "all":
        return RED_FIVE_NAMES
    if text.strip().lower() in ("", "none", "-"):
        return ()
    names = [t.strip() for t in text.replace(" ", ",").split(",") if t.strip()]
    bad = [n for n in names if n not in RED_FIVE_NAMES]
    if bad or len(set(names)) != len(names):
        raise InvalidInput(f"red fives must be distinct names among {', '.join(RED_FIVE_NAMES)} "
                           f"(or 'all', 'none'), got {text!r}")
    return tuple(n for n in RED_FIVE_NAMES if n in names)


@dataclass(frozen=True, slots=True)
class ReferenceLayout:
    """The calibration layout for a set with the red fives ``reds``."""

    reds: tuple[str, ...] = RED_FIVE_NAMES

    def __post_init__(self) -> None:
        if tuple(self.reds) != parse_reds(",".join(self.reds) or "none"):
            raise InvalidInput(f"red fives must be listed once each, in the order "
                               f"{' '.join(RED_FIVE_NAMES)}; got {self.reds!r}")

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        """Class names row by row, top row first, left to right."""
        return (*SUIT_ROWS, (*self.reds, BACK))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(n for row in self.rows for n in row)

    @property
    def row_titles(self) -> tuple[str, ...]:
        reds = " ".join(self.reds) + " red fives 赤五, " if self.reds else ""
        last = reds + "one tile face down"
        return (*ROW_TITLES, last)

    @property
    def row_labels(self) -> tuple[str, ...]:
        """Short names of the rows: ``1m-9m`` … ``0m 0p 0s back``."""
        return ("1m-9m", "1p-9p", "1s-9s", "1z-7z", " ".join((*self.reds, BACK)))

    @property
    def counts(self) -> tuple[int, ...]:
        return tuple(len(r) for r in self.rows)

    def text(self) -> str:
        """The layout as printable lines (what ``agari calibrate --layout`` shows)."""
        width = max(len(r) for r in self.rows) * 5
        lines = []
        for i, (row, title) in enumerate(zip(self.rows, self.row_titles, strict=True)):
            cells = " ".join(f"[{'##' if n == BACK else n}]" for n in row)
            lines.append(f"row {i + 1}  {cells:<{width}}  {title}")
        return "\n".join(lines)

    def to_json(self) -> dict:
        return {"rows": [list(r) for r in self.rows], "titles": list(self.row_titles),
                "tiles": len(self.names), "reds": list(self.reds)}


@dataclass(frozen=True, slots=True)
class BindConfig:
    """Tolerances of `bind_layout`.

    Attributes:
        size_ratio: detections whose area is outside this range times the median
            area are dropped (locator fragments, a tile's side, clutter).
        max_gap: free space between neighbours in a row, in tile widths.
        max_offset: how far a neighbour's centre may sit off the row line, in tile heights.
        isolation: a detection farther than this many median tile heights from every
            other is dropped (something on the table, not part of the layout).
        merged: a quad at least this many median tile widths wide is taken for that
            many touching tiles and cut apart.
    """

    size_ratio: tuple[float, float] = (0.25, 4.0)
    max_gap: float = 1.5
    max_offset: float = 0.45
    isolation: float = 3.0
    merged: float = 1.6


DEFAULT_BIND = BindConfig()


@dataclass(frozen=True, slots=True)
class BoundTile:
    """A located tile bound to the kind its position in the layout gives it."""

    name: str
    row: int
    col: int
    detection: TileDetection


@dataclass(frozen=True, slots=True)
class _Geom:
    centre: np.ndarray   # (N, 2)
    right: np.ndarray    # (N, 2) unit, TL→TR: along each tile's row
    width: np.ndarray    # (N,)
    height: np.ndarray   # (N,)


def _quads(dets: Sequence[TileDetection]) -> np.ndarray:
    return np.array([d.quad for d in dets], np.float64).reshape(-1, 4, 2)


def _geometry(dets: Sequence[TileDetection]) -> _Geom:
    q = _quads(dets)
    along = (q[:, 1] - q[:, 0]) + (q[:, 2] - q[:, 3])
    across = (q[:, 0] - q[:, 3]) + (q[:, 1] - q[:, 2])
    right = along / np.maximum(np.linalg.norm(along, axis=1, keepdims=True), 1e-9)
    return _Geom(q.mean(axis=1), right, np.linalg.norm(along, axis=1) / 2,
                 np.linalg.norm(across, axis=1) / 2)


def _layout_right(dets: Sequence[TileDetection]) -> np.ndarray:
    """Unit vector along the layout's rows, in the sense most quads' TL→TR take.

    The grid's two axes come from the quads' edges modulo 90° (a locator may turn
    some tiles a quarter: a slanted view makes upright tiles look wider than tall);
    the row axis is the one most TL→TR edges follow.
    """
    right = _geometry(dets).right
    ang = np.arctan2(right[:, 1], right[:, 0])
    base = np.angle(np.exp(4j * ang).mean()) / 4
    axes = np.array([[np.cos(base + k * np.pi / 2), np.sin(base + k * np.pi / 2)]
                     for k in range(4)])
    votes = np.bincount((right @ axes.T).argmax(axis=1), minlength=4)
    return axes[int(votes.argmax())]


def _reframed(det: TileDetection, right: np.ndarray) -> TileDetection:
    """``det`` with its corners renamed TL, TR, BR, BL in the layout's frame (upright)."""
    q = np.asarray(det.quad, np.float64)
    up = np.array([right[1], -right[0]])  # image y points down
    x, y = q @ right, q @ up
    order = [int(np.argmax(y - x)), int(np.argmax(x + y)), int(np.argmax(x - y)),
             int(np.argmin(x + y))]
    if len(set(order)) < 4:
        return dataclasses.replace(det, sideways=False)
    return dataclasses.replace(det, quad=tuple(tuple(map(float, q[i])) for i in order),
                               sideways=False)


def _split_merged(dets: list[TileDetection], cfg: BindConfig) -> list[TileDetection]:
    """Quads about k tiles wide (touching tiles the locator took for one) cut into k."""
    g = _geometry(dets)
    unit = float(np.median(g.width))
    out = []
    for det, w, h in zip(dets, g.width, g.height, strict=True):
        k = int(round(w / unit))
        if w / unit < cfg.merged or not 0.7 <= h / float(np.median(g.height)) <= 1.4:
            out.append(det)
            continue
        tl, tr, br, bl = (np.asarray(p, np.float64) for p in det.quad)
        for i in range(k):
            a, b = i / k, (i + 1) / k
            quad = (tl + a * (tr - tl), tl + b * (tr - tl), bl + b * (br - bl), bl + a * (br - bl))
            out.append(dataclasses.replace(det, quad=tuple(tuple(map(float, p)) for p in quad)))
    return out


def _drop_outliers(dets: Sequence[TileDetection], cfg: BindConfig) -> list[TileDetection]:
    """Detections of a tile's size that lie near others (see `BindConfig`)."""
    if not dets:
        return []
    g = _geometry(dets)
    area = g.width * g.height
    med = float(np.median(area))
    lo, hi = cfg.size_ratio
    keep = (area >= lo * med) & (area <= hi * med)
    if keep.sum() > 1:
        c = g.centre[keep]
        dist = np.linalg.norm(c[:, None] - c[None], axis=2)
        np.fill_diagonal(dist, np.inf)
        near = dist.min(axis=1) <= cfg.isolation * float(np.median(g.height[keep]))
        keep[np.flatnonzero(keep)[~near]] = False
    return [d for d, k in zip(dets, keep, strict=True) if k]


def layout_tiles(detections: Sequence[TileDetection], *, config: BindConfig = DEFAULT_BIND,
                 across: bool = False) -> list[TileDetection]:
    """The detections that can be layout tiles, each framed upright in the layout's frame.

    Quads are renamed so that TL→TR runs along the layout's rows; merged pairs
    (or triples) of touching tiles are cut apart; fragments and far strays dropped.
    ``across`` takes the rows to run the other way than most quads' TL→TR edges say (seen
    low, upright tiles look wider than tall and a locator may name most of them a
    quarter turn off).
    """
    if not detections:
        return []
    right = _layout_right(detections)
    if across:
        right = np.array([-right[1], right[0]])
    dets = [_reframed(d, right) for d in detections]
    dets = _drop_outliers(dets, replace(config, size_ratio=(config.size_ratio[0], np.inf)))
    return _drop_outliers(_split_merged(dets, config), config) if dets else []


def group_rows(detections: Sequence[TileDetection], *, config: BindConfig = DEFAULT_BIND,
               across: bool = False) -> list[list[TileDetection]]:
    """Tiles grouped into rows: top row first, each left to right (in the layout's frame).

    The tiles are `layout_tiles` (reframed, merged tiles cut apart, outliers dropped;
    ``across`` as there).
    """
    dets = layout_tiles(detections, config=config, across=across)
    if not dets:
        return []
    g = _geometry(dets)
    n = len(dets)
    up = np.stack([g.right[:, 1], -g.right[:, 0]], axis=1)  # image y points down
    right_of = np.full(n, -1)
    left_of = np.full(n, -1)
    for i in range(n):
        d = g.centre - g.centre[i]
        along = d @ g.right[i]
        off = np.abs(d @ up[i])
        free = along - (g.width + g.width[i]) / 2
        ok = (along > 0.5 * g.width[i]) & (free < config.max_gap * g.width[i]) \
            & (off < config.max_offset * g.height[i])
        ok[i] = False
        if ok.any():
            right_of[i] = int(np.flatnonzero(ok)[np.argmin(along[ok])])
    for i in range(n):
        j = right_of[i]
        if j >= 0 and (left_of[j] < 0 or _dist(g, i, j) < _dist(g, left_of[j], j)):
            left_of[j] = i
    # left_of[j] == i implies right_of[i] == j: rows start where no tile links in from the left.
    rows = []
    for start in np.flatnonzero(left_of < 0):
        row = [int(start)]
        while right_of[row[-1]] >= 0 and left_of[right_of[row[-1]]] == row[-1]:
            row.append(int(right_of[row[-1]]))
        rows.append(row)
    mean_right = g.right.mean(axis=0)
    mean_up = np.array([mean_right[1], -mean_right[0]])
    rows.sort(key=lambda r: -float(np.mean(g.centre[r] @ mean_up)))
    return [[dets[i] for i in r] for r in rows]


def _dist(g: _Geom, i: int, j: int) -> float:
    return float(np.linalg.norm(g.centre[i] - g.centre[j]))


def bind_layout(detections: Sequence[TileDetection], layout: ReferenceLayout, *,
                config: BindConfig = DEFAULT_BIND) -> tuple[BoundTile, ...]:
    """Bind each located tile to its kind by its position in ``layout``.

    Returns:
        One `BoundTile` per layout position, in layout order.

    Raises:
        LayoutMismatch: the rows found do not have the layout's lengths (either
            way up); the message names the rows that are off.
    """
    return bind_rows(group_rows(detections, config=config), layout)


def bind_rows(rows: Sequence[Sequence[TileDetection]], layout: ReferenceLayout,
              ) -> tuple[BoundTile, ...]:
    """Bind rows (top row first, each left to right, either way up) to ``layout``.

    Raises:
        LayoutMismatch: the rows do not have the layout's lengths (see `bind_layout`).
    """
    want = layout.counts
    rows = _without_stray_singles([list(r) for r in rows], len(want))
    found = tuple(len(r) for r in rows)
    if found == want[::-1] and found != want:  # photographed from the far side
        rows = [r[::-1] for r in rows[::-1]]
        found = want
    if found != want:
        raise LayoutMismatch(mismatch_message(found, layout), expected=list(want),
                             found=list(found))
    return tuple(BoundTile(name, r, c, det)
                 for r, (names, dets) in enumerate(zip(layout.rows, rows, strict=True))
                 for c, (name, det) in enumerate(zip(names, dets, strict=True)))


def _without_stray_singles(rows: list[list[TileDetection]], wanted: int,
                           ) -> list[list[TileDetection]]:
    """Drop one-tile rows, farthest from the rest first, while there are too many rows."""
    rows = list(rows)
    while len(rows) > wanted and any(len(r) == 1 for r in rows):
        centre = np.mean([np.mean(d.quad, axis=0) for r in rows for d in r], axis=0)
        singles = [i for i, r in enumerate(rows) if len(r) == 1]
        far = max(singles, key=lambda i: float(np.linalg.norm(np.mean(rows[i][0].quad, axis=0)
                                                              - centre)))
        del rows[far]
    return rows


def mismatch_message(found: Sequence[int], layout: ReferenceLayout) -> str:
    """Why rows of ``found`` lengths are not ``layout`` (as the user should read it)."""
    want = layout.counts
    head = (f"the photo does not match the calibration layout: expected {sum(want)} tiles in "
            f"{len(want)} rows ({' '.join(map(str, want))}), found {sum(found)} tiles in "
            f"{len(found)} rows ({' '.join(map(str, found)) or 'none'})")
    if len(found) != len(want):
        return head + "; lay the tiles out as 'agari calibrate --layout' shows, rows apart"
    flipped = sum(a == b for a, b in zip(found[::-1], want, strict=True)) > \
        sum(a == b for a, b in zip(found, want, strict=True))
    seen = found[::-1] if flipped else found
    bad = [f"row {i + 1} ({layout.row_labels[i]}) has {n}, expected {m}"
           for i, (n, m) in enumerate(zip(seen, want, strict=True)) if n != m]
    return head + ": " + "; ".join(bad)
