"""Stability: turn a reading that may flicker into one that changes only when the table does.

A *key* is anything comparable that sums up the current reading (the tracker
uses the tracked tiles' ids and voted labels). `StabilityGate` promotes a key
to *stable* once it has stayed the same, with the scene settled, for
``hold_s`` seconds; the stable key then stays until another key has done the
same. Times are the stream's (seconds), so a video gives the same result
however fast it is processed.

>>> gate = StabilityGate(hold_s=0.3)
>>> [gate.update(t, key, settled=True) for t, key in [(0.0, "A"), (0.2, "A"), (0.3, "A")]]
[False, False, True]
>>> gate.stable, gate.version
('A', 1)
"""

from __future__ import annotations

from collections.abc import Hashable

from agari.engine.errors import InvalidInput


class StabilityGate:
    """Debounce of a reading key over time.

    Attributes:
        stable: the current stable key (``initial`` until a key has held).
        version: how many times the stable key changed.
    """

    def __init__(self, hold_s: float, *, initial: Hashable = ()) -> None:
        if hold_s < 0:
            raise InvalidInput(f"hold time must be ≥ 0 s, got {hold_s}")
        self.hold_s = hold_s
        self.stable: Hashable = initial
        self.version = 0
        self._candidate: Hashable = initial
        self._since: float | None = None

    def update(self, t: float, key: Hashable, *, settled: bool) -> bool:
        """Feed the key seen at stream time ``t``; True when it has just become stable.

        Args:
            t: stream time in seconds (non-decreasing).
            key: the reading now.
            settled: whether the scene is settled enough to trust the reading; an
                unsettled moment restarts the hold.
        """
        if key != self._candidate:
            self._candidate = key
            self._since = t if settled else None
        elif not settled:
            self._since = None
        elif self._since is None:
            self._since = t
        if self._since is None or t - self._since < self.hold_s or key == self.stable:
            return False
        self.stable = key
        self.version += 1
        return True

    def held_for(self, t: float) -> float:
        """Seconds the current candidate has held, settled (0 when it has not)."""
        return 0.0 if self._since is None else max(0.0, t - self._since)
