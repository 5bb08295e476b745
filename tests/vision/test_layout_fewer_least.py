"""Layout: a hand seen from across that reads as located only with two or more called tiles
guessed, and turned round with fewer, is read turned round (`LayoutConfig.fewer_guesses`,
`LayoutConfig.fewer_least`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from layout_factories import ORIGIN, H, W, _det, _quad

LABELS = ["9p", "9p", "9p", "6s", "6s", "6s", "7p", "1z", "1z", "9p", "8p", "6s", "5s", "4s"]
GAPS = [0.0, -0.13, 0.15, 0.11, -0.09, -0.07, 0.69, 0.25, 0.05, 0.02, 0.2, -0.05, 0.12, 0.04]
SIDEWAYS = {2, 5}


def seen_from_across() -> list:
    """89p456s11z, the winning tile 7p, pons 999p and 666s each showing its called tile,
    seen from across as tuning render 1030054 was located (tile widths between the tiles)."""
    dets, u = [], 0.0
    for k, (label, gap) in enumerate(zip(LABELS, GAPS, strict=True)):
        u += gap * W
        w, h = (H, W) if k in SIDEWAYS else (W, H)
        dets.append(_det(label, _quad(u, 0.0, w, h, ORIGIN, 0.0), sideways=k in SIDEWAYS))
        u += w
    return dets


def names(plan) -> tuple:
    return ([LABELS[i] for i in plan.concealed], plan.win,
            [[LABELS[i] for i in m.detections] for m in plan.melds])


def test_a_row_that_guesses_two_called_tiles_is_read_turned_round() -> None:
    dets = seen_from_across()
    as_located = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, fewer_guesses=False))[0]
    # As located: one concealed tile and four melds, two of them with a called tile guessed.
    assert not as_located.flipped and len(as_located.melds) == 4
    turned = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, fewer_guesses=True,
                                                 fewer_least=2))[0]
    assert turned.flipped
    assert names(turned) == (["4s", "5s", "6s", "8p", "9p", "1z", "1z"], 6,
                             [["6s", "6s", "6s"], ["9p", "9p", "9p"]])
    # Where it asks for more guesses than the row makes, the row is read as located.
    kept = analyse_layout(dets, config=replace(DEFAULT_LAYOUT, fewer_guesses=True,
                                               fewer_least=3))[0]
    assert not kept.flipped and len(kept.melds) == 4
