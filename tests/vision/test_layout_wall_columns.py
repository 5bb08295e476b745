"""Faces behind a dead wall's backs (`ExtrasConfig.wall_columns`): a pond tile just behind
the wall, its lower part hidden by a stack, shares that stack's column; it is no
indicator, the wall's own face-up tile is."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import analyse_layout
from layout_factories import HAND, ORIGIN, H, W, _det, _quad, extras_config, lay_out

U_DORA, V_DORA = 3.0 * W, 2.5 * H
STEP = W * 1.03


def _wall_with(behind: list[tuple[int, str, float]]):
    """A dead wall showing 4p at its third stack, with faces ``(stack, tile, v0)`` whose
    lower part the stacks hide (v0 in tile heights above the wall's bottom, 0.75 high); its
    last stack boxed a little taller, as perspective does."""
    laid = lay_out(**HAND, dora="4p", dead_wall=True)
    last = len(laid.dets) - 1
    laid.dets[last] = replace(laid.dets[last], quad=_quad(
        U_DORA + 6 * STEP, V_DORA, W, 1.2 * H, ORIGIN, 0.0))
    for stack, tile, v0 in behind:
        laid.dets.append(_det(tile, _quad(U_DORA + stack * STEP + 0.05 * W, V_DORA + v0 * H,
                                          0.9 * W, 0.75 * H, ORIGIN, 0.0)))
        laid.roles.append("other")
    return laid


def _dora(laid) -> list[int]:
    return [i for i, r in enumerate(laid.roles) if r == "dora"]


def test_pond_tiles_behind_the_walls_stacks_are_no_indicators() -> None:
    laid = _wall_with([(0, "3z", 0.65), (1, "3m", 0.65)])
    off = extras_config(wall_columns=False, one_per_kan=False)
    assert len(analyse_layout(laid.dets, config=off)[0].dora) == 3  # taken before
    assert analyse_layout(laid.dets)[0].dora == tuple(_dora(laid))


def test_a_face_over_the_lower_half_of_a_stack_stays_an_indicator() -> None:
    # Its centre lies on the stack, not beyond it: the wall's own face-up tile, a back
    # boxed under it as well.
    laid = _wall_with([(3, "7p", 0.2)])
    face = len(laid.dets) - 1
    assert face in analyse_layout(laid.dets)[0].dora


def test_a_pond_row_of_five_behind_the_wall_leaves_its_indicator() -> None:
    # Five pond tiles behind the stacks and the 4p make six faces: the wall still has its
    # indicator once those behind its backs are taken out (`crowded_columns`, 1040080).
    laid = _wall_with([(k, t, 0.65) for k, t in zip((0, 1, 3, 4, 5), ("3z", "3m", "9s", "1p",
                                                                       "6m"), strict=True)])
    crowded = extras_config(crowded_columns=False)
    assert analyse_layout(laid.dets, config=crowded)[0].dora == ()
    assert analyse_layout(laid.dets)[0].dora == tuple(_dora(laid))
