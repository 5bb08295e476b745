"""Indicators a little farther from the hand than their own heights allow
(`ExtrasConfig.width_reach`: a lone sure dora on a stack behind a standing hand) and ura a
stack's side below a dead wall's indicators (`ExtrasConfig.wall_ura_gap`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad, extras_config, lay_out

CLOSED = dict(concealed="123m456p789s1122z", win="2z")
FLAT = 12.0
"""A flat tile's height seen obliquely (px): a quarter of the standing tiles' 54."""




def _flat(laid, label: str, u: float, gap: float, p: float = 0.95) -> int:
    """Adds a flat face ``gap`` px behind the hand's top edge at ``u`` px along the row;
    its index."""
    det = _det(label, _quad(u, H + gap, W, FLAT, ORIGIN, 0.0))
    laid.dets.append(replace(det, confidence=p, alternatives=((label, p), ("none", 1 - p))))
    laid.roles.append("other")
    return len(laid.dets) - 1


def test_a_lone_flat_dora_beyond_its_own_heights_is_the_dora() -> None:
    laid = lay_out(**CLOSED)
    gap = 1.8 * W  # 72 px: six of its own heights, under 2.5 hand tile widths
    dora = _flat(laid, "4p", 3 * W, gap)
    assert analyse_layout(laid.dets, config=extras_config(width_reach=None))[0].dora == ()
    assert analyse_layout(laid.dets, config=extras_config(width_reach=2.5))[0].dora == (dora,)


def test_beyond_the_width_reach_it_is_not() -> None:
    laid = lay_out(**CLOSED)
    _flat(laid, "4p", 3 * W, 3.0 * W)
    assert analyse_layout(laid.dets, config=extras_config(width_reach=2.5))[0].dora == ()


def test_a_lone_dora_2_7_tile_widths_off_is_within_reach() -> None:
    # 1020040: a loose dora 2.7 hand tile widths behind a standing hand.
    laid = lay_out(**CLOSED)
    dora = _flat(laid, "8p", 3 * W, 2.7 * W)
    assert analyse_layout(laid.dets, config=extras_config(width_reach=2.5))[0].dora == ()
    assert analyse_layout(laid.dets)[0].dora == (dora,)


def test_a_face_with_a_neighbour_is_a_pond_tile_not_a_lone_dora() -> None:
    laid = lay_out(**CLOSED)
    _flat(laid, "4p", 3 * W, 1.8 * W)
    _flat(laid, "9s", 4.6 * W, 1.8 * W)  # 0.6 tile widths on: a broken-up row of discards
    assert analyse_layout(laid.dets, config=extras_config(width_reach=2.5, alone_gap=1.0))[0].dora \
        == ()


def test_an_unsure_face_is_not_taken_so_far_off() -> None:
    laid = lay_out(**CLOSED)
    dora = _flat(laid, "4p", 3 * W, 1.8 * W, p=0.5)
    config = extras_config(width_reach=2.5, lone_least=0.8)
    assert analyse_layout(laid.dets, config=config)[0].dora == ()
    config = extras_config(width_reach=2.5, lone_least=0.4)
    assert analyse_layout(laid.dets, config=config)[0].dora == (dora,)


def _wall_and_ura(below: float):
    """A dead wall's indicator and a 7s on the table in front of the wall, its top ``below``
    tile heights under the indicator's bottom: the detections, the dora's and the ura's index."""
    laid = lay_out(**CLOSED, dora="4p", dead_wall=True, dora_at=(3.0, 4.0))
    (dora,) = [i for i, r in enumerate(laid.roles) if r == "dora"]
    u = 3.0 * W + 2 * W * 1.03
    laid.dets.append(_det("7s", _quad(u, 4.0 * H - (below + 1.0) * H, W, H, ORIGIN, 0.0)))
    return laid, dora, len(laid.dets) - 1


def test_ura_a_stacks_side_below_a_dead_walls_indicator() -> None:
    # The ura lies on the table in front of the wall, its top 1.6 tile heights below the
    # indicator's bottom (the wall's side between them).
    laid, dora, ura = _wall_and_ura(1.6)
    off = analyse_layout(laid.dets, config=extras_config(wall_ura_gap=None))[0]
    assert (off.dora, off.ura) == ((dora,), ())
    on = analyse_layout(laid.dets, config=extras_config(wall_ura_gap=2.0))[0]
    assert (on.dora, on.ura) == ((dora,), (ura,))


def test_ura_below_a_two_high_walls_side_seen_low() -> None:
    # 2.2 tile heights below the indicator's bottom (1040097: a two-high wall seen low).
    laid, dora, ura = _wall_and_ura(2.2)
    before = analyse_layout(laid.dets, config=extras_config(wall_ura_gap=2.0))[0]
    assert (before.dora, before.ura) == ((dora,), ())
    now = analyse_layout(laid.dets)[0]
    assert (now.dora, now.ura) == ((dora,), (ura,))
