"""Layout: the hand's row is the row with the most face-up columns, not quads
(`layout._column_weight`)."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import H, W, _det, _quad, lay_out


def test_a_row_of_stacked_quads_is_not_taken_for_the_hand() -> None:
    # Thirteen concealed tiles, and above them a row of eight tiles each boxed twice (a
    # pond's rows read as one, or quads over quads): sixteen quads in eight columns.
    laid = lay_out("123m456p789s1122z")
    other = []
    for k in range(8):
        for shift in (0.0, 0.08 * W):
            other.append(_det("5s", _quad(k * W * 1.05 + shift, 0.0, W, H, (300.0, 200.0), 0.0)))
    dets = laid.dets + other
    plan = analyse_layout(dets)[0]
    assert sorted(plan.concealed) == list(range(13))
