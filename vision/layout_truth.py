"""Compare a read hand with ground truth: the expected `HandLayout` of an annotated photo.

An annotated photo (the renderer's, or a hand-labelled one) lists each tile's
label, role (``concealed``, ``win``, ``meld`` with a group, ``dora``, ``ura``,
``other``) and whether it lies sideways. `expected_layout` turns that into the
`HandLayout` a perfect reader would give, and `layout_key`/`hand_key` give
order-free values to compare two layouts by (melds in any order; a meld's
tiles as a multiset; its source by the sideways tile's place).

The annotation is duck-typed (``role``, ``group``, ``label``, ``sideways``,
``face_down``, ``quad`` per tile) so that vision does not import datasets.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from agari.engine.hand import parse_hand
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import TileDetection
from agari.vision.layout_hand import HandLayout, LaidMeld

SOURCE_BY_INDEX = {0: "left", 1: "across", 2: "right"}


def expected_layout(hand_text: str, win: str | None, tiles: Sequence[Any]) -> HandLayout:
    """The layout a perfect reader gives for an annotated photo.

    Args:
        hand_text: the annotation's HAND string (winning tile last in the first group).
        win: the winning tile's name, or None for a waiting hand.
        tiles: the annotation's tiles (role, group, label, sideways, quad).
    """
    hand = parse_hand(hand_text)
    concealed = list(hand.concealed)
    win_tile = Tile.parse(win) if win else None
    if win_tile is not None:
        concealed.remove(win_tile)
    groups: dict[int, list[Any]] = {}
    for t in tiles:
        if t.role == "meld":
            groups.setdefault(t.group, []).append(t)
    laid = []
    for meld in hand.melds:
        group = _group_of(meld, groups)
        laid.append(_laid(meld, groups.pop(group) if group is not None else []))
    dora = tuple(Tile.parse(t.label) for t in _in_order(tiles, "dora"))
    ura = tuple(Tile.parse(t.label) for t in _in_order(tiles, "ura"))
    return HandLayout(tuple(concealed), win_tile, tuple(laid), dora, ura)


def _in_order(tiles: Sequence[Any], role: str) -> list[Any]:
    """Tiles of a role left to right (along their own row)."""
    chosen = [t for t in tiles if t.role == role]
    if not chosen:
        return []
    det = TileDetection(quad=chosen[0].quad)
    ax, ay = det.quad[1][0] - det.quad[0][0], det.quad[1][1] - det.quad[0][1]
    return sorted(chosen, key=lambda t: sum(p[0] * ax + p[1] * ay for p in t.quad))


def _group_of(meld, groups: dict[int, list[Any]]) -> int | None:
    want = Counter(t.kind for t in meld.tiles)
    for g, members in groups.items():
        got = Counter(Tile.parse(t.label).kind for t in members if t.label != BACK)
        if len(members) == sum(want.values()) and not got - want:
            return g
    return None


def _laid(meld, members: list[Any]) -> LaidMeld:
    side = [t for t in members if t.sideways]
    kind = meld.kind
    if kind == "minkan" and len(side) == 2:
        kind = "shouminkan"
    ordered = _in_order(members, members[0].role) if members else []
    index = None
    if side and ordered:
        columns = []
        for t in ordered:
            if t.sideways and columns and columns[-1] == "S":
                continue  # the stacked tile of an added kan shares its column
            columns.append("S" if t.sideways else "P")
        index = columns.index("S")
        source = "right" if index == len(columns) - 1 else ("left" if index == 0 else "across")
    else:
        source = None
    return LaidMeld(kind, meld.tiles, index, source if kind != "ankan" else None)


def meld_key(m: LaidMeld) -> tuple:
    """A meld by kind (added and open kans alike), tiles as a multiset, and source."""
    kind = "minkan" if m.kind == "shouminkan" else m.kind
    return (kind, tuple(sorted(m.tiles)), m.source if kind != "chi" else "left")


def hand_key(layout: HandLayout) -> tuple:
    """The hand itself: concealed tiles (with the winning tile), the winning tile, the melds."""
    tiles = layout.concealed + ((layout.win,) if layout.win is not None else ())
    melds = sorted((("minkan" if m.kind == "shouminkan" else m.kind), tuple(sorted(m.tiles)))
                   for m in layout.melds)
    return (tuple(sorted(tiles)), layout.win, tuple(melds))


def layout_key(layout: HandLayout) -> tuple:
    """Everything the layout says: the hand, each meld's source, the indicators in order."""
    return (hand_key(layout), tuple(sorted(meld_key(m) for m in layout.melds)),
            layout.dora, layout.ura)
