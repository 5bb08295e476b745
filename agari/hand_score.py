"""Scoring the hand a photo was read as: on its winning tile, on each candidate, or each wait."""

from __future__ import annotations

from dataclasses import dataclass

from agari.engine.errors import AgariError, InvalidHand, NotAgari
from agari.engine.hand import Hand
from agari.engine.result import ScoreResult
from agari.engine.scoring import score
from agari.engine.tiles import TILES, Tile
from agari.vision.layout_hand import HandLayout
from agari.vision.reading_checks import Situation, context_for


@dataclass(frozen=True, slots=True)
class WinOption:
    """The hand won on one tile: a candidate winning tile, or one wait of a 13-tile hand."""

    tile: Tile
    result: ScoreResult | None = None
    error: AgariError | None = None

    def to_json(self) -> dict:
        return {"tile": str(self.tile),
                "score": self.result.to_json() if self.result is not None else None,
                "error": error_json(self.error)}


def error_json(err: AgariError | None) -> dict | None:
    """An error as the photo JSON contract gives it: code, message and simple details."""
    if err is None:
        return None
    return {"code": err.code, "message": err.message,
            **{k: v for k, v in err.details.items() if isinstance(v, (str, int, list))}}


@dataclass(frozen=True, slots=True)
class Scored:
    """The read hand's score, or why it has none, with the candidates or waits scored."""

    score: ScoreResult | None = None
    error: AgariError | None = None
    win_options: tuple[WinOption, ...] = ()
    waits: tuple[WinOption, ...] = ()
    notes: tuple[str, ...] = ()


def score_layout(layout: HandLayout, situation: Situation) -> Scored:
    """Score the read hand: on its winning tile, on each candidate, or each wait."""
    try:
        hand = layout.hand()
    except InvalidHand as err:
        return Scored(error=err)
    win = layout.win if layout.win is not None else situation.win
    if win is not None:
        return _one(hand, win, layout, situation)
    if hand.size == 13:
        return _waits(hand, layout, situation)
    options = tuple(_option(hand, t, layout, situation)
                    for t in dict.fromkeys(TILES[t.kind] for t in layout.concealed))
    scored = [o for o in options if o.result is not None]
    if not scored:
        return Scored(error=options[0].error if options else InvalidHand("no concealed tile"),
                       win_options=options)
    best = max(scored, key=lambda o: (o.result.points, o.result.han, o.result.fu))
    note = ("the photo does not show which tile won: scored the best of "
            f"{len(scored)} candidate(s); give --win to choose")
    return Scored(score=best.result, win_options=options, notes=(note,))


def _one(hand: Hand, win: Tile, layout: HandLayout, situation: Situation) -> Scored:
    option = _option(hand, win, layout, situation)
    return Scored(score=option.result, error=option.error)


def _option(hand: Hand, win: Tile, layout: HandLayout, situation: Situation) -> WinOption:
    try:
        ctx = context_for(win, layout.dora, layout.ura, situation)
        return WinOption(win, score(hand, ctx, situation.rules))
    except AgariError as err:
        return WinOption(win, error=err)


def _waits(hand: Hand, layout: HandLayout, situation: Situation) -> Scored:
    from agari.engine.waits import score_each_wait

    ctx = context_for(None, layout.dora, layout.ura, situation)
    each = score_each_wait(hand, ctx, situation.rules)
    if not each:
        return Scored(error=NotAgari(f"{layout.hand_text}: 13 tiles, not tenpai"))
    waits = tuple(WinOption(t, r if isinstance(r, ScoreResult) else None,
                            r if isinstance(r, AgariError) else None) for t, r in each.items())
    return Scored(waits=waits, notes=("13 tiles: a waiting hand; each wait is scored",))


__all__ = ["Scored", "WinOption", "error_json", "score_layout"]
