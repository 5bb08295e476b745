"""Reference for the whole-process speed check: score a JSONL batch with the PyPI `mahjong` package.

Reads the same request lines as ``agari score --batch`` (tenhou rules) and
prints one JSON line per request with han, fu, points and payments. It is the
"script using mahjong" that ``agari score --batch`` is timed against::

    time python bench/mahjong_batch.py requests.jsonl > /dev/null
    time agari score --batch requests.jsonl > /dev/null

Kept as plain as a user would write it: parse the HAND notation with
``TilesConverter``, build ``Meld`` and ``HandConfig``, call
``HandCalculator.estimate_hand_value``.
"""

from __future__ import annotations

import json
import re
import sys

from mahjong.constants import EAST
from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.meld import Meld

WINDS = "ESWN"
FLAGS = {
    "tsumo": "is_tsumo",
    "riichi": "is_riichi",
    "double_riichi": "is_daburu_riichi",
    "ippatsu": "is_ippatsu",
    "rinshan": "is_rinshan",
    "chankan": "is_chankan",
    "haitei": "is_haitei",
    "houtei": "is_houtei",
    "tenhou": "is_tenhou",
    "chiihou": "is_chiihou",
    "renhou": "is_renhou",
}
OPTIONS = {
    p: OptionalRules(
        has_open_tanyao=True,
        has_aka_dora=True,
        has_double_yakuman=False,
        kazoe_limit=HandConstants.KAZOE_LIMITED,
        is_three_player=p == 3,
    )
    for p in (3, 4)
}


class Ids:
    """Distinct 136 ids; red fives (0) are copy 0 of their kind, as in tenhou."""

    SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27}

    def __init__(self):
        self.used = set()

    def take(self, text: str) -> list[int]:
        out = []
        for digits, suit in re.findall(r"(\d+)([mpsz])", text):
            for d in digits:
                red = d == "0"
                kind = self.SUIT_BASE[suit] + (4 if red else int(d) - 1)
                copies = (0,) if red else ((1, 2, 3, 0) if kind in (4, 13, 22) else (0, 1, 2, 3))
                tid = next(kind * 4 + c for c in copies if kind * 4 + c not in self.used)
                self.used.add(tid)
                out.append(tid)
        return out


def _last_tile(group: str) -> str:
    """The last tile written in a compact group: its last digit and the suit after it."""
    suit_at = next(i for i in range(len(group) - 1, -1, -1) if group[i] in "mpsz")
    digit_at = max(i for i in range(suit_at) if group[i].isdigit())
    return group[digit_at] + next(c for c in group[digit_at:] if c in "mpsz")


def score(request: dict) -> dict:
    groups = request["hand"].split()
    ids = Ids()
    concealed = ids.take(groups[0])
    tiles, melds = list(concealed), []
    for g in groups[1:]:
        closed = g.startswith("[")
        mids = ids.take(g.strip("[]"))
        tiles.extend(mids)
        kinds = {t // 4 for t in mids}
        kind = Meld.KAN if len(mids) == 4 else (Meld.PON if len(kinds) == 1 else Meld.CHI)
        melds.append(Meld(kind, mids, opened=not closed))
    win_text = request.get("win") or _last_tile(groups[0])
    win_kind = Ids().take(win_text)[0] // 4
    win = next(t for t in concealed if t // 4 == win_kind)
    spare = Ids()
    dora = spare.take((request.get("dora") or "").replace(",", "").replace("0", "5"))
    ura = spare.take((request.get("ura") or "").replace(",", "").replace("0", "5"))
    players = request.get("players", 4)
    config = HandConfig(
        **{attr: request.get(flag, False) for flag, attr in FLAGS.items()},
        player_wind=EAST + WINDS.index(request.get("seat", "S")),
        round_wind=EAST + WINDS.index(request.get("round", "E")),
        kyoutaku_number=request.get("sticks", 0),
        tsumi_number=request.get("honba", 0),
        num_nuki_dora=request.get("nuki", 0),
        options=OPTIONS[players],
    )
    r = HandCalculator.estimate_hand_value(
        tiles, win, melds=melds, dora_indicators=dora, config=config, ura_dora_indicators=ura
    )
    if r.error:
        return {"error": r.error}
    return {"han": r.han, "fu": r.fu, "cost": r.cost, "yaku": [str(y) for y in r.yaku]}


def main() -> None:
    source = sys.stdin if sys.argv[1] == "-" else open(sys.argv[1], encoding="utf-8")  # noqa: SIM115 - read to the end of the run
    for line in source:
        try:
            result = score(json.loads(line))
        except Exception as exc:  # noqa: BLE001 - a reference script reports and goes on
            result = {"error": str(exc)}
        sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
