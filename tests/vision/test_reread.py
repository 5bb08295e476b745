"""Re-reading a hand's tiles cut as they lie (`agari.vision.reread`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.reread import likeliest_tile, reread_in_hand_frame
from layout_factories import lay_out

IMAGE = np.zeros((8, 8, 3), np.uint8)  # the stub classifier looks at quads, not pixels


def _quarter_turned(det: TileDetection) -> TileDetection:
    tl, tr, br, bl = det.quad
    return replace(det, quad=(bl, tl, tr, br), sideways=not det.sideways)


def _unread(det: TileDetection) -> TileDetection:
    return replace(det, label=None, confidence=0.6, alternatives=(("none", 0.6), ("2p", 0.3)))


class _Eye:
    """Reads a tile right (0.95) only when its quad is cut as the tile lies, else `none`."""

    def __init__(self, truth: list[TileDetection]) -> None:
        self.truth = {self._key(t.quad): t for t in truth}
        self.asked: list[TileDetection] = []

    @staticmethod
    def _key(quad) -> tuple:
        return tuple(sorted(np.round(np.asarray(quad, float), 3).ravel().tolist()))

    def __call__(self, image, dets):
        out = []
        for d in dets:
            self.asked.append(d)
            t = self.truth[self._key(d.quad)]
            right = np.allclose(np.asarray(d.quad), np.asarray(t.quad)) and \
                d.sideways == t.sideways
            name = str(t.label) if right else "none"
            out.append(replace(d, label=t.label if right else None, confidence=0.95,
                               alternatives=((name, 0.95),)))
        return out


def test_a_tile_framed_a_quarter_off_is_read_again_as_it_lies():
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    dets = list(laid.dets)
    dets[3] = _unread(_quarter_turned(dets[3]))   # a concealed tile
    eye = _Eye(laid.dets)
    out = reread_in_hand_frame(IMAGE, dets, eye)
    assert str(out[3].label) == str(laid.dets[3].label)
    assert np.allclose(np.asarray(out[3].quad), np.asarray(laid.dets[3].quad))
    assert len(eye.asked) == 1                     # the others are cut as they lie already


def test_a_called_tile_cut_upright_is_read_again_turned():
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    called = next(i for i, d in enumerate(laid.dets) if d.sideways)
    dets = list(laid.dets)
    dets[called] = _unread(replace(dets[called], sideways=False))
    out = reread_in_hand_frame(IMAGE, dets, _Eye(laid.dets))
    assert out[called].sideways
    assert str(out[called].label) == "7z"


def test_a_surer_first_reading_is_kept():
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),))
    dets = list(laid.dets)
    # Cut a quarter off, yet read surely (1.0): the re-read (0.95) does not replace it.
    dets[3] = _quarter_turned(dets[3])
    eye = _Eye(laid.dets)
    out = reread_in_hand_frame(IMAGE, dets, eye)
    assert len(eye.asked) == 1
    assert out[3] is dets[3]


def test_likeliest_tile_ignores_none():
    det = TileDetection(quad=((0, 0), (1, 0), (1, 1), (0, 1)),
                        alternatives=(("none", 0.7), ("3s", 0.2), ("back", 0.1)))
    assert likeliest_tile(det) == 0.2


def _squat(det: TileDetection) -> TileDetection:
    """``det`` boxed as a called tile lies (long along the row, short across), still upright
    and read as another tile: the upright cut of a sideways face."""
    q = np.asarray(det.quad, float)
    c = q.mean(axis=0)
    quad = tuple(map(tuple, c + (q - c) * np.array([1.6, 0.75])))
    return replace(det, quad=quad, label=Tile.parse("2p"), confidence=0.9,
                   alternatives=(("2p", 0.9), ("4p", 0.05)))


class _Turned:
    """Reads any crop cut sideways as 4p (0.95), any other as 2p (0.9)."""

    def __init__(self) -> None:
        self.asked: list[TileDetection] = []

    def __call__(self, image, dets):
        self.asked.extend(dets)
        return [replace(d, label=Tile.parse("4p" if d.sideways else "2p"),
                        confidence=0.95 if d.sideways else 0.9,
                        alternatives=(("4p", 0.95),) if d.sideways else (("2p", 0.9),))
                for d in dets]


def test_a_tile_shaped_as_a_called_one_but_cut_upright_is_read_turned_too():
    laid = lay_out("123m456p789s111z", "2z")
    dets = list(laid.dets)
    dets[4] = _squat(dets[4])                      # the plan takes it for a concealed tile
    eye = _Turned()
    out = reread_in_hand_frame(IMAGE, dets, eye)
    assert [d.sideways for d in eye.asked] == [True]   # only the squat tile, turned
    # Each class at its better cut: the turned cut's 4p leads, the upright 2p stays a choice.
    assert str(out[4].label) == "4p"
    assert dict(out[4].alternatives) == {"4p": 0.95, "2p": 0.9}
    assert out[4].quad == dets[4].quad and not out[4].sideways
    assert all(a is b for k, (a, b) in enumerate(zip(out, dets, strict=True)) if k != 4)


def test_a_squat_tile_is_read_by_its_shape_only_when_asked():
    laid = lay_out("123m456p789s111z", "2z")
    dets = list(laid.dets)
    dets[4] = _squat(dets[4])
    eye = _Turned()
    assert reread_in_hand_frame(IMAGE, dets, eye, wide=None) == dets
    assert eye.asked == []
    # Tiles shaped like their neighbours are not read turned.
    eye = _Turned()
    assert reread_in_hand_frame(IMAGE, list(laid.dets), eye) == list(laid.dets)
    assert eye.asked == []
