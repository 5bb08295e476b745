"""Short rows stacked three deep are a pond (`ExtrasConfig.pond_rows`), not indicators;
dora and their ura, two rows, still are."""

from __future__ import annotations

from agari.vision.layout import analyse_layout
from layout_factories import HAND, ORIGIN, H, W, _det, _quad, extras_config, lay_out

KAN_HAND = dict(concealed="456p789s1122z", win="2z", melds=(("ankan", "1111m", None),))
"""A hand with a kan: two dora indicators (`ExtrasConfig.one_per_kan`)."""


def _rows(laid, rows: list[list[str]], u: float, v: float) -> list[list[int]]:
    """Rows of flat tiles stacked away from the player from ``(u, v)``, touching."""
    out = []
    for k, labels in enumerate(rows):
        ids = []
        for j, lab in enumerate(labels):
            quad = _quad(u + j * W * 1.03, v + k * H * 1.02, W, H, ORIGIN, 0.0)
            laid.dets.append(_det(lab, quad))
            laid.roles.append("other")
            ids.append(len(laid.dets) - 1)
        out.append(ids)
    return out


def test_three_short_rows_stacked_are_a_pond_not_dora_and_ura() -> None:
    laid = lay_out(**HAND)
    _rows(laid, [["1z", "6z", "8p", "4p"], ["9m", "2z", "2p", "9s"], ["5s", "7m", "3p", "1s"]],
          3.0 * W, 2.5 * H)
    plan = analyse_layout(laid.dets)[0]
    assert (plan.dora, plan.ura) == ((), ())


def test_without_the_rule_such_a_stack_gives_indicators() -> None:
    laid = lay_out(**HAND)
    _rows(laid, [["1z", "6z", "8p", "4p"], ["9m", "2z", "2p", "9s"], ["5s", "7m", "3p", "1s"]],
          3.0 * W, 2.5 * H)
    off = extras_config(pond_rows=0, one_per_kan=False)
    assert analyse_layout(laid.dets, config=off)[0].dora != ()


def test_dora_with_their_ura_row_touching_are_still_indicators() -> None:
    laid = lay_out(**KAN_HAND)
    ura, dora = _rows(laid, [["9s", "1z"], ["4p", "3m"]], 3.0 * W, 2.5 * H)
    plan = analyse_layout(laid.dets)[0]
    assert (plan.dora, plan.ura) == (tuple(dora), tuple(ura))
