"""An added kan whose called tile hides under the added one (`agari.vision.layout_stacks`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.engine import Rules, WinContext
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_geometry import DEFAULT_GEOMETRY
from agari.vision.layout_stacks import lying_on_hidden, raised
from agari.vision.reading import read_hand
from agari.vision.reading_checks import Situation
from layout_factories import W, lay_out

TENHOU = Rules.preset("tenhou")


def _upper_only(laid, meld: str = "meld 2", slant: float = 0.55):
    """The laid hand seen at a slant (every tile ``slant`` times as deep across the row as
    seen from above), with the stack's lower (called) tile unfound: its upper tile alone."""
    lower = next(i for i, r in enumerate(laid.roles)
                 if r == meld and laid.dets[i].sideways)
    dets = [replace(d, quad=tuple((x, 600.0 - (600.0 - y) * slant) for x, y in d.quad))
            for i, d in enumerate(laid.dets) if i != lower]
    roles = [r for i, r in enumerate(laid.roles) if i != lower]
    return dets, roles


def _hand():
    return lay_out("12m456p11z", "3m", (("chi", "789s", 0), ("shouminkan", "5055s", 2)))


def test_a_raised_sideways_tile_alone_is_an_added_kan() -> None:
    dets, roles = _upper_only(_hand())
    plan = analyse_layout(dets)[0]
    kan = plan.melds[1]
    assert kan.kind == "added_kan" and kan.sideways_index == 2 and len(kan.detections) == 3
    assert kan.laid == (*kan.detections, kan.detections[2])  # the hidden tile shares its quad
    assert [plan.role_of().get(i, "other") for i in range(len(dets))] == roles


def test_the_hidden_tile_completes_the_kan_with_the_sets_red_five() -> None:
    dets, _ = _upper_only(_hand())
    # The shown tiles read 5s, 0s, 5s: the hidden one is the fourth copy, a plain 5s.
    r = read_hand(dets, analyse_layout(dets), Situation(TENHOU, WinContext(riichi=True)))
    kan = r.layout.melds[1]
    assert kan.kind == "shouminkan" and sorted(map(str, kan.tiles)) == ["0s", "5s", "5s", "5s"]
    assert len(kan.detections) == 4
    no_red = lay_out("12m456p11z", "3m", (("chi", "789s", 0), ("shouminkan", "5555s", 1)))
    dets, _ = _upper_only(no_red)
    r = read_hand(dets, analyse_layout(dets), Situation(TENHOU, WinContext(riichi=True)))
    # No red five shows, and the set has one: it lies hidden.
    assert sorted(map(str, r.layout.melds[1].tiles)) == ["0s", "5s", "5s", "5s"]


def test_a_called_tile_level_with_its_meld_stays_a_pon() -> None:
    laid = lay_out("12m456p11z", "3m", (("chi", "789s", 0), ("pon", "555s", 2)))
    assert [m.kind for m in analyse_layout(laid.dets)[0].melds] == ["open", "open"]


def test_raised_measures_against_the_neighbours() -> None:
    # Columns u: upright, upright, sideways; v (across the row) in tile heights.
    ext = np.array([[0, 40, 0, 54], [41, 81, 0, 54], [82, 136, 30, 70]], float)
    side = np.array([False, False, True])
    faces = lay_out("123m", None).dets[:3]  # face up: `raised` reads nothing else of them
    groups = [[[0], [1], [2]]]
    assert raised(groups, ext, side, faces, 0.4, 10.0, 1.25) == {2}  # lift (100-54)/2/54=0.43
    level = ext.copy()
    level[2, 2:] = (0, 40)
    assert raised(groups, level, side, faces, 0.4, 10.0, 1.25) == set()


def test_a_lifted_tile_past_the_rows_end_joins_it() -> None:
    laid = lay_out("123m", None)
    faces = [*laid.dets[:3], laid.dets[0]]  # face up
    ext = np.array([[0, 40, 0, 30], [41, 81, 0, 30], [82, 122, 0, 30], [124, 178, 28, 52]],
                   float)
    ratio = (1.25, 2.0)  # aspect 2.25 against 1.33: 1.69
    gap = DEFAULT_GEOMETRY.stack_gap
    assert lying_on_hidden([0, 1, 2], [3], ext, W, faces, 0.4, 2.0, gap, ratio) == [3]
    far = ext.copy()
    far[3, 2:] = (90, 114)  # a row further back: lifted past `stack_reach`
    assert lying_on_hidden([0, 1, 2], [3], far, W, faces, 0.4, 2.0, gap, ratio) == []
    tall = ext.copy()
    tall[:3, 3] = 80  # beside standing tiles: far longer for its height than they are
    assert lying_on_hidden([0, 1, 2], [3], tall, W, faces, 0.4, 2.0, gap, ratio) == []


def test_off_reads_no_kan_from_the_lone_upper_tile() -> None:
    dets, _ = _upper_only(_hand())
    off = replace(DEFAULT_LAYOUT, geometry=replace(DEFAULT_GEOMETRY, stack_raise=None))
    assert "added_kan" not in [m.kind for m in analyse_layout(dets, config=off)[0].melds]


def test_a_raised_tile_that_makes_no_kan_is_read_as_laid() -> None:
    # The winning tile laid flat just after the hand, its quad lifted as a stack's upper
    # tile would lie: 2z 1z 1z make no kan, so the reading falls back on the row without it.
    laid = lay_out("123m456p789s2221z", "1z", win_gap=0.1)
    dets = list(laid.dets)
    (x0, y0), (x1, _), _, (_, y1) = dets[-2].quad  # the last concealed tile: TL, TR, .., BL
    near, far = y1 - 0.6 * (y1 - y0), y1 - 0.6 * (y1 - y0) - (x1 - x0)  # lying sideways
    right = x1 + 4 + (y1 - y0)
    dets[-1] = replace(dets[-1], sideways=True,
                       quad=((x1 + 4, far), (right, far), (right, near), (x1 + 4, near)))
    plans = analyse_layout(dets)
    assert plans[0].melds and plans[0].melds[0].kind == "added_kan"  # tried first
    r = read_hand(dets, plans, Situation(TENHOU, WinContext(riichi=True)))
    assert not r.layout.melds and r.layout.size == 14
