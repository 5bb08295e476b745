"""`LayoutConfig.called_unread`: a meld's sideways tile called ``none`` taken back."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import lay_out, with_alternatives

CALLED = replace(DEFAULT_LAYOUT, called_unread=1.15)
OFF = replace(DEFAULT_LAYOUT, called_unread=None)


def _lost(index: int) -> tuple[list, int]:
    """A hand with a chi 789s called from the left (8s sideways); tile ``index`` of the chi
    read ``none`` with little doubt."""
    laid = lay_out("123m456p11z", "2p", (("chi", "879s", 0), ("pon", "777z", 1)))
    dets = list(laid.dets)
    at = [i for i, r in enumerate(laid.roles) if r.startswith("meld")][index]
    dets[at] = with_alternatives(dets[at], [("none", 0.81), ("4z", 0.02), ("8s", 0.01)])
    return dets, at


def _in_melds(plan, i: int) -> bool:
    return any(i in m.detections for m in plan.melds)


def test_a_sideways_called_tile_read_none_joins_its_meld() -> None:
    dets, at = _lost(0)
    assert not any(_in_melds(p, at) for p in analyse_layout(dets, config=OFF))
    plan = analyse_layout(dets, config=CALLED)[0]
    assert _in_melds(plan, at)
    meld = next(m for m in plan.melds if at in m.detections)
    assert meld.detections[meld.sideways_index] == at


def test_an_upright_tile_read_none_stays_out() -> None:
    dets, at = _lost(1)
    assert not any(_in_melds(p, at) for p in analyse_layout(dets, config=CALLED))
