"""Layout: melds told by where they lie, not only by a sideways tile (issue #7):
a group past a wide gap after the hand (`LyingConfig.wide_gap`), a meld split from its
neighbour's called tile (`LyingConfig.split_melds`), and a hand seen from across whose
melds each show their called tile (`LayoutConfig.winner_one_side`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_lying import LyingConfig, RowPose, called_variants, split_guesses
from layout_factories import ORIGIN, H, W, _det, _quad, lay_out


def with_lying(**kw) -> object:
    return replace(DEFAULT_LAYOUT, lying=replace(DEFAULT_LAYOUT.lying, **kw))


def shifted(det, du: float):
    """``det`` moved ``du`` pixels along the row (the factory's rows run along x)."""
    return replace(det, quad=tuple((x + du, y) for x, y in det.quad))


def pon_past_a_wide_gap(gap: float) -> tuple[list, list[int]]:
    """Ten concealed tiles and a pon of 5s laid ``gap`` tile widths after them, its called
    tile standing like the others (seen no squatter than its neighbours)."""
    laid = lay_out("123m456p789s1z555s")
    dets = [shifted(d, gap * W) if k >= 10 else d for k, d in enumerate(laid.dets)]
    return dets, [10, 11, 12]


def test_a_group_past_a_wide_gap_is_read_as_melds_first() -> None:
    dets, pon = pon_past_a_wide_gap(1.5)
    off = analyse_layout(dets, config=with_lying(wide_gap=None))
    assert not off[0].melds and len(off[0].concealed) == 13
    assert any(p.melds for p in off[1:])  # offered, but doubted: size alone is no evidence
    on = analyse_layout(dets, config=with_lying(wide_gap=1.25))
    assert [m.detections for m in on[0].melds] == [tuple(pon)]
    assert len(on[0].concealed) == 10


def test_a_narrow_gap_or_a_lone_tile_is_no_such_evidence() -> None:
    dets, _ = pon_past_a_wide_gap(0.8)
    assert not analyse_layout(dets, config=with_lying(wide_gap=1.25))[0].melds
    # The winning tile set apart by a wide gap stays the winning tile.
    laid = lay_out("123m456p789s11z55s", "5s", win_gap=1.6)
    plan = analyse_layout(laid.dets, config=with_lying(wide_gap=1.25))[0]
    assert plan.win == laid.roles.index("win") and not plan.melds


def split_pose() -> RowPose:
    # 456p77s11z | 4s 5s 6s 8pS | 6p 7p: the first meld's called tile (4s) squatter than
    # its neighbours, yet not flagged; a gap opened after the second meld's called tile.
    aspect = ((0.7,) * 7, (1.6, 1.2, 1.2, 2.1), (1.15, 1.1))
    return RowPose((False, False, False), ((0,) * 7, (3, 0, 1, 2), (0, 1)), (7, 4, 2),
                   (False, True, False), aspect)


def test_a_meld_group_and_the_piece_after_it_are_guessed_together() -> None:
    tokens = ["PPPPPPP", "PPPS", "PP"]
    on = LyingConfig(wide_gap=1.25, split_melds=True)
    assert ["PPPPPPP", "SPPS", "PP"] in [v for v, _ in called_variants(tokens, split_pose(), on)]
    off = replace(on, split_melds=False)
    assert ["PPPPPPP", "SPPS", "PP"] not in [v for v, _ in called_variants(tokens, split_pose(),
                                                                           off)]
    # Only where the group holds melds alone: from its first called tile on, "S" + "PP"
    # has nothing to guess.
    assert split_guesses(tokens, split_pose(), {1: 3, 2: 0}) == []
    assert split_guesses(tokens, split_pose(), {1: 0, 2: 0}) == [["PPPPPPP", "SPPS", "PP"]]


def laid_row(row: list[tuple[str, bool, float, float]]) -> list:
    """Detections of one row laid left to right: ``(label, sideways, gap before in tile
    widths, width in tile widths)`` per tile (a sideways tile lies H wide)."""
    dets, u = [], 0.0
    for label, side, gap, wide in row:
        u += gap * W
        du, dv = (H, W) if side else (wide * W, H)
        dets.append(_det(label, _quad(u, 0.0, du, dv, ORIGIN, 0.0), side))
        u += du
    return dets


def test_two_melds_split_after_a_called_tile_are_read_as_melds() -> None:
    # 456p77s11z, then chi 456s (its called 4s boxed a little wide, not seen sideways) and
    # chi 867p laid against it, a gap opened after its called 8p: PPPPPPP | PPPS | PP.
    hand = [(t, False, 0.03, 1.0) for t in ("4p", "5p", "6p", "7s", "7s", "1z", "1z")]
    melds = [("4s", False, 2.0, 1.2), ("5s", False, 0.03, 1.0), ("6s", False, 0.03, 1.0),
             ("8p", True, 0.03, 1.0), ("6p", False, 0.3, 1.0), ("7p", False, 0.03, 1.0)]
    dets = laid_row(hand + melds)
    on = analyse_layout(dets, config=with_lying(wide_gap=1.25, split_melds=True))[0]
    assert [m.detections for m in on.melds] == [(7, 8, 9), (10, 11, 12)]
    assert [m.sideways_index for m in on.melds] == [0, 0]
    # (`LayoutConfig.sorted_melds` would find 456s by the 4s out of the hand's order.)
    off = analyse_layout(dets, config=replace(with_lying(wide_gap=1.25, split_melds=False),
                                              sorted_melds=None))[0]
    assert len(off.melds) == 1 and len(off.concealed) == 10
    by_order = analyse_layout(dets, config=with_lying(wide_gap=1.25, split_melds=False))[0]
    assert [m.detections for m in by_order.melds] == [(7, 8, 9), (10, 11, 12)]


def across_the_table() -> tuple[list, dict[str, int]]:
    """A hand seen from across, as located left to right: pon 999p (called tile last, a gap
    opened before it), pon 666s (called last), the winning tile 7p apart, then the
    concealed tiles 11z9p8p6s5s and 4s parted from them by a narrow gap."""
    row = [("9p", False, 0.0), ("9p", False, 0.03), ("9p", True, 0.15), ("6s", False, 0.15),
           ("6s", False, 0.03), ("6s", True, 0.03), ("7p", False, 0.7), ("1z", False, 0.25),
           ("1z", False, 0.03), ("9p", False, 0.03), ("8p", False, 0.03), ("6s", False, 0.03),
           ("5s", False, 0.03), ("4s", False, 0.15)]
    return laid_row([(t, side, gap, 1.0) for t, side, gap in row]), {"win": 6}


def test_a_hand_whose_melds_each_show_a_called_tile_is_turned_round() -> None:
    dets, at = across_the_table()
    off = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, winner_one_side=False))[0]
    assert not off.flipped and not off.melds  # two sideways tiles taken upright
    plans = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, winner_one_side=True))
    assert plans[0].flipped and len(plans[0].melds) == 2 and plans[0].win == at["win"]
    assert len(plans[0].concealed) == 7
    # The reading as located stays offered after it (where the turned one makes no hand).
    assert any(not p.flipped and not p.melds and p.size == 14 for p in plans[1:])
