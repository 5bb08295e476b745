"""A second look at doubtful tiles (`agari.vision.second_look`): the crop turned 180°, the
answers averaged; and where `agari photo` takes it (`pipeline._looked_again`)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.second_look import SecondLookConfig, doubtful, second_look
from layout_factories import lay_out, with_alternatives

import agari.pipeline as pipeline
from agari.pipeline import DEFAULT_PIPELINE

NAMES = ("1m", "2m", "none", "back")
SIZE = (16, 12)


class _Reader:
    """Reads a crop by where its light half is: at the top 1m 0.6 / 2m 0.3, at the bottom
    2m 0.9 (a face read surely only one way up); the crops it was asked about recorded."""

    spec = SimpleNamespace(input_size=SIZE, crop_margin=0.0)
    class_names = NAMES

    def __init__(self) -> None:
        self.asked = 0

    def predict(self, crops: np.ndarray):
        self.asked += len(crops)
        top = crops[:, : SIZE[0] // 2].mean(axis=(1, 2, 3))
        bottom = crops[:, SIZE[0] // 2:].mean(axis=(1, 2, 3))
        probs = np.where((top > bottom)[:, None], [0.6, 0.3, 0.1, 0.0], [0.0, 0.9, 0.1, 0.0])
        return SimpleNamespace(probs=probs.astype(np.float32))


def _image() -> np.ndarray:
    img = np.zeros((40, 40, 3), np.uint8)
    img[:20] = 255  # the tile below stands in the light upper half's lower edge
    return img


def _tile(p: float = 0.6) -> TileDetection:
    quad = ((14.0, 12.0), (26.0, 12.0), (26.0, 28.0), (14.0, 28.0))
    return TileDetection(quad, False, False, Tile.parse("1m"), p,
                         (("1m", p), ("2m", round(0.9 - p, 3)), ("none", 0.1)))


def test_a_doubtful_tile_is_named_by_both_ways_up():
    reader = _Reader()
    got = second_look(reader, _image(), [_tile()], top_k=3)
    assert reader.asked == 2  # the crop as read, and turned round
    assert str(got[0].label) == "2m"
    assert dict(got[0].alternatives) == pytest.approx({"2m": 0.6, "1m": 0.3, "none": 0.1})
    assert got[0].confidence == pytest.approx(0.6)


def test_a_sure_tile_or_one_left_out_is_not_looked_at():
    reader = _Reader()
    sure, other = _tile(0.95), _tile()
    assert second_look(reader, _image(), [sure], top_k=3) == [sure]
    assert second_look(reader, _image(), [sure, other], top_k=3, only={0}) == [sure, other]
    assert reader.asked == 0


def test_no_look_asked_changes_nothing():
    reader = _Reader()
    tile = _tile()
    assert second_look(reader, _image(), [tile], top_k=3,
                       config=SecondLookConfig(turn=False)) == [tile]
    assert reader.asked == 0


def test_the_names_the_tile_holds_stand_for_its_first_look():
    # Names merged from two cuts (`reading_cuts.either`) need not be the crop's own.
    held = with_alternatives(_tile(), [("1m", 0.8), ("2m", 0.2)])
    got = second_look(_Reader(), _image(), [held], top_k=2)
    assert [n for n, _ in got[0].alternatives] == ["2m", "1m"]
    assert [p for _, p in got[0].alternatives] == pytest.approx([0.55, 0.4])


def test_doubt_is_the_likeliest_class_under_the_threshold():
    assert doubtful(_tile(0.6), 0.9) and not doubtful(_tile(0.9), 0.9)
    assert not doubtful(TileDetection(_tile().quad), 0.9)  # never read


def test_the_pipeline_looks_at_the_hands_tiles_only_and_lays_out_again_after_a_change():
    laid = lay_out("123m456p789s1122z", dora="3m")
    config = pipeline.PipelineConfig(second_look=SecondLookConfig())
    seen = []

    def look(dets, only=None):
        seen.append(only)
        return [with_alternatives(d, [("9p", 0.5)]) if i == 0 else d
                for i, d in enumerate(dets)]

    dets, plans = pipeline._looked_again(list(laid.dets), None, look, None, config)
    assert seen[0] == set(range(len(laid.dets)))  # the whole laid-out hand has roles
    assert dets[0].alternatives == (("9p", 0.5),) and plans is None

    same, plans = pipeline._looked_again(list(laid.dets), None, lambda d, only=None: d, None,
                                         config)
    assert plans is not None and plans[0].role_of()


def test_off_by_default():
    assert DEFAULT_PIPELINE.second_look is None


def test_faces_only_leaves_none_and_back_as_first_read():
    held = with_alternatives(_tile(), [("1m", 0.5), ("none", 0.3), ("2m", 0.2)])
    got = second_look(_Reader(), _image(), [held], top_k=3,
                      config=SecondLookConfig(faces_only=True))
    alts = dict(got[0].alternatives)
    assert alts["none"] == pytest.approx(0.3)
    # The faces' 0.7 shared as the looks share theirs: 1m (0.5+0)/2, 2m (0.2+0.9)/2.
    assert alts["2m"] == pytest.approx(0.7 * 0.55 / 0.8)
    assert alts["1m"] == pytest.approx(0.7 * 0.25 / 0.8)
    assert str(got[0].label) == "2m"
