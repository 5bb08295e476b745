"""Tenpai (聴牌) and shanten (向聴) of a hand, and the score of each wait.

>>> from agari.engine.hand import parse_hand
>>> [str(t) for t in waits(parse_hand("123m456p789s1122z"))]
['1z', '2z']
>>> shanten(parse_hand("123m456p789s1234z"))
2
"""

from __future__ import annotations

from agari.engine.context import WinContext
from agari.engine.errors import AgariError, InvalidHand
from agari.engine.hand import Hand
from agari.engine.result import ScoreResult
from agari.engine.rules import Rules
from agari.engine.scoring import score
from agari.engine.shapes import waits_of
from agari.engine.tiles import FIVE_KINDS, TILES, Tile


def waits(hand: Hand) -> list[Tile]:
    """Tiles that would complete a 13-tile hand (any winning shape), by kind.

    A kind the hand already holds four of is not a wait.

    Raises:
        InvalidHand: the hand does not have 13 tiles (counting each meld as 3).
    """
    if hand.size != 13:
        raise InvalidHand(f"waits need a 13-tile hand, got {hand.size}")
    return [TILES[k] for k in waits_of(hand.counts, len(hand.melds), hand.held)]


def shanten(hand: Hand) -> int:
    """Tiles away from tenpai: 0 tenpai, -1 complete (13 or 14 tiles, melds counted)."""
    from agari.engine.shanten import shanten_of  # not needed to score, so not loaded for it

    return shanten_of(hand.counts, len(hand.melds))


def score_each_wait(
    hand: Hand, ctx: WinContext | None = None, rules: Rules | None = None
) -> dict[Tile, ScoreResult | AgariError]:
    """For a 13-tile hand, the score of winning on each wait (or why it scores nothing).

    ``ctx.win`` is ignored: each wait in turn is the winning tile. A wait whose
    win has no yaku maps to the `NoYaku` error instead of a result.
    """
    ctx = ctx if ctx is not None else WinContext()
    rules = rules if rules is not None else Rules.preset("tenhou")
    out: dict[Tile, ScoreResult | AgariError] = {}
    for tile in waits(hand):
        tile = _physical(tile, hand, ctx, rules)
        try:
            out[tile.plain] = score(
                Hand(hand.concealed + (tile,), hand.melds), ctx.with_win(tile), rules
            )
        except AgariError as err:
            out[tile.plain] = err
    return out


def _physical(tile: Tile, hand: Hand, ctx: WinContext, rules: Rules) -> Tile:
    """The copy that can still be drawn: a red five once the plain ones are all held."""
    if tile.kind not in FIVE_KINDS:
        return tile
    suit = tile.kind // 9
    reds_in_set = rules.red_limit(ctx.players)[suit]
    plain_held = hand.held[tile.kind] - hand.reds[suit]
    if plain_held >= 4 - reds_in_set and hand.reds[suit] < reds_in_set:
        return Tile(tile.kind, red=True)
    return tile
