"""`agari.read_memo`: within one photo the classifier runs each distinct crop once, and
answers exactly as without the memo."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from agari.engine.tiles import Tile
from agari.models import TileClassifier
from agari.models.polarity import InvertedClassifier
from agari.vision.detection import TileDetection

from agari.read_memo import DetectionMemo, MemoSession, remembering


class _Session:
    """A stand-in onnxruntime session: two outputs per row, the rows it ran recorded."""

    def __init__(self) -> None:
        self.rows: list[int] = []

    def run(self, names, feeds):
        (x,) = feeds.values()
        self.rows.append(len(x))
        flat = x.reshape(len(x), -1)
        return [flat.sum(1, keepdims=True), flat[:, :2] * 2.0]

    def get_outputs(self):
        return ["logits", "embedding"]


def _rows(*values: float) -> np.ndarray:
    return np.array([np.full((3, 4, 2), v, np.float32) for v in values])


def test_each_distinct_row_runs_once_and_answers_as_the_session():
    inner = _Session()
    memo = MemoSession(inner)
    first = memo.run(["logits", "embedding"], {"input": _rows(1, 2, 1)})
    again = memo.run(["logits", "embedding"], {"input": _rows(2, 3, 1)})
    plain = _Session().run(None, {"input": _rows(2, 3, 1)})
    assert inner.rows == [2, 1]  # 1 and 2, then only 3
    assert (memo.asked, memo.ran) == (6, 3)
    for got, want in zip(again, plain, strict=True):
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(first[0][:, 0], [24.0, 48.0, 24.0])


def test_other_outputs_asked_are_not_mixed_up():
    inner = _Session()
    memo = MemoSession(inner)
    memo.run(["logits", "embedding"], {"input": _rows(1)})
    memo.run(["logits"], {"input": _rows(1)})
    assert inner.rows == [1, 1]


def test_everything_but_run_is_the_sessions():
    assert MemoSession(_Session()).get_outputs() == ["logits", "embedding"]


def test_only_a_plain_classifier_is_wrapped():
    class Standin:
        pass

    stand_in = Standin()
    assert remembering(stand_in) is stand_in
    clf = TileClassifier(_Session(), spec=None)
    inverted = InvertedClassifier(clf)
    assert remembering(inverted) is inverted
    memo = remembering(clf)
    assert type(memo) is TileClassifier and isinstance(memo._session, MemoSession)
    assert memo._session._session is clf._session


@pytest.fixture(scope="module")
def shipped():
    return TileClassifier.load(threads=1)


def test_the_shipped_model_reads_the_same_through_the_memo(shipped):
    rng = np.random.default_rng(0)
    h, w = shipped.input_size
    crops = rng.integers(0, 256, (6, h, w, 3), dtype=np.uint8)
    crops[3] = crops[0]
    memo = remembering(shipped)
    plain = shipped.predict(crops)
    first, again = memo.predict(crops), memo.predict(crops[::-1])
    np.testing.assert_array_equal(first.probs, plain.probs)
    np.testing.assert_array_equal(again.probs, plain.probs[::-1])
    np.testing.assert_array_equal(again.embeddings, plain.embeddings[::-1])
    assert (memo._session.asked, memo._session.ran) == (12, 5)


def test_inverted_crops_read_through_the_memo_as_without_it(shipped):
    # The memo keys crops by the pixels the model is given: a crop and its inversion differ,
    # and the inverted reader (sharing the memo's session) reads as it does alone.
    rng = np.random.default_rng(1)
    h, w = shipped.input_size
    crops = rng.integers(0, 256, (4, h, w, 3), dtype=np.uint8)
    memo = remembering(shipped)
    plain, inverted = memo.predict(crops), InvertedClassifier(memo).predict(crops)
    np.testing.assert_array_equal(plain.probs, shipped.predict(crops).probs)
    np.testing.assert_array_equal(inverted.probs, InvertedClassifier(shipped).predict(crops).probs)
    np.testing.assert_array_equal(inverted.embeddings,
                                  InvertedClassifier(shipped).predict(crops).embeddings)
    assert (memo._session.asked, memo._session.ran) == (8, 8)
    empty = memo.predict(crops[:0])
    assert empty.probs.shape == (0, len(shipped.class_names)) and len(empty.embeddings) == 0


class _Namer:
    """A stand-in `classify_detections`: names each tile by its quad's first x, records the
    detections it was asked to read."""

    def __init__(self) -> None:
        self.read: list[int] = []

    def __call__(self, image, detections, *, top_k=3):
        self.read.append(len(detections))
        out = []
        for d in detections:
            p = 0.5 + (d.quad[0][0] % 10) / 100 + (0.01 if d.sideways else 0.0)
            out.append(replace(d, label=Tile.parse("1m"), confidence=p, face_down=False,
                               alternatives=(("1m", p), ("2m", 1 - p))[:top_k]))
        return out


def _det(x: float, **kw) -> TileDetection:
    return TileDetection(((x, 0.0), (x + 30, 0.0), (x + 30, 40.0), (x, 40.0)), **kw)


def test_a_tile_read_before_in_the_same_image_is_not_read_again():
    namer, image = _Namer(), np.zeros((50, 200, 3), np.uint8)
    memo = DetectionMemo(namer)
    first = memo(image, [_det(1), _det(2), _det(1)], top_k=2)
    # The same quads with other fields (as another stage passes them): the stored names.
    again = memo(image, [_det(2, face_down=True, confidence=0.9), _det(3), _det(1)], top_k=2)
    assert namer.read == [2, 1]
    assert (memo.asked, memo.read) == (6, 3)
    assert again == _Namer()(image, [_det(2, face_down=True), _det(3), _det(1)], top_k=2)
    assert first[0] == first[2] and first[0] != first[1]


def test_another_image_flag_or_top_k_misses():
    namer, image = _Namer(), np.zeros((50, 200, 3), np.uint8)
    memo = DetectionMemo(namer)
    memo(image, [_det(1)])
    memo(image.copy(), [_det(1)])  # equal pixels, another array: no hit by identity
    got = memo(image, [_det(1, sideways=True)])
    memo(image, [_det(1)], top_k=1)
    assert namer.read == [1, 1, 1, 1]
    assert got[0].sideways and got[0].confidence == 0.52


def test_array_quads_are_read_without_the_memo():
    namer, image = _Namer(), np.zeros((50, 200, 3), np.uint8)
    memo = DetectionMemo(namer)
    arr = TileDetection(np.array(_det(1).quad))
    memo(image, [arr])
    memo(image, [arr])
    assert namer.read == [1, 1]


def test_the_copy_reads_through_the_detection_memo(shipped):
    rng = np.random.default_rng(1)
    image = rng.integers(0, 256, (120, 200, 3), dtype=np.uint8)
    dets = [_det(10), _det(60, sideways=True), _det(110)]
    memo = remembering(shipped)
    assert isinstance(memo.classify_detections, DetectionMemo)
    want = shipped.classify_detections(image, dets, top_k=5)
    assert memo.classify_detections(image, dets, top_k=5) == want
    assert memo.classify_detections(image, dets[::-1], top_k=5) == want[::-1]
    assert (memo.classify_detections.asked, memo.classify_detections.read) == (6, 3)
