"""Layout: a complete hand with no tile set apart whose last concealed tile breaks the
sorted order of the others is read with that tile as the winning tile
(`LayoutConfig.sorted_win`)."""

from __future__ import annotations

from dataclasses import replace

from agari.engine.tiles import Tile
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout, in_hand_order
from layout_factories import ORIGIN, H, W, _det, _quad


def even_row(names: str) -> list:
    """Upright detections touching evenly, left to right; ``names`` like ``"1m 2m 3p"``."""
    return [_det(t, _quad(k * (W + 0.02 * W), 0.0, W, H, ORIGIN, 0.0), False)
            for k, t in enumerate(names.split())]


def tiles(names: str) -> list[Tile]:
    return [Tile.parse(t) for t in names.split()]


def test_hand_order_lets_the_suits_come_in_any_order_with_honours_last() -> None:
    assert in_hand_order(tiles("2m 2m 0s 5s 6s 7s 3p 4p 9p 1z 1z"))
    assert not in_hand_order(tiles("2m 2m 0s 5s 6s 7s 3p 4p 9p 4s"))  # 4s back to souzu
    assert not in_hand_order(tiles("2m 3m 1z 1z 4p"))  # a suit after the honours
    assert not in_hand_order(tiles("2m 4m 3m"))  # numbers falling


HAND = "1m 2m 3m 4m 4m 4m 9m 9m 4p 4p 3z 3z 3z"


def test_a_tile_out_of_order_at_the_end_is_the_winning_tile() -> None:
    dets = even_row(HAND + " 4p")
    off = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, sorted_win=False))
    assert all(p.win is None for p in off)
    on = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, sorted_win=True))
    assert on[0].win == 13 and len(on[0].concealed) == 13
    assert on[1:] == off  # the plan without a winning tile stays, for the reading to weigh


def test_a_sorted_or_unsorted_hand_shows_no_winning_tile() -> None:
    on = replace(DEFAULT_LAYOUT, sorted_win=True)
    off = replace(DEFAULT_LAYOUT, sorted_win=False)
    for names in (HAND + " 7z", "4p 9m " + HAND.replace("9m 9m ", "").replace("4p 4p ", "") +
                  " 9m 4p 4p"):
        dets = even_row(names)
        assert analyse_layout(dets, config=on) == analyse_layout(dets, config=off)


def row_with(names: str, sideways: int | None, lean: float = 1.2) -> list:
    """Detections touching evenly; the tile at ``sideways`` only ``lean`` times as long along
    the row as the others (a called tile foreshortened, not flagged sideways)."""
    dets, u = [], 0.0
    for k, t in enumerate(names.split()):
        du = W * lean if k == sideways else W
        dets.append(_det(t, _quad(u, 0.0, du, H, ORIGIN, 0.0), False))
        u += du + 0.02 * W
    return dets


WAITING = "2m 4m 9m 9m 7s 8s 9s 7p 8p 9p"


def melded(plans: list) -> list:
    return [p for p in plans if any(m.detections == (10, 11, 12) for m in p.melds)]


def test_a_set_after_the_sorted_hand_breaking_its_order_is_offered_as_a_meld() -> None:
    dets = row_with(WAITING + " 1p 1p 1p", sideways=11)
    off = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, sorted_melds=None))
    assert not melded(off) and any(len(p.concealed) == 13 for p in off)
    on = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, sorted_melds=1.15))
    first = on[0]
    assert first.concealed == tuple(range(10)) and first.melds[0].sideways_index == 1


def test_no_meld_without_a_sideways_tile_a_set_or_a_break_in_the_order() -> None:
    on = replace(DEFAULT_LAYOUT, sorted_melds=1.15)
    off = replace(DEFAULT_LAYOUT, sorted_melds=None)
    for names, side in ((WAITING + " 1p 1p 1p", None),  # all upright: a concealed triplet?
                        (WAITING + " 1p 2p 4p", 11),  # no set
                        ("1m 1m 1m " + WAITING, 11)):  # 7p8p9p keep the order: the hand's own
        dets = row_with(names, side)
        assert analyse_layout(dets, config=on) == analyse_layout(dets, config=off)
