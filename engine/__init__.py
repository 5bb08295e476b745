"""agari.engine — pure-Python riichi scoring: tiles, notation, rules, points.

Public names other parts of agari build on are re-exported here.
"""

from agari.engine.context import WINDS, WinContext, parse_wind
from agari.engine.errors import AgariError, InvalidHand, InvalidInput, InvalidTile, NoYaku, NotAgari
from agari.engine.hand import Hand, Meld, check_players, parse_hand
from agari.engine.points import LIMIT_NAMES, Payment, hand_points
from agari.engine.rules import PRESETS, Rules
from agari.engine.tiles import CLASS_NAMES, KINDS, TILE_NAMES, Tile, format_tiles, parse_tiles

__all__ = [
    "CLASS_NAMES", "KINDS", "LIMIT_NAMES", "PRESETS", "TILE_NAMES", "WINDS",
    "AgariError", "Hand", "InvalidHand", "InvalidInput", "InvalidTile", "Meld", "NoYaku",
    "NotAgari", "Payment", "Rules", "Tile", "WinContext",
    "check_players", "format_tiles", "hand_points", "parse_hand", "parse_tiles", "parse_wind",
]
