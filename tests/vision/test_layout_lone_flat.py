"""Layout: a chi's called tile set off by a gap between a one-tile hand and its melds, lying flat
yet not flagged sideways (`LyingConfig.lone_flat`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad

OFF = replace(DEFAULT_LAYOUT, lying=replace(DEFAULT_LAYOUT.lying, lone_flat=False))


def _row() -> tuple[list, list[str]]:
    """A waiting hand of one concealed tile and four melds (tuning render 1020025): the first
    chi's called tile, boxed wide and low, lies a third of a tile off its meld and is not
    flagged sideways (``P P PPSPP SPPPPS``)."""
    dets, roles, u = [], [], 0.0

    def add(label: str, role: str, gap: float, *, flat: bool = False, side: bool = False
            ) -> None:
        nonlocal u
        width, height = (H, W) if flat or side else (W, H)
        dets.append(_det(label, _quad(u, 0.0, width, height, ORIGIN, 0.0), side))
        roles.append(role)
        u += width + gap * W

    add("6s", "concealed", 2.0)
    add("7p", "meld 1", 0.3, flat=True)
    add("8p", "meld 1", 0.03)
    add("9p", "meld 1", 0.03)
    add("8s", "meld 2", 0.03, side=True)
    add("6s", "meld 2", 0.03)
    add("7s", "meld 2", 0.3)
    add("3m", "meld 3", 0.03, side=True)
    add("1m", "meld 3", 0.03)
    add("2m", "meld 3", 0.03)
    add("3z", "meld 4", 0.03)
    add("3z", "meld 4", 0.03)
    add("3z", "meld 4", 0.03, side=True)
    return dets, roles


def _melds(plan) -> list[list[int]]:
    return sorted(sorted(m.detections) for m in plan.melds)


def test_a_lone_flat_tile_after_a_one_tile_hand_closes_the_meld_beyond_it() -> None:
    dets, roles = _row()
    plan = analyse_layout(dets)[0]
    assert plan.concealed == (0,) and plan.win is None
    assert _melds(plan) == [[1, 2, 3], [4, 5, 6], [7, 8, 9], [10, 11, 12]]
    assert plan.melds[0].source == "left"
    # The cut reading the lone tile as a concealed one is dropped: it reads the same tiles
    # at the same cost, and the reading would doubt its own hand.
    assert not any({1, 2, 3} <= set(p.concealed) for p in analyse_layout(dets))
    # Off, the lone tile and the two after it were read as concealed tiles.
    before = analyse_layout(dets, config=OFF)[0]
    assert {1, 2, 3} <= set(before.concealed)


def test_the_winning_tile_lying_flat_after_the_hand_stays_the_winning_tile() -> None:
    # Five concealed tiles standing, the winning tile lying flat apart, a chi beyond: the lone
    # tile ends the concealed tiles (nothing concealed follows it), so no cut is doubted.
    dets, u = [], 0.0
    for t in ("1p", "2p", "3p", "5s", "5s"):
        dets.append(_det(t, _quad(u, 0.0, W, H, ORIGIN, 0.0)))
        u += 1.03 * W
    u += 0.6 * W
    dets.append(_det("9s", _quad(u, 0.0, H, W, ORIGIN, 0.0)))
    u += H + 0.8 * W
    for k, t in enumerate(("1m", "2m", "3m")):
        width, height = (H, W) if k == 0 else (W, H)
        dets.append(_det(t, _quad(u, 0.0, width, height, ORIGIN, 0.0), k == 0))
        u += width + 0.03 * W
    assert analyse_layout(dets)[0] == analyse_layout(dets, config=OFF)[0]
