"""Stop-30 indicator rules (`ExtrasConfig.closed_ura`, `stack_gap`, `ura_overlap`): no ura by
an open hand, a dead wall's indicator one missed stack from its backs, ura set a little along
the row from their dora."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import analyse_layout
from layout_factories import (
    ORIGIN,
    H,
    W,
    _det,
    _quad,
    discard_behind_the_dora,
    extras_config,
    lay_out,
    with_alternatives,
)

CLOSED = dict(concealed="123m456p789s1122z", win="2z")
OPEN = dict(concealed="456p789s1122z", win="2z", melds=(("pon", "111m", 0),))




def _role(laid, role: str) -> tuple[int, ...]:
    return tuple(i for i, r in enumerate(laid.roles) if r == role)


def test_by_an_open_hand_a_tile_behind_the_dora_is_no_dora_with_them_for_ura() -> None:
    laid = lay_out(**OPEN, dora="4p")
    (dora,) = _role(laid, "dora")
    behind = discard_behind_the_dora(laid)
    assert [m.kind for m in analyse_layout(laid.dets)[0].melds] == ["open"]
    off = analyse_layout(laid.dets, config=extras_config(closed_ura=False))[0]
    assert (off.dora, off.ura) == ((behind,), (dora,))
    on = analyse_layout(laid.dets, config=extras_config(closed_ura=True))[0]
    assert (on.dora, on.ura) == ((dora,), ())


def test_a_closed_hand_keeps_its_ura() -> None:
    laid = lay_out(**CLOSED, dora="4p", ura="7s")
    plan = analyse_layout(laid.dets, config=extras_config(closed_ura=True))[0]
    assert (plan.dora, plan.ura) == (_role(laid, "dora"), _role(laid, "ura"))


def _far_wall_missing_stacks(p: float = 1.0):
    """A dead wall beyond the loose groups' reach whose stacks either side of the indicator
    were not located: backs, a gap, the face, a gap, backs."""
    laid = lay_out(**CLOSED, dora="4p", dead_wall=True, dora_at=(3.0, 6.0))
    (face,) = _role(laid, "dora")
    gone = {face - 1, face + 1}  # the stacks beside the indicator
    laid.dets = [replace(d, confidence=p, alternatives=((d.label_name, p),)) if i == face else d
                 for i, d in enumerate(laid.dets) if i not in gone]
    laid.roles = [r for i, r in enumerate(laid.roles) if i not in gone]
    return laid


def test_an_indicator_one_missed_stack_from_the_backs_is_on_the_wall() -> None:
    laid = _far_wall_missing_stacks()
    assert analyse_layout(laid.dets, config=extras_config(stack_gap=None))[0].dora == ()
    dora = _role(laid, "dora")
    assert analyse_layout(laid.dets, config=extras_config(stack_gap=1.5))[0].dora == dora


def test_an_unsure_face_by_the_backs_is_not_joined_to_them() -> None:
    laid = _far_wall_missing_stacks(p=0.5)
    assert analyse_layout(laid.dets, config=extras_config(stack_gap=1.5))[0].dora == ()


def test_ura_set_along_the_row_from_their_dora_are_still_their_ura() -> None:
    laid = lay_out(**CLOSED, dora="4p", ura="7s")
    (ura,) = _role(laid, "ura")
    shifted = [(x + 0.6 * W, y) for x, y in laid.dets[ura].quad]
    laid.dets[ura] = replace(laid.dets[ura], quad=tuple(shifted))
    plan = analyse_layout(laid.dets, config=extras_config(ura_overlap=0.3))[0]
    assert (plan.dora, plan.ura) == (_role(laid, "dora"), (ura,))
    assert analyse_layout(laid.dets, config=extras_config(ura_overlap=0.5))[0].dora == (ura,)


def test_a_row_of_discards_broken_into_groups_is_no_indicators() -> None:
    laid = lay_out(**OPEN, dora="4p")
    (dora,) = _role(laid, "dora")
    for k, name in enumerate(("7s", "9m"), start=1):  # the rest of the row, 0.3 widths apart
        laid.dets.append(_det(name, _quad(3.0 * W + k * 1.3 * W, 2.5 * H, W, H, ORIGIN, 0.0)))
        laid.roles.append("other")
    cfg = dict(one_per_kan=True, closed_ura=True)
    assert analyse_layout(laid.dets, config=extras_config(**cfg, row_chain=None))[0].dora == (dora,)
    assert analyse_layout(laid.dets, config=extras_config(**cfg, row_chain=0.5))[0].dora == ()


def test_a_box_read_as_no_tile_beside_a_walls_indicator_is_none_of_its_faces() -> None:
    laid = lay_out(**CLOSED, dora="4p", dead_wall=True)
    (face,) = _role(laid, "dora")
    unread = face + 1  # the stack after the indicator: its side boxed, read none, face more likely
    laid.dets[unread] = with_alternatives(laid.dets[unread], [("none", 0.4), ("7s", 0.3),
                                                                ("back", 0.1)])
    both = (face, unread)
    assert analyse_layout(laid.dets, config=extras_config(wall_named=False))[0].dora == both
    assert analyse_layout(laid.dets, config=extras_config(wall_named=True))[0].dora == (face,)
