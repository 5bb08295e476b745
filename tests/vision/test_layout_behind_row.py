"""Loose dora lying just behind a standing hand overlap its tiles' tops in the picture, so
the hand's row takes them in; `ExtrasConfig.behind_row` still finds them (990093)."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import HAND, H, W, _det, _quad, extras_config, lay_out

OFF = extras_config(behind_row=None)


def _dora(laid) -> tuple[int, ...]:
    return tuple(i for i, r in enumerate(laid.roles) if r == "dora")


def test_a_dora_overlapping_the_hands_tops_is_the_dora() -> None:
    laid = lay_out(**HAND, dora="4p", dora_at=(3.0, 0.4))
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == _dora(laid)
    assert len(plan.concealed) == 13 and plan.win is not None


def test_off_the_row_keeps_it_as_another_tile() -> None:
    laid = lay_out(**HAND, dora="4p", dora_at=(3.0, 0.4))
    assert analyse_layout(laid.dets, config=OFF)[0].dora == ()


def test_two_dora_behind_the_hand_are_both_read() -> None:
    # Two indicators: the hand holds a kan (`ExtrasConfig.one_per_kan`).
    kan = dict(concealed="456p789s1122z", win="2z", melds=(("ankan", "1111m", None),))
    laid = lay_out(**kan, dora="4p7z", dora_at=(5.0, 0.4))
    assert analyse_layout(laid.dets)[0].dora == _dora(laid)


def test_a_face_over_a_sideways_tile_is_no_dora() -> None:
    # A face just beyond a meld's called tile (an added kan's upper tile, or the called
    # tile boxed twice) is the meld's, never an indicator.
    laid = lay_out(concealed="123m456p789s1z", win="1z", melds=(("pon", "999s", 2),))
    (called,) = [i for i, d in enumerate(laid.dets) if d.sideways]
    q = laid.dets[called].quad
    xs, ys = [p[0] for p in q], [p[1] for p in q]
    u0 = min(xs) - 200.0  # the factory's origin is (200, 600), the row along +x
    laid.dets.append(_det("9s", _quad(u0, 0.5 * W, H, W, (200.0, 600.0), 0.0)))
    laid.roles.append("other")
    assert max(ys) - min(ys) < H  # lying sideways
    assert analyse_layout(laid.dets)[0].dora == ()


def test_a_face_behind_the_row_never_displaces_a_dora_lying_elsewhere() -> None:
    # Only where nothing else is the dora: a tile of a misread row lying behind it took the
    # place of the true dora farther off (970028).
    laid = lay_out(**HAND, dora="4p")
    dora = _dora(laid)
    laid.dets.append(_det("5z", _quad(8.0 * W, 0.4 * H, W, H, (200.0, 600.0), 0.0)))
    laid.roles.append("other")
    assert analyse_layout(laid.dets)[0].dora == dora
