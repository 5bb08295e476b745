"""Layout: a complete hand with no tile set apart takes an end concealed tile as its winning
tile only where a gap wider than the row's others, yet too narrow to set it apart, shows it
(`LayoutConfig.weak_gap`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import lay_out

ON = replace(DEFAULT_LAYOUT, weak_gap=2.0)
OFF = replace(DEFAULT_LAYOUT, weak_gap=None)


def test_a_slightly_wider_gap_before_the_last_tile_makes_it_the_winning_tile() -> None:
    # Tiles 0.03 tile widths apart, the last one 0.10 away: under the 0.12 that sets it apart.
    laid = lay_out("123456789m1234p", "4p", win_gap=0.10)
    off = analyse_layout(laid.dets, config=OFF)[0]
    assert off.win is None and len(off.concealed) == 14
    plans = analyse_layout(laid.dets, config=ON)
    assert plans[0].win == laid.roles.index("win")
    assert plans[0].concealed == off.concealed[:-1]
    # The hand without a winning tile stays, next, for the reading to fall back on.
    assert plans[1] == off


def test_an_even_row_keeps_every_candidate() -> None:
    laid = lay_out("123456789m12344p")
    assert analyse_layout(laid.dets, config=ON) == analyse_layout(laid.dets, config=OFF)


def test_the_last_tile_in_the_reading_direction_turned_round() -> None:
    laid = lay_out("123456789m1234p", "4p", win_gap=0.10, angle=180.0)
    plan = analyse_layout(laid.dets, config=ON, flip=False)[0]
    assert plan.win == laid.roles.index("win")


def test_a_wider_gap_inside_the_row_takes_no_tile() -> None:
    # The widest gap (0.10 tile widths) parts two inner tiles: the end tiles touch.
    head = lay_out("1234567m")
    tail = lay_out("8999m111p", origin=(200.0 + 6 * 40 * 1.03 + 40 * 1.10, 600.0))
    dets = head.dets + tail.dets
    off = analyse_layout(dets, config=OFF)
    assert off[0].win is None and len(off[0].concealed) == 14
    assert analyse_layout(dets, config=ON) == off


def test_by_default_a_gap_one_and_a_half_times_the_rows_is_enough() -> None:
    # Standing tiles' sides fill their gaps: the winning tile's reads 1.5 times the others'.
    laid = lay_out("123456789m1234p", "4p", win_gap=0.06, touch_gap=0.04)
    assert analyse_layout(laid.dets, config=ON)[0].win is None
    assert analyse_layout(laid.dets)[0].win == laid.roles.index("win")
    # An even row still takes no tile.
    even = lay_out("123456789m12344p", touch_gap=0.04)
    assert analyse_layout(even.dets)[0].win is None


def test_in_a_row_of_overlapping_quads_a_gap_wider_than_theirs_is_enough() -> None:
    # 990045: quads reaching 0.25 tile widths over their neighbours, the winning tile's only
    # touching (gap 0): under `weak_gap_min`, yet 0.25 over the row's median gap.
    laid = lay_out("123456789m1234p", "4p", win_gap=0.0, touch_gap=-0.25)
    assert analyse_layout(laid.dets)[0].win == laid.roles.index("win")
    off = analyse_layout(laid.dets, config=replace(DEFAULT_LAYOUT, weak_gap_over=None))[0]
    assert off.win is None and len(off.concealed) == 14
    # Not where the winning tile's gap is less than `weak_gap_over` wider than the others'.
    near = lay_out("123456789m1234p", "4p", win_gap=-0.1, touch_gap=-0.25)
    assert analyse_layout(near.dets)[0].win is None


def test_an_even_row_of_overlapping_quads_keeps_every_candidate() -> None:
    even = lay_out("123456789m12344p", touch_gap=-0.25)
    plans = analyse_layout(even.dets)
    assert plans[0].win is None
    assert plans == analyse_layout(even.dets, config=replace(DEFAULT_LAYOUT, weak_gap_over=None))
