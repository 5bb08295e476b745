"""Backs in a hand's row taken face up (`agari.vision.layout._faced_backs`): a blank 白 the
classifier calls a back, read as 白 where the row makes no hand otherwise."""

from __future__ import annotations

from agari.engine import Rules, WinContext
from agari.engine.tiles import BACK, Tile
from agari.vision.layout import analyse_layout
from agari.vision.reading import candidates
from agari.vision.reading_checks import Situation
from agari.vision.reading_repair import read_with_repairs
from layout_factories import lay_out, with_alternatives

SURE_BACK = [(BACK, 0.93), ("none", 0.04), ("6z", 0.004), ("5z", 0.003), ("8s", 0.001)]
"""A blank 白 the classifier reads as a back, with hardly a trace of 白 (tuning render 940084)."""
SITUATION = Situation(Rules.preset("tenhou"), WinContext())


def _whites_as_backs(laid) -> list[int]:
    whites = [i for i, d in enumerate(laid.dets) if d.label == Tile.parse("5z")]
    for i in whites:
        laid.dets[i] = with_alternatives(laid.dets[i], SURE_BACK)
    return whites


def test_a_back_read_as_a_face_is_likeliest_a_white_dragon() -> None:
    laid = lay_out(concealed="5z")
    det = with_alternatives(laid.dets[0], SURE_BACK)
    names = [str(t) for t, _ in candidates(det)]
    assert names[0] == "5z" and "6z" in names


def test_white_dragons_read_as_backs_at_the_hands_end_are_read_as_white() -> None:
    laid = lay_out(concealed="234m456p789s1z555z", win="1z")
    whites = _whites_as_backs(laid)
    plans = analyse_layout(laid.dets)
    assert any(set(whites) <= set(p.concealed) for p in plans)
    got = read_with_repairs(laid.dets, SITUATION).reading.layout
    assert got.hand_text == "234m456p789s1555z1z"


def test_white_dragons_read_as_backs_amid_the_hand_are_read_as_white() -> None:
    laid = lay_out(concealed="234m555z456p789s1z", win="1z")
    _whites_as_backs(laid)
    got = read_with_repairs(laid.dets, SITUATION).reading.layout
    assert got.hand_text == "234m456p789s1555z1z"


def test_a_stray_back_by_a_hand_that_reads_as_seen_stays_out_of_it() -> None:
    # A waiting hand (13 tiles) on 白 and a back beside it: read face up, the back would
    # complete it (tuning render 980062), but the row makes a hand without it.
    laid = lay_out(concealed="333888m11s55z789m")
    back = lay_out(concealed="5z", origin=(200.0 - 40 * 1.03, 600.0)).dets[0]
    laid.dets.insert(0, with_alternatives(back, SURE_BACK))
    plans = analyse_layout(laid.dets)
    assert all(0 not in p.concealed for p in plans)
