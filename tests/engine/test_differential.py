"""Differential test against the PyPI `mahjong` package (v2) under tenhou rules.

Random valid winning hands (4- and 3-player, open and closed, kans, red
fives, nuki) with random situations are scored by both engines; han, fu (not
for yakuman), yakuman count, the set of yaku, every payment with honba and
the winner's total must agree, and so must "no yaku". `mahjong` is checked
against real tenhou records by its authors, so a disagreement is a bug in one
of the two: see docs/rules.md ("Differences from the mahjong package") for the
ones that are theirs. None are known at present, so none are excused here.

The default run covers a few thousand hands; ``-m slow`` runs 60,000.
"""

from __future__ import annotations

import random

import pytest
from agari.engine.errors import AgariError
from agari.engine.random_hands import random_win
from agari.engine.scoring import score
from mahjong_ref import mahjong_score

DEFAULT_HANDS = 5000
SLOW_HANDS = 60000


def ours(hand, ctx) -> dict:
    """agari's result in the adapter's vocabulary (north dora folded into dora, as mahjong does)."""
    try:
        r = score(hand, ctx)
    except AgariError as err:
        return {"error": err.code}
    yaku = sorted({"dora" if y.name == "nuki_dora" else y.name for y in r.yaku})
    return {
        "han": r.han,
        "fu": r.fu,
        "yakuman": r.yakuman,
        "yaku": yaku,
        "payments": r.payments,
        "total": r.total,
    }


def compare(n: int, seed: int) -> tuple[int, list[str]]:
    """(agreements, descriptions of the disagreements) over ``n`` random hands."""
    rng = random.Random(seed)
    agree, problems = 0, []
    for i in range(n):
        hand, ctx = random_win(rng, players=3 if i % 3 == 0 else 4)
        a, b = ours(hand, ctx), mahjong_score(hand, ctx)
        if "yaku" in b:
            b["yaku"] = sorted(set(b["yaku"]))
        if a.get("yakuman") and b.get("yakuman"):
            a["fu"] = b["fu"] = None  # fu do not matter for a yakuman
        if a == b:
            agree += 1
        else:
            problems.append(f"{hand} {ctx}\n  agari:   {a}\n  mahjong: {b}")
    return agree, problems


def test_agrees_with_mahjong_on_random_hands():
    agree, problems = compare(DEFAULT_HANDS, seed=2024)
    assert not problems, f"{len(problems)} disagreements, first:\n" + "\n".join(problems[:5])
    assert agree == DEFAULT_HANDS


@pytest.mark.slow
def test_agrees_with_mahjong_on_many_random_hands():
    agree, problems = compare(SLOW_HANDS, seed=7)
    assert not problems, f"{len(problems)} disagreements, first:\n" + "\n".join(problems[:5])
