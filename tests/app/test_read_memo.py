"""`agari.read_memo`: within one photo the classifier runs each distinct crop once, and
answers exactly as without the memo."""

from __future__ import annotations

import numpy as np
import pytest
from agari.models import TileClassifier
from agari.models.polarity import InvertedClassifier

from agari.read_memo import MemoSession, remembering


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
