"""agari.engine: pure-Python riichi mahjong scoring (no numpy, no OpenCV).

Public names are re-exported here as the engine grows; import submodules
directly for the rest.
"""

from agari.engine.errors import (
    AgariError,
    InvalidHand,
    InvalidInput,
    InvalidTile,
    NotAgari,
    NoYaku,
)
from agari.engine.tiles import CLASS_NAMES, KINDS, TILE_NAMES, Tile, format_tiles, parse_tiles

__all__ = [
    "AgariError",
    "CLASS_NAMES",
    "InvalidHand",
    "InvalidInput",
    "InvalidTile",
    "KINDS",
    "NoYaku",
    "NotAgari",
    "TILE_NAMES",
    "Tile",
    "format_tiles",
    "parse_tiles",
]
