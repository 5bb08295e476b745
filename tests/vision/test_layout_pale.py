"""Pale white dragons beside indicators (`agari.vision.layout_extras._backs_of_row`): a
wall's pale backs read as blank 白 are backs, a white indicator alone stays a face."""

from __future__ import annotations

from agari.engine.tiles import BACK
from agari.vision.layout import analyse_layout
from layout_factories import HAND, lay_out, with_alternatives

KAN_HAND = dict(concealed="456p789s1122z", win="2z", melds=(("ankan", "1111m", None),))
PALE = [("5z", 0.92), (BACK, 0.03), ("7s", 0.01)]
"""A back the classifier reads as a blank 白, with a little back probability."""


def _paled(laid, indices) -> None:
    for i in indices:
        laid.dets[i] = with_alternatives(laid.dets[i], PALE)


def _indices(laid, role: str) -> list[int]:
    return [i for i, r in enumerate(laid.roles) if r == role]


def test_a_dead_walls_backs_read_as_white_dragons_are_no_indicators() -> None:
    laid = lay_out(**HAND, dora="4p", dead_wall=True)
    (dora,) = _indices(laid, "dora")
    backs = [i for i in _indices(laid, "other") if laid.dets[i].label == BACK]
    _paled(laid, backs[:4])  # most of the wall's backs read as 白, one still a back
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (dora,)


def test_a_wall_of_pale_backs_alone_beside_the_indicator_is_no_dora_either() -> None:
    laid = lay_out(**HAND, dora="4p", dead_wall=True)
    (dora,) = _indices(laid, "dora")
    _paled(laid, [i for i in _indices(laid, "other") if laid.dets[i].label == BACK])
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (dora,)


def test_a_lone_white_dragon_indicator_stays_the_dora() -> None:
    laid = lay_out(**HAND, dora="5z")
    (dora,) = _indices(laid, "dora")
    _paled(laid, [dora])
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (dora,)


def test_a_white_dragon_in_a_dead_wall_of_true_backs_stays_the_dora() -> None:
    laid = lay_out(**HAND, dora="5z", dead_wall=True)
    (dora,) = _indices(laid, "dora")
    _paled(laid, [dora])
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (dora,)


def test_two_white_dragon_indicators_stay_the_dora() -> None:
    laid = lay_out(**KAN_HAND, dora="5z5z")  # a kan: two indicators
    dora = _indices(laid, "dora")
    _paled(laid, dora)
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == tuple(dora)
