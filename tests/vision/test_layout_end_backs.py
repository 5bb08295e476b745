"""Layout: a row that reads only with a tile taken otherwise than seen and ends in a back is
also offered without that back, after its plans (`LayoutConfig.end_backs`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad


def laid_row(row: list[tuple[str, bool, float]], pale: float = 0.3) -> list:
    """Detections of one row laid left to right: ``(label, sideways, gap before in tile
    widths)`` per tile; a back is read with ``pale`` face probability (a 白, perhaps)."""
    dets, u = [], 0.0
    for label, side, gap in row:
        u += gap * W
        du, dv = (H, W) if side else (W, H)
        det = _det(label, _quad(u, 0.0, du, dv, ORIGIN, 0.0), side)
        if label == "back" and pale:
            det = replace(det, alternatives=(("back", 1.0 - pale), ("5z", pale)),
                          confidence=1.0 - pale)
        dets.append(det)
        u += du
    return dets


def melds_then_a_back(pale: float = 0.3) -> list:
    """55m34777s, the winning tile 2s apart, chi 324m and chi 034s (called tiles sideways),
    then a back lying a tile's width past the last meld (tuning render 990032)."""
    hand = [(t, False, 0.03) for t in ("5m", "5m", "3s", "4s", "7s", "7s", "7s")]
    melds = [("3m", True, 3.2), ("2m", False, 0.03), ("4m", False, 0.03),
             ("0s", True, 0.27), ("3s", False, 0.03), ("4s", False, 0.03)]
    return laid_row([*hand, ("2s", False, 0.83), *melds, ("back", False, 1.04)], pale)


def melds_of(plan) -> list[tuple[int, ...]]:
    return [m.detections for m in plan.melds]


def test_a_back_ending_the_row_is_also_left_out() -> None:
    dets = melds_then_a_back()
    off = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, end_backs=False))
    # Read only with the back taken face up, closing the last meld as a kan.
    assert all(14 not in p.others for p in off)
    assert melds_of(off[0]) == [(8, 9, 10), (11, 12, 13, 14)]
    on = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, end_backs=True))
    assert on[0] == off[0]  # the plans as before come first
    left = [p for p in on if 14 in p.others]
    assert left and melds_of(left[0]) == [(8, 9, 10), (11, 12, 13)] and left[0].win == 7
    assert left[0].concealed == tuple(range(7))


def test_a_row_that_reads_as_seen_gets_no_more_plans() -> None:
    dets = melds_then_a_back(pale=0.0)  # a plain back: the row reads as seen
    on = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, end_backs=True))
    off = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, end_backs=False))
    assert on == off
