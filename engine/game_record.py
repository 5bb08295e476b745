"""Turning what players say at the table into a `Win` event.

"Carol ron from Bob, 3 han 30 fu, Carol and Dave in riichi" arrives as names
and short value strings (the CLI's words); `build_win` resolves the names
against the game (names, seat numbers or this hand's seat winds), reads each
winner's value once (``NAME=3/30``, ``--han/--fu``, ``--yakuman`` or the hand's
tiles scored by the engine) and checks that nothing is said twice.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agari.engine.errors import InvalidInput
from agari.engine.game import seat_of
from agari.engine.game_events import Win, WinClaim, parse_win_value
from agari.engine.game_hands import claim_from_hand, situation_from_options

MANGAN_HAN = 5


@dataclass(frozen=True)
class WinRequest:
    """A win as the players describe it (names, not seats)."""

    winners: tuple[str, ...]
    """``NAME`` or ``NAME=VALUE`` (value as in `parse_win_value`)."""
    from_player: str | None = None
    tsumo: bool = False
    han: int | None = None
    fu: int | None = None
    yakuman: int | None = None
    hands: tuple[str, ...] = ()
    """Hands in winner order, scored by the engine."""
    riichi: tuple[str, ...] = ()
    pao: tuple[str, ...] = ()
    """``LIABLE`` (one winner) or ``WINNER=LIABLE``."""
    situation: Mapping[str, Any] = field(default_factory=dict)


def build_win(stored: Any, request: WinRequest) -> Win:
    """The `Win` event ``request`` describes, in the game ``stored`` (a `StoredGame`)."""
    setup, state = stored.setup, stored.log.state

    def seat(ref: str) -> int:
        return seat_of(setup, state, ref)

    specs = [_split_spec(text) for text in request.winners]
    if not specs:
        raise InvalidInput("name the winner")
    single = len(specs) == 1
    direct = any(v is not None for v in (request.han, request.fu, request.yakuman))
    if direct and not single:
        raise InvalidInput("with several winners give each value as NAME=3/30 (or NAME=yakuman)")
    if len(request.hands) > len(specs):
        raise InvalidInput(f"{len(request.hands)} hands for {len(specs)} winner(s)")
    situation = situation_from_options(request.situation)
    if not request.hands and (situation.win or situation.dora or situation.ura
                              or situation.nuki or situation.flags):
        raise InvalidInput("--win, --dora, --ura, --nuki and situation flags need --hand")
    if situation.flags and not single:
        raise InvalidInput("situation flags (ippatsu, rinshan…) need a single winner")
    riichi = tuple(seat(r) for r in request.riichi)
    pao = _pao_map(request.pao, specs, seat)
    claims = []
    for i, (ref, value) in enumerate(specs):
        winner = seat(ref)
        hand = request.hands[i] if i < len(request.hands) else None
        given = [value is not None, single and direct, hand is not None]
        if sum(given) != 1:
            raise InvalidInput(
                f"give {setup.players[winner]}'s hand value once: NAME=3/30, --han/--fu, "
                "--yakuman or --hand")
        if hand is not None:
            claim = claim_from_hand(hand, seat=winner, tsumo=request.tsumo,
                                    riichi=winner in riichi, state=state, setup=setup,
                                    situation=situation, pao=pao.get(winner))
        else:
            numbers = parse_win_value(value) if value is not None else _direct(request)
            claim = WinClaim(seat=winner, pao=pao.get(winner), **numbers)
        claims.append(claim)
    from_seat = seat(request.from_player) if request.from_player else None
    return Win(claims=tuple(claims), tsumo=request.tsumo, from_seat=from_seat, riichi=riichi)


def _split_spec(text: str) -> tuple[str, str | None]:
    for sep in ("=", ":"):
        if sep in text:
            name, value = text.split(sep, 1)
            return name.strip(), value.strip()
    return text.strip(), None


def _direct(request: WinRequest) -> dict[str, int]:
    if request.yakuman:
        return {"yakuman": request.yakuman}
    han = request.han or 0
    if han < MANGAN_HAN and not request.fu:
        raise InvalidInput("below 5 han give --fu too (or --yakuman)")
    return {"han": han, "fu": request.fu or 0}


def _pao_map(items: tuple[str, ...], specs: list[tuple[str, str | None]], seat: Any) -> dict:
    out: dict[int, int] = {}
    for item in items:
        winner, liable = _split_spec(item)
        if liable is None:
            if len(specs) != 1:
                raise InvalidInput("with several winners write --pao WINNER=LIABLE")
            winner, liable = specs[0][0], winner
        out[seat(winner)] = seat(liable)
    return out
