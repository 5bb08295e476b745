"""Pons read as added kans where the indicators outnumber the kans (`LayoutConfig.indicated_kans`,
`agari.vision.layout_stacks.indicated_kans`): an added kan seen from straight above shows one
sideways tile, its upper tile lying exactly on the called one. Off by default (the dora group
found is too often wrong to count kans by); tested switched on."""

from __future__ import annotations

from dataclasses import replace

from agari.engine import Rules, WinContext
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_stacks import INDICATED_NOTE, indicated_kans
from agari.vision.reading import read_hand
from agari.vision.reading_checks import Situation
from layout_factories import lay_out

TENHOU = Rules.preset("tenhou")
ON = replace(DEFAULT_LAYOUT, indicated_kans=True)
OFF = DEFAULT_LAYOUT
MELDS = (("chi", "789s", 0), ("pon", "555p", 1))


def _read(dets, config=ON):
    plans = analyse_layout(dets, config=config)
    return read_hand(dets, plans, Situation(TENHOU, WinContext(tsumo=True))).layout


def test_two_indicators_and_no_kan_read_the_pon_as_an_added_kan() -> None:
    laid = lay_out("12m456s11z", "3m", MELDS, dora="4p7s", dead_wall=True)
    kan = _read(laid.dets).melds[1]
    # The hidden fourth copy holds the set's red five, as no red one shows.
    assert kan.kind == "shouminkan" and sorted(map(str, kan.tiles)) == ["0p", "5p", "5p", "5p"]
    assert _read(laid.dets, OFF).melds[1].kind == "pon"
    assert INDICATED_NOTE in analyse_layout(laid.dets, config=ON)[0].notes
    assert INDICATED_NOTE not in analyse_layout(laid.dets)[0].notes


def test_one_indicator_leaves_the_pon() -> None:
    laid = lay_out("12m456s11z", "3m", MELDS, dora="4p", dead_wall=True)
    assert _read(laid.dets).melds[1].kind == "pon"


def test_a_pon_whose_kind_shows_elsewhere_stays_a_pon() -> None:
    # The concealed 5p leaves no copy for the hidden tile: the kan is no set, the pon reads.
    laid = lay_out("12m456p11z", "3m", MELDS, dora="4p7s", dead_wall=True)
    assert _read(laid.dets).melds[1].kind == "pon"


def test_each_three_column_open_meld_is_offered_once() -> None:
    # The layout knows no names: the chi is offered too, and the reading finds it no kan.
    laid = lay_out("12m55s", "3m", (("chi", "789s", 0), ("pon", "555p", 1),
                                    ("pon", "777z", 2)), dora="4p7s", dead_wall=True)
    plan = analyse_layout(laid.dets, config=OFF)[0]
    assert [m.kind for m in plan.melds] == ["open"] * 3 and len(plan.dora) == 2
    assert [[m.kind for m in v.melds] for v in indicated_kans(plan)] == [
        ["added_kan", "open", "open"], ["open", "added_kan", "open"],
        ["open", "open", "added_kan"]]
    assert indicated_kans(replace(plan, dora=plan.dora[:1])) == []
