"""Checks that a hand, its situation and the rules fit together, with the exact reason."""

from __future__ import annotations

from agari.engine.context import WinContext
from agari.engine.dora import NORTH
from agari.engine.errors import InvalidHand, InvalidInput
from agari.engine.hand import SANMA_MISSING, Hand, check_players
from agari.engine.rules import Rules
from agari.engine.tiles import FIVE_KINDS, KINDS

_SUITS = "mps"


def check_situation(hand: Hand, ctx: WinContext, rules: Rules) -> None:
    """Reject a situation the hand or the rules make impossible.

    Raises:
        InvalidHand: 2m-8m or chi in 3-player, more red (or plain) fives than
            the set has, more than four copies counting indicators and
            set-aside norths.
        InvalidInput: riichi on an open hand, tenhou/chiihou/renhou after a
            call, rinshan without a kan, nagashi under rules without it, more
            ura than dora indicators.
    """
    if ctx.players == 3:
        check_players(hand, 3)
    if (ctx.riichi or ctx.double_riichi) and not hand.closed:
        raise InvalidInput("riichi needs a closed hand (closed kans are fine)")
    if ctx.tenhou or ctx.chiihou or ctx.renhou or ctx.rinshan or ctx.nagashi:
        _check_rare(hand, ctx, rules)
    held, reds = hand.held, hand.reds
    dora = ctx.dora
    # One dora indicator, not a five, not a fifth copy: nothing to count (the usual case).
    if ctx.ura or ctx.nuki or len(dora) > 1 or (dora and _indicator_counts(dora[0], held)):
        if len(ctx.ura) > len(dora):
            raise InvalidInput(
                f"{len(ctx.ura)} ura indicators but only {len(dora)} dora indicators"
            )
        held, reds = _with_indicators(held, reds, ctx)
    if not (held[4] or held[13] or held[22]):
        return  # no five at all: no red or plain five too many
    limits = rules.red_fives if ctx.players == 4 else rules.sanma_red_fives
    if (
        reds[0] > limits[0]
        or reds[1] > limits[1]
        or reds[2] > limits[2]
        or held[4] + limits[0] - reds[0] > 4
        or held[13] + limits[1] - reds[1] > 4
        or held[22] + limits[2] - reds[2] > 4
    ):
        _reject_fives(held, reds, limits, ctx.players, rules)


def _indicator_counts(indicator, held) -> bool:
    """Whether one indicator changes the copy or five counts (or is 2m-8m, checked later)."""
    kind = indicator.kind
    return held[kind] >= 4 or kind in FIVE_KINDS or kind in SANMA_MISSING


def _check_rare(hand: Hand, ctx: WinContext, rules: Rules) -> None:
    for name in ("tenhou", "chiihou", "renhou"):
        if getattr(ctx, name) and hand.melds:
            raise InvalidInput(f"{name} is impossible once a call or kan has been made")
    if ctx.rinshan and not any(m.is_kan for m in hand.melds) and not ctx.nuki:
        raise InvalidInput("rinshan needs a kan in the hand (or, in 3-player, a north set aside)")
    if ctx.nagashi and not rules.nagashi_mangan:
        raise InvalidInput(f"nagashi mangan is not played under the {rules.name!r} rules")


def _with_indicators(held, reds, ctx: WinContext):
    """Copies and red fives counting the indicators and set-aside norths (no fifth copy).

    Only the fives need the counts themselves (the red/plain check); for other
    kinds it is enough that no indicated kind goes past four copies.
    """
    extra = ctx.dora + ctx.ura if ctx.ura else ctx.dora
    kinds = [t.kind for t in extra]
    if ctx.players == 3:
        for t in extra:
            if t.kind in SANMA_MISSING:
                raise InvalidHand(f"3-player mahjong has no 2m-8m, got indicator {t}")
    nuki = ctx.nuki
    for kind in [NORTH, *kinds] if nuki else kinds:
        n = held[kind] + kinds.count(kind) + (nuki if kind == NORTH else 0)
        if n > 4:
            raise InvalidHand(
                f"{n} copies of {KINDS[kind]} counting the indicators "
                "and set-aside norths (a set has 4)"
            )
    if 4 in kinds or 13 in kinds or 22 in kinds:
        held = list(held)
        reds = list(reds)
        for t in extra:
            if t.kind in FIVE_KINDS:
                held[t.kind] += 1
                reds[t.kind // 9] += t.red
    return held, reds


def _reject_fives(held, reds, limits, players: int, rules: Rules) -> None:
    for i in range(3):
        if reds[i] > limits[i]:
            raise InvalidHand(
                f"{reds[i]} red 5{_SUITS[i]} but the {rules.name!r} rules' "
                f"{players}-player set has {limits[i]}"
            )
        plain = held[FIVE_KINDS[i]] - reds[i]
        if plain > 4 - limits[i]:
            raise InvalidHand(
                f"{plain} plain 5{_SUITS[i]} but the {rules.name!r} rules' {players}-player "
                f"set has {4 - limits[i]} (and {limits[i]} red): write a red five as 0{_SUITS[i]}"
            )
