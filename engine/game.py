"""A whole game at the table (半荘): setup, running state and the flow between hands.

The game is a pure fold over its events: `play(setup, events)` replays every
recorded hand from the starting points and returns one `HandRecord` per event
plus the state after the last. Nothing here touches a file; `ledger` stores
the events and calls this to know the scores.

Seats are starting seats, 0-based (seat 0 deals East 1). ``kyoku`` counts hands
from East 1 = 0: the round wind is ``kyoku // players`` and the dealer
``kyoku % players``.

>>> setup = GameSetup(players=("A", "B", "C", "D"))
>>> from agari.engine.game_events import Draw
>>> log = play(setup, [Draw(tenpai=(1,))])
>>> log.state.scores, log.state.label
((24000, 28000, 24000, 24000), 'East 2, 1 honba')
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from agari.engine.errors import InvalidInput
from agari.engine.game_events import Abort, Chombo, Draw, EndGame, Event, Win
from agari.engine.game_payments import hand_deltas
from agari.engine.game_rules import RIICHI_STICK, TableRules
from agari.engine.rules import Rules
from agari.engine.settlement import Settlement, settle, top_seat

ROUND_NAMES = ("East", "South", "West", "North")
ROUND_NAMES_JA = ("東", "南", "西", "北")
SEAT_WINDS = ("E", "S", "W", "N")


class GameOver(InvalidInput):
    """A hand was recorded after the game ended."""

    code = "game_over"


@dataclass(frozen=True)
class GameSetup:
    """Who plays and under which rules; fixed for the whole game."""

    players: tuple[str, ...]
    rules: str = "tenhou"
    """Hand-scoring rules: a preset name (see `agari.engine.rules.PRESETS`)."""
    table: TableRules | None = None
    """Table rules; ``None`` = the preset of ``rules`` for this many players."""
    custom_rules: Mapping[str, Any] | None = None
    """Hand-scoring options over the preset (e.g. loaded from a TOML file)."""

    def __post_init__(self) -> None:
        names = tuple(str(p).strip() for p in self.players)
        object.__setattr__(self, "players", names)
        if len(names) not in (3, 4):
            raise InvalidInput(f"a game needs 3 or 4 players, got {len(names)}")
        if any(not n for n in names):
            raise InvalidInput("player names cannot be empty")
        if len({n.casefold() for n in names}) != len(names):
            raise InvalidInput(f"player names must differ: {', '.join(names)}")
        table = self.table or TableRules.preset(self.rules, players=len(names))
        if table.players != len(names):
            raise InvalidInput(
                f"table rules are for {table.players} players, got {len(names)} names")
        object.__setattr__(self, "table", table)
        self.hand_rules()  # fail early on a bad preset name or option

    @property
    def n(self) -> int:
        return len(self.players)

    def hand_rules(self) -> Rules:
        """The engine's hand-scoring `Rules` of this game."""
        rules = Rules.preset(self.rules)
        return rules.replace(**dict(self.custom_rules)) if self.custom_rules else rules

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"players": list(self.players), "rules": self.rules,
                               "table": self.table.to_dict()}
        if self.custom_rules:
            out["custom_rules"] = dict(self.custom_rules)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSetup:
        return cls(players=tuple(data["players"]), rules=data.get("rules", "tenhou"),
                   table=TableRules.from_dict(data["table"]),
                   custom_rules=data.get("custom_rules"))


@dataclass(frozen=True)
class GameState:
    """The table between hands."""

    scores: tuple[int, ...]
    kyoku: int = 0
    honba: int = 0
    sticks: int = 0
    """Riichi sticks on the table (供託), in sticks."""
    in_renchan: bool = False
    """The dealer is repeating (連荘): sudden death waits for the deal to pass."""
    finished: bool = False
    end_reason: str | None = None
    penalties: tuple[int, ...] = ()
    """Points each seat will lose at settlement (chombo in ``points`` form)."""

    @property
    def players(self) -> int:
        return len(self.scores)

    @property
    def dealer(self) -> int:
        return self.kyoku % self.players

    @property
    def round_wind(self) -> int:
        return self.kyoku // self.players

    @property
    def label(self) -> str:
        """``East 1``, ``South 4, 2 honba``."""
        text = f"{ROUND_NAMES[self.round_wind % 4]} {self.dealer + 1}"
        return f"{text}, {self.honba} honba" if self.honba else text

    def seat_wind(self, seat: int) -> int:
        """Seat wind (0 = East) of a starting seat in this hand."""
        return (seat - self.dealer) % self.players

    def to_dict(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores), "round": SEAT_WINDS[self.round_wind % 4],
            "hand": self.dealer + 1, "dealer": self.dealer, "honba": self.honba,
            "sticks": self.sticks, "label": self.label, "finished": self.finished,
            "end_reason": self.end_reason, "penalties": list(self.penalties),
        }


@dataclass(frozen=True)
class HandRecord:
    """One recorded entry and what it did to the table."""

    event: Event
    before: GameState
    after: GameState
    deltas: tuple[int, ...]
    """Change of each seat's points, riichi sticks included."""
    summary: str
    notes: tuple[str, ...] = ()

    def to_dict(self, players: tuple[str, ...]) -> dict[str, Any]:
        return {
            "label": self.before.label, "kind": self.event.kind, "event": self.event.to_dict(),
            "summary": self.summary, "notes": list(self.notes), "deltas": list(self.deltas),
            "scores": list(self.after.scores), "honba": self.after.honba,
            "sticks": self.after.sticks, "finished": self.after.finished,
            "end_reason": self.after.end_reason,
        }


@dataclass(frozen=True)
class GameLog:
    """A replayed game: every record and the final state."""

    setup: GameSetup
    records: tuple[HandRecord, ...]
    state: GameState
    final_scores: tuple[int, ...] = field(default=())
    """Scores after leftover sticks were handed out (only once finished)."""

    def settlement(self) -> Settlement | None:
        """The final settlement once the game has ended, else ``None``."""
        if not self.state.finished:
            return None
        return settle(self.final_scores, self.setup.table, penalties=self.state.penalties)


def hand_rules_spec(spec: str) -> tuple[str, dict[str, Any] | None]:
    """``--rules`` of a game: a preset name, or a TOML file of hand-scoring options.

    Returns the preset whose table rules the game starts from (a file's
    ``base``, else tenhou) and, for a file, every option it resolves to, stored
    with the game so that later edits of the file do not change it.
    """
    if not spec.lower().endswith(".toml"):
        return spec.lower(), None
    import tomllib

    rules = Rules.from_toml(spec)
    try:
        with open(spec, "rb") as handle:
            base = str(tomllib.load(handle).get("base", "tenhou"))
    except (OSError, tomllib.TOMLDecodeError) as exc:  # from_toml already read it once
        raise InvalidInput(f"cannot read rules file {spec!r}: {exc}") from None
    custom = {f.name: _plain(getattr(rules, f.name)) for f in fields(rules)}
    return base, custom


def _plain(value: Any) -> Any:
    if isinstance(value, frozenset):
        return sorted(value)
    return list(value) if isinstance(value, tuple) else value


def seat_of(setup: GameSetup, state: GameState, ref: str) -> int:
    """The starting seat a player reference means.

    A reference is a name (any case), a starting-seat number 1..n, or a seat
    wind of the current hand (``E`` is the dealer; ``east`` … ``north``).
    """
    text = str(ref).strip()
    for seat, name in enumerate(setup.players):
        if name.casefold() == text.casefold():
            return seat
    if text.isdigit() and 1 <= int(text) <= setup.n:
        return int(text) - 1
    winds = {w.lower(): i for i, w in enumerate(SEAT_WINDS[: setup.n])}
    winds.update({r.lower(): i for i, r in enumerate(ROUND_NAMES[: setup.n])})
    if text.lower() in winds:
        return (state.dealer + winds[text.lower()]) % setup.n
    raise InvalidInput(
        f"no player {text!r}: use a name ({', '.join(setup.players)}), a seat number "
        f"1-{setup.n} or this hand's seat wind ({'/'.join(SEAT_WINDS[: setup.n])})")


def new_state(setup: GameSetup) -> GameState:
    """The table before East 1."""
    start = setup.table.start_points
    return GameState(scores=(start,) * setup.n, penalties=(0,) * setup.n)


def play(setup: GameSetup, events: Iterable[Event]) -> GameLog:
    """Replay ``events`` from the start; raises on the first event that cannot happen."""
    state = new_state(setup)
    records: list[HandRecord] = []
    rules = setup.hand_rules()
    for index, event in enumerate(events):
        try:
            record = apply(setup, state, event, rules=rules)
        except InvalidInput as exc:
            if index == 0 and not records:
                raise
            raise type(exc)(f"entry {index + 1} ({state.label}): {exc}", code=exc.code) from None
        records.append(record)
        state = record.after
    final = final_scores(state, setup.table) if state.finished else ()
    return GameLog(setup=setup, records=tuple(records), state=state, final_scores=final)


def apply(
    setup: GameSetup, state: GameState, event: Event, *, rules: Rules | None = None
) -> HandRecord:
    """Record one event on ``state``: pay it out, then move the game on."""
    if state.finished:
        raise GameOver(f"the game is over ({state.end_reason}); undo or start a new game")
    if isinstance(event, EndGame):
        after = replace(state, finished=True, end_reason=event.reason)
        return HandRecord(event, state, after, (0,) * state.players, f"game ended: {event.reason}")
    rules = rules or setup.hand_rules()
    outcome = hand_deltas(state, event, setup.table, rules)
    scores = tuple(s + d for s, d in zip(state.scores, outcome.deltas, strict=True))
    sticks = 0 if outcome.sticks_taken else state.sticks + outcome.sticks_added
    penalties = tuple(p + q for p, q in zip(state.penalties, outcome.penalties, strict=True))
    paid = replace(state, scores=scores, sticks=sticks, penalties=penalties)
    after = _advance(paid, event, outcome.renchan, outcome.kind, setup.table)
    summary = outcome.summary.format(**{f"p{i}": name for i, name in enumerate(setup.players)})
    return HandRecord(event, state, after, outcome.deltas, summary, outcome.notes)


def final_scores(state: GameState, table: TableRules) -> tuple[int, ...]:
    """Scores with leftover riichi sticks handed out per the rules (tenhou: to first place)."""
    scores = list(state.scores)
    if state.sticks and table.leftover_sticks == "top":
        scores[top_seat(scores)] += state.sticks * RIICHI_STICK
    return tuple(scores)


def _advance(
    state: GameState, event: Event, renchan: bool, kind: str, table: TableRules
) -> GameState:
    """Honba, dealer and round after a hand, and whether the game ends (tenhou's flow)."""
    if isinstance(event, Chombo):  # the hand is replayed as it was
        return _bust_check(state, table) or state
    won = kind == "win"
    honba = state.honba + 1 if (renchan or not won) else 0
    moved = replace(state, honba=honba)
    busted = _bust_check(moved, table)
    if busted:
        return busted
    regular = table.winds * state.players
    if renchan:
        if _dealer_stops(moved, kind, table, regular):
            return replace(moved, finished=True, end_reason="all-last dealer stop")
        return replace(moved, in_renchan=True)
    nxt = replace(moved, kyoku=state.kyoku + 1, in_renchan=False)
    last = min(regular + state.players, 4 * state.players) if table.extension != "none" else regular
    if nxt.kyoku >= last:
        return replace(nxt, finished=True, end_reason="last hand played")
    if nxt.kyoku >= regular:
        if table.extension == "none":
            return replace(nxt, finished=True, end_reason="last hand played")
        if max(nxt.scores) >= table.goal:
            reason = "last hand played" if nxt.kyoku == regular else f"someone reached {table.goal}"
            return replace(nxt, finished=True, end_reason=reason)
    return nxt


def _bust_check(state: GameState, table: TableRules) -> GameState | None:
    if table.busting == "off":
        return None
    low = min(state.scores)
    if low < 0 or (table.busting == "zero" and low == 0):
        return replace(state, finished=True, end_reason="a player busted")
    return None


def _dealer_stops(state: GameState, kind: str, table: TableRules, regular: int) -> bool:
    """オーラス止め: at all-last (or later), a repeating dealer who leads may end the game."""
    if state.kyoku < regular - 1 or table.all_last_stop == "none":
        return False
    if kind == "abort" or (kind == "draw" and table.all_last_stop != "win-tenpai"):
        return False
    dealer = state.dealer
    if top_seat(state.scores) != dealer:
        return False
    return table.extension == "none" or state.scores[dealer] >= table.goal


__all__ = [
    "Abort", "Chombo", "Draw", "EndGame", "GameLog", "GameOver", "GameSetup", "GameState",
    "HandRecord", "Win", "apply", "final_scores", "hand_rules_spec", "new_state", "play",
    "seat_of",
]
