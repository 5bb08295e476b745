"""The situation of one win (和了の状況): how it was won, winds, dora, counters.

`WinContext` is separate from `Rules` (what the table agreed) and from the
`Hand` (the tiles). Winds are 0..3 for East, South, West, North.

>>> ctx = WinContext(tsumo=True, riichi=True, seat_wind=0, dora=(Tile.parse("4p"),))
>>> ctx.dealer
True
"""

from __future__ import annotations

from collections import namedtuple

from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

WINDS = ("E", "S", "W", "N")
"""Seat and round winds, East first; East is the dealer's seat."""
WIND_NAMES = ("east", "south", "west", "north")
_WIND_BY_NAME = {
    name: i
    for i, (short, long) in enumerate(zip(WINDS, WIND_NAMES, strict=True))
    for name in (short, short.lower(), long)
}
MAX_INDICATORS = 5  # one dora indicator plus one per kan (at most four kans)
MAX_NUKI = 4


def parse_wind(value: str | int, what: str = "wind") -> int:
    """``E``/``S``/``W``/``N`` (or ``east``…, or 0..3) → 0..3.

    Raises:
        InvalidInput: anything else.
    """
    if isinstance(value, str):
        wind = _WIND_BY_NAME.get(value)
        if wind is None:
            wind = _WIND_BY_NAME.get(value.strip().lower())
        if wind is not None:
            return wind
    elif isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 4:
        return value
    raise InvalidInput(f"{what} must be one of E, S, W, N, got {value!r}")


_Situation = namedtuple(
    "_Situation",
    "win tsumo riichi double_riichi ippatsu rinshan chankan haitei houtei tenhou chiihou renhou "
    "nagashi seat_wind round_wind dora ura honba sticks nuki players",
    defaults=(None, *[False] * 12, 1, 0, (), (), 0, 0, 0, 4),
)
"""The fields of `WinContext` and their defaults (`collections.namedtuple`: `typing.NamedTuple`
costs start-up time)."""


class WinContext(_Situation):
    """How a hand was won and the table state that affects its score (immutable, checked).

    Attributes:
        win: the winning tile; ``None`` means the last concealed tile as written.
        tsumo: self-drawn (ツモ); otherwise ron (ロン).
        riichi, double_riichi, ippatsu: 立直, ダブル立直 (implies riichi), 一発.
        rinshan, chankan, haitei, houtei: 嶺上開花, 搶槓, 海底摸月, 河底撈魚.
        tenhou, chiihou, renhou: 天和, 地和, 人和.
        nagashi: 流し満貫 (scored as a mangan tsumo without looking at the tiles).
        seat_wind, round_wind: 0..3 (E S W N); seat East is the dealer.
        dora, ura: indicators (表示牌), kan dora included in ``dora``; ura count
            only for a riichi hand (given without riichi they are ignored).
        honba, sticks: 本場 counters and riichi sticks on the table.
        nuki: north tiles set aside (抜きドラ), 3-player only.
        players: 4, or 3 for sanma.

    A named tuple checked on creation rather than a frozen dataclass: one is
    made for every scored request and it is several times cheaper to build.

    Raises:
        InvalidInput: an impossible value or combination of flags.
    """

    __slots__ = ()

    def __new__(cls, *args: Any, **kwargs: Any) -> WinContext:
        return cls._make(super().__new__(cls, *args, **kwargs))

    @classmethod
    def _make(cls, iterable: Any) -> WinContext:
        """A checked context from every field's value in order (no keyword binding)."""
        self = tuple.__new__(cls, iterable)
        if len(self) != _N_FIELDS:
            raise TypeError(f"expected {_N_FIELDS} values, got {len(self)}")
        if type(self.dora) is not tuple or type(self.ura) is not tuple:
            self = tuple.__new__(cls, (*self[:15], tuple(self.dora), tuple(self.ura), *self[17:]))
        _check_values(self)
        _check_flags(self)
        return self

    @classmethod
    def _from_request(cls, values: list[Any]) -> WinContext:
        """A context from every field's value in order, of the types `parse_request` checks
        (bools, whole numbers, winds, tiles): only what types cannot tell is checked here."""
        self = tuple.__new__(cls, values)
        if self.players == 3 and self.seat_wind == 3:
            raise InvalidInput("3-player mahjong has no North seat")
        if self.nuki:
            _check_nuki(self)
        if len(self.dora) > MAX_INDICATORS or len(self.ura) > MAX_INDICATORS:
            _check_indicators(self)
        _check_flags(self)
        return self

    @property
    def dealer(self) -> bool:
        """The winner sits East (親)."""
        return self.seat_wind == 0

    def with_win(self, tile: Tile | None) -> WinContext:
        """The same situation won on ``tile``."""
        return WinContext(tile, *self[1:])

    @property
    def in_riichi(self) -> bool:
        """Riichi or double riichi was declared."""
        return self.riichi or self.double_riichi


_N_FIELDS = len(_Situation._fields)


def _check_values(ctx: WinContext) -> None:
    players, seat, round_wind = ctx.players, ctx.seat_wind, ctx.round_wind
    if players != 4 and players != 3:
        raise InvalidInput(f"players must be 3 or 4, got {players!r}")
    if type(seat) is not int or not 0 <= seat < 4:
        _bad_wind("seat_wind", seat)
    if type(round_wind) is not int or not 0 <= round_wind < 4:
        _bad_wind("round_wind", round_wind)
    if players == 3 and seat == 3:
        raise InvalidInput("3-player mahjong has no North seat")
    for name in ("honba", "sticks", "nuki"):
        value = getattr(ctx, name)
        if type(value) is not int or value < 0:
            raise InvalidInput(f"{name} must be a whole number ≥ 0, got {value!r}")
    if ctx.nuki:
        _check_nuki(ctx)
    if ctx.win is not None and type(ctx.win) is not Tile and not isinstance(ctx.win, Tile):
        raise InvalidInput(f"win must be a Tile, got {ctx.win!r}")
    if ctx.dora or ctx.ura:
        _check_indicators(ctx)


def _check_nuki(ctx: WinContext) -> None:
    if ctx.players != 3:
        raise InvalidInput("nuki (north dora) exists only in 3-player mahjong (--players 3)")
    if ctx.nuki > MAX_NUKI:
        raise InvalidInput(f"at most {MAX_NUKI} north tiles can be set aside, got {ctx.nuki}")


def _bad_wind(name: str, value: Any) -> None:
    raise InvalidInput(f"{name} must be 0..3 (E S W N), got {value!r}")


def _check_indicators(ctx: WinContext) -> None:
    for name in ("dora", "ura"):
        tiles = getattr(ctx, name)
        if len(tiles) > MAX_INDICATORS:
            raise InvalidInput(f"at most {MAX_INDICATORS} {name} indicators, got {len(tiles)}")
        for t in tiles:
            if not isinstance(t, Tile):
                raise InvalidInput(f"{name} indicators must be Tile values, got {t!r}")


_NEEDS_TSUMO = ("haitei", "rinshan", "tenhou", "chiihou")
_NEEDS_RON = ("houtei", "chankan", "renhou")
_EXCLUSIVE = (
    ("haitei", "rinshan"),
    ("houtei", "chankan"),
    ("tenhou", "chiihou"),
    ("tenhou", "renhou"),
    ("chiihou", "renhou"),
)


def _check_flags(ctx: WinContext) -> None:
    if not (
        ctx.haitei
        or ctx.rinshan
        or ctx.tenhou
        or ctx.chiihou
        or ctx.houtei
        or ctx.chankan
        or ctx.renhou
        or ctx.ippatsu
    ):
        return
    for name in _NEEDS_TSUMO:
        if getattr(ctx, name) and not ctx.tsumo:
            raise InvalidInput(f"{name} needs a tsumo win")
    for name in _NEEDS_RON:
        if getattr(ctx, name) and ctx.tsumo:
            raise InvalidInput(f"{name} needs a ron win, not tsumo")
    for a, b in _EXCLUSIVE:
        if getattr(ctx, a) and getattr(ctx, b):
            raise InvalidInput(f"{a} and {b} cannot both happen")
    if ctx.ippatsu and not (ctx.riichi or ctx.double_riichi):
        raise InvalidInput("ippatsu needs riichi")
    if ctx.tenhou and not ctx.dealer:
        raise InvalidInput("tenhou is the dealer's win (seat E)")
    if (ctx.chiihou or ctx.renhou) and ctx.dealer:
        name = "chiihou" if ctx.chiihou else "renhou"
        raise InvalidInput(f"{name} is a non-dealer's win (the dealer's is tenhou)")
