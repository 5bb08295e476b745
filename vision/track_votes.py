"""Label votes: a tracked tile's classifier outputs summed over the frames it was read in.

One crop can be misread (blur from a shaking camera, a glint, noise); the same
tile read in several frames rarely is. `Votes` sums each reading's top-k
probabilities per class name; the voted label is the class with the largest
sum, its confidence the sum over the number of readings.

>>> v = Votes().add((("5m", 0.6), ("0m", 0.4))).add((("0m", 0.9), ("5m", 0.1)))
>>> v.best, round(v.confidence, 2), v.count
('0m', 0.65, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agari.engine.errors import InvalidInput
from agari.engine.tiles import NONE
from agari.vision.detection import TileDetection

Alternatives = tuple[tuple[str, float], ...]


@dataclass(frozen=True, slots=True)
class Votes:
    """Summed classifier probabilities of one tracked tile.

    Attributes:
        sums: ``(class name, summed probability)``, largest first.
        count: readings summed.
    """

    sums: Alternatives = ()
    count: int = 0

    def __post_init__(self) -> None:
        if self.count < 0 or (self.count == 0 and self.sums):
            raise InvalidInput(f"votes need a reading per sum, got {self.count} for {self.sums}")

    def add(self, alternatives: Sequence[tuple[str, float]]) -> Votes:
        """These votes plus one reading's ``(class name, probability)`` list."""
        totals = dict(self.sums)
        for name, p in alternatives:
            totals[name] = totals.get(name, 0.0) + float(p)
        ranked = tuple(sorted(totals.items(), key=lambda kv: (-kv[1], kv[0])))
        return Votes(ranked, self.count + 1)

    @property
    def best(self) -> str | None:
        """The voted class name, or None before any reading."""
        return self.sums[0][0] if self.sums else None

    @property
    def confidence(self) -> float:
        """Mean probability of the voted class over the readings (0 before any)."""
        return min(1.0, self.sums[0][1] / self.count) if self.count else 0.0

    def alternatives(self, k: int) -> Alternatives:
        """The ``k`` best classes with their mean probabilities."""
        return tuple((n, min(1.0, s / self.count)) for n, s in self.sums[:k]) if self.count else ()


def reading_of(det: TileDetection) -> Alternatives:
    """A classified detection's vote: its alternatives, or its label alone if it has none."""
    if det.alternatives:
        return det.alternatives
    return ((det.label_name or NONE, det.confidence),)
