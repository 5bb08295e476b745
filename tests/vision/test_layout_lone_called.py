"""Layout: a lone sideways tile read as a concealed tile where the hand turned round closes a
meld with it (`layout._called_concealed`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import analyse_layout
from layout_factories import H, W, _det, _quad, lay_out


def _turned_round(det):
    tl, tr, br, bl = det.quad
    return replace(det, quad=(br, bl, tl, tr))


def _shifted(det, du: float):
    return replace(det, quad=tuple((x + du, y) for x, y in det.quad))


def test_a_called_tile_set_off_its_meld_in_a_hand_seen_from_across_closes_the_meld() -> None:
    # Ten concealed tiles, the winning tile apart, a chi called from the left whose called
    # tile sits a third of a tile off its meld; the photo taken from across the table. As
    # located the row reads PP | S | P | PPPPPPPPPP: the lone called tile was read as a
    # tile lying flat by the row, the whole row as fourteen concealed tiles in four groups.
    laid = lay_out("1234567899m", "9m", (("chi", "678s", 0),))
    dets = list(laid.dets)
    called = len(dets) - 3
    dets[called] = _shifted(dets[called], -0.35 * W)
    dets = [_turned_round(d) for d in dets]
    plan = analyse_layout(dets)[0]
    assert plan.flipped
    assert plan.win == laid.roles.index("win")
    assert len(plan.melds) == 1 and plan.melds[0].source == "left"
    assert set(plan.melds[0].detections) == set(range(called, len(dets)))


def test_a_lone_flat_winning_tile_is_not_taken_for_a_called_one() -> None:
    # The same hand without its meld: nothing turned round reads a meld, so the row stays
    # as seen.
    laid = lay_out("1234567899m123s", "9m")
    plan = analyse_layout(laid.dets)[0]
    assert not plan.flipped and not plan.melds
    assert plan.win == laid.roles.index("win")


def test_a_hand_seen_from_across_whose_pon_shows_no_called_tile_is_turned_round() -> None:
    # The pon's called tile does not look sideways (PPP). As located the row reads PPP | P |
    # PPPPPPPPPP: fourteen concealed tiles in three groups; turned round, ten concealed
    # tiles, the winning tile apart and a meld after it (its called tile guessed).
    laid = lay_out("1234567899m", "9m", (("pon", "666s", 0),))
    dets = list(laid.dets)
    called = len(dets) - 3
    (x0, y0), *_ = dets[called].quad
    dets[called] = _det("6s", _quad(x0 - 200.0, 0.0, W, H, (200.0, 600.0), 0.0))
    dets[called + 1:] = [_shifted(d, W - H) for d in dets[called + 1:]]
    dets = [_turned_round(d) for d in dets]
    plan = analyse_layout(dets)[0]
    assert plan.flipped
    assert plan.win == laid.roles.index("win") and len(plan.concealed) == 10
    assert len(plan.melds) == 1
    assert set(plan.melds[0].detections) == set(range(called, len(dets)))
