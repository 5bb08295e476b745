"""Indicators beside the hand (`agari.vision.layout_extras`): which groups are dora and ura."""

from __future__ import annotations

from dataclasses import replace

import pytest
from agari.engine.tiles import BACK
from agari.vision.layout import analyse_layout
from layout_factories import HAND, ORIGIN, H, Laid, W, _det, _quad, lay_out

KAN_HAND = dict(concealed="456p789s1122z", win="2z", melds=(("ankan", "1111m", None),))
"""A hand with a kan: two dora indicators (`ExtrasConfig.one_per_kan`)."""
DORA_U, DORA_V = 3.0 * W, 2.5 * H  # the factory's default place for the dora group


def _row(laid: Laid, labels: list[str], u: float, v: float, *,
         wide: int | None = None) -> list[int]:
    """Add a row of flat tiles at ``(u, v)`` (hand frame, pixels); ``wide``: the index of a
    tile lying sideways (a called one). Returns the new detections' indices."""
    out = []
    for k, lab in enumerate(labels):
        du, dv = (H, W) if k == wide else (W, H)
        laid.dets.append(_det(lab, _quad(u, v, du, dv, ORIGIN, 0.0)))
        laid.roles.append("other")
        out.append(len(laid.dets) - 1)
        u += du * 1.03
    return out


def _dora_of(laid: Laid) -> list[int]:
    return [i for i, r in enumerate(laid.roles) if r == "dora"]


@pytest.mark.parametrize("dead_wall", [True, False])
def test_an_indicator_the_locator_calls_sideways_is_still_read(dead_wall: bool) -> None:
    # Lying flat by a standing hand and seen obliquely, an indicator looks squat and the
    # locator flags it sideways; it is no wider than the tiles beside it.
    laid = lay_out(**HAND, dora="4p", dead_wall=dead_wall)
    (i,) = _dora_of(laid)
    laid.dets[i] = replace(laid.dets[i], sideways=True)
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (i,)


def test_a_group_with_a_tile_wider_than_its_neighbours_is_no_indicator_group() -> None:
    laid = lay_out(**HAND)
    _row(laid, ["3s", "3s", "3s"], DORA_U, DORA_V, wide=1)  # someone's pon, not indicators
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == () and plan.ura == ()


def test_one_tile_below_a_row_of_three_is_the_dora_not_its_ura() -> None:
    # Ura indicators are as many as the dora: a single tile is no ura of three.
    laid = lay_out(**HAND, dora="4p")
    (i,) = _dora_of(laid)
    _row(laid, ["8s", "5s", "1m"], DORA_U, DORA_V + 1.15 * H)
    plan = analyse_layout(laid.dets)[0]
    assert (plan.dora, plan.ura) == ((i,), ())


def test_ura_as_many_as_the_dora_lie_below_them() -> None:
    laid = lay_out(**KAN_HAND, dora="4p3m", ura="9s1z")
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == tuple(i for i, r in enumerate(laid.roles) if r == "dora")
    assert plan.ura == tuple(i for i, r in enumerate(laid.roles) if r == "ura")


@pytest.mark.parametrize("column, is_ura", [
    (2, True),   # below the indicator: its ura
    (0, False),  # below the wall's first stack, half a tile into the indicator's reach
])
def test_a_dead_walls_ura_lie_below_its_indicator_not_its_backs(column: int,
                                                                 is_ura: bool) -> None:
    laid = lay_out(**HAND, dora="4p", dead_wall=True)
    (i,) = _dora_of(laid)
    (j,) = _row(laid, ["9s"], DORA_U + (column - 0.4) * W * 1.03, DORA_V - 1.15 * H)
    plan = analyse_layout(laid.dets)[0]
    assert (plan.dora, plan.ura) == ((i,), (j,) if is_ura else ())


@pytest.mark.parametrize("gap, is_dora", [
    (0.4, True),    # a row of discards a little way off: the indicator stays one
    (0.12, True),   # just off a pond's row, not touching it (`ExtrasConfig.pond_touch`)
    (0.05, False),  # a short row touching a full one: the end of a pond
])
def test_a_short_row_touching_a_pond_is_no_indicator(gap: float, is_dora: bool) -> None:
    laid = lay_out(**HAND, dora="4p")
    (i,) = _dora_of(laid)
    _row(laid, ["1m", "9p", "3z", "7s", "2m", "6p"], DORA_U - 2 * W, DORA_V + (1 + gap) * H)
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == ((i,) if is_dora else ())


def test_of_two_dead_walls_the_one_with_more_backs_holds_the_dora() -> None:
    laid = lay_out(**HAND)
    _row(laid, [BACK, "6s", "7p", BACK], 12 * W, DORA_V - 0.5 * H)
    wall = _row(laid, [BACK, BACK, "9s", BACK, BACK, BACK, BACK], 0.0, DORA_V)
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (wall[2],)


def test_a_dead_wall_indicator_wider_than_the_backs_is_still_read() -> None:
    # On top of its stack and seen obliquely, an indicator may look wider than the backs
    # beside it; a wall holds no called tile.
    laid = lay_out(**HAND, dora="4p", dead_wall=True)
    (i,) = _dora_of(laid)
    (a, b, c, d) = laid.dets[i].quad
    grow = 0.25 * W
    wide = ((a[0] - grow, a[1]), (b[0] + grow, b[1]), (c[0] + grow, c[1]), (d[0] - grow, d[1]))
    laid.dets[i] = replace(laid.dets[i], quad=wide)
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (i,)


def test_tiles_just_behind_a_dead_wall_are_no_indicators() -> None:
    # A row behind the wall, overlapping it enough to share its row and columns.
    laid = lay_out(**HAND, dora="4p", dead_wall=True)
    (i,) = _dora_of(laid)
    _row(laid, ["8s", "2z", "2p"], 2.0 * W * 1.03 + DORA_U, DORA_V + 0.54 * H)
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (i,)


def test_a_dead_wall_parted_by_gaps_between_its_stacks_is_one_wall() -> None:
    # The locator's quads fall short of the tiles: the stacks stand a third of a tile apart.
    laid = lay_out(**HAND)
    wall = [*_row(laid, [BACK, BACK, "4p"], 0.0, DORA_V),
            *_row(laid, ["3m", BACK], 3.4 * W, DORA_V),
            *_row(laid, [BACK], 5.8 * W, DORA_V)]
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (wall[2], wall[3])


def test_a_tile_beside_one_back_is_the_dora_however_wide() -> None:
    # A dead-wall stack and its indicator, the indicator boxed wider than the back; a loose
    # tile a tile's width off lends them a meld's company of columns. Two columns are no
    # meld, so the wide one is no called tile.
    laid = lay_out(**HAND)
    wide, _ = _row(laid, ["4p", BACK], DORA_U, DORA_V, wide=0)
    _row(laid, ["7s"], DORA_U + (H + W) * 1.03 + W, DORA_V)
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == (wide,)


def test_a_dora_row_farther_off_than_indicators_lie_is_read_with_its_ura_below() -> None:
    # The dora lie beyond `ExtrasConfig.max_gap` of their heights; their ura, just below
    # them and nearer the hand, are within it. Alone the ura row would be read as the dora.
    laid = lay_out(**KAN_HAND, dora="4p3m", ura="9s1z", dora_at=(3.0, 5.8))
    plan = analyse_layout(laid.dets)[0]
    assert plan.dora == tuple(i for i, r in enumerate(laid.roles) if r == "dora")
    assert plan.ura == tuple(i for i, r in enumerate(laid.roles) if r == "ura")


def test_a_lone_tile_taken_for_the_winning_tile_may_be_the_waiting_hands_dora() -> None:
    # Thirteen concealed tiles and a dora near the row's end, within a winning tile's reach:
    # the plan that reads the hand as waiting (no winning tile shown) reads it as the dora.
    laid = lay_out("123m456p789s1122z", dora="4p", dora_at=(13.5, 1.3))
    (i,) = _dora_of(laid)
    plans = analyse_layout(laid.dets)
    assert plans[0].win == i and plans[0].dora == ()
    waiting = [p for p in plans if p.win is None]
    assert waiting and all(p.dora == (i,) for p in waiting)


def test_ura_a_tile_height_below_the_dora_are_still_their_ura() -> None:
    laid = lay_out(**HAND, dora="4p", dora_at=(3.0, 4.0))
    (i,) = _dora_of(laid)
    (j,) = _row(laid, ["9s"], DORA_U, 2.0 * H)  # a gap of 1.0 tile heights below the dora
    plan = analyse_layout(laid.dets)[0]
    assert (plan.dora, plan.ura) == ((i,), (j,))


def test_a_small_flat_tile_far_behind_the_dora_does_not_take_them_for_its_ura() -> None:
    # A discard lying far off, seen smaller and flatter, just behind a single dora: the dora
    # are no ura row of that tile (rows lying side by side show tiles of about one size).
    laid = lay_out(**HAND, dora="4p")
    (i,) = _dora_of(laid)
    laid.dets.append(_det("3p", _quad(DORA_U, DORA_V + 1.3 * H, 0.8 * W, 0.4 * H, ORIGIN, 0.0)))
    laid.roles.append("other")
    plan = analyse_layout(laid.dets)[0]
    assert (plan.dora, plan.ura) == ((i,), ())


def test_a_hand_read_the_same_either_way_round_is_turned_to_have_its_dora_behind() -> None:
    # Fourteen concealed tiles, none apart, every quad framed upside down by the locator: as
    # located, the dora lie in front of the hand (the player's side), where none lie.
    laid = lay_out("123m456p789s11222z", dora="4p")
    (i,) = _dora_of(laid)
    dets = []
    for d in laid.dets:
        a, b, c, e = d.quad
        dets.append(replace(d, quad=(c, e, a, b)))
    plan = analyse_layout(dets)[0]
    assert plan.dora == (i,) and plan.flipped
    assert len(plan.concealed) == 14
