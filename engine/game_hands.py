"""Scoring a recorded win from its tiles, with the table's state filled in.

When a player records a win with the hand itself (``--hand``), the ledger knows
what a lone `agari score` would have to be told: the seat and round winds, the
honba and riichi sticks, the player count and whether the winner declared
riichi this hand. This module builds that `WinContext`, calls the engine's
scorer, and keeps only what the ledger pays out (han, fu, yakuman) plus the
hand and yaku names for the record.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from agari.engine.context import WinContext
from agari.engine.errors import InvalidInput
from agari.engine.game_events import WinClaim
from agari.engine.game_rules import TableRules
from agari.engine.tiles import Tile, parse_tiles

SITUATION_FLAGS = ("double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
                   "tenhou", "chiihou", "renhou")
"""Situational yaku a player may add to a recorded hand (riichi comes from ``--riichi``)."""


@dataclass(frozen=True)
class Situation:
    """What the table cannot know about a win: the winning tile, dora, flags, nuki."""

    win: str | None = None
    dora: tuple[str, ...] = ()
    ura: tuple[str, ...] = ()
    nuki: int = 0
    flags: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        unknown = set(self.flags) - set(SITUATION_FLAGS)
        if unknown:
            raise InvalidInput(f"unknown situation flag(s): {', '.join(sorted(unknown))}")


def claim_from_hand(
    text: str,
    *,
    seat: int,
    tsumo: bool,
    riichi: bool,
    state: Any,
    setup: Any,
    situation: Situation | None = None,
    pao: int | None = None,
) -> WinClaim:
    """Score ``text`` (the HAND grammar of `agari score`) as ``seat``'s win in ``state``.

    Args:
        text: concealed tiles then melds, e.g. ``"123m456p789s11z 777z"``.
        seat: the winner's starting seat.
        tsumo: self-drawn.
        riichi: the winner declared riichi this hand.
        state: the `agari.engine.game.GameState` before the hand's result.
        setup: the `agari.engine.game.GameSetup` (rules, player count).
        situation: winning tile, dora, flags.
        pao: seat liable for the hand; it must hold a pao yakuman of the table rules.

    Raises:
        NotAgari, NoYaku, InvalidHand, InvalidInput: as `agari score` would.
    """
    from agari.engine.hand import parse_hand

    score = _scorer()
    situation = situation or Situation()
    ctx = WinContext(
        win=Tile.parse(situation.win) if situation.win else None,
        tsumo=tsumo, riichi=riichi or "double_riichi" in situation.flags,
        seat_wind=state.seat_wind(seat), round_wind=state.round_wind % 4,
        dora=_tiles(situation.dora), ura=_tiles(situation.ura), nuki=situation.nuki,
        honba=state.honba, sticks=state.sticks, players=setup.n,
        **{flag: True for flag in situation.flags},
    )
    result = score(parse_hand(text, players=setup.n), ctx, setup.hand_rules())
    pao_units = _pao_units(result.yaku, setup.table) if pao is not None else 1
    return WinClaim(seat=seat, han=result.han, fu=result.fu, yakuman=result.yakuman, pao=pao,
                    pao_yakuman=pao_units, hand=text, yaku=tuple(y.name for y in result.yaku))


def _scorer():
    """The engine's ``score`` (re-exported by `agari.engine` once the scorer lands there)."""
    try:
        from agari.engine import score
    except ImportError:
        from agari.engine.scoring import score
    return score


def _tiles(texts: Sequence[str]) -> tuple[Tile, ...]:
    return tuple(t for text in texts for t in parse_tiles(text))


def _pao_units(yaku: Sequence[Any], table: TableRules) -> int:
    """Yakuman units of the hand's pao yakuman (daisuushii may be double)."""
    units = sum(y.yakuman for y in yaku if _pao_name(y.name) in table.pao)
    if not units:
        names = ", ".join(table.pao) or "none"
        raise InvalidInput(f"pao needs one of these yakuman in the hand: {names}")
    return units


def _pao_name(name: str) -> str:
    return name.lower().replace(" ", "").replace("_", "").replace("-", "")


def situation_from_options(options: Mapping[str, Any]) -> Situation:
    """A `Situation` from CLI-style options (``win``, ``dora``, ``ura``, ``nuki`` and flags)."""
    flags = frozenset(name for name in SITUATION_FLAGS if options.get(name))
    return Situation(win=options.get("win"), dora=tuple(options.get("dora") or ()),
                     ura=tuple(options.get("ura") or ()), nuki=int(options.get("nuki") or 0),
                     flags=flags)
