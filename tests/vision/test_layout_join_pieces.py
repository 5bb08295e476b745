"""Layout: a meld the locator left in pieces narrower than a meld, each holding melds alone
and lying less than `LyingConfig.wide_gap` apart, is read as one meld
(`LyingConfig.join_pieces`, `layout_lying.joined_pieces`)."""

from __future__ import annotations

from dataclasses import replace

from agari.vision.layout import DEFAULT_LAYOUT, analyse_layout
from agari.vision.layout_lying import RowPose, joined_pieces
from layout_factories import ORIGIN, H, W, _det, _quad


def with_lying(**kw) -> object:
    return replace(DEFAULT_LAYOUT, lying=replace(DEFAULT_LAYOUT.lying, **kw))


def laid_row(row: list[tuple[str, float]]) -> list:
    """Upright detections of one row laid left to right: ``(label, gap before in tile
    widths)`` per tile."""
    dets, u = [], 0.0
    for label, gap in row:
        u += gap * W
        dets.append(_det(label, _quad(u, 0.0, W, H, ORIGIN, 0.0)))
        u += W
    return dets


def chi_in_pieces() -> list:
    """789m1p888s666z, the winning tile 1p apart, then chi 234s far past it (its called tile
    not seen sideways) in three loose tiles a third and a fifth of a tile apart (as tuning
    render 1030032 was located)."""
    hand = [(t, 0.03) for t in ("7m", "8m", "9m", "1p", "8s", "8s", "8s", "6z", "6z", "6z")]
    return laid_row([*hand, ("1p", 0.8), ("2s", 2.8), ("3s", 0.36), ("4s", 0.21)])


def test_a_meld_in_loose_pieces_is_read_as_one_meld() -> None:
    dets = chi_in_pieces()
    on = analyse_layout(dets, config=with_lying(join_pieces=True))[0]
    assert [m.detections for m in on.melds] == [(11, 12, 13)]
    assert on.win == 10 and on.concealed == tuple(range(10))
    off = analyse_layout(dets, config=with_lying(join_pieces=False))
    # Apart, the pieces read as concealed tiles: the chi spilled into the hand.
    assert all(not p.melds for p in off) and off[0].win == 13
    # It needs `wide_gap` (what tells the pieces hold melds alone).
    assert not analyse_layout(dets, config=with_lying(join_pieces=True, wide_gap=None))[0].melds


def pose_of(tokens: list[str]) -> RowPose:
    return RowPose(tuple(False for _ in tokens), tuple(tuple(range(len(t))) for t in tokens),
                   tuple(len(t) for t in tokens))


def groups_of(tokens: list[str]) -> list[list[list[int]]]:
    out, k = [], 0
    for t in tokens:
        out.append([[k + j] for j in range(len(t))])
        k += len(t)
    return out


def test_only_melds_only_pieces_narrower_than_a_meld_and_near_are_joined() -> None:
    tokens = ["PPPPPPPPPP", "P", "P", "P", "P"]  # hand, winning tile apart, three pieces
    groups = groups_of(tokens)
    joined = joined_pieces(groups, tokens, pose_of(tokens), [0.8, 2.8, 0.36, 0.21], 1.25)
    assert joined == [groups[0], groups[1], groups[2] + groups[3] + groups[4]]
    # A gap of `wide_gap` or more parts them.
    joined = joined_pieces(groups, tokens, pose_of(tokens), [0.8, 2.8, 0.36, 1.3], 1.25)
    assert joined == [groups[0], groups[1], groups[2] + groups[3], groups[4]]
    # A piece a meld wide is no piece; the winning tile (no meld yet before it) none either.
    tokens = ["PPPPPPP", "P", "SPP", "P"]
    assert joined_pieces(groups_of(tokens), tokens, pose_of(tokens), [0.8, 2.8, 0.3],
                         1.25) is None
    tokens = ["PPPPPPPPPPPPP", "P"]
    assert joined_pieces(groups_of(tokens), tokens, pose_of(tokens), [0.3], 1.25) is None


def pon_past_a_winning_tile() -> list:
    """234m0588p444z, the winning tile 5p 0.24 of a tile past them, then pon 055m 1.08 past
    it in three loose tiles 0.63 and 0.27 apart, seen smaller (farther off) and framed
    squatter than the hand, so that the winning tile looks flat beside them (as tuning
    render 950078 was located)."""
    hand = [(t, 0.03) for t in ("2m", "3m", "4m", "0p", "5p", "8p", "8p", "4z", "4z", "4z")]
    dets = laid_row([*hand, ("5p", 0.24)])
    u = (11 + 10 * 0.03 + 0.24) * W  # where the winning tile ends
    for label, gap in (("0m", 1.08), ("5m", 0.63), ("5m", 0.27)):
        u += gap * W
        dets.append(_det(label, _quad(u, 0.0, 0.7 * W, 1.25 * H, ORIGIN, 0.0)))
        u += 0.7 * W
    return dets


def test_pieces_join_only_under_join_gap() -> None:
    dets = pon_past_a_winning_tile()
    # Under `wide_gap` (1.25) the winning tile set apart joins the pon's pieces.
    wide = analyse_layout(dets, config=with_lying(join_pieces=True, join_gap=None))[0]
    assert 10 in {i for m in wide.melds for i in m.detections}
    near = analyse_layout(dets, config=with_lying(join_pieces=True, join_gap=0.7))[0]
    assert [m.detections for m in near.melds] == [(11, 12, 13)]
    assert near.win == 10 and near.concealed == tuple(range(10))
    tokens = ["PPPPPPPPPP", "P", "P", "P", "P"]
    groups = groups_of(tokens)
    joined = joined_pieces(groups, tokens, pose_of(tokens), [0.24, 1.08, 0.63, 0.27], 0.7)
    assert joined == [groups[0], groups[1], groups[2] + groups[3] + groups[4]]
