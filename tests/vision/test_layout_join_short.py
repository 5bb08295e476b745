"""Layout: two meld tiles lying flat, parted by a gap from the rest of their meld, right after
the hand's winning tile (`layout_lying.joined_groups` with ``short``)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad


def _row() -> tuple[list, list[str]]:
    """Seven standing concealed tiles, the winning tile apart, then two melds lying flat
    (squat quads): a pon whose called tile does not look sideways, parted after its second
    tile by a third of a tile, touching a chi whose called tile does (``PP`` ``PSPP``)."""
    dets, roles, u = [], [], 0.0

    def add(label: str, width: float, height: float, role: str, gap: float) -> None:
        nonlocal u
        dets.append(_det(label, _quad(u, 0.0, width, height, ORIGIN, 0.0), width > W))
        roles.append(role)
        u += width + gap * W

    for t in ("1p", "3p", "7p", "7p", "7p", "4s", "4s"):
        add(t, W, H, "concealed", 0.03)
    u += 0.6 * W
    add("2p", W, H, "win", 0.8)
    add("7s", W, 0.45 * H, "meld 1", 0.03)
    add("7s", W, 0.45 * H, "meld 1", 0.35)
    add("7s", W, 0.45 * H, "meld 1", 0.03)
    add("1p", H, 0.45 * W, "meld 2", 0.03)
    add("2p", W, 0.45 * H, "meld 2", 0.03)
    add("3p", W, 0.45 * H, "meld 2", 0.03)
    return dets, roles


def test_two_flat_meld_tiles_parted_from_their_meld_are_no_concealed_tiles() -> None:
    dets, roles = _row()
    plan = analyse_layout(dets)[0]
    assert len(plan.concealed) == 7 and plan.win == roles.index("win")
    assert sorted(len(m.columns) for m in plan.melds) == [3, 3]
    assert sorted(sorted(m.detections) for m in plan.melds) == [[8, 9, 10], [11, 12, 13]]
    # Not joined, the two tiles and the winning tile were read as concealed ones, the pon's
    # last tile as the winning tile.
    off = replace(DEFAULT_LAYOUT, lying=replace(DEFAULT_LAYOUT.lying, join_short=False))
    before = analyse_layout(dets, config=off)[0]
    assert {7, 8, 9} <= set(before.concealed) and before.win == 10
