"""Dora (ドラ): indicators with wrap-around, red fives, ura, nuki (north) dora.

The indicated tile is the next in order: 9→1 in a suit, N→E among winds,
white→green→red→white among dragons; in 3-player the man suit has only 1m and
9m, so 1m→9m and 9m→1m.

>>> from agari.engine.tiles import Tile
>>> [KINDS[dora_of(Tile.parse(t).kind)] for t in ("9p", "4z", "7z", "5z", "1m")]
['1p', '1z', '5z', '6z', '2m']
>>> KINDS[dora_of(0, players=3)]
'9m'
"""

from __future__ import annotations

from agari.engine.tiles import KINDS, Tile

NORTH = 30


def dora_of(indicator: int, *, players: int = 4) -> int:
    """The dora kind an indicator of kind ``indicator`` points to."""
    if indicator < 27:
        if players == 3 and indicator in (0, 8):
            return 8 - indicator
        suit, number = divmod(indicator, 9)
        return suit * 9 + (number + 1) % 9
    if indicator < 31:
        return 27 + (indicator - 27 + 1) % 4
    return 31 + (indicator - 31 + 1) % 3


_DORA_OF = {players: tuple(dora_of(k, players=players) for k in range(34)) for players in (3, 4)}
"""The indicated kind of every indicator kind, per player count."""


def count_indicated(
    indicators: tuple[Tile, ...], all_counts, players: int = 4, nuki: int = 0
) -> int:
    """Han from ``indicators`` over every tile held (kans count 4); set-aside norths count too."""
    han = 0
    table = _DORA_OF[players]
    for ind in indicators:
        kind = table[ind.kind]
        han += all_counts[kind]
        if kind == NORTH:
            han += nuki
    return han


def count_red(tiles: list[Tile]) -> int:
    """Red fives among ``tiles`` (赤ドラ)."""
    return sum(1 for t in tiles if t.red)


__all__ = ["KINDS", "NORTH", "count_indicated", "count_red", "dora_of"]
