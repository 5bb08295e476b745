"""A closed kan laid face-back-back-face whose two backs were boxed as one 白 two tiles long
(`LayoutConfig.wide_backs`): read as a pon with a sideways 白 until then."""

from __future__ import annotations

from dataclasses import replace

from agari.engine import Rules, WinContext
from agari.engine.tiles import Tile
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_plan import MeldPlace
from agari.vision.reading import read_hand
from agari.vision.reading_checks import Situation
from layout_factories import lay_out

TENHOU = Rules.preset("tenhou")
OFF = replace(DEFAULT_LAYOUT, wide_backs=None)


def _merged():
    """``12m456s22z 3m 789s [1111z]`` with the kan laid 1z, back, back, 1z and its backs
    boxed as one sideways quad two tiles long, read 白 (1z a distant second)."""
    laid = lay_out("12m456s22z", "3m", (("chi", "789s", 0), ("ankan", "1111z", None)),
                   dora="4p7s", dead_wall=True)
    k = [i for i, r in enumerate(laid.roles) if r == "meld 2"]
    dets = laid.dets
    first, second, third, last = (dets[i] for i in k)
    east = replace(second, face_down=False, label=Tile.parse("1z"), alternatives=(("1z", 1.0),))
    backs = (second.quad[0], third.quad[1], third.quad[2], second.quad[3])
    white = replace(east, quad=backs, sideways=True, label=Tile.parse("5z"), confidence=0.95,
                    alternatives=(("5z", 0.95), ("1z", 0.01)))
    return [*dets[:k[0]], replace(east, quad=first.quad), white, replace(east, quad=last.quad),
            *dets[k[3] + 1:]]


def _read(dets, config=DEFAULT_LAYOUT):
    plans = analyse_layout(dets, config=config)
    return read_hand(dets, plans, Situation(TENHOU, WinContext(tsumo=True))).layout


def test_a_white_box_two_tiles_long_between_two_faces_is_a_closed_kans_backs() -> None:
    dets = _merged()
    kan = _read(dets).melds[1]
    assert kan.kind == "ankan" and [str(t) for t in kan.tiles] == ["1z"] * 4
    assert _read(dets, OFF).melds[1].kind != "ankan"


def test_a_white_box_one_tile_long_stays_a_called_tile() -> None:
    dets = _merged()
    k = next(i for i, d in enumerate(dets) if str(d.label) == "5z")
    q = dets[k].quad  # cut to one sideways tile's length
    half = ((q[0][0] + q[1][0]) / 2 + 7, q[0][1])
    short = (q[0], half, (half[0], q[3][1]), q[3])
    dets[k] = replace(dets[k], quad=short)
    assert not any(m.kind == "closed_kan" for p in analyse_layout(dets) for m in p.melds)


def test_the_merged_backs_stand_for_both_hidden_tiles() -> None:
    kan = MeldPlace("closed_kan", ((1,), (2,), (3,)), None, (1,), 2)
    assert kan.laid == (1, 2, 2, 3) and kan.laid_hidden == (1, 2) and kan.faces == (1, 3)
    end = MeldPlace("closed_kan", ((1,), (2,), (3,)), None, (0,), 3)  # BPP: its last back
    assert end.laid == (1, 2, 3, 1) and end.laid_hidden == (0, 3)
    start = MeldPlace("closed_kan", ((1,), (2,), (3,)), None, (2,), 0)  # PPB turned round
    assert start.laid == (3, 1, 2, 3) and start.laid_hidden == (0, 3)
