"""Small factories for engine tests: score a hand written as in ``agari score``."""

from __future__ import annotations

from agari.engine.requests import parse_request
from agari.engine.scoring import score


def scored(hand: str, **fields):
    """Score ``hand`` with request fields (``tsumo=True``, ``seat="E"``, ``rules="wrc"``…)."""
    return score(*parse_request({"hand": hand, **fields}))


def yaku_of(result) -> dict[str, int]:
    """name → han of every row of a result (dora rows included)."""
    return {y.name: y.han for y in result.yaku}
