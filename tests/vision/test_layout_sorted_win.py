"""Layout: a complete hand with no tile set apart whose last concealed tile breaks the
sorted order of the others is read with that tile as the winning tile
(`LayoutConfig.sorted_win`)."""

from __future__ import annotations

from dataclasses import replace

from agari.engine.tiles import Tile
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout, in_hand_order
from layout_factories import H, W, _det, _quad

ORIGIN = (200.0, 600.0)


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
