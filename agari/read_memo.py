"""The classifier remembering, within one photo, what it read: the same crop is read once.

One reading of a photo asks the classifier about many crops more than once (the locator's
contests and spares, then the located tiles, row completion, quarter turns, re-reading in
the hand's frame), and a photo read again (`agari.retry`) asks again about most of the
tiles the first reading found: the core net's quads are the same at every working scale.
The model's answer for a crop depends on nothing else (onnxruntime gives each row of a
batch bit-identical outputs whatever else is in the batch), so a crop's outputs are kept,
keyed by its input tensor, and only new crops are run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from agari.models.classifier import TileClassifier


class MemoSession:
    """An onnxruntime session (the classifier's) that runs each distinct input row once.

    Only `run` with one input is remembered; everything else is the session's own."""

    def __init__(self, session: object) -> None:
        self._session = session
        self._seen: dict[tuple, tuple[np.ndarray, ...]] = {}
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
        self.asked += len(keys)
        first_row: dict[tuple, int] = {}
        for i, key in enumerate(keys):
            first_row.setdefault(key, i)
        rows = [i for key, i in first_row.items() if key not in self._seen]
        if rows:
            outs = self._session.run(output_names, {name: np.ascontiguousarray(x[rows])})
            self.ran += len(rows)
            for j, i in enumerate(rows):
                self._seen[keys[i]] = tuple(np.asarray(out)[j] for out in outs)
        got = [self._seen[key] for key in keys]
        return [np.stack([g[k] for g in got]) for k in range(len(got[0]))]


def remembering(classifier):
    """``classifier`` reading through a fresh `MemoSession` (for one photo), or ``classifier``
    itself when it is not a plain `TileClassifier` (a stand-in, a subclass with its own
    ways): the copy keeps the exact type, which the polarity check asks for."""
    if type(classifier) is not TileClassifier:
        return classifier
    return TileClassifier(MemoSession(classifier._session), classifier.spec,
                          path=classifier.path)


__all__ = ["MemoSession", "remembering"]
