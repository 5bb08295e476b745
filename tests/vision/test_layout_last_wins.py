"""Layout: a complete hand that shows no tile set apart is also offered with its last concealed
tile as the winning tile (`LayoutConfig.last_wins`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import lay_out

OFF = replace(DEFAULT_LAYOUT, sorted_win=False)  # the 4p breaking the order: `sorted_win`
ON = replace(OFF, last_wins=True)


def test_fourteen_touching_tiles_take_the_last_as_the_winning_tile() -> None:
    # The winning tile laid against the hand: no gap tells it from the concealed tiles.
    laid = lay_out("12344499m44p333z4p")
    off = analyse_layout(laid.dets, config=OFF)[0]
    assert off.win is None and len(off.concealed) == 14
    plans = analyse_layout(laid.dets, config=ON)
    assert plans[0].win == off.concealed[-1]
    assert plans[0].concealed == off.concealed[:-1]
    # The hand without a winning tile stays, next, for the reading to fall back on.
    assert plans[1].win is None and plans[1].concealed == off.concealed


def test_the_last_concealed_tile_before_the_melds_is_the_one_taken() -> None:
    laid = lay_out("111456m22340s", melds=(("chi", "123m", 0),))
    plan = analyse_layout(laid.dets, config=ON)[0]
    assert len(plan.melds) == 1
    assert plan.win == max(i for i, r in enumerate(laid.roles) if r == "concealed")


def test_a_hand_with_its_winning_tile_apart_or_a_waiting_hand_is_left_alone() -> None:
    apart = lay_out("1234567899m11p", "9m")
    assert analyse_layout(apart.dets, config=ON) == analyse_layout(apart.dets, config=OFF)
    waiting = lay_out("1234567899m113p")
    assert analyse_layout(waiting.dets, config=ON) == analyse_layout(waiting.dets, config=OFF)
