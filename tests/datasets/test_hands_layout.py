"""Random hands are legal; layouts follow table custom."""

import numpy as np
import pytest
from agari.datasets.hands import ShownHand, random_hand
from agari.datasets.layout import layout_hand
from agari.engine.hand import Meld, parse_hand
from agari.engine.shapes import is_complete, waits_of
from agari.engine.tiles import kind_counts, parse_tiles

SIZE = (26.0, 35.0, 20.0)


@pytest.mark.parametrize("complete", [True, False])
def test_random_hands_are_legal(complete):
    rng = np.random.default_rng(11)
    for _ in range(150):
        hand = random_hand(rng, complete=complete)
        parsed = parse_hand(hand.text)  # sizes, copies, meld shapes
        counts = kind_counts(parsed.concealed)
        if complete:
            assert hand.win is not None and is_complete(counts, len(parsed.melds))
        else:
            assert hand.win is None and waits_of(counts, len(parsed.melds))
        assert 1 <= len(hand.dora) == 1 + sum(m.is_kan for m in hand.melds)
        assert not hand.ura or len(hand.ura) == len(hand.dora)


def test_hand_text_puts_the_winning_tile_last():
    hand = ShownHand(tuple(parse_tiles("123m456p789s11z2z")), parse_tiles("2z")[0], (), (), ())
    assert hand.text == "123m456p789s112z2z"
    assert parse_hand(hand.text).concealed[-1] == parse_tiles("2z")[0]


def meld(text, kind, called, source):
    return Meld(kind, tuple(parse_tiles(text)), called=called, source=source)


@pytest.mark.parametrize(
    "m,sideways_index",
    [(meld("555z", "pon", 0, "left"), 0), (meld("555z", "pon", 1, "across"), 1),
     (meld("555z", "pon", 2, "right"), 2), (meld("423m", "chi", 0, "left"), 0),
     (meld("7777p", "minkan", 3, "right"), 3)],
)
def test_called_tile_lies_sideways_where_its_source_says(m, sideways_index):
    hand = ShownHand(tuple(parse_tiles("1122334455s")), None, (m,), (), ())
    placed = [p for p in layout_hand(np.random.default_rng(0), hand, SIZE) if p.role == "meld"]
    placed.sort(key=lambda p: p.pose.origin[0])
    assert [p.sideways for p in placed] == [i == sideways_index for i in range(len(placed))]
    assert all(p.group == 0 for p in placed)


def test_layout_order_and_roles():
    rng = np.random.default_rng(5)
    hand = ShownHand(tuple(parse_tiles("123m456p78s11z")), parse_tiles("9s")[0],
                     (meld("2222z", "ankan", None, None), meld("345p", "chi", 0, "left")),
                     tuple(parse_tiles("1m1p")), tuple(parse_tiles("2m")))
    placed = layout_hand(rng, hand, SIZE)
    roles = [p.role for p in placed]
    assert roles[:10] == ["concealed"] * 10 and roles[10] == "win"
    xs = [p.pose.origin[0] for p in placed[:11]]
    assert xs == sorted(xs) and xs[10] - xs[9] > SIZE[0]  # the winning tile sits apart
    melds = [p for p in placed if p.role == "meld"]
    first = min(p.pose.origin[0] for p in melds if p.group == 0)
    second = max(p.pose.origin[0] for p in melds if p.group == 1)
    assert second < first  # the first call lies rightmost
    ankan = sorted((p for p in melds if p.group == 0), key=lambda p: p.pose.origin[0])
    face_up = [p.pose.rot[2, 2] > 0 for p in ankan]
    assert face_up in ([False, True, True, False], [True, False, False, True])
    assert [p.face for p in placed if p.role == "dora" and p.pose.rot[2, 2] > 0] == ["1m", "1p"]
    assert [p.face for p in placed if p.role == "ura"] == ["2m"]
