"""Random legal hands to lay out: winning (3n+2) and waiting (3n+1), with calls and dora.

Tiles are drawn from one physical set of 136 (one red five per suit), so no
fifth copy can appear. Every hand is checked with the engine before use: a
winning hand must be complete (`agari.engine.shapes.is_complete`) and a waiting
hand must have a wait (`waits_of`); `agari.engine.hand.Hand` validates sizes,
melds and copies.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from agari.engine.hand import Hand, Meld
from agari.engine.shapes import is_complete, waits_of
from agari.engine.tiles import FIVE_KINDS, TERMINAL_HONOR_KINDS, Tile, format_tiles, kind_counts

MELD_COUNT_PROBS = (0.45, 0.25, 0.15, 0.1, 0.05)
"""Chance of 0, 1, 2, 3, 4 called sets."""
SEQUENCE_PROB = 0.55
KAN_PROB = 0.22
"""Chance that a called triplet is a kan (then: open, added or closed)."""
SEVEN_PAIRS_PROB = 0.06
THIRTEEN_ORPHANS_PROB = 0.01
SORTED_PROB = 0.85
"""Players usually sort their hand; some leave it as drawn."""
URA_PROB = 0.35
"""A closed winning hand shows its ura indicators (riichi was declared)."""
_SOURCE_INDEX = {"left": 0, "across": 1, "right": 2}


@dataclass(frozen=True)
class ShownHand:
    """A hand as laid out on the table.

    Attributes:
        concealed: the concealed tiles in display order, without the winning tile.
        win: the winning tile (set apart), or None for a waiting hand.
        melds: called sets in call order; ``called`` is the sideways tile's index; a
            shouminkan lists its pon tiles, then the added tile.
        dora: dora indicators; ura: ura indicators (may be empty).
    """

    concealed: tuple[Tile, ...]
    win: Tile | None
    melds: tuple[Meld, ...]
    dora: tuple[Tile, ...]
    ura: tuple[Tile, ...]

    @property
    def text(self) -> str:
        """The HAND string `agari score` reads: concealed tiles with the winning tile last."""
        first = format_tiles(self.concealed) + (self.win.name if self.win else "")
        return " ".join([first, *(str(m) for m in self.melds)])


class _Wall:
    """The 136 physical tiles still available."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.left: dict[int, list[Tile]] = {
            k: [Tile(k, red=(k in FIVE_KINDS and c == 0)) for c in range(4)] for k in range(34)}

    def count(self, kind: int) -> int:
        return len(self.left[kind])

    def take(self, kind: int) -> Tile:
        pile = self.left[kind]
        return pile.pop(int(self.rng.integers(len(pile))))

    def take_any(self) -> Tile:
        kinds = [k for k in range(34) if self.left[k]]
        return self.take(int(self.rng.choice(kinds)))


def random_hand(rng: np.random.Generator, *, complete: bool = True) -> ShownHand:
    """A legal hand: winning (``complete``) or waiting one tile short, checked by the engine."""
    for _ in range(100):
        hand = _try_hand(rng, complete)
        if hand is not None:
            return hand
    raise RuntimeError("could not draw a legal hand in 100 tries")  # pragma: no cover


def _try_hand(rng: np.random.Generator, complete: bool) -> ShownHand | None:
    wall = _Wall(rng)
    n_melds = int(rng.choice(len(MELD_COUNT_PROBS), p=MELD_COUNT_PROBS))
    special = rng.random()
    if n_melds == 0 and special < THIRTEEN_ORPHANS_PROB:
        tiles, melds = _orphans(wall), []
    elif n_melds == 0 and special < THIRTEEN_ORPHANS_PROB + SEVEN_PAIRS_PROB:
        tiles, melds = _pairs(wall), []
    else:
        groups = [_group(wall) for _ in range(4)]
        pair = _pair(wall)
        if pair is None or any(g is None for g in groups):
            return None
        melds = [_call(wall, g) for g in groups[:n_melds]]
        tiles = [t for g in groups[n_melds:] for t in g] + pair
    if any(m is None for m in melds):
        return None
    win = tiles.pop(int(rng.integers(len(tiles))))
    if not _legal(tiles, win, melds, complete):
        return None
    concealed = _display_order(rng, tiles)
    kans = sum(m.is_kan for m in melds)
    dora = tuple(wall.take_any() for _ in range(1 + kans))
    closed = all(not m.opened for m in melds)
    ura = tuple(wall.take_any() for _ in dora) if complete and closed and \
        rng.random() < URA_PROB else ()
    return ShownHand(tuple(concealed), win if complete else None, tuple(melds), dora, ura)


def _pair(wall: _Wall) -> list[Tile] | None:
    kinds = [k for k in range(34) if wall.count(k) >= 2]
    if not kinds:
        return None
    k = int(wall.rng.choice(kinds))
    return [wall.take(k), wall.take(k)]


def _group(wall: _Wall) -> list[Tile] | None:
    rng = wall.rng
    if rng.random() < SEQUENCE_PROB:
        starts = [s * 9 + n for s in range(3) for n in range(7)
                  if all(wall.count(s * 9 + n + i) for i in range(3))]
        if starts:
            k = int(rng.choice(starts))
            return [wall.take(k + i) for i in range(3)]
    kinds = [k for k in range(34) if wall.count(k) >= 3]
    if not kinds:
        return None
    k = int(rng.choice(kinds))
    return [wall.take(k) for _ in range(3)]


def _call(wall: _Wall, group: list[Tile]) -> Meld | None:
    """Turn a set into a meld: chi from the left, or pon/kan from anyone."""
    rng = wall.rng
    if group[0].kind != group[1].kind:  # a sequence: the called tile goes first, sideways
        called = group.pop(int(rng.integers(3)))
        return Meld("chi", (called, *sorted(group)), called=0, source="left")
    source = ("left", "across", "right")[int(rng.integers(3))]
    if rng.random() < KAN_PROB and wall.count(group[0].kind):
        group.append(wall.take(group[0].kind))
        kind = ("minkan", "shouminkan", "ankan")[int(rng.integers(3))]
        if kind == "ankan":
            return Meld("ankan", tuple(group))
        if kind == "minkan":
            return Meld("minkan", tuple(group), called={"left": 0, "across": 1, "right": 3}[source],
                        source=source)
        return Meld("shouminkan", tuple(group), called=_SOURCE_INDEX[source], source=source)
    return Meld("pon", tuple(group), called=_SOURCE_INDEX[source], source=source)


def _orphans(wall: _Wall) -> list[Tile]:
    kinds = sorted(TERMINAL_HONOR_KINDS)
    tiles = [wall.take(k) for k in kinds]
    tiles.append(wall.take(int(wall.rng.choice(kinds))))
    return tiles


def _pairs(wall: _Wall) -> list[Tile]:
    kinds = wall.rng.choice(34, size=7, replace=False)
    return [wall.take(int(k)) for k in kinds for _ in range(2)]


def _legal(tiles: list[Tile], win: Tile, melds: list[Meld], complete: bool) -> bool:
    Hand(tuple(tiles) + ((win,) if complete else ()), tuple(melds))  # sizes and copies
    held = kind_counts(tiles)
    if complete:
        return is_complete(kind_counts([*tiles, win]), len(melds))
    all_held = kind_counts([*tiles, *(t for m in melds for t in m.tiles)])
    return bool(waits_of(held, len(melds), all_held))


def _display_order(rng: np.random.Generator, tiles: list[Tile]) -> list[Tile]:
    """Sorted by suit then number (suit order varies by player), or left as drawn."""
    if rng.random() > SORTED_PROB:
        return list(rng.permutation(np.array(tiles, dtype=object)))
    suits = list(rng.permutation(["m", "p", "s"])) + ["z"]
    return sorted(tiles, key=lambda t: (suits.index(t.suit), t.number, not t.red))
