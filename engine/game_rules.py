"""Table rules (卓ルール) of a whole game: everything that is not hand scoring.

Hand scoring (han, fu, limits, honba per payer, 3-player tsumo loss) lives in the
engine's `Rules`; this module holds the options a table agrees on before the
first hand: starting and return points, uma and oka, length, busting, the
extension round, the all-last dealer stop, multiple ron, tenpai payments,
nagashi mangan, chombo, pao, leftover riichi sticks, ties and rounding.

Each preset name matches a hand-scoring preset (`agari score --rules`) and has a
4-player and a 3-player form. The defaults follow tenhou (天鳳) exactly, since
that is what real online records replay against; see ``docs/game.md`` for each
option and the source of each preset.

>>> r = TableRules.preset("tenhou")
>>> (r.start_points, r.return_points, r.uma, r.oka_total)
(25000, 30000, (20, 10, -10, -20), 20000)
>>> TableRules.preset("tenhou", players=3).uma
(20, 0, -20)
>>> parse_uma("10-20", players=4)
(20, 10, -10, -20)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any

from agari.engine.errors import InvalidInput

LENGTHS = ("east", "south", "full")
"""東風戦 one wind, 半荘戦 two winds, 一荘戦 (ikkansen) all four winds."""
WINDS_PER_LENGTH = {"east": 1, "south": 2, "full": 4}

BUSTING = ("off", "negative", "zero")
"""飛び: never; below zero ends the game (0 plays on); zero or below ends it."""
EXTENSIONS = ("none", "sudden-death")
"""延長戦: none, or 西入/南入 sudden death until someone reaches the target."""
ALL_LAST_STOPS = ("none", "win", "win-tenpai")
"""オーラス親の和了止め / 聴牌止め: which dealer repeats at all-last may end the game."""
MULTIPLE_RON = ("head-bump", "double", "all")
"""頭ハネ; ダブロン (a triple ron is an abortive draw, 三家和); every ron scores."""
HONBA_MULTI_RON = ("nearest", "each")
ABORT_DEALER = ("repeat", "rotate")
CHOMBO_FORMS = ("mangan", "points", "none")
"""満貫払い now; a fixed point penalty at settlement; not used."""
PAO_SCOPES = ("hand", "yakuman")
"""包 covers the whole hand (tenhou) or only the liable yakuman (mahjongsoul)."""
PAO_YAKUMAN = ("daisangen", "daisuushii", "suukantsu")
LEFTOVER_STICKS = ("top", "lost")
TIES = ("seat", "split")
ROUNDINGS = ("exact", "half-up", "gosha-rokunyu", "down", "up")
"""Final score in thousands: to 0.1 exactly, or to whole thousands (四捨五入, 五捨六入,
切り捨て toward zero, 切り上げ away from zero)."""

_CHOICES: dict[str, tuple[str, ...]] = {
    "length": LENGTHS,
    "busting": BUSTING,
    "extension": EXTENSIONS,
    "all_last_stop": ALL_LAST_STOPS,
    "multiple_ron": MULTIPLE_RON,
    "honba_multi_ron": HONBA_MULTI_RON,
    "abort_dealer": ABORT_DEALER,
    "chombo": CHOMBO_FORMS,
    "pao_scope": PAO_SCOPES,
    "leftover_sticks": LEFTOVER_STICKS,
    "ties": TIES,
    "rounding": ROUNDINGS,
}

MANGAN_BASE = 2000
"""Base points of a mangan (満貫); chombo and nagashi mangan are paid as one."""
RIICHI_STICK = 1000
"""A riichi deposit (供託)."""


@dataclass(frozen=True)
class TableRules:
    """The table's game options, validated on creation.

    Points are game points (25000 = 25.0 in the final result); ``uma`` is in
    thousands, one entry per rank, first place first.
    """

    players: int = 4
    start_points: int = 25000
    return_points: int = 30000
    uma: tuple[int, ...] = (20, 10, -10, -20)
    oka: int | None = None
    """Points to first place; ``None`` = (return - start) × players."""
    length: str = "south"
    busting: str = "negative"
    extension: str = "sudden-death"
    target: int | None = None
    """Points that end the extension (and allow the all-last stop); ``None`` = return points."""
    all_last_stop: str = "win-tenpai"
    multiple_ron: str = "double"
    honba_multi_ron: str = "nearest"
    tenpai_pool: int = 3000
    nagashi: bool = True
    abortive_draws: bool = True
    abort_dealer: str = "repeat"
    chombo: str = "mangan"
    chombo_points: int = 20000
    pao: tuple[str, ...] = ("daisangen", "daisuushii")
    pao_scope: str = "hand"
    leftover_sticks: str = "top"
    ties: str = "seat"
    rounding: str = "exact"

    def __post_init__(self) -> None:
        object.__setattr__(self, "uma", tuple(int(u) for u in self.uma))
        object.__setattr__(self, "pao", tuple(self.pao))
        if self.players not in (3, 4):
            raise InvalidInput(f"a game needs 3 or 4 players, got {self.players}")
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise InvalidInput(f"{name} must be one of {', '.join(choices)}; got {value!r}")
        if len(self.uma) != self.players:
            raise InvalidInput(f"uma needs {self.players} values, got {len(self.uma)}")
        if sum(self.uma) != 0:
            raise InvalidInput(f"uma must sum to zero, got {'/'.join(map(str, self.uma))}")
        for name in ("start_points", "return_points", "tenpai_pool", "chombo_points"):
            value = getattr(self, name)
            if value < 0 or value % 100:
                raise InvalidInput(f"{name} must be a non-negative multiple of 100, got {value}")
        if self.start_points == 0:
            raise InvalidInput("start_points must be positive")
        for name in self.pao:
            if name not in PAO_YAKUMAN:
                raise InvalidInput(
                    f"pao yakuman must be among {', '.join(PAO_YAKUMAN)}; got {name!r}")

    @property
    def oka_total(self) -> int:
        """Points first place receives as oka (オカ)."""
        if self.oka is not None:
            return self.oka
        return (self.return_points - self.start_points) * self.players

    @property
    def goal(self) -> int:
        """Points that end a sudden-death extension."""
        return self.return_points if self.target is None else self.target

    @property
    def balanced(self) -> bool:
        """True when final results sum to zero (start × n + oka = return × n)."""
        n = self.players
        return self.start_points * n + self.oka_total == self.return_points * n

    @property
    def winds(self) -> int:
        """Number of round winds in the regular game."""
        return WINDS_PER_LENGTH[self.length]

    @classmethod
    def preset(cls, name: str, *, players: int = 4) -> TableRules:
        """The table rules of a named preset (same names as the hand-scoring presets)."""
        key = name.lower()
        if key not in PRESETS:
            raise InvalidInput(f"unknown rules preset {name!r}; choose {', '.join(PRESETS)}")
        if players not in (3, 4):
            raise InvalidInput(f"a game needs 3 or 4 players, got {players}")
        four, three = PRESETS[key]
        return cls(**(four if players == 4 else {**four, **SANMA_COMMON, **three}))

    def with_options(self, options: Mapping[str, Any]) -> TableRules:
        """A copy with some options replaced; values may be text (from the CLI or TOML)."""
        known = {f.name: f for f in fields(self)}
        changes: dict[str, Any] = {}
        for key, value in options.items():
            name = key.replace("-", "_")
            if name not in known or name == "players":
                raise InvalidInput(f"unknown table option {key!r}; see docs/game.md")
            changes[name] = _coerce(name, value, self.players)
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (tuples become lists)."""
        out = asdict(self)
        out["uma"] = list(self.uma)
        out["pao"] = list(self.pao)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableRules:
        """Inverse of `to_dict`; unknown keys are an error."""
        known = {f.name for f in fields(cls)}
        extra = set(data) - known
        if extra:
            raise InvalidInput(f"unknown table option(s): {', '.join(sorted(extra))}")
        return cls(**dict(data))


def parse_uma(text: str, *, players: int) -> tuple[int, ...]:
    """Uma from ``"10-20"`` (4-player: +20/+10/-10/-20) or an explicit ``"20,10,-10,-20"``.

    For 3 players ``"20"`` means +20/0/-20.
    """
    text = text.strip()
    try:
        if "," in text:
            return tuple(int(v) for v in text.split(","))
        if players == 4 and "-" in text.lstrip("-"):
            low, high = (int(v) for v in text.split("-"))
            return (high, low, -low, -high)
        if players == 3:
            top = int(text)
            return (top, 0, -top)
    except ValueError:
        pass
    raise InvalidInput(f"cannot read uma {text!r}: use e.g. 10-20 or 20,10,-10,-20")


def _coerce(name: str, value: Any, players: int) -> Any:
    """Turn an option value given as text into the field's type."""
    if not isinstance(value, str):
        return tuple(value) if isinstance(value, list) else value
    if name == "uma":
        return parse_uma(value, players=players)
    if name == "pao":
        return tuple(v for v in value.replace(" ", "").split(",") if v)
    if name in ("nagashi", "abortive_draws"):
        lowered = value.lower()
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise InvalidInput(f"{name} must be on or off, got {value!r}")
    if name in ("oka", "target") and value.lower() in ("auto", "none", ""):
        return None
    if name in _CHOICES:
        return value.lower()
    try:
        return int(value)
    except ValueError:
        raise InvalidInput(f"{name} must be a whole number, got {value!r}") from None


# Each preset: the 4-player options, then what changes for 3 players (三麻).
_TENHOU: dict[str, Any] = {}  # the dataclass defaults are tenhou's 4-player rules
SANMA_COMMON: dict[str, Any] = {
    "players": 3,
    "start_points": 35000,
    "return_points": 40000,
    "uma": (20, 0, -20),
    "tenpai_pool": 2000,
}
PRESETS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "tenhou": (_TENHOU, {}),
    "mahjongsoul": (
        {"uma": (15, 5, -5, -15), "honba_multi_ron": "each", "multiple_ron": "all",
         "pao_scope": "yakuman"},
        {"uma": (15, 0, -15)},
    ),
    "wrc": (
        {"start_points": 30000, "return_points": 30000, "uma": (15, 5, -5, -15),
         "busting": "off", "extension": "none", "all_last_stop": "none",
         "multiple_ron": "head-bump", "nagashi": False, "abortive_draws": False,
         "chombo": "points", "ties": "split"},
        {"uma": (15, 0, -15)},
    ),
    "ema": (
        {"start_points": 30000, "return_points": 30000, "uma": (15, 5, -5, -15),
         "busting": "off", "extension": "none", "all_last_stop": "none",
         "multiple_ron": "all", "honba_multi_ron": "each", "nagashi": False,
         "abortive_draws": False, "chombo": "points", "ties": "split"},
        {"uma": (15, 0, -15)},
    ),
    "mleague": (
        {"uma": (30, 10, -10, -30), "busting": "off", "extension": "none",
         "all_last_stop": "none", "multiple_ron": "head-bump", "chombo": "points",
         "pao": ("daisangen", "daisuushii", "suukantsu")},
        {"uma": (30, 0, -30)},
    ),
}
