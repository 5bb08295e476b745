"""A wall's front side (`ExtrasConfig.wall_side`): a row of backs each with another back just
behind it is the stacks' sides below their tops; a face in it is a side misread, not the
dora (1020095: a side read 白 made a nearer dead wall than the true one)."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad, extras_config, lay_out

STEP = W * 1.03


def _wall_and_its_side(gap: float):
    """A dead wall showing 8s at its third stack, and ``gap`` tile heights in front of its
    tops a row of its stacks' sides (0.75 high): backs, the one under the 8s read 5z; the
    8s's index and the 5z's."""
    laid = lay_out(concealed="123m456p789s1122z", win="2z", dora="8s", dead_wall=True)
    dora = laid.roles.index("dora")
    v0 = 2.5 * H - (gap + 0.75) * H
    for stack in range(7):
        label = "5z" if stack == 2 else "back"
        laid.dets.append(_det(label, _quad(3.0 * W + stack * STEP, v0, W, 0.75 * H, ORIGIN,
                                           0.0)))
        laid.roles.append("other")
    return laid, dora, len(laid.dets) - 5


def test_a_face_in_a_walls_front_side_is_no_indicator() -> None:
    laid, dora, side = _wall_and_its_side(0.1)
    off = extras_config(wall_side=None)
    assert analyse_layout(laid.dets, config=off)[0].dora == (side,)  # the nearer wall before
    assert analyse_layout(laid.dets)[0].dora == (dora,)


def test_a_row_well_in_front_of_the_wall_is_a_wall_of_its_own() -> None:
    laid, _, side = _wall_and_its_side(1.0)
    assert analyse_layout(laid.dets)[0].dora == (side,)
