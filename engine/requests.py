"""Score requests as plain data: the fields of ``agari score`` options and batch lines.

A request is a mapping with the contract's field names (``hand``, ``win``,
``tsumo``, ``riichi``… ``players``, ``nuki``); `parse_request` checks every
field and builds the `Hand`, `WinContext` and `Rules` to score.

>>> hand, ctx, rules = parse_request({"hand": "123m406p789s11222z", "tsumo": True, "dora": "1z,3p"})
>>> (ctx.tsumo, [str(t) for t in ctx.dora], rules.name)
(True, ['1z', '3p'], 'tenhou')
"""

from __future__ import annotations

from collections.abc import Mapping

from agari.engine.context import WinContext, parse_wind
from agari.engine.errors import InvalidInput, InvalidTile
from agari.engine.hand import Hand, parse_hand
from agari.engine.rules import Rules
from agari.engine.tiles import KINDS, Tile, parse_tiles

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

FLAGS = (
    "tsumo",
    "riichi",
    "double_riichi",
    "ippatsu",
    "rinshan",
    "chankan",
    "haitei",
    "houtei",
    "tenhou",
    "chiihou",
    "renhou",
    "nagashi",
)
"""Yes/no fields of a request."""
COUNTS = ("honba", "sticks", "nuki")
"""Whole-number fields of a request."""
FIELDS = frozenset(
    ("hand", "win", "seat", "round", "dora", "ura", "rules", "players", *FLAGS, *COUNTS)
)
"""Every field a request may carry."""
MAX_COUNT = 1000  # honba/sticks beyond this are typos, not games


def parse_request(
    request: Mapping[str, Any], *, rules_cache: dict[str, Rules] | None = None
) -> tuple[Hand, WinContext, Rules]:
    """Check a request and build what `score` needs.

    Args:
        request: field name → value, as in a batch line.
        rules_cache: reused across calls so a batch reads each rules file once.

    Raises:
        InvalidInput: a missing hand, an unknown field, a value of the wrong type.
        InvalidTile, InvalidHand: tiles or a hand that cannot exist.
    """
    text, values, rules_spec = _fields(request)
    if text is None:
        raise InvalidInput("missing field 'hand'")
    hand = parse_hand(_string(text, "hand"), players=values[_PLAYERS])
    return hand, WinContext._from_request(values), _rules(rules_spec, rules_cache)


def parse_situation(
    request: Mapping[str, Any], *, rules_cache: dict[str, Rules] | None = None
) -> tuple[WinContext, Rules]:
    """The situation and rules of a request without a hand (``agari photo`` reads the hand).

    Raises:
        InvalidInput: a ``hand`` field, an unknown field, a value of the wrong type.
    """
    text, values, rules_spec = _fields(request)
    if text is not None:
        raise InvalidInput("this request takes no 'hand' field")
    return WinContext._from_request(values), _rules(rules_spec, rules_cache)


def _fields(request: Mapping[str, Any]) -> tuple[Any, list[Any], Any]:
    """(hand text or None, every `WinContext` field's value in order, rules spec) of a request."""
    if type(request) is not dict and not isinstance(request, Mapping):
        raise InvalidInput(f"a request must be a JSON object, got {type(request).__name__}")
    players = request.get("players", 4)
    if type(players) is not int or players not in (3, 4):
        raise InvalidInput(f"players must be 3 or 4, got {players!r}")
    values = _DEFAULTS.copy()
    values[_PLAYERS] = players
    text = None
    rules_spec = None
    for name, value in request.items():
        slot = _SLOT.get(name)
        if slot is None:
            if name == "hand":
                text = value
            elif name == "rules":
                rules_spec = value
            elif name != "players":
                raise InvalidInput(f"unknown field {name!r}; expected some of {sorted(FIELDS)}")
        elif slot <= _LAST_FLAG:
            if slot == _WIN:
                if value is not None:
                    tile = _TILE_NAMES.get(value) if type(value) is str else None
                    values[slot] = tile or parse_tile(_string(value, "win"), "win")
            elif type(value) is bool:
                values[slot] = value
            else:
                raise InvalidInput(f"{name} must be true or false, got {value!r}")
        elif slot <= _ROUND:
            wind = _WINDS.get(value) if type(value) is str else None
            values[slot] = wind if wind is not None else parse_wind(value, name)
        elif slot <= _URA:
            if value is not None:
                values[slot] = _indicators(value, name)
        elif type(value) is int and 0 <= value <= MAX_COUNT:
            values[slot] = value
        else:
            raise InvalidInput(f"{name} must be a whole number 0..{MAX_COUNT}, got {value!r}")
    return text, values, rules_spec


_POSITION = {name: i for i, name in enumerate(WinContext._fields)}
_SLOT = {
    **{name: _POSITION[name] for name in ("win", *FLAGS, "dora", "ura", *COUNTS)},
    "seat": _POSITION["seat_wind"],
    "round": _POSITION["round_wind"],
}
"""Request field → its position among the `WinContext` fields (``hand``, ``rules`` and
``players`` are read apart). `_fields` relies on their order there: ``win``, the yes/no
flags, ``seat``, ``round``, ``dora``, ``ura``, then the whole numbers."""
_WIN, _LAST_FLAG, _ROUND, _URA = _SLOT["win"], _SLOT["nagashi"], _SLOT["round"], _SLOT["ura"]
_PLAYERS = _POSITION["players"]
_DEFAULTS = list(WinContext())
_TILE_NAMES = {name: Tile.parse(name) for name in (*KINDS, "0m", "0p", "0s")}
"""MPSZ names of every tile → the tile: the usual spelling of ``win``, without a call."""
_WINDS = {"E": 0, "S": 1, "W": 2, "N": 3}
"""The usual spellings of a wind (any other goes through `parse_wind`)."""


_INDICATOR_TEXTS: dict[str, tuple[Tile, ...]] = {}
"""Indicator strings already read: ``"3p"``, ``"1m,5z"`` recur across a batch."""


def clear_caches() -> None:
    """Forget the runs, melds and indicator strings read (benchmarks time all-new requests)."""
    from agari.engine import hand, tiles

    tiles._RUNS.clear()
    hand._MELDS.clear()
    _INDICATOR_TEXTS.clear()


def _indicators(value: Any, name: str) -> tuple[Tile, ...]:
    found = _INDICATOR_TEXTS.get(value) if type(value) is str else None
    if found is None:
        found = parse_indicators(value, name)
        if type(value) is str and len(_INDICATOR_TEXTS) < 4096:
            _INDICATOR_TEXTS[value] = found
    return found


def _string(value: Any, name: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, got {value!r}")
    return value


def parse_tile(text: str, what: str = "tile") -> Tile:
    """One tile (MPSZ or mjai name) with the field name in the error."""
    try:
        return Tile.parse(text)
    except InvalidTile as exc:
        raise InvalidTile(f"{what}: {exc}") from None


def parse_indicators(value: Any, what: str) -> tuple[Tile, ...]:
    """Indicators as ``"1m,5z"``, compact ``"1m5z"`` or a list of tile names."""
    if isinstance(value, str):
        parts = [p for p in value.replace(" ", ",").split(",") if p]
        if len(parts) == 1 and len(parts[0]) > 3:
            try:
                return tuple(parse_tiles(parts[0]))
            except InvalidTile as exc:
                raise InvalidTile(f"{what}: {exc}") from None
        return tuple(parse_tile(p, what) for p in parts)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(parse_tile(v, what) for v in value)
    raise InvalidInput(f'{what} must be tiles like "1m,5z" or a list of tile names, got {value!r}')


def _rules(spec: Any, cache: dict[str, Rules] | None) -> Rules:
    if spec is None:
        spec = "tenhou"
    if not isinstance(spec, str):
        raise InvalidInput(f"rules must be a preset name or a .toml path, got {spec!r}")
    if cache is not None and spec in cache:
        return cache[spec]
    rules = Rules.resolve(spec)
    if cache is not None:
        cache[spec] = rules
    return rules


def request_of(hand: Hand, ctx: WinContext, rules: str = "tenhou") -> dict[str, Any]:
    """The request that `parse_request` turns back into ``hand`` and ``ctx`` (defaults left out)."""
    from agari.engine.context import WINDS

    request: dict[str, Any] = {"hand": str(hand)}
    if ctx.win is not None:
        request["win"] = ctx.win.name
    for name in FLAGS:
        if getattr(ctx, name):
            request[name] = True
    request["seat"] = WINDS[ctx.seat_wind]
    request["round"] = WINDS[ctx.round_wind]
    if ctx.dora:
        request["dora"] = ",".join(t.name for t in ctx.dora)
    if ctx.ura:
        request["ura"] = ",".join(t.name for t in ctx.ura)
    for name in COUNTS:
        if getattr(ctx, name):
            request[name] = getattr(ctx, name)
    if ctx.players != 4:
        request["players"] = ctx.players
    if rules != "tenhou":
        request["rules"] = rules
    return request
