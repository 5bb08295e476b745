"""The result's JSON: the text the batch writes is exactly ``json.dumps`` of `to_json`."""

from __future__ import annotations

import json
import random

import pytest
from agari.engine.context import WinContext
from agari.engine.errors import AgariError
from agari.engine.random_hands import random_win
from agari.engine.scoring import score
from helpers import scored


def _same_text(result) -> None:
    assert result.to_json_text() == json.dumps(result.to_json(), ensure_ascii=False)


def test_json_text_equals_the_encoded_dict_on_random_hands():
    rng = random.Random(5)
    seen = 0
    for i in range(3000):
        hand, ctx = random_win(rng, players=3 if i % 3 == 0 else 4)
        try:
            result = score(hand, ctx)
        except AgariError:
            continue
        _same_text(result)
        _same_text(result)  # again, from the memos
        seen += 1
    assert seen > 2000


@pytest.mark.parametrize(
    ("hand", "fields"),
    [
        ("19m19p19s12345677z", {"tsumo": True}),  # thirteen orphans: one group
        ("1133m4477p0599s22z", {"riichi": True}),  # seven pairs with a red five
        ("123m78999s 111z 0555p", {}),  # red five in a meld, none concealed
        ("406m406p789s11222z", {"tsumo": True}),  # red fives in runs
        ("123m456p789s1122z", {"nagashi": True, "win": "1z"}),  # nagashi: no groups
    ],
)
def test_json_text_of_worked_hands(hand, fields):
    _same_text(scored(hand, **fields))


def test_nagashi_has_no_decomposition():
    result = score(scored("123m456p789s11222z").hand, WinContext(nagashi=True, tsumo=True))
    assert json.loads(result.to_json_text())["decomposition"] == []
