"""Layout: a row that reads as seen only with its first tile taken upright keeps its winning
tile apart, rather than turned round into a meld (`layout._winner_first`)."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import H, W, _det, _quad, lay_out


def test_a_squat_first_tile_does_not_turn_the_hand_round_into_a_meld() -> None:
    # Thirteen concealed tiles and the winning tile apart; the first tile, nearest the
    # camera, squat like a called one. As seen the row reads no way (S at its start); turned
    # round it read as ten concealed tiles (the winning tile first) and a meld PPS.
    laid = lay_out("333444555m123p1z", "1z")
    dets = list(laid.dets)
    dets[0] = _det("3m", _quad(W - H, 0.0, H, W, (200.0, 600.0), 0.0))
    plans = analyse_layout(dets)
    assert not plans[0].flipped and not plans[0].melds
    assert plans[0].win == laid.roles.index("win") and len(plans[0].concealed) == 13
    # The turned reading stays offered, after it.
    assert any(p.flipped and p.melds for p in plans[1:])
