"""Melds the locator's quads half show: lying flat beside lone standing tiles, in three loose
pieces, or short of a called tile read as none (issue #7)."""

from __future__ import annotations

from dataclasses import replace

import pytest
from agari.engine import Rules, WinContext
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_lying import LyingConfig, RowPose, called_variants
from agari.vision.layout_parse import bridged_cuts
from agari.vision.reading_checks import Situation
from agari.vision.reading_repair import DEFAULT_REPAIR, read_with_repairs
from layout_factories import H, W, lay_out, with_alternatives
from test_layout_melds import hand_with_group

SITUATION = Situation(Rules.preset("tenhou"), WinContext())

FLAT, HIDDEN, SHOWN = (W, 0.4 * H), (1.25 * W, 0.4 * H), (1.7 * W, 0.4 * H)


def four_melds_flat() -> tuple[list, list[int]]:
    """A tanki wait (one standing tile, the winning tile apart) and four melds lying flat in
    one group; one called tile looks sideways, the other three only a little squatter."""
    melds = [("2m", HIDDEN), ("3m", FLAT), ("4m", FLAT), ("7m", FLAT), ("7m", SHOWN),
             ("7m", FLAT), ("9p", HIDDEN), ("7p", FLAT), ("8p", FLAT), ("6s", HIDDEN),
             ("4s", FLAT), ("5s", FLAT)]
    return hand_with_group([(t, *size) for t, size in melds], concealed="8m", win="8m")


def test_lone_standing_tiles_tell_that_a_group_lies_flat() -> None:
    dets, group = four_melds_flat()
    off = replace(DEFAULT_LAYOUT.lying, lone_reference=False, free_cuts=False)
    assert not any(len(p.melds) == 4
                   for p in analyse_layout(dets, config=replace(DEFAULT_LAYOUT, lying=off)))
    plan = analyse_layout(dets)[0]
    assert [m.detections for m in plan.melds] == [tuple(group[k:k + 3]) for k in (0, 3, 6, 9)]
    assert [m.sideways_index for m in plan.melds] == [0, 1, 0, 0]
    assert len(plan.concealed) == 1 and plan.win is not None


def test_a_lying_group_is_cut_into_melds_however_few_called_tiles_it_shows() -> None:
    # Squattest at the group's level: 0, 9, 10 (two in the last meld); cut into melds
    # first, each meld's own squattest: 0, 6, 9.
    tokens = ["P", "P", "PPPPSPPPPPPP"]
    pose = RowPose((False, False, True), ((0,), (0,), (0, 9, 10, 6, 1, 2, 3, 5, 7, 8, 11, 4)),
                   (1, 1, 12))
    guesses = [v for v, _ in called_variants(tokens, pose)]
    assert ["P", "P", "SPPPSPSPPSPP"] in guesses
    bound = [v for v, _ in called_variants(tokens, pose, LyingConfig(free_cuts=False))]
    assert ["P", "P", "SPPPSPSPPSPP"] not in bound


def test_a_meld_in_three_loose_pieces_is_bridged_when_near() -> None:
    groups = ["PPPPPP", "PP", "PP", "S", "P", "P"]
    assert bridged_cuts(groups) == []
    cuts = [[(c.kind, c.start, c.stop) for c in cut] for cut in bridged_cuts(groups, near=True)]
    assert [("concealed", 0, 6), ("concealed", 6, 8), ("concealed", 8, 10),
            ("open", 10, 13)] in cuts
    # Gaps with no called tile within a group of them are never closed.
    assert bridged_cuts(["PPPPPP", "PP", "P", "P", "SPP"], near=True) == \
        bridged_cuts(["PPPPPP", "PP", "P", "P", "SPP"])


def test_a_waiting_hand_short_of_an_unread_called_tile_is_read_whole() -> None:
    # Eleven concealed tiles and a pon of 7z whose called tile (first, sideways) the
    # classifier called none: read without it, thirteen tiles wait on 1z or 7z.
    laid = lay_out("123m456p789s11z", None, (("pon", "777z", 0),))
    dets = list(laid.dets)
    called = len(dets) - 3
    dets[called] = with_alternatives(dets[called], [("none", 0.97), ("7z", 0.02)])
    first = read_with_repairs(dets, SITUATION, repair=replace(DEFAULT_REPAIR,
                                                              unread_waiting=False))
    assert first.reading.layout.hand_text == "123m456p789s1177z"
    whole = read_with_repairs(dets, SITUATION)
    assert whole.reading.layout.hand_text == "123m456p789s11z 777z"
    assert any("called none" in n for n in whole.notes)


def test_a_quad_past_the_row_end_does_not_complete_a_waiting_hand() -> None:
    # The stray quad of `test_reading_repair`'s 960085 case lies past the row's end: with
    # `RepairConfig.unread_waiting` the waiting hand stays as read.
    laid = lay_out("123m456p789s1122z")
    dets = list(laid.dets)
    (x0, y0), on = dets[-1].quad[1], replace(DEFAULT_REPAIR, unread_waiting=True)
    stray = TileDetection(quad=((x0 + 1.2, y0), (x0 + 1.2 + W, y0), (x0 + 1.2 + W, y0 + 54),
                                (x0 + 1.2, y0 + 54)), label=None, confidence=0.0)
    dets.append(with_alternatives(stray, [("none", 0.9), ("1z", 0.06), ("2z", 0.04)]))
    got = read_with_repairs(dets, SITUATION, repair=on)
    assert got.reading.layout.hand_text == "123m456p789s1122z"


def test_melds_whose_called_tile_was_guessed_are_counted() -> None:
    # `_guessed` ranks the frames under `LayoutConfig.fewer_guesses`.
    from agari.vision.layout import _guessed, _row_seen
    from agari.vision.layout_geometry import frame_of_row

    lying = [("7z", W, 0.4 * H), ("7z", 1.2 * W, 0.4 * H), ("7z", W, 0.4 * H)]
    shown = [("7z", W, H), ("7z", H, W), ("7z", W, H)]
    for group, guessed in ((lying, 1), (shown, 0)):
        dets, ids = hand_with_group(group)
        if guessed == 0:
            dets[ids[1]] = replace(dets[ids[1]], sideways=True)
        plan = analyse_layout(dets)[0]
        assert len(plan.melds) == 1
        row = list(range(len(dets)))
        _, _, cols, tokens, _ = _row_seen(dets, row, frame_of_row(dets, row), DEFAULT_LAYOUT,
                                          False)
        assert _guessed(plan, cols, tokens) == guessed


def test_an_unread_quad_is_taken_only_as_a_name_the_classifier_half_saw() -> None:
    # The same pon's called tile, with traces of 1m and 2m only: read as 7z, it would
    # complete the hand on no vote of the classifier's (960085: a fragment read as 2m).
    laid = lay_out("123m456p789s11z", None, (("pon", "777z", 0),))
    dets = list(laid.dets)
    called = len(dets) - 3
    dets[called] = with_alternatives(dets[called], [("none", 0.97), ("1m", 0.02), ("2m", 0.01)])
    plain = replace(DEFAULT_REPAIR, unread_waiting=True, forced_names=False)
    got = read_with_repairs(dets, SITUATION, repair=plain)
    assert got.reading.layout.hand_text == "123m456p789s1177z"
    # With `RepairConfig.forced_names` a pon's mates name it all the same (990094).
    got = read_with_repairs(dets, SITUATION)
    assert got.reading.layout.hand_text == "123m456p789s11z 777z"


@pytest.mark.parametrize("chi, called, forced", [
    ("243m", 0, False),  # the called 2m: an end, 1m-2m-3m... or 2m-3m-4m
    ("324m", 0, True),   # the called 3m between 2m and 4m: nothing else makes the chi
])
def test_an_unread_called_tile_is_named_by_its_chi_only_in_the_middle(chi, called, forced
                                                                      ) -> None:
    laid = lay_out("123m456p789s11z", None, (("chi", chi, 0),))
    dets = list(laid.dets)
    i = len(dets) - 3 + called
    dets[i] = with_alternatives(dets[i], [("none", 0.97), ("7z", 0.02), ("1p", 0.01)])
    got = read_with_repairs(dets, SITUATION).reading.layout
    assert (got.hand_text == "123m456p789s11z 234m") == forced
