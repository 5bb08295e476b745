"""Indicators per kan (`ExtrasConfig.one_per_kan`, off by default): a loose row shows one dora
indicator and one more per kan among the hand's melds; a row of more faces is discards. A
dead wall may show one more (a kan by another player)."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import HAND, extras_config, lay_out

KAN_HAND = dict(concealed="456p789s1122z", win="2z", melds=(("ankan", "1111m", None),))
OFF = extras_config(one_per_kan=False)
ON = extras_config(one_per_kan=True)


def _dora(laid) -> tuple[int, ...]:
    return tuple(i for i, r in enumerate(laid.roles) if r == "dora")


def test_a_loose_row_of_three_faces_without_a_kan_is_no_indicators() -> None:
    laid = lay_out(**HAND, dora="4p7s9m")
    assert analyse_layout(laid.dets, config=OFF)[0].dora == _dora(laid)  # taken before
    assert analyse_layout(laid.dets, config=ON)[0].dora == ()


def test_a_single_loose_indicator_stays() -> None:
    laid = lay_out(**HAND, dora="4p")
    assert analyse_layout(laid.dets, config=ON)[0].dora == _dora(laid)


def test_a_kan_allows_a_second_loose_indicator() -> None:
    laid = lay_out(**KAN_HAND, dora="4p7s")
    plan = analyse_layout(laid.dets, config=ON)[0]
    assert [m.kind for m in plan.melds] == ["closed_kan"]
    assert plan.dora == _dora(laid)


def test_a_dead_wall_may_show_one_indicator_more() -> None:
    laid = lay_out(**HAND, dora="4p7s", dead_wall=True)
    assert analyse_layout(laid.dets, config=ON)[0].dora == _dora(laid)
    laid = lay_out(**HAND, dora="4p7s9m", dead_wall=True)
    assert analyse_layout(laid.dets, config=ON)[0].dora == ()
