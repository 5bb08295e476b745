"""A pond row touching the end of the player's wall (`ExtrasConfig.wall_end`) and a face at a
wall's end lying a little off its line (`ExtrasConfig.line_slack`): both hid the dora lying
on or beside the wall."""

from __future__ import annotations

from agari.engine.tiles import BACK
from agari.vision.layout import analyse_layout
from agari.vision.layout_extras import _wall_end
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


def test_a_run_of_faces_is_cut_off_a_walls_end_holding_fewer_faces() -> None:
    assert _wall_end("PPPBBP") == 3  # pond row | the wall's backs and the dora on it
    assert _wall_end("PBBPPPPP") == 3  # the dora and the wall's backs | pond row
    assert _wall_end("PBBP") == 0  # as many faces either side: no telling
    assert _wall_end("BBPBB") == 0  # a wall already
    assert _wall_end("PPPPP") == 0


def _pond_touching_the_wall() -> tuple[list, int]:
    """Three discards in line with two backs of the player's wall, touching them, and an 8s
    lying on the wall's next stack; the detections and the 8s's index."""
    laid = lay_out(**HAND)
    tiles = ["3s", "3m", "5p", BACK, BACK, "8s"]
    for k, tile in enumerate(tiles):
        laid.dets.append(_det(tile, _quad(U_WALL + k * STEP, V_WALL, W, 0.6 * H, ORIGIN, 0.0)))
    return laid.dets, len(laid.dets) - 1


def test_a_pond_row_touching_the_wall_leaves_its_dora() -> None:
    dets, dora = _pond_touching_the_wall()
    assert analyse_layout(dets, config=extras_config(wall_end=False))[0].dora == ()
    assert analyse_layout(dets)[0].dora == (dora,)


def _face_off_the_walls_line(rise: float) -> tuple[list, int]:
    """Four backs of a wall and, beyond its end, a flat 1z boxed half a tile high, its centre
    ``rise`` of its height beyond the backs' far edge; the detections and the 1z's index."""
    laid = lay_out(**HAND)
    for k in range(1, 5):
        laid.dets.append(_det(BACK, _quad(U_WALL + k * STEP, V_WALL, W, 0.6 * H, ORIGIN, 0.0)))
    flat = 0.35 * H
    top = V_WALL + 0.6 * H
    laid.dets.append(_det("1z", _quad(U_WALL - 0.1 * W, top + (rise - 0.5) * flat, W, flat,
                                      ORIGIN, 0.0)))
    return laid.dets, len(laid.dets) - 1


def test_a_face_a_little_off_the_walls_line_is_its_indicator() -> None:
    dets, dora = _face_off_the_walls_line(0.04)
    assert analyse_layout(dets, config=extras_config(line_slack=0.0))[0].dora == ()
    assert analyse_layout(dets)[0].dora == (dora,)


def test_a_face_off_the_line_inside_the_wall_is_not() -> None:
    # Inside a wall such faces are a pond row's, lying just in front of it (1000075).
    laid = lay_out(**HAND)
    for k in (0, 1, 3, 4):
        laid.dets.append(_det(BACK, _quad(U_WALL + k * STEP, V_WALL, W, 0.6 * H, ORIGIN, 0.0)))
    flat = 0.35 * H
    laid.dets.append(_det("1z", _quad(U_WALL + 2 * STEP, V_WALL + 0.6 * H - 0.46 * flat, W,
                                      flat, ORIGIN, 0.0)))
    assert analyse_layout(laid.dets)[0].dora == ()
    laid.dets[-1] = _det("1z", _quad(U_WALL + 2 * STEP, V_WALL + 0.6 * H - 0.54 * flat, W,
                                     flat, ORIGIN, 0.0))
    assert analyse_layout(laid.dets)[0].dora == (len(laid.dets) - 1,)
