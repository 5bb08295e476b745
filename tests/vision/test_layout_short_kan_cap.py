"""Kans the locator or classifier left short of a tile: an added kan whose upper tile reads
as no tile (`agari.vision.layout_stacks.capped`), and a closed kan whose end back at the
row's end was not found (`agari.vision.layout_parse.SHORT_KANS`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine import Rules, WinContext
from agari.engine.tiles import BACK
from agari.vision.layout import CAP_LENGTH, DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_geometry import DEFAULT_GEOMETRY
from agari.vision.layout_parse import segment_row
from agari.vision.layout_stacks import capped
from agari.vision.reading import read_hand
from agari.vision.reading_checks import Situation
from layout_factories import lay_out, with_alternatives

TENHOU = Rules.preset("tenhou")
RIICHI = Situation(TENHOU, WinContext(riichi=True))
OPEN = Situation(TENHOU, WinContext(houtei=True))


def _unread_upper(laid, meld: str = "meld 2", alts=(("none", 0.94), ("4m", 0.01))):
    """The laid hand with its added kan's upper tile read as no tile; the detections and the
    upper tile's index."""
    stack = [i for i, r in enumerate(laid.roles) if r == meld and laid.dets[i].sideways]
    upper = min(stack, key=lambda i: np.mean([y for _, y in laid.dets[i].quad]))  # further
    dets = list(laid.dets)
    dets[upper] = with_alternatives(dets[upper], list(alts))
    return dets, upper


def _kan_hand():
    return lay_out("12m456p11z", "3m", (("chi", "789s", 0), ("shouminkan", "5055s", 2)))


def test_an_unread_quad_on_a_called_tile_makes_an_added_kan() -> None:
    dets, upper = _unread_upper(_kan_hand())
    plan = analyse_layout(dets)[0]
    kan = plan.melds[1]
    assert kan.kind == "added_kan" and kan.sideways_index == 2 and len(kan.detections) == 3
    assert upper not in kan.detections  # the unread quad names no tile
    assert kan.laid == (*kan.detections, kan.detections[2])
    r = read_hand(dets, analyse_layout(dets), OPEN)
    meld = r.layout.melds[1]
    assert meld.kind == "shouminkan" and sorted(map(str, meld.tiles)) == ["0s", "5s", "5s", "5s"]


def test_off_the_capped_stack_reads_as_a_pon() -> None:
    dets, _ = _unread_upper(_kan_hand())
    off = replace(DEFAULT_LAYOUT, geometry=replace(DEFAULT_GEOMETRY, stack_cap=None))
    assert [m.kind for m in analyse_layout(dets, config=off)[0].melds] == ["open", "open"]


def test_a_chi_under_an_unread_quad_is_still_read_as_a_chi() -> None:
    # An unread quad beyond a chi's called tile: the capped plan's kan is no set, and the
    # reading falls back on the row read without stacks.
    laid = lay_out("12m456p11z", "3m", (("pon", "999p", 0), ("shouminkan", "4566s", 2)))
    dets, _ = _unread_upper(laid)
    plans = analyse_layout(dets)
    assert plans[0].melds[1].kind == "added_kan"
    r = read_hand(dets, plans, OPEN)
    assert [m.kind for m in r.layout.melds] == ["pon", "chi"]


def test_capped_measures_the_quad_against_the_sideways_tile() -> None:
    # Columns u: upright, upright, sideways (54 long, 40 deep); the cap lies over the last.
    ext = np.array([[0, 40, 0, 54], [41, 81, 0, 54], [82, 136, 0, 40], [84, 134, 41, 81]],
                   float)
    side = np.array([False, False, True, False])
    faces = lay_out("1234m", None).dets[:4]
    cols = [[0], [1], [2]]
    lift, overlap = DEFAULT_GEOMETRY.stack_cap, DEFAULT_GEOMETRY.stack_overlap
    assert capped(cols, ext, side, faces, [3], lift, CAP_LENGTH, overlap) == {2}  # lift 1.03
    for change in ((slice(2, 4), (90, 130)),  # a row further back: lift 2.75
                   (slice(0, 2), (84, 104)),  # a fragment: 0.37 of the tile's length
                   (slice(0, 2), (126, 176))):  # beside it, overlapping by 0.2
        other = ext.copy()
        other[3, change[0]] = change[1]
        assert capped(cols, other, side, faces, [3], lift, CAP_LENGTH, overlap) == set()
    upright = np.array([False, False, False, False])
    assert capped(cols, ext, upright, faces, [3], lift, CAP_LENGTH, overlap) == set()


@pytest.mark.parametrize("groups, cuts", [
    (["PPPPPPPPPPP", "BPP"], [[("concealed", 0, 11), ("closed_kan", 11, 14)]]),
    (["PPB", "PPPPPPPPPPP"], [[("closed_kan", 0, 3), ("concealed", 3, 14)]]),
    (["PPPPPPPPPPPBPP"], [[("concealed", 0, 11), ("closed_kan", 11, 14)]]),
    # Inside the row a missing back would leave a gap: no kan of three columns there.
    (["PPPPPPPP", "BPP", "SPP"], []),
    (["PPPPPPPPPPP", "PPB"], []),  # its missing back would lie inside the row
    (["BPP", "PPPPPPPPPPP"], []),
])
def test_a_closed_kan_missing_its_end_back_at_the_rows_end(groups, cuts) -> None:
    got = [[(c.kind, c.start, c.stop) for c in cut] for cut in segment_row(groups)]
    assert got == cuts


def _short_kan(end: int):
    """A hand ending in a closed kan of 7z whose back at ``end`` (0 first, 3 last) the
    locator did not find; the detections and the kan's shown indices."""
    laid = lay_out("123m456p789s1z", "1z", (("ankan", "7777z", None),))
    kan = [i for i, r in enumerate(laid.roles) if r == "meld 1"]
    lost = kan[end]
    return [d for i, d in enumerate(laid.dets) if i != lost], [i for i in kan if i != lost]


def test_a_closed_kan_seen_without_its_last_back_is_read_as_a_kan() -> None:
    dets, _ = _short_kan(3)
    plan = analyse_layout(dets)[0]
    (meld,) = plan.melds
    assert meld.kind == "closed_kan" and meld.unseen == 3 and meld.hidden == (0,)
    assert meld.laid == (*meld.detections, meld.detections[0])  # the back shown stands in
    assert meld.laid_hidden == (0, 3) and len(meld.faces) == 2
    r = read_hand(dets, analyse_layout(dets), RIICHI)
    (kan,) = r.layout.melds
    assert kan.kind == "ankan" and list(map(str, kan.tiles)) == ["7z"] * 4
    assert len(kan.detections) == 4 and kan.detections[3].label == BACK


def test_a_closed_kan_missing_a_back_inside_the_row_is_no_kan() -> None:
    # The hand seen from across: its first back lost, the kan's end inside the row.
    dets, _ = _short_kan(0)
    assert not any(m.kind == "closed_kan" for p in analyse_layout(dets) for m in p.melds)


def test_a_second_unread_box_over_the_capped_tile_is_left_out() -> None:
    # A box over the lower tile's middle, read as no tile and not lying sideways, shares the
    # stack's column: the kan is read from the lower tile alone, that box no tile of it.
    laid = _kan_hand()
    dets, upper = _unread_upper(laid)
    lower = next(i for i, r in enumerate(laid.roles)
                 if r == "meld 2" and dets[i].sideways and i != upper)
    (x0, y0), (x1, _), _, (_, y1) = dets[lower].quad
    mid, half = (x0 + x1) / 2, 0.3 * (x1 - x0)
    box = ((mid - half, y0 - 2), (mid + half, y0 - 2), (mid + half, y1), (mid - half, y1))
    dets.append(with_alternatives(replace(dets[lower], quad=box, sideways=False),
                                  [("none", 0.6), ("9p", 0.3)]))
    kan = analyse_layout(dets)[0].melds[1]
    assert kan.kind == "added_kan" and kan.columns[2] == (lower,)
    r = read_hand(dets, analyse_layout(dets), OPEN)
    assert sorted(map(str, r.layout.melds[1].tiles)) == ["0s", "5s", "5s", "5s"]


def test_a_closed_kan_whose_backs_read_as_white_dragons_is_offered() -> None:
    # Both backs of a closed kan read as 白, surely (no back probability to call them pale):
    # as seen, 白 2p 2p 白 among the concealed tiles makes a 14-tile hand that wins nothing.
    laid = lay_out("2226s", None, (("ankan", "2222p", None), ("pon", "333m", 0),
                                   ("chi", "645s", 0)))
    dets = [with_alternatives(d, [("5z", 0.95), ("back", 0.005)]) if d.label == BACK else d
            for d in laid.dets]
    plans = analyse_layout(dets)
    assert any(m.kind == "closed_kan" for p in plans for m in p.melds)
    r = read_hand(dets, plans, Situation(TENHOU, WinContext(houtei=True)))
    assert [m.kind for m in r.layout.melds] == ["ankan", "pon", "chi"]
