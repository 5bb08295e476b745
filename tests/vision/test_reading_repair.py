"""Single fixes: a spurious detection dropped, a tile the classifier called none restored."""

from __future__ import annotations

from agari.engine import Rules, WinContext
from agari.vision.detection import TileDetection
from agari.vision.reading_checks import Situation
from agari.vision.reading_repair import UNREAD_FIX, RepairConfig, read_with_repairs
from layout_factories import W, lay_out, with_alternatives

SITUATION = Situation(Rules.preset("tenhou"), WinContext(riichi=True))


def test_a_tile_called_none_but_likely_a_tile_stays_in_the_hand() -> None:
    laid = lay_out("123m456p789s1122z", "2z")
    dets = list(laid.dets)
    dets[3] = with_alternatives(dets[3], [("none", 0.55), ("4p", 0.4), ("5p", 0.05)])
    got = read_with_repairs(dets, SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s1122z2z"
    assert got.notes == () and got.reading.corrections == ((3, "none", "4p"),)


def test_a_tile_called_none_with_little_doubt_is_restored_by_a_repair() -> None:
    laid = lay_out("123m456p789s1122z", "2z")
    dets = list(laid.dets)
    dets[3] = with_alternatives(dets[3], [("none", 0.88), ("4p", 0.1), ("5p", 0.02)])
    got = read_with_repairs(dets, SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s1122z2z"
    assert got.notes and "tile 3" in got.notes[0]


def test_a_spurious_tile_in_the_row_is_dropped() -> None:
    laid = lay_out("123m456p789s1122z", "2z")
    dets = list(laid.dets)
    # Something tile-shaped touching the right end of the concealed row, read unsurely.
    x0, y0 = dets[12].quad[1]
    bogus = TileDetection(quad=((x0 + 1.2, y0), (x0 + 1.2 + W, y0), (x0 + 1.2 + W, y0 + 54),
                                (x0 + 1.2, y0 + 54)), label=None, confidence=0.0)
    dets.insert(13, with_alternatives(bogus, [("7m", 0.35), ("none", 0.3), ("1m", 0.2)]))
    got = read_with_repairs(dets, SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s1122z2z"
    assert any("tile 13" in n for n in got.notes)


def test_a_good_reading_is_left_alone() -> None:
    laid = lay_out("123m456p789s1122z", "2z")
    got = read_with_repairs(laid.dets, SITUATION)
    assert got.notes == () and got.detections == tuple(laid.dets)


def test_a_waiting_hand_is_not_completed_by_a_quad_called_none() -> None:
    # A waiting hand that reads well and a quad right after its row the classifier calls none
    # (with a trace of a wait's name): taken in as that tile, it made the hand complete
    # (tuning render 960085: a stray quad read as a chi's called tile).
    laid = lay_out("123m456p789s1122z")
    dets = list(laid.dets)
    x0, y0 = dets[-1].quad[1]
    stray = TileDetection(quad=((x0 + 1.2, y0), (x0 + 1.2 + W, y0), (x0 + 1.2 + W, y0 + 54),
                                (x0 + 1.2, y0 + 54)), label=None, confidence=0.0)
    dets.append(with_alternatives(stray, [("none", 0.9), ("1z", 0.06), ("2z", 0.04)]))
    got = read_with_repairs(dets, Situation(Rules.preset("tenhou"), WinContext()))
    assert got.reading.layout.hand_text == "123m456p789s1122z"
    assert got.notes == ()


def _winner_read_none(alts: list[tuple[str, float]], gap: float = 0.3) -> list[TileDetection]:
    """A waiting hand (waits 1z, 2z) with its winning tile set apart ``gap`` tile widths past
    the row's end, the classifier calling that tile none with ``alts``."""
    laid = lay_out("123m456p789s1122z")
    dets = list(laid.dets)
    x0, y0 = dets[-1].quad[1]
    x = x0 + gap * W
    winner = TileDetection(quad=((x, y0), (x + W, y0), (x + W, y0 + 54), (x, y0 + 54)),
                           label=None, confidence=0.0)
    return [*dets, with_alternatives(winner, alts)]


# 1020099: a winning 2m read none at 0.64, 2m only its fourth tile name.
FAINT_WINNER = [("none", 0.64), ("5z", 0.08), ("1p", 0.03), ("2z", 0.03), ("8m", 0.02)]


def test_a_winner_read_none_is_named_by_the_likeliest_wait_among_its_names() -> None:
    got = read_with_repairs(_winner_read_none(FAINT_WINNER), SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s1122z2z"
    assert got.notes == (UNREAD_FIX[3],)


def test_a_winner_read_none_is_left_out_without_the_rule() -> None:
    got = read_with_repairs(_winner_read_none(FAINT_WINNER), SITUATION,
                            repair=RepairConfig(waiting_winner=None))
    assert got.reading.layout.hand_text == "123m456p789s1122z"


def test_a_quad_read_none_is_not_named_by_a_wait_outside_its_names() -> None:
    alts = [("none", 0.64), ("5z", 0.08), ("1p", 0.03), ("8m", 0.02), ("3s", 0.02),
            ("2z", 0.01)]
    got = read_with_repairs(_winner_read_none(alts), SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s1122z"


def test_a_back_or_a_far_quad_read_none_is_not_taken_as_the_winner() -> None:
    backish = [("none", 0.6), ("back", 0.2), ("2z", 0.1), ("5z", 0.05)]
    got = read_with_repairs(_winner_read_none(backish), SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s1122z"
    # A discard on the table two tiles beyond the row.
    got = read_with_repairs(_winner_read_none(FAINT_WINNER, gap=2.0), SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s1122z"
