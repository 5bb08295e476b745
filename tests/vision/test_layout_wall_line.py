"""A dead wall read by its own line (`ExtrasConfig.wall_line`) and faces lying on a wall of
backs (`ExtrasConfig.wall_top`): a pond row just in front of a dead wall shares its columns
and hid its backs; a loose dora laid on the player's own wall, boxed wide, was taken for a
called tile."""

from __future__ import annotations

from agari.engine.tiles import BACK
from agari.vision.layout import analyse_layout
from layout_factories import (
    HAND,
    ORIGIN,
    STEP,
    U_WALL,
    V_WALL,
    H,
    W,
    _det,
    _quad,
    extras_config,
    lay_out,
)


def _pond_before_the_wall(overlap: float = 0.6, height: float = 1.3) -> tuple[list, int]:
    """A dead wall showing 4p at its third stack, with seven discards lying just in front of
    its stacks (nearer the player, so boxed ``height`` tile heights high, and overlapping
    the stacks ``overlap`` tile heights in the picture, their centres short of the wall);
    the detections and the 4p's index."""
    laid = lay_out(**HAND, dora="4p", dead_wall=True)
    dora = laid.roles.index("dora")
    for k, tile in enumerate(["1s", "9p", "3z", "7m", "5s", "6p", "2m"]):
        laid.dets.append(_det(tile, _quad(U_WALL + k * STEP, V_WALL - (height - overlap) * H,
                                          W, height * H, ORIGIN, 0.0)))
    return laid.dets, dora


def test_a_pond_row_before_a_dead_wall_leaves_it_a_wall() -> None:
    dets, dora = _pond_before_the_wall()
    assert analyse_layout(dets, config=extras_config(wall_line=False))[0].dora != (dora,)
    assert analyse_layout(dets)[0].dora == (dora,)


def test_a_row_of_discards_alone_is_still_no_dora() -> None:
    # Without backs there is no wall line to read: seven faces are a pond row.
    laid = lay_out(**HAND)
    for k, tile in enumerate(["1s", "9p", "3z", "7m", "5s", "6p", "2m"]):
        laid.dets.append(_det(tile, _quad(U_WALL + k * STEP, V_WALL, W, H, ORIGIN, 0.0)))
    assert analyse_layout(laid.dets)[0].dora == ()


def _face_on_own_wall(width: float = 1.4, v0: float = 0.5) -> tuple[list, int]:
    """Seven backs of the player's own wall, and a 6s lying on its fourth stack beyond its
    line (``v0`` tile heights above the wall's bottom, boxed ``width`` tile widths wide as
    a flat tile seen obliquely is); the detections and the 6s's index."""
    laid = lay_out(**HAND)
    for k in range(7):
        laid.dets.append(_det(BACK, _quad(U_WALL + k * STEP, V_WALL, W, H, ORIGIN, 0.0)))
    laid.dets.append(_det("6s", _quad(U_WALL + 3 * STEP - 0.2 * W, V_WALL + v0 * H,
                                      width * W, 0.7 * H, ORIGIN, 0.0)))
    return laid.dets, len(laid.dets) - 1


def test_a_wide_face_on_a_wall_of_backs_is_the_dora() -> None:
    dets, face = _face_on_own_wall()
    assert analyse_layout(dets, config=extras_config(wall_top=False))[0].dora == ()
    assert analyse_layout(dets)[0].dora == (face,)



def _far_wall_and_loose_dora() -> tuple[list, int, int]:
    """A loose 3p just behind the hand, and farther off four backs of someone's wall with a
    sure 8s lying one missed stack beyond its end; the detections, the 3p's index and the
    8s's."""
    laid = lay_out(**HAND, dora="3p")
    loose = laid.roles.index("dora")
    v = 5.5 * H
    for k in range(4):
        laid.dets.append(_det(BACK, _quad(6 * W + k * STEP, v, W, H, ORIGIN, 0.0)))
    laid.dets.append(_det("8s", _quad(6 * W - STEP - 1.2 * W, v, W, H, ORIGIN, 0.0)))
    return laid.dets, loose, len(laid.dets) - 1


def test_a_wall_joined_across_a_missed_stack_ranks_by_distance() -> None:
    dets, loose, far = _far_wall_and_loose_dora()
    assert analyse_layout(dets, config=extras_config(bridged_loose=False))[0].dora == (far,)
    assert analyse_layout(dets)[0].dora == (loose,)
