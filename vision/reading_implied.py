"""Names a meld's tiles imply for a tile of it the classifier could not read.

A tile lying flat in a called meld is often small and foreshortened; the
classifier may then call it ``none`` (or give it a face with little weight)
and list names that do not include its own. Yet the meld's other tiles say
what it must be: the same kind in a pon or kan (ポン・カン), a neighbour in a
chi (チー). `with_implied` adds those names to such a tile's options at a
cost, so that the reading takes them only where the classifier's own
names make no set: a name the meld implies costs at most as much as one the
classifier gave ``implied_p``; a name it voted for more keeps its own cost.

A tile read surely can be read wrongly too (a dark-faced 1s taken for a 9m at 0.91): where
a pon's or chi's middle tile fits neither of its mates, these read surely and agreeing with
each other, it is outvoted and takes their names like a weak tile.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from agari.engine.tiles import TILE_NAMES, TILES, Tile
from agari.vision.detection import TileDetection
from agari.vision.layout import LayoutPlan
from agari.vision.layout_geometry import face_mass


@dataclass(frozen=True, slots=True)
class ImpliedConfig:
    """When and how dearly a meld's tiles name a tile of it."""

    weak_below: float = 0.5
    """A tile whose face names hold less probability than this may take implied names."""
    implied_p: float = 0.01
    """An implied name costs as much as a name the classifier gave this probability."""
    outvoted: bool = True
    """The middle tile of a pon or chi read surely that fits in no set with the meld's other sure
    tiles, these agreeing with each other, takes their names too (`outvoted`): 1030014 read a
    chi 123s as 789m (the 1s read 9m at 0.91, the 3s and 2s overruled as 8m and 7m). At either
    end it let plans take a row's neighbour into a meld. As first made (either end too), with
    `RepairConfig.forced_names`, photo_eval exact hands/scores on tuning sets 1040000, 1030000,
    1020000, 1000000, 990000: 73/70, 77/71, 77/74, 76/74, 74/72 -> 73/70, 79/72, 78/75, 75/74,
    74/72 (1000000 lost: a 6z read 3z lent a chi its end), guard 980000 78/74 -> 76/72, real
    variants 20 -> 19 exact (370 -> 368 tiles): each loss a row tile beside a meld taken in as
    its outvoted end (980011: a 9s read 9p at 0.92 ended a pon 222m). Middle only (chosen after
    those losses): 73/70, 79/72 (1030014, 1030088), 77/74, 76/74, 74/72; guard 78/74 and real
    20/30, 370/390 unchanged."""
    outvoted_below: float = 0.95
    """Only a tile whose likeliest face has less probability than this may be outvoted: one
    read near certainly is likelier a neighbour the plan took into the meld (1040061: a
    winning 5p at 0.97 beside a concealed 777z, read as a kan's fourth tile)."""
    disorder_cost: float = math.log(4.0)
    """Extra cost of an implied name that puts a chi's two tiles from the hand out of their
    usual ascending order (players may lay them otherwise, so a doubt, not a rule)."""


DEFAULT_IMPLIED = ImpliedConfig()

CHI_REACH = (-2, -1, 1, 2)
"""Steps from a chi's tile to the others it may share a chi with."""


def is_weak(det: TileDetection, cfg: ImpliedConfig = DEFAULT_IMPLIED) -> bool:
    """The classifier gives the tile's face names together less than ``weak_below``."""
    return not isinstance(det.label, Tile) or face_mass(det) < cfg.weak_below


def _likeliest_face(det: TileDetection) -> float:
    return max((p for n, p in det.alternatives if n in TILE_NAMES), default=det.confidence or 0.0)


def can_share_a_set(a: Tile, b: Tile) -> bool:
    """Two tiles may lie in one pon, kan or chi together."""
    return b.plain in mate_names(a)


def outvoted(tile: Tile, mates: Sequence[Tile]) -> bool:
    """``tile`` shares a set with none of ``mates``, which (two at least) may all share
    one: the mates' word stands against the tile's."""
    return (len(mates) >= 2 and not any(can_share_a_set(tile, m) for m in mates)
            and all(can_share_a_set(a, b) for k, a in enumerate(mates) for b in mates[k + 1:]))


def mate_names(tile: Tile) -> list[Tile]:
    """Names a meld-mate of ``tile`` may have: its own kind (pon, kan), or a suit
    neighbour within two (chi); plain tiles (the red flag is the classifier's to see)."""
    out = [tile.plain]
    if not tile.is_honor:
        for step in CHI_REACH:
            n = tile.number + step
            if 1 <= n <= 9:
                out.append(TILES[tile.kind + step])
    return out


def with_implied(dets: Sequence[TileDetection], plan: LayoutPlan, slots: list[int],
                 options: list[list[tuple[Tile, float]]],
                 cfg: ImpliedConfig = DEFAULT_IMPLIED) -> list[list[tuple[Tile, float]]]:
    """``options`` (per slot, ``(tile, cost)`` sorted by cost) with implied names added
    to the weak face-up tiles of melds; returns a new list, the input is not changed.

    A weak tile takes the names of its mates' likeliest readings (`mate_names`), those
    mates being tiles the classifier read with confidence.
    """
    where = {i: k for k, i in enumerate(slots)}
    out = list(options)
    for meld in plan.melds:
        faces = [i for i in meld.faces if i in where]
        strong = {j: out[where[j]][0][0] for j in faces if not is_weak(dets[j], cfg)}
        if cfg.outvoted and len(meld.columns) == 3:  # a kan's odd tile: likelier no kan there
            # Only the middle tile: one at either end may be a neighbour the plan took in.
            middle = meld.columns[1]
            strong = {j: t for j, t in strong.items()
                      if j not in middle or _likeliest_face(dets[j]) >= cfg.outvoted_below
                      or not outvoted(t, [m for k, m in strong.items() if k != j])}
        if not strong:
            continue
        place = {i: c for c, col in enumerate(meld.columns) for i in col}
        for i in faces:
            if i in strong:
                continue
            implied = {t for j in strong for t in mate_names(strong[j])}
            # An implied name is never cheaper than the classifier's own vote for it (a meld
            # must not read more cheaply than the same tiles concealed); between equal costs
            # the classifier's faint vote comes first: it tells a chi's two ends apart, as
            # does the order of its tiles.
            own = dict(dets[i].alternatives)
            named = dict(out[where[i]])
            for t in implied:
                floor = -math.log(cfg.implied_p) + cfg.disorder_cost * _out_of_order(
                    t, i, strong, place, meld.sideways_index)
                named[t] = min(named.get(t, floor), floor)
            out[where[i]] = sorted(named.items(), key=lambda tc: (
                tc[1], -own.get(str(tc[0]), 0.0), tc[0].kind, tc[0].red))
    return out


def _out_of_order(tile: Tile, i: int, strong: dict[int, Tile], place: dict[int, int],
                  called: int | None) -> bool:
    """``tile`` at detection ``i`` would break a chi's laid order: its two tiles from the
    hand lie in ascending order beside the called one (チー: 横向きの牌の右に小さい順)."""
    if called is None or place[i] == called:
        return False
    for j, mate in strong.items():
        if place[j] == called or mate.suit != tile.suit or mate.kind == tile.kind:
            continue
        if (place[i] < place[j]) != (tile.number < mate.number):
            return True
    return False


__all__ = ["DEFAULT_IMPLIED", "ImpliedConfig", "can_share_a_set", "is_weak", "mate_names",
           "outvoted", "with_implied"]
