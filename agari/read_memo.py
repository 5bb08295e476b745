"""The classifier remembering, within one photo, what it read: the same crop is read once.

One reading of a photo asks the classifier about many crops more than once (the locator's
contests and spares, then the located tiles, row completion, quarter turns, re-reading in
the hand's frame), and a photo read again (`agari.retry`) asks again about most of the
tiles the first reading found: the core net's quads are the same at every working scale.
The model's answer for a crop depends on nothing else (onnxruntime gives each row of a
batch bit-identical outputs whatever else is in the batch), so a crop's outputs are kept,
keyed by its pixels (`MemoSession.outputs_of`, which `TileClassifier.predict` uses) or by its
input tensor (`MemoSession.run`), and only new crops are run.

A located tile asked about again (the same quad, lying the same way, in the same image) is
not even cut again: `classify_detections` keeps each tile's names (`DetectionMemo`).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence

import numpy as np

from agari.models.classifier import TileClassifier, labelled
from agari.vision.detection import TileDetection


class MemoSession:
    """An onnxruntime session (the classifier's) that runs each distinct input row once.

    Only `run` with one input is remembered; everything else is the session's own."""

    def __init__(self, session: object) -> None:
        self._session = session
        self._seen: dict[tuple, tuple[np.ndarray, ...]] = {}
        self._pixels_seen: dict[tuple, tuple[np.ndarray, ...]] = {}
        self.asked = 0
        """Rows asked for, all told (`run` calls' batch sizes summed)."""
        self.ran = 0
        """Rows the model actually ran."""

    def __getattr__(self, name: str):
        return getattr(self._session, name)

    def run(self, output_names: Sequence[str] | None, feeds: Mapping[str, np.ndarray],
            *args, **kwargs) -> list[np.ndarray]:
        if len(feeds) != 1 or args or kwargs:
            return self._session.run(output_names, feeds, *args, **kwargs)
        (name, x), = feeds.items()
        x = np.asarray(x)
        names = tuple(output_names) if output_names is not None else None
        # Python's hash of the row's bytes: ~7 us a crop against ~250 us to run it; a 64-bit
        # clash between two of a photo's few thousand crops is vanishingly unlikely.
        keys = [(names, x.dtype.str, row.shape, hash(row.tobytes())) for row in x]
        if not keys:
            return self._session.run(output_names, feeds)
        return self._remembered(keys, x, self._seen, lambda rows: self._session.run(
            output_names, {name: np.ascontiguousarray(rows)}))

    def outputs_of(self, pixels: np.ndarray,
                   run: Callable[[object, np.ndarray], Sequence[np.ndarray]], *,
                   key: Hashable = ()) -> list[np.ndarray]:
        """``run(session, pixels)`` (arrays with a row per crop) with each distinct crop run
        once: the classifier's crops are remembered by their ``uint8`` pixels, a quarter of
        the bytes of the model's float input to hash (~1.5 ms a photo less). ``key``: what
        else ``run`` depends on (the pixels' normalisation)."""
        keys = [(key, row.shape, hash(row.tobytes())) for row in pixels]
        if not keys:
            return list(run(self._session, pixels))
        return self._remembered(keys, pixels, self._pixels_seen, lambda rows: run(
            self._session, np.ascontiguousarray(rows)))

    def _remembered(self, keys: list[tuple], x: np.ndarray, seen: dict,
                    run: Callable[[np.ndarray], Sequence[np.ndarray]]) -> list[np.ndarray]:
        """The outputs for the rows of ``x`` (keyed by ``keys``), running ``run`` only on the
        distinct rows ``seen`` lacks."""
        self.asked += len(keys)
        first_row: dict[tuple, int] = {}
        for i, key in enumerate(keys):
            first_row.setdefault(key, i)
        rows = [i for key, i in first_row.items() if key not in seen]
        if rows:
            outs = run(x[rows])
            self.ran += len(rows)
            for j, i in enumerate(rows):
                seen[keys[i]] = tuple(np.asarray(out)[j] for out in outs)
        got = [seen[key] for key in keys]
        return [np.stack([g[k] for g in got]) for k in range(len(got[0]))]


class DetectionMemo:
    """`TileClassifier.classify_detections` keeping each tile's names: a detection whose
    quad and flag were read before in the same image (the very array: one photo's) with
    the same ``top_k`` takes the names read then, uncut and unread.

    A tile's crop depends on its image, quad and ``sideways`` alone, and its names on its
    crop's row of model outputs (`MemoSession`), so the names come out the same; the other
    fields are the detection's own, as `classify_detections` leaves them."""

    def __init__(self, classify: Callable[..., list[TileDetection]]) -> None:
        self._classify = classify
        # id(image) -> (image, {(quad, sideways, top_k): names}): holding the image keeps
        # its id from being reused by another array while the memo lives.
        self._images: dict[int, tuple[np.ndarray, dict[tuple, tuple]]] = {}
        self.asked = 0
        """Detections asked for, all told."""
        self.read = 0
        """Detections actually cut and read."""

    def __call__(self, image: np.ndarray, detections: Sequence[TileDetection], *,
                 top_k: int = 3) -> list[TileDetection]:
        held = self._images.get(id(image))
        if held is None or held[0] is not image:
            held = self._images[id(image)] = (image, {})
        names = held[1]
        keys = [(d.quad, d.sideways, top_k) for d in detections]
        try:
            todo = {key: d for key, d in zip(keys, detections, strict=True) if key not in names}
        except TypeError:  # a quad given as an array: not hashable, read as it is
            return self._classify(image, detections, top_k=top_k)
        self.asked += len(keys)
        if todo:
            self.read += len(todo)
            for key, got in zip(todo, self._classify(image, list(todo.values()), top_k=top_k),
                                strict=True):
                names[key] = (got.label, got.confidence, got.face_down, got.alternatives)
        return [labelled(det, *names[key]) for key, det in zip(keys, detections, strict=True)]


def remembering(classifier):
    """``classifier`` reading through a fresh `MemoSession` and `DetectionMemo` (for one
    photo), or ``classifier`` itself when it is not a plain `TileClassifier` (a stand-in, a
    subclass with its own ways): the copy keeps the exact type, which the polarity check
    asks for (so the detection memo is the copy's own attribute, not a subclass's method)."""
    if type(classifier) is not TileClassifier:
        return classifier
    copy = TileClassifier(MemoSession(classifier._session), classifier.spec,
                          path=classifier.path)
    copy.classify_detections = DetectionMemo(copy.classify_detections)
    return copy


__all__ = ["DetectionMemo", "MemoSession", "remembering"]
