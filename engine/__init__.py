"""agari.engine — pure-Python riichi scoring: tiles, notation, rules, points.

Public names other parts of agari build on are re-exported here:

>>> from agari.engine import parse_hand, score, WinContext
>>> score(parse_hand("234m567p34566678s"), WinContext(riichi=True)).points
3900
"""

from agari.engine.context import WINDS, WinContext, parse_wind
from agari.engine.errors import AgariError, InvalidHand, InvalidInput, InvalidTile, NotAgari, NoYaku
from agari.engine.hand import Hand, Meld, check_players, parse_hand
from agari.engine.points import LIMIT_NAMES, Payment, hand_points
from agari.engine.requests import parse_request
from agari.engine.result import ScoreResult, YakuHit
from agari.engine.rules import PRESETS, Rules
from agari.engine.scoring import score
from agari.engine.tiles import CLASS_NAMES, KINDS, TILE_NAMES, Tile, format_tiles, parse_tiles
from agari.engine.waits import score_each_wait, shanten, waits
from agari.engine.yaku import YAKU

__all__ = [
    "CLASS_NAMES",
    "KINDS",
    "LIMIT_NAMES",
    "PRESETS",
    "TILE_NAMES",
    "WINDS",
    "YAKU",
    "AgariError",
    "Hand",
    "InvalidHand",
    "InvalidInput",
    "InvalidTile",
    "Meld",
    "NoYaku",
    "NotAgari",
    "Payment",
    "Rules",
    "ScoreResult",
    "Tile",
    "WinContext",
    "YakuHit",
    "check_players",
    "format_tiles",
    "hand_points",
    "parse_hand",
    "parse_request",
    "parse_tiles",
    "parse_wind",
    "score",
    "score_each_wait",
    "shanten",
    "waits",
]
