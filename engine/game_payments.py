"""Who pays whom when a hand ends: wins, draws, abortive draws and chombo.

Hand values come from the engine's `hand_points` (limits, honba per payer and
the 3-player tsumo variants all live there); this module only decides who pays
which of those amounts: the discarder, every other player, the player liable
for pao (包), the noten players of a draw, a chombo offender.

Tenhou's rules by default: double ron with honba and sticks to the winner
nearest the discarder, a triple ron is an abortive draw (三家和), pao pays the
whole hand (tsumo: all from the liable player; ron: half each, honba from the
liable player), nagashi mangan replaces tenpai payments and is paid without
honba.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from agari.engine.errors import InvalidInput
from agari.engine.game_events import ABORT_NAMES_JA, Abort, Chombo, Draw, Win, WinClaim
from agari.engine.game_rules import MANGAN_BASE, RIICHI_STICK, TableRules
from agari.engine.points import hand_points
from agari.engine.rules import Rules

NAGASHI_HAN = 5
"""Nagashi mangan is paid as a 5-han (mangan) tsumo."""
_FU_FOR_LIMIT = 30  # any fu: a 5-han hand is a mangan whatever its fu


@dataclass(frozen=True)
class Outcome:
    """Points moved by one hand and what it means for the flow."""

    deltas: tuple[int, ...]
    kind: str
    """``win``, ``draw``, ``abort`` or ``chombo`` (a triple ron can turn into ``abort``)."""
    renchan: bool
    summary: str
    sticks_added: int = 0
    sticks_taken: bool = False
    penalties: tuple[int, ...] = ()
    notes: tuple[str, ...] = ()


def hand_deltas(state, event, table: TableRules, rules: Rules) -> Outcome:  # noqa: ANN001 - GameState
    """Pay out ``event`` on ``state`` (a `agari.engine.game.GameState`)."""
    n = state.players
    riichi = _riichi(state, getattr(event, "riichi", ()), n)
    if isinstance(event, Win):
        out = _win(state, event, table, rules, pot=state.sticks + len(riichi))
    elif isinstance(event, Draw):
        out = _draw(state, event, table, rules)
    elif isinstance(event, Abort):
        out = _abort(state, event, table)
    elif isinstance(event, Chombo):
        return _chombo(state, event, table)
    else:  # pragma: no cover - EndGame is handled by the caller
        raise InvalidInput(f"cannot pay out {type(event).__name__}")
    deltas = tuple(d - RIICHI_STICK * (seat in riichi) for seat, d in enumerate(out.deltas))
    return Outcome(deltas=deltas, kind=out.kind, renchan=out.renchan, summary=out.summary,
                   sticks_added=len(riichi), sticks_taken=out.sticks_taken,
                   penalties=(0,) * n, notes=out.notes)


def _riichi(state, seats: Sequence[int], n: int) -> frozenset[int]:  # noqa: ANN001
    _check_seats(seats, n, "riichi")
    for seat in seats:
        if state.scores[seat] < RIICHI_STICK:
            raise InvalidInput(
                f"seat {seat + 1} has {state.scores[seat]} points: riichi needs {RIICHI_STICK}")
    return frozenset(seats)


def _check_seats(seats: Sequence[int], n: int, what: str) -> None:
    if len(set(seats)) != len(seats):
        raise InvalidInput(f"{what}: a player is listed twice")
    for seat in seats:
        if not (isinstance(seat, int) and 0 <= seat < n):
            raise InvalidInput(f"{what}: no seat {seat!r} at a {n}-player table")


# -- wins -----------------------------------------------------------------


def _win(state, event: Win, table: TableRules, rules: Rules, *, pot: int) -> Outcome:  # noqa: ANN001
    """Pay a win; ``pot`` is every riichi stick on the table, this hand's included."""
    n = state.players
    seats = [c.seat for c in event.claims]
    _check_seats(seats, n, "winner")
    for claim in event.claims:
        _check_pao(claim, event, table, n)
    if event.tsumo:
        return _tsumo(state, event.claims[0], table, rules, pot)
    if not (isinstance(event.from_seat, int) and 0 <= event.from_seat < n):
        raise InvalidInput(f"no seat {event.from_seat!r} to ron from")
    if event.from_seat in seats:
        raise InvalidInput("a player cannot ron their own discard (use --tsumo)")
    # Nearest winner first, counting from the discarder in turn order (上家取り).
    claims = sorted(event.claims, key=lambda c: (c.seat - event.from_seat) % n)
    notes: list[str] = []
    if len(claims) > 1 and table.multiple_ron == "head-bump":
        notes.append("head-bump (頭ハネ): only the nearest winner scores")
        claims = claims[:1]
    elif len(claims) == 3 and table.multiple_ron == "double":
        return Outcome(deltas=(0,) * n, kind="abort", renchan=table.abort_dealer == "repeat",
                       summary="triple ron: abortive draw (三家和)",
                       notes=("these rules allow at most a double ron",))
    return _rons(state, claims, event.from_seat, table, rules, pot, notes)


def _check_pao(claim: WinClaim, event: Win, table: TableRules, n: int) -> None:
    if claim.pao is None:
        return
    if not table.pao:
        raise InvalidInput("these table rules have no pao (包)")
    if not (isinstance(claim.pao, int) and 0 <= claim.pao < n) or claim.pao == claim.seat:
        raise InvalidInput("pao must name another player at the table")
    if table.pao_scope == "yakuman" and not 1 <= claim.pao_yakuman <= claim.yakuman:
        raise InvalidInput("pao covers between 1 and all of the hand's yakuman")


def _rons(state, claims, from_seat, table, rules, pot, notes) -> Outcome:  # noqa: ANN001
    n = state.players
    deltas = [0] * n
    parts = []
    for i, claim in enumerate(claims):
        honba = state.honba if (i == 0 or table.honba_multi_ron == "each") else 0
        payers = _ron_payers(state, claim, from_seat, honba, table, rules)
        for seat, amount in payers.items():
            deltas[seat] -= amount
            deltas[claim.seat] += amount
        parts.append(_describe(claim))
    deltas[claims[0].seat] += pot * RIICHI_STICK
    renchan = any(c.seat == state.dealer for c in claims)
    return Outcome(deltas=tuple(deltas), kind="win", renchan=renchan,
                   summary=", ".join(parts) + f" ron from {{p{from_seat}}}",
                   sticks_taken=True, notes=tuple(notes))


def _ron_payers(state, claim: WinClaim, from_seat: int, honba: int, table, rules) -> dict[int, int]:  # noqa: ANN001
    """Amounts each seat pays to one ron winner (honba included, sticks not)."""
    dealer = claim.seat == state.dealer
    pays: dict[int, int] = {}
    whole, pao_part = _split_pao(claim, table)
    if whole:
        p = hand_points(whole.han, whole.fu, whole.yakuman, dealer=dealer, tsumo=False,
                        rules=rules, honba=honba, players=state.players)
        pays[from_seat] = p.ron
        honba = 0
    if pao_part:
        value = _ron_value(pao_part, dealer, 0, rules, state.players)
        honba_value = _ron_value(pao_part, dealer, honba, rules, state.players) - value
        half = value // 2
        # 折半: the discarder and the liable player share the hand; the honba are the liable's.
        pays[from_seat] = pays.get(from_seat, 0) + value - half
        pays[claim.pao] = pays.get(claim.pao, 0) + half + honba_value
    return pays


def _tsumo(state, claim: WinClaim, table: TableRules, rules: Rules, pot: int) -> Outcome:  # noqa: ANN001
    n = state.players
    dealer = claim.seat == state.dealer
    deltas = [0] * n
    whole, pao_part = _split_pao(claim, table)
    honba = state.honba
    if whole:
        p = hand_points(whole.han, whole.fu, whole.yakuman, dealer=dealer, tsumo=True,
                        rules=rules, honba=honba, players=n)
        for seat in range(n):
            if seat != claim.seat:
                amount = p.dealer if (seat == state.dealer and not dealer) else p.non_dealer
                deltas[seat] -= amount
                deltas[claim.seat] += amount
        honba = 0
    if pao_part:
        # 責任払い: the liable player pays the whole hand as if dealt in, honba included.
        amount = _ron_value(pao_part, dealer, honba, rules, n)
        deltas[claim.pao] -= amount
        deltas[claim.seat] += amount
    deltas[claim.seat] += pot * RIICHI_STICK
    return Outcome(deltas=tuple(deltas), kind="win", renchan=dealer,
                   summary=_describe(claim) + " tsumo", sticks_taken=True)


def _split_pao(claim: WinClaim, table: TableRules) -> tuple[WinClaim | None, WinClaim | None]:
    """(part paid normally, part paid under pao)."""
    if claim.pao is None:
        return claim, None
    if table.pao_scope == "hand" or claim.pao_yakuman >= claim.yakuman:
        return None, claim
    rest = WinClaim(seat=claim.seat, yakuman=claim.yakuman - claim.pao_yakuman)
    covered = WinClaim(seat=claim.seat, yakuman=claim.pao_yakuman, pao=claim.pao)
    return rest, covered


def _ron_value(claim: WinClaim, dealer: bool, honba: int, rules: Rules, players: int) -> int:
    return hand_points(claim.han, claim.fu, claim.yakuman, dealer=dealer, tsumo=False,
                       rules=rules, honba=honba, players=players).ron


def _describe(claim: WinClaim) -> str:
    if claim.yakuman:
        value = "yakuman" if claim.yakuman == 1 else f"{claim.yakuman}x yakuman"
    else:
        value = f"{claim.han} han {claim.fu} fu" if claim.han < 5 else f"{claim.han} han"
    pao = f", pao {{p{claim.pao}}}" if claim.pao is not None else ""
    return f"{{p{claim.seat}}} ({value}{pao})"


# -- draws, aborts, chombo ----------------------------------------------------


def _draw(state, event: Draw, table: TableRules, rules: Rules) -> Outcome:  # noqa: ANN001
    n = state.players
    _check_seats(event.tenpai, n, "tenpai")
    _check_seats(event.nagashi, n, "nagashi")
    notes: list[str] = []
    tenpai = set(event.tenpai)
    missing = set(event.riichi) - tenpai
    if missing:
        tenpai |= missing
        notes.append("riichi players count as tenpai")
    if event.nagashi and not table.nagashi:
        raise InvalidInput("these table rules have no nagashi mangan")
    deltas = [0] * n
    if event.nagashi:
        for seat in event.nagashi:
            p = hand_points(NAGASHI_HAN, _FU_FOR_LIMIT, dealer=seat == state.dealer, tsumo=True,
                            rules=rules, players=n)
            for payer in range(n):
                if payer != seat:
                    from_dealer = payer == state.dealer and seat != state.dealer
                    amount = p.dealer if from_dealer else p.non_dealer
                    deltas[payer] -= amount
                    deltas[seat] += amount
        summary = "nagashi mangan: " + ", ".join(f"{{p{s}}}" for s in event.nagashi)
    else:
        _tenpai_payments(deltas, tenpai, table.tenpai_pool)
        summary = ("draw, tenpai: " + ", ".join(f"{{p{s}}}" for s in sorted(tenpai))
                   if tenpai else "draw, all noten")
    return Outcome(deltas=tuple(deltas), kind="draw", renchan=state.dealer in tenpai,
                   summary=summary, notes=tuple(notes))


def _tenpai_payments(deltas: list[int], tenpai: set[int], pool: int) -> None:
    """ノーテン罰符: the pool is split between tenpai and noten players."""
    n = len(deltas)
    if not 0 < len(tenpai) < n:
        return
    gain, loss = pool // len(tenpai), pool // (n - len(tenpai))
    for seat in range(n):
        deltas[seat] += gain if seat in tenpai else -loss


def _abort(state, event: Abort, table: TableRules) -> Outcome:  # noqa: ANN001
    if not table.abortive_draws:
        raise InvalidInput("these table rules have no abortive draws")
    name = ABORT_NAMES_JA[event.reason]
    return Outcome(deltas=(0,) * state.players, kind="abort",
                   renchan=table.abort_dealer == "repeat",
                   summary=f"abortive draw: {event.reason} ({name})")


def _chombo(state, event: Chombo, table: TableRules) -> Outcome:  # noqa: ANN001
    n = state.players
    _check_seats((event.seat,), n, "chombo")
    deltas = [0] * n
    penalties = [0] * n
    if table.chombo == "none":
        raise InvalidInput("these table rules have no chombo penalty")
    if table.chombo == "mangan":
        # A mangan tsumo in reverse: a dealer pays 2×base to each; a non-dealer
        # 2×base to the dealer and 1×base to the others.
        for seat in range(n):
            if seat != event.seat:
                amount = 2 * MANGAN_BASE if state.dealer in (seat, event.seat) else MANGAN_BASE
                deltas[seat] += amount
                deltas[event.seat] -= amount
        summary = f"chombo by {{p{event.seat}}} (mangan payment)"
    else:
        penalties[event.seat] = table.chombo_points
        summary = f"chombo by {{p{event.seat}}} (-{table.chombo_points} at settlement)"
    return Outcome(deltas=tuple(deltas), kind="chombo", renchan=True, summary=summary,
                   penalties=tuple(penalties))
