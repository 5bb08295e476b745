"""Layout: a hand of one concealed tile whose melds lie past a wide gap
(`LyingConfig.wide_after`), and a waiting hand's row ended by a tile lying flat against it
(`LayoutConfig.touching_end`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad


def laid_row(row: list[tuple[str, bool, float]]) -> list:
    """Detections of one row left to right: ``(label, sideways, gap before in tile widths)``."""
    dets, u = [], 0.0
    for label, side, gap in row:
        u += gap * W
        du, dv = (H, W) if side else (W, H)
        dets.append(_det(label, _quad(u, 0.0, du, dv, ORIGIN, 0.0), side))
        u += du
    return dets


def with_wide_after(n: int):
    return replace(DEFAULT_LAYOUT, lying=replace(DEFAULT_LAYOUT.lying, wide_after=n))


def tanki(gap: float) -> list:
    """5z alone (the hand waits on it), then four melds ``gap`` tile widths away: pon 222z
    whose called tile is not seen sideways, pon 777m, chi 234s, chi 123m (called tile first)."""
    row = [("5z", False, 0.0)]
    for k, (called, rest) in enumerate((("2z", "2z2z"), ("7m", "7m7m"), ("3s", "2s4s"),
                                         ("2m", "1m3m"))):
        row.append((called, k > 0, gap if k == 0 else 0.05))
        row += [(rest[i:i + 2], False, 0.03) for i in (0, 2)]
    return laid_row(row)


def test_one_concealed_tile_before_a_wide_gap_leaves_the_rest_to_melds() -> None:
    dets = tanki(1.9)
    old = analyse_layout(dets, config=with_wide_after(3))[0]
    assert len(old.concealed) == 4 and len(old.melds) == 3  # 222z read as concealed tiles
    new = analyse_layout(dets, config=with_wide_after(1))[0]
    assert new.concealed == (0,) and len(new.melds) == 4
    assert new.melds[0].detections == (1, 2, 3)


def test_a_narrow_gap_after_one_tile_is_no_evidence() -> None:
    dets = tanki(0.9)
    assert analyse_layout(dets, config=with_wide_after(1)) == \
        analyse_layout(dets, config=with_wide_after(3))


def standing_then_flat(gap: float, upright: int = 13) -> list:
    """``upright`` concealed tiles touching, then 4s lying flat (seen sideways) ``gap`` tile
    widths after them (negative: its quad reaches back over the last one)."""
    names = ["2m", "2m", "5s", "5s", "6s", "6s", "7s", "3p", "4p", "5p", "7p", "8p", "9p",
             "1z", "1z"][:upright]
    return laid_row([(t, False, 0.0 if k == 0 else 0.02) for k, t in enumerate(names)]
                    + [("4s", True, gap)])


def test_a_flat_tile_against_a_waiting_hand_is_offered_as_the_winning_tile() -> None:
    dets = standing_then_flat(-0.1)
    off = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, touching_end=False))
    assert not any(p.win == 13 for p in off)
    on = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, touching_end=True))
    winners = [p for p in on if p.win == 13]
    assert winners and len(winners[0].concealed) == 13 and not winners[0].melds
    # Offered after the plans as located (a meld touching the hand), for the reading to weigh.
    assert on[:len(off)] == off


def test_only_after_a_waiting_hands_worth_of_tiles() -> None:
    dets = standing_then_flat(-0.1, upright=10)
    assert analyse_layout(dets, config=replace(DEFAULT_LAYOUT, touching_end=True)) == \
        analyse_layout(dets, config=replace(DEFAULT_LAYOUT, touching_end=False))
