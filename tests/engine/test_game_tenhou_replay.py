"""Replay real tenhou games hand by hand and compare every total with the record.

The records (tests/engine/data/tenhou, see its README) give, for each hand, the
scores before it (``INIT ten``), the accepted riichi, the result (``AGARI`` /
``RYUUKYOKU``) and the score changes (``sc``); the last tag carries the final
scores and results (``owari``). The ledger is fed only the result a player
would record at the table (winner, discarder, han/fu or yakuman, riichi, pao,
tenpai players) and must reproduce every total, the flow (hand, honba, sticks)
and the final settlement.
"""

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from agari.engine.game import GameSetup, play
from agari.engine.game_events import Abort, Draw, Win, WinClaim
from agari.engine.game_rules import TableRules

DATA = Path(__file__).parent / "data" / "tenhou"
ABORTS = {"yao9": "kyuushu", "kaze4": "suufon", "kan4": "suukan", "reach4": "suucha-riichi",
          "ron3": "sanchahou"}
SANMA_FLAG, SOUTH_FLAG = 0x10, 0x08


def ints(text):
    return [int(float(v)) if "." not in v else float(v) for v in text.split(",")]


def read_game(path):
    """(setup, hands): each hand is (INIT attrs, event, result tags)."""
    root = ET.parse(path).getroot()
    kind = int(root.find("GO").get("type"))
    players = 3 if kind & SANMA_FLAG else 4
    table = TableRules.preset("tenhou", players=players).with_options({
        "length": "south" if kind & SOUTH_FLAG else "east",
        "rounding": "half-up", "all_last_stop": "win",   # these logs predate both changes
    })
    setup = GameSetup(players=tuple("ABCD"[:players]), table=table)
    hands, init, riichi, results = [], None, [], []
    for tag in root:
        if tag.tag == "INIT":
            if results:
                hands.append((init, to_event(results, riichi, players), results))
            init, riichi, results = tag.attrib, [], []
        elif tag.tag == "REACH" and tag.get("step") == "2":
            riichi.append(int(tag.get("who")))
        elif tag.tag in ("AGARI", "RYUUKYOKU"):
            results.append(tag)
    hands.append((init, to_event(results, riichi, players), results))
    return setup, hands


def to_event(results, riichi, players):
    first = results[0]
    if first.tag == "RYUUKYOKU":
        if first.get("type") in ABORTS:
            return Abort(reason=ABORTS[first.get("type")], riichi=tuple(riichi))
        tenpai = tuple(s for s in range(players) if first.get(f"hai{s}") is not None)
        return Draw(tenpai=tenpai, riichi=tuple(riichi))
    claims = []
    for tag in results:
        yaku = ints(tag.get("yaku")) if tag.get("yaku") else []
        yakuman = len(ints(tag.get("yakuman"))) if tag.get("yakuman") else 0
        pao = int(tag.get("paoWho")) if tag.get("paoWho") is not None else None
        claims.append(WinClaim(seat=int(tag.get("who")), han=0 if yakuman else sum(yaku[1::2]),
                               fu=ints(tag.get("ten"))[0], yakuman=yakuman, pao=pao))
    who, frm = int(first.get("who")), int(first.get("fromWho"))
    tsumo = who == frm
    return Win(claims=tuple(claims), tsumo=tsumo, from_seat=None if tsumo else frm,
               riichi=tuple(riichi))


def scores_of(attr, players):
    return tuple(v * 100 for v in ints(attr)[:players])


@pytest.mark.parametrize("path", sorted(DATA.glob("*.xml")), ids=lambda p: p.stem)
def test_replay_matches_the_record_after_every_hand(path):
    setup, hands = read_game(path)
    n = setup.n
    log = play(setup, [event for _, event, _ in hands])
    assert len(log.records) == len(hands)
    for record, (init, event, results) in zip(log.records, hands, strict=True):
        kyoku, honba, sticks = ints(init["seed"])[:3]
        before = record.before
        assert (before.kyoku, before.honba, before.sticks) == (kyoku, honba, sticks)
        assert before.scores == scores_of(init["ten"], n)
        # tenhou's sc: scores after riichi sticks, then the hand's changes
        changes = [0] * n
        for tag in results:
            sc = ints(tag.get("sc"))
            for seat in range(n):
                changes[seat] += sc[2 * seat + 1] * 100
        riichi = getattr(event, "riichi", ())
        paid = tuple(d + 1000 * (seat in riichi) for seat, d in enumerate(record.deltas))
        assert paid == tuple(changes), f"{before.label}: {record.summary}"
    # the game ends where tenhou ended it, with tenhou's final scores and results
    assert log.state.finished
    owari = ints(hands[-1][2][-1].get("owari"))
    assert log.final_scores == tuple(v * 100 for v in owari[0 : 2 * n : 2])
    results = [row.result for row in log.settlement().rows]
    assert results == [float(v) for v in owari[1 : 2 * n : 2]]
