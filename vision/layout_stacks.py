"""Added kans whose called tile hides under the added one (加槓, the fourth tile laid on top).

A player who adds the fourth tile to a pon often lays it on the sideways (called) tile. The
upper tile then hides the lower one's face: the locator boxes one sideways tile, and the meld
read as a pon. Seen at a slant the stack still shows, by height: the meld's other tiles lie
on the table, their near edges on one line, while the upper tile of the stack sits a tile's
thickness further across the row. `raised` finds such sideways columns; the layout reads each
as an added kan's stack (token ``K``) holding one detection, and the reading adds the hidden
tile as one more copy of the meld's kind (`agari.vision.reading_checks.meld_of`). `capped`
finds the sideways tiles an unread quad lies on, the upper tile boxed but not read (so it
joins no row): each is a stack too. Seen from
straight above nothing shows the stack; only the indicators tell a kan is missing
(`indicated_kans`: one more than one plus the kans read), and each pon is then offered
as an added kan. Lifted far enough,
the upper tile joins no row: `lying_on_hidden` takes it back into the hand's row where it
lies in a gap of the row, or just past its end, raised so over the tiles beside it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import is_face_down
from agari.vision.layout_plan import LayoutPlan

FLAT_ASPECT = 0.9
"""A tile of the row at least this long along it for its height lies flat (`lying_on_hidden`).
Seen steeply enough for a stack to lift its upper tile clear of the row (at most some 55°
above the table), a tile lying flat upright is about this long for its height or longer, a
standing one shorter (tuning renders 990041, 1030042, 990020: standing tiles beside a lifted
dora or fragment 0.73-0.8; beside true lifted tiles 1.5-2.5)."""
SIDEWAYS_LENGTH = 0.9
"""A lifted tile is at least this long along the row as each flat tile beside it: lying
sideways it is longer (by 35/26), a fragment of a tile shorter (990020: 0.68; lifted tiles
1.06-1.33, their quads a little short of the tiles)."""


def raised(groups: list[list[list[int]]], ext: np.ndarray, side: np.ndarray,
           dets: list[TileDetection], least: float, reach: float, ratio: float) -> set[int]:
    """Sideways tiles alone in their column that lie raised over each face-up column beside
    them (one at least, within ``reach`` px along the row, in their group or the next): their
    mid-line across the row at least ``least`` times that neighbour's extent across the row
    above the neighbour's. A lifted tile is often parted from the tiles it lies among by a
    gap a little wider than the row's, so the groups do not bound the search; nor is it
    always flagged sideways (``side``): ``ratio`` times as long for its height as the tiles
    beside it will do.

    ``ext``: ``(N, 4)`` extents ``u0, u1, v0, v1`` in the hand's frame; ``side``: bool
    ``(N,)`` sideways flags.
    """
    aspect = _aspects(ext)
    cols = [col for group in groups for col in group]
    out = set()
    for k, col in enumerate(cols):
        i = col[0]
        if len(col) != 1 or is_face_down(dets[i]):
            continue
        beside = [j for j in _beside(cols, k, ext, reach) if not is_face_down(dets[j])]
        if beside and (side[i] or all(aspect[i] >= ratio * aspect[j] for j in beside)) \
                and min(_lift(ext[i], ext[j]) for j in beside) >= least:
            out.add(i)
    return out


def capped(cols: list[list[int]], ext: np.ndarray, side: np.ndarray, dets: list[TileDetection],
           caps: list[int], lift: tuple[float, float], length: tuple[float, float],
           overlap: float) -> set[int]:
    """Sideways faces of the row (first tiles of ``cols``) with a quad of ``caps`` lying on
    them: an added kan's upper tile the classifier did not read (or read unsurely), so the
    row does not take it in and the stack shows one sideways tile. The cap overlaps the
    sideways tile along the row by ``overlap`` of the shorter one at least, is between
    ``length`` times its length along the row, and its mid-line lies between ``lift`` of
    the sideways tile's extents across the row above the sideways tile's: seen at a slant
    the upper tile sits a tile's thickness and more across the row, against the lower one
    or just beyond it (tuning render 1030048: a 5s's cap read ``none`` at 0.94, 1.5 of the
    5s's heights above it).

    ``ext``: ``(N, 4)`` extents in the hand's frame; ``side``: bool ``(N,)`` sideways
    flags; ``caps``: indices of the quads that may be an upper tile.
    """
    out = set()
    for col in cols:
        i = col[0]
        if not side[i] or is_face_down(dets[i]) or not isinstance(dets[i].label, Tile):
            continue
        base = ext[i, 1] - ext[i, 0]
        for j in caps:
            if _overlap(ext[i], ext[j]) >= overlap and \
                    length[0] <= (ext[j, 1] - ext[j, 0]) / max(base, 1e-6) <= length[1] and \
                    lift[0] <= _lift(ext[j], ext[i]) <= lift[1]:
                out.add(i)
                break
    return out


def lying_on_hidden(row: list[int], loose: list[int], ext: np.ndarray, tile_width: float,
                    dets: list[TileDetection], least: float, most: float, gap: float,
                    ratio: tuple[float, float]) -> list[int]:
    """Tiles of ``loose`` that lie where a column of ``row`` is missing, raised over the
    row's tiles beside them (`raised`, between ``least`` and ``most``): an added kan's upper
    tile whose stack the locator did not find. Such a tile overlaps no tile of the row by
    half along it, lies within ``gap`` tile widths of one at least, and is a face lying
    sideways among flat tiles: each tile beside it at least `FLAT_ASPECT` as long as high
    (lying flat), it between ``ratio`` times as long for its height as each of them (a tile
    lying flat beside a standing one, such as a dora behind the hand, is far longer) and no
    shorter along the row than `SIDEWAYS_LENGTH` of theirs (a fragment of a tile is)."""
    if not row:
        return []
    found = []
    for j in loose:
        if is_face_down(dets[j]) or not isinstance(dets[j].label, Tile):
            continue
        if max(_overlap(ext[i], ext[j]) for i in row) > 0.5:
            continue  # over a column of the row: `stacked_onto`'s or none
        beside = [i for i in row
                  if max(ext[i, 0] - ext[j, 1], ext[j, 0] - ext[i, 1]) <= gap * tile_width]
        if not beside or not all(_sideways_by_flat(ext[j], ext[i], ratio) for i in beside):
            continue
        if all(least <= _lift(ext[j], ext[i]) <= most for i in beside):
            found.append(j)
    return found


INDICATED_NOTE = ("more indicators than kans: a pon read as an added kan, its stacked tile "
                  "hidden under the upper one")


def indicated_kans(plan: LayoutPlan) -> list[LayoutPlan]:
    """``plan`` with one of its pons read as an added kan, one plan per pon, where its dora
    indicators outnumber one plus its kans: each kan turns a kan dora's indicator, so a
    hand showing one more indicator than it has kans holds a kan read as a pon. Seen from
    straight above, the upper tile of an added kan lies exactly on the called one and
    nothing shows the stack (tuning renders 990010, 1030001). Each open meld of three
    columns, one tile each, with a sideways one is offered (the layout knows no names): the
    reading finds whether its tiles make a kan (a chi's or a fifth copy's do not). Empty
    where the indicators number no more than one plus the kans."""
    kans = sum(1 for m in plan.melds if m.kind != "open" or len(m.columns) == 4)
    if len(plan.dora) <= 1 + kans:
        return []
    out = []
    for k, m in enumerate(plan.melds):
        if m.kind == "open" and len(m.columns) == 3 and m.sideways_index is not None \
                and all(len(col) == 1 for col in m.columns):
            melds = (*plan.melds[:k], replace(m, kind="added_kan"), *plan.melds[k + 1:])
            out.append(replace(plan, melds=melds, notes=(*plan.notes, INDICATED_NOTE)))
    return out


def _sideways_by_flat(tile: np.ndarray, flat: np.ndarray, ratio: tuple[float, float]) -> bool:
    """``tile`` lies sideways beside ``flat``, a tile lying flat (see `lying_on_hidden`)."""
    length, aspect = tile[1] - tile[0], _aspects(tile[None])[0]
    flat_length, flat_aspect = flat[1] - flat[0], _aspects(flat[None])[0]
    return bool(flat_aspect >= FLAT_ASPECT and length >= SIDEWAYS_LENGTH * flat_length
                and ratio[0] <= aspect / flat_aspect <= ratio[1])


def _aspects(ext: np.ndarray) -> np.ndarray:
    """Length along the row over height across it, per tile."""
    return (ext[:, 1] - ext[:, 0]) / np.maximum(ext[:, 3] - ext[:, 2], 1e-6)


def _overlap(a: np.ndarray, b: np.ndarray) -> float:
    """Overlap along the row of two tiles over the shorter one's length."""
    short = max(min(a[1] - a[0], b[1] - b[0]), 1e-6)
    return float(min(a[1], b[1]) - max(a[0], b[0])) / short


def _beside(cols: list[list[int]], k: int, ext: np.ndarray, reach: float) -> list[int]:
    """The first tiles of the columns next to column ``k`` within ``reach`` px of it."""
    i = cols[k][0]
    return [cols[n][0] for n in (k - 1, k + 1) if 0 <= n < len(cols)
            and max(ext[cols[n][0], 0] - ext[i, 1], ext[i, 0] - ext[cols[n][0], 1]) <= reach]


def _lift(tile: np.ndarray, neighbour: np.ndarray) -> float:
    """How far ``tile``'s mid-line across the row lies above ``neighbour``'s, in the
    neighbour's extents across the row (a tile of the meld lying on the table)."""
    height = max(float(neighbour[3] - neighbour[2]), 1e-6)
    return float((tile[2] + tile[3]) - (neighbour[2] + neighbour[3])) / 2 / height


__all__ = ["INDICATED_NOTE", "capped", "indicated_kans", "lying_on_hidden", "raised"]
