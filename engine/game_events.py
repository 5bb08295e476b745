"""What can end a hand at the table, as frozen values the ledger stores and replays.

Seats are starting seats, 0-based: seat 0 deals East 1 (起家). Every event is
saved as a small JSON object (``to_dict``) and read back with `event_from_dict`;
the ledger recomputes all scores from these, so an event never stores points
that could disagree with the rules.

>>> ev = Win(claims=(WinClaim(seat=2, han=3, fu=30),), tsumo=False, from_seat=0, riichi=(2,))
>>> event_from_dict(ev.to_dict()) == ev
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from agari.engine.errors import InvalidInput

ABORT_KINDS = ("kyuushu", "suufon", "suukan", "suucha-riichi", "sanchahou")
"""途中流局: 九種九牌, 四風連打, 四槓散了, 四家立直, 三家和."""
ABORT_NAMES_JA = dict(
    zip(ABORT_KINDS, ("九種九牌", "四風連打", "四槓散了", "四家立直", "三家和"), strict=True))


@dataclass(frozen=True)
class WinClaim:
    """One winner's hand: its value (han/fu or yakuman count) and optional pao.

    ``hand`` and ``yaku`` are kept for the record only; the value fields are
    what the ledger pays out.
    """

    seat: int
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    pao: int | None = None
    """Seat liable (包) for the hand, if any."""
    pao_yakuman: int = 1
    """Yakuman units the liable player covers when the rules limit pao to the yakuman."""
    hand: str | None = None
    yaku: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "yaku", tuple(self.yaku))
        if self.yakuman < 0 or self.han < 0 or self.fu < 0:
            raise InvalidInput("han, fu and yakuman cannot be negative")
        if self.yakuman == 0 and self.han == 0:
            raise InvalidInput("a win needs --han (and --fu), --yakuman or --hand")
        if self.pao is not None and self.yakuman == 0:
            raise InvalidInput("pao (包) applies only to a yakuman hand")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        for name in ("han", "fu", "yakuman"):
            if getattr(self, name):
                out[name] = getattr(self, name)
        if self.pao is not None:
            out["pao"] = self.pao
            out["pao_yakuman"] = self.pao_yakuman
        if self.hand:
            out["hand"] = self.hand
        if self.yaku:
            out["yaku"] = list(self.yaku)
        return out


@dataclass(frozen=True)
class Win:
    """和了: one tsumo, or one or more rons on the same discard."""

    claims: tuple[WinClaim, ...]
    tsumo: bool
    from_seat: int | None = None
    riichi: tuple[int, ...] = ()
    """Seats whose riichi stick went on the table this hand."""

    kind = "win"

    def __post_init__(self) -> None:
        object.__setattr__(self, "claims", tuple(self.claims))
        object.__setattr__(self, "riichi", tuple(self.riichi))
        if not self.claims:
            raise InvalidInput("a win needs a winner")
        if self.tsumo and (len(self.claims) > 1 or self.from_seat is not None):
            raise InvalidInput("a tsumo has one winner and no discarder (drop --from)")
        if not self.tsumo and self.from_seat is None:
            raise InvalidInput("a ron needs the discarder (--from), or say --tsumo")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "claims": [c.to_dict() for c in self.claims],
                               "tsumo": self.tsumo}
        if self.from_seat is not None:
            out["from"] = self.from_seat
        return _with_riichi(out, self.riichi)


@dataclass(frozen=True)
class Draw:
    """流局: the wall ran out; tenpai players and nagashi mangan (流し満貫) claims."""

    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    riichi: tuple[int, ...] = ()

    kind = "draw"

    def __post_init__(self) -> None:
        for name in ("tenpai", "nagashi", "riichi"):
            object.__setattr__(self, name, tuple(getattr(self, name)))

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "tenpai": list(self.tenpai)}
        if self.nagashi:
            out["nagashi"] = list(self.nagashi)
        return _with_riichi(out, self.riichi)


@dataclass(frozen=True)
class Abort:
    """途中流局: an abortive draw; nobody pays, sticks stay on the table."""

    reason: str
    riichi: tuple[int, ...] = ()

    kind = "abort"

    def __post_init__(self) -> None:
        object.__setattr__(self, "riichi", tuple(self.riichi))
        if self.reason not in ABORT_KINDS:
            raise InvalidInput(
                f"unknown abortive draw {self.reason!r}; choose {', '.join(ABORT_KINDS)}")

    def to_dict(self) -> dict[str, Any]:
        return _with_riichi({"kind": self.kind, "reason": self.reason}, self.riichi)


@dataclass(frozen=True)
class Chombo:
    """錯和/チョンボ: a penalty; the hand is replayed with the same dealer and honba."""

    seat: int

    kind = "chombo"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True)
class EndGame:
    """The players stop the game here (終了)."""

    reason: str = "ended at the table"

    kind = "end"

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "reason": self.reason}


Event = Win | Draw | Abort | Chombo | EndGame
HAND_EVENTS = (Win, Draw, Abort, Chombo)


def parse_win_value(text: str) -> dict[str, int]:
    """A hand's value written briefly: ``3/30`` (han/fu), ``6`` (han, mangan or more),
    ``yakuman`` / ``y`` (one yakuman), ``2y`` / ``2yakuman`` (double).

    >>> parse_win_value("3/30"), parse_win_value("2y")
    ({'han': 3, 'fu': 30}, {'yakuman': 2})
    """
    raw = text.strip().lower().replace(" ", "")
    try:
        if raw.endswith(("yakuman", "y")):
            count = raw.removesuffix("yakuman").removesuffix("y")
            return {"yakuman": int(count) if count else 1}
        if "/" in raw:
            han, fu = raw.split("/")
            return {"han": int(han), "fu": int(fu)}
        han = int(raw)
    except ValueError:
        raise InvalidInput(
            f"cannot read hand value {text!r}: use HAN/FU (3/30), HAN (from 5), or yakuman"
        ) from None
    if han < 5:
        raise InvalidInput(f"hand value {text!r}: below 5 han give the fu too (e.g. {han}/30)")
    return {"han": han}


def event_from_dict(data: Mapping[str, Any]) -> Event:
    """Rebuild an event from its stored JSON object."""
    try:
        kind = data["kind"]
        riichi = tuple(data.get("riichi", ()))
        if kind == "win":
            claims = tuple(_claim_from_dict(c) for c in data["claims"])
            return Win(claims=claims, tsumo=bool(data["tsumo"]), from_seat=data.get("from"),
                       riichi=riichi)
        if kind == "draw":
            return Draw(tenpai=tuple(data.get("tenpai", ())),
                        nagashi=tuple(data.get("nagashi", ())), riichi=riichi)
        if kind == "abort":
            return Abort(reason=data["reason"], riichi=riichi)
        if kind == "chombo":
            return Chombo(seat=int(data["seat"]))
        if kind == "end":
            return EndGame(reason=data.get("reason", EndGame.reason))
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidInput(f"malformed game entry {dict(data)!r}: {exc}") from None
    raise InvalidInput(f"unknown game entry kind {data.get('kind')!r}")


def _claim_from_dict(data: Mapping[str, Any]) -> WinClaim:
    return WinClaim(
        seat=int(data["seat"]), han=int(data.get("han", 0)), fu=int(data.get("fu", 0)),
        yakuman=int(data.get("yakuman", 0)), pao=data.get("pao"),
        pao_yakuman=int(data.get("pao_yakuman", 1)), hand=data.get("hand"),
        yaku=tuple(data.get("yaku", ())),
    )


def _with_riichi(out: dict[str, Any], riichi: tuple[int, ...]) -> dict[str, Any]:
    if riichi:
        out["riichi"] = list(riichi)
    return out


__all__ = [
    "ABORT_KINDS", "Abort", "Chombo", "Draw", "EndGame", "Event", "HAND_EVENTS", "Win",
    "WinClaim", "event_from_dict", "parse_win_value",
]
