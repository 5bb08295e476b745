"""Without riichi no ura are turned (`ExtrasConfig.ura_shown` off): a tile lying just
behind the dora is no dora with the true one as its ura."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import HAND, discard_behind_the_dora, extras_config, lay_out

NO_URA = extras_config(ura_shown=False)


def test_with_ura_shown_a_tile_behind_the_dora_takes_them_for_its_ura() -> None:
    laid = lay_out(**HAND, dora="4p")
    (dora,) = [i for i, r in enumerate(laid.roles) if r == "dora"]
    behind = discard_behind_the_dora(laid)
    plan = analyse_layout(laid.dets)[0]
    assert (plan.dora, plan.ura) == ((behind,), (dora,))


def test_without_ura_the_tile_nearer_the_hand_is_the_dora() -> None:
    laid = lay_out(**HAND, dora="4p")
    (dora,) = [i for i, r in enumerate(laid.roles) if r == "dora"]
    discard_behind_the_dora(laid)
    plan = analyse_layout(laid.dets, config=NO_URA)[0]
    assert (plan.dora, plan.ura) == ((dora,), ())


def test_without_ura_a_dead_walls_indicator_is_still_the_dora() -> None:
    laid = lay_out(**HAND, dora="4p3m", dead_wall=True)
    dora = tuple(i for i, r in enumerate(laid.roles) if r == "dora")
    plan = analyse_layout(laid.dets, config=NO_URA)[0]
    assert (plan.dora, plan.ura) == (dora, ())
