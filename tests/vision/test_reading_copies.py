"""Four of a kind at most: a wall read as white dragons becomes backs again."""

from __future__ import annotations

from agari.engine.tiles import BACK
from agari.vision.reading_copies import cap_copies
from layout_factories import lay_out, with_alternatives


def test_a_wall_read_as_white_dragons_becomes_backs() -> None:
    hand = lay_out("123m456p789s555z", "1z").dets
    wall = lay_out("5555555z", origin=(200.0, 300.0)).dets
    wall = [with_alternatives(d, [("5z", 0.8), ("back", 0.15)]) for d in wall]
    hand = [with_alternatives(d, [(d.label_name, 0.97), ("back", 0.01)]) for d in hand]
    out, turned = cap_copies(hand + wall)
    assert turned == len(wall)
    assert all(d.label == BACK for d in out[len(hand):])
    assert [d.label_name for d in out[:len(hand)]] == [d.label_name for d in hand]


def test_excess_copies_keep_the_likeliest_faces() -> None:
    dets = [with_alternatives(d, [("1z", 0.9), ("back", b)])
            for d, b in zip(lay_out("11111z").dets, (0.0, 0.02, 0.0, 0.0, 0.0), strict=True)]
    # Five apart so that no touching group holds them all.
    out, turned = cap_copies([dets[0], dets[2], dets[4], dets[1], dets[3]])
    assert turned == 1 and out[3].label == BACK


def test_a_possible_photo_is_left_alone() -> None:
    dets = lay_out("123m456p789s1122z", "2z").dets
    out, turned = cap_copies(dets)
    assert turned == 0 and out == list(dets)
