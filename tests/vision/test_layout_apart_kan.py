"""A winning tile first in a row of several groups seen from across, and guesses of called
tiles around a closed kan (issue #7)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_lying import LyingConfig, RowPose, called_variants, kan_guesses
from agari.vision.layout_parse import segment_row
from layout_factories import W, lay_out
from test_layout import _shifted, _turned_round, roles_of


def test_a_winning_tile_first_is_set_apart_however_many_groups_follow() -> None:
    # Chiitoitsu, 7z apart at the end; a gap inside the concealed tiles nearly as wide
    # (0.25 and 0.3 tile widths; 1000036: 0.19 and 0.24), both over a group's (0.22).
    laid = lay_out("11223344556m77z", "7z", win_gap=0.3)
    dets = [_turned_round(_shifted(d, 0.22 * W) if k >= 6 else d)
            for k, d in enumerate(laid.dets)]
    off = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, apart_groups=False))[0]
    assert off.win is None
    on = analyse_layout(dets)[0]
    assert on.flipped
    assert roles_of(dets, on) == laid.roles


def test_called_tiles_are_guessed_on_either_side_of_a_closed_kan() -> None:
    assert kan_guesses("SPPPBBPPPP", (9, 0, 8, 7, 1, 2, 3, 4, 5, 6)) == ["SPPPBBPPPS"]
    assert kan_guesses("SPPPBBPPPP", (0, 1, 2, 3, 4, 5, 6, 7, 8, 9)) == ["SPPPBBPSPP"]
    assert kan_guesses("SPPBPPB", tuple(range(7))) == []  # no side short of a called tile
    assert kan_guesses("SPPBPBP", tuple(range(7))) == []  # backs outside a kan
    # A standing hand, its winning tile apart; a chi, a closed kan and a pon that shows
    # no called tile lying beyond it in one group.
    tokens = ["PPPP", "P", "SPPPBBPPPP"]
    pose = RowPose((False, False, False), ((0, 1, 2, 3), (0,), (0, 8, 1, 2, 3, 4, 5, 6, 7, 9)),
                   (4, 1, 10))
    off = LyingConfig(around_kans=False)
    assert not any(v[2] != tokens[2] for v, _ in called_variants(tokens, pose, off))
    guessed = [v for v, _ in called_variants(tokens, pose)]
    assert guessed == [["PPPP", "P", "SPPPBBPPSP"]]
    cuts = [[(c.kind, c.start, c.stop) for c in cut] for cut in segment_row(guessed[0])]
    assert [("concealed", 0, 4), ("concealed", 4, 5), ("open", 5, 8), ("closed_kan", 8, 12),
            ("open", 12, 15)] in cuts
