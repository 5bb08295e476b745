"""Classifier scores: accuracy, confusion, red-five and `none` figures (numpy only).

Shared by training reports, `bench/classify_eval.py` and the model card, so
every figure is computed one way.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np
from agari.engine.tiles import CLASS_NAMES, FIVE_KINDS, KINDS, NONE, RED_FIVES

_PLAIN_FIVES = tuple(KINDS[k] for k in FIVE_KINDS)


@dataclass(frozen=True, slots=True)
class Scores:
    """Figures for one labelled set of crops.

    Attributes:
        n: crops scored.
        accuracy: top-1 over all crops.
        top3: true class among the 3 most probable.
        per_class: class name → (correct, total).
        confusions: ``(true, predicted, count)``, commonest first.
        red_five: accuracy on red and plain fives counting only red-vs-plain
            mistakes (a 5m read as 0m or the reverse), None if no fives.
        none_recall: share of ``none`` crops called ``none``, None if none present.
    """

    n: int
    accuracy: float
    top3: float
    per_class: dict[str, tuple[int, int]]
    confusions: tuple[tuple[str, str, int], ...]
    red_five: float | None
    none_recall: float | None

    def to_json(self, *, confusions: int = 10) -> dict:
        return {
            "n": self.n, "accuracy": round(self.accuracy, 5), "top3": round(self.top3, 5),
            "red_five": None if self.red_five is None else round(self.red_five, 5),
            "none_recall": None if self.none_recall is None else round(self.none_recall, 5),
            "confusions": [list(c) for c in self.confusions[:confusions]],
            "per_class": {k: list(v) for k, v in self.per_class.items()},
        }


def score(probs: np.ndarray, truth: np.ndarray,
          class_names: tuple[str, ...] = CLASS_NAMES) -> Scores:
    """Scores of ``probs`` (float ``(N, C)``) against class indices ``truth`` (int ``(N,)``)."""
    truth = np.asarray(truth)
    n = len(truth)
    if n == 0:
        return Scores(0, float("nan"), float("nan"), {}, (), None, None)
    pred = probs.argmax(axis=1)
    top3 = np.argsort(-probs, axis=1)[:, :3]
    per_class: dict[str, tuple[int, int]] = {}
    for c in np.unique(truth):
        mask = truth == c
        per_class[class_names[c]] = (int((pred[mask] == c).sum()), int(mask.sum()))
    wrong = Counter((class_names[t], class_names[p]) for t, p in zip(truth, pred, strict=True)
                    if t != p)
    return Scores(
        n=n,
        accuracy=float((pred == truth).mean()),
        top3=float((top3 == truth[:, None]).any(axis=1).mean()),
        per_class=per_class,
        confusions=tuple((t, p, c) for (t, p), c in wrong.most_common()),
        red_five=_red_five(pred, truth, class_names),
        none_recall=_recall(pred, truth, class_names, NONE),
    )


def _red_five(pred: np.ndarray, truth: np.ndarray, names: tuple[str, ...]) -> float | None:
    """Among true fives (plain or red), the share not mistaken for the other colour."""
    pairs = {names.index(a): names.index(b) for a, b in zip(_PLAIN_FIVES, RED_FIVES, strict=True)}
    pairs.update({b: a for a, b in pairs.items()})
    mask = np.isin(truth, list(pairs))
    if not mask.any():
        return None
    swapped = np.array([pairs[t] == p for t, p in zip(truth[mask], pred[mask], strict=True)])
    return float(1 - swapped.mean())


def _recall(pred: np.ndarray, truth: np.ndarray, names: tuple[str, ...], cls: str
            ) -> float | None:
    if cls not in names:
        return None
    mask = truth == names.index(cls)
    return float((pred[mask] == names.index(cls)).mean()) if mask.any() else None
