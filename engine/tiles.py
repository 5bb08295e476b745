"""The one tile list (牌) used everywhere: engine, classifier labels, datasets.

A tile kind is an integer 0..33 in MPSZ order: 1m..9m (0-8), 1p..9p (9-17),
1s..9s (18-26), 1z..7z (27-33: 東 南 西 北 白 發 中). A `Tile` is a kind plus
a red flag (赤ドラ, only on fives). Canonical text is MPSZ with `0` for a red
five: ``"5m"``, ``"0p"``, ``"7z"``.

Edges also speak tenhou's 136 ids and mjai names; convert here, nowhere else.

>>> Tile.parse("0p")
Tile('0p')
>>> [str(t) for t in parse_tiles("406p11z")]
['4p', '0p', '6p', '1z', '1z']
>>> format_tiles(parse_tiles("3m1m2m0p"))
'123m0p'
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from agari.engine.errors import InvalidTile

SUITS = "mpsz"
KINDS: tuple[str, ...] = tuple(
    f"{n}{s}" for s in "mps" for n in range(1, 10)
) + tuple(f"{n}z" for n in range(1, 8))
"""The 34 kinds in kind-id order."""

RED_FIVES: tuple[str, ...] = ("0m", "0p", "0s")
TILE_NAMES: tuple[str, ...] = KINDS + RED_FIVES
"""Every face a tile can show: the 34 kinds, then the three red fives."""

BACK = "back"
"""A face-down tile (裏)."""
NONE = "none"
"""Not a tile at all: what a locator may wrongly propose."""

CLASS_NAMES: tuple[str, ...] = TILE_NAMES + (BACK, NONE)
"""Classifier and dataset label order: 37 faces, then ``back`` and ``none``."""

HONOR_NAMES_EN = ("east", "south", "west", "north", "white", "green", "red")
HONOR_NAMES_JA = ("東", "南", "西", "北", "白", "發", "中")

FIVE_KINDS = (4, 13, 22)
"""Kind ids of 5m, 5p, 5s: the only kinds with a red variant."""

TERMINAL_HONOR_KINDS = frozenset((0, 8, 9, 17, 18, 26, *range(27, 34)))
"""么九牌: terminals and honours."""

_MJAI_HONORS = ("E", "S", "W", "N", "P", "F", "C")
_GROUP = re.compile(r"([0-9]+)([mpsz])")


@dataclass(frozen=True, order=True, slots=True)
class Tile:
    """One physical tile face: a kind (0..33) and whether it is a red five."""

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.kind, int) or not 0 <= self.kind < 34:
            raise InvalidTile(f"tile kind must be 0..33, got {self.kind!r}")
        if self.red and self.kind not in FIVE_KINDS:
            raise InvalidTile(f"only fives can be red, got red {KINDS[self.kind]}")

    # -- text forms -------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> Tile:
        """Parse one MPSZ tile (``"5m"``, ``"0s"``) or an mjai name (``"5mr"``, ``"E"``)."""
        tile = _BY_NAME.get(text)
        if tile is not None:
            return tile
        t = text.strip()
        if len(t) == 2 and t[0].isdigit() and t[1] in SUITS:
            return _from_digit(int(t[0]), t[1], text)
        return cls.from_mjai(t)

    @property
    def name(self) -> str:
        """MPSZ text, ``0`` for a red five."""
        return "0" + KINDS[self.kind][1] if self.red else KINDS[self.kind]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tile({self.name!r})"

    @property
    def plain(self) -> Tile:
        """The same kind without the red flag."""
        return Tile(self.kind) if self.red else self

    # -- structure --------------------------------------------------------
    @property
    def suit(self) -> str:
        """``m``, ``p``, ``s`` or ``z``."""
        return KINDS[self.kind][1]

    @property
    def number(self) -> int:
        """1-9 for suited tiles, 1-7 for honours (E S W N white green red)."""
        return int(KINDS[self.kind][0])

    @property
    def is_honor(self) -> bool:
        """字牌."""
        return self.kind >= 27

    @property
    def is_terminal(self) -> bool:
        """老頭牌: a suited 1 or 9."""
        return self.kind < 27 and self.number in (1, 9)

    @property
    def is_yaochuu(self) -> bool:
        """么九牌: terminal or honour."""
        return self.kind in TERMINAL_HONOR_KINDS

    # -- tenhou 136 ids and mjai -----------------------------------------
    @classmethod
    def from_136(cls, tile_id: int, *, red_fives: bool = True) -> Tile:
        """Tenhou's 136 id (kind*4 + copy); copy 0 of each five is red when ``red_fives``."""
        if not isinstance(tile_id, int) or not 0 <= tile_id < 136:
            raise InvalidTile(f"tenhou tile id must be 0..135, got {tile_id!r}")
        kind = tile_id // 4
        return cls(kind, red=red_fives and kind in FIVE_KINDS and tile_id % 4 == 0)

    def to_136(self, copy: int = 0) -> int:
        """A 136 id for this tile; red fives are copy 0, plain fives start at copy 1."""
        if self.kind in FIVE_KINDS:
            copy = 0 if self.red else max(copy, 1)
        if not 0 <= copy < 4:
            raise InvalidTile(f"copy must be 0..3, got {copy}")
        return self.kind * 4 + copy

    @classmethod
    def from_mjai(cls, text: str) -> Tile:
        """mjai name: ``1m``…``9s``, ``5mr`` red, ``E S W N P F C`` honours."""
        if text in _MJAI_HONORS:
            return cls(27 + _MJAI_HONORS.index(text))
        if len(text) == 3 and text[0] == "5" and text[1] in "mps" and text[2] == "r":
            return cls(FIVE_KINDS["mps".index(text[1])], red=True)
        if len(text) == 2 and text[0] in "123456789" and text[1] in "mps":
            return cls("mps".index(text[1]) * 9 + int(text[0]) - 1)
        raise InvalidTile(f"not a tile: {text!r}")

    @property
    def mjai(self) -> str:
        """The mjai name of this tile."""
        if self.is_honor:
            return _MJAI_HONORS[self.kind - 27]
        return KINDS[self.kind] + ("r" if self.red else "")


def _from_digit(digit: int, suit: str, source: str) -> Tile:
    tile = _INTERNED.get((digit, suit))
    if tile is not None:
        return tile
    if suit == "z":
        if not 1 <= digit <= 7:
            raise InvalidTile(f"honours are 1z..7z, got {digit}z in {source!r}")
        return Tile(26 + digit)
    base = "mps".index(suit) * 9
    if digit == 0:
        return Tile(base + 4, red=True)
    return Tile(base + digit - 1)


_INTERNED: dict[tuple[int, str], Tile] = {
    (int(name[0]), name[1]): Tile(kind) for kind, name in enumerate(KINDS)
} | {(0, s): Tile(k, red=True) for s, k in zip("mps", FIVE_KINDS, strict=True)}
"""Shared `Tile` values by (digit, suit): parsing reuses them instead of building new ones."""

TILES: tuple[Tile, ...] = tuple(Tile(k) for k in range(34))
"""The plain tile of each kind, by kind id."""

_BY_NAME: dict[str, Tile] = {f"{d}{s}": t for (d, s), t in _INTERNED.items()} | {
    t.mjai: t for t in _INTERNED.values()
}
"""Every exact tile name (MPSZ and mjai) → its shared `Tile`: the fast path of `Tile.parse`."""


_RUN = re.compile(r"[0-9]+[mpsz]")
_RUNS: dict[str, tuple] = {}
"""Parsed ``digits+suit`` runs → (tiles, canonical text, suit, counts within the suit,
red fives, no count above 4): hands repeat runs like ``123m`` all the time."""
_RUN_CACHE_SIZE = 1 << 16
_NO_SUIT = ((0,) * 9, (0,) * 9, (0,) * 9, (0,) * 7)


def parse_tiles(text: str) -> list[Tile]:
    """Parse compact MPSZ (``"123m406p11z"``) into tiles, in written order.

    Raises:
        InvalidTile: on any character that is not part of a ``digits+suit`` run.
    """
    return read_group(text)[0]


def parse_group(text: str) -> tuple[list[Tile], str]:
    """Tiles of compact MPSZ in written order, and their canonical text (`format_tiles`).

    >>> tiles, canonical = parse_group("321m11z")
    >>> len(tiles), canonical
    (5, '123m11z')

    Raises:
        InvalidTile: on any character that is not part of a ``digits+suit`` run.
    """
    return read_group(text)[:2]


def read_group(text: str) -> tuple[list[Tile], str, tuple[int, ...] | None, list[int] | None]:
    """`parse_group`, plus the 34 kind counts and the red fives per suit (m, p, s).

    When the runs come suit by suit in order, as hands are usually written, the
    canonical text and the counts are put together from the runs read before;
    otherwise, or when a run holds five of a tile, the counts are ``None``
    (count the tiles).

    Raises:
        InvalidTile: on any character that is not part of a ``digits+suit`` run.
    """
    found = text.translate(_RUN_ENDS).split(",")
    if found.pop():  # the text does not end with a suit letter
        return _parse_slowly(text)
    tiles: list[Tile] = []
    texts = []
    suits = list(_NO_SUIT)
    reds = [0, 0, 0, 0]
    rank = -1
    for key in found:
        run = _RUNS.get(key) or _read_run(key, text)
        if run is None:
            return _parse_slowly(text)  # not digits and a suit: the exact error from there
        tiles.extend(run[0])
        texts.append(run[1])
        suit = run[2]
        rank = suit if suit > rank and run[5] else 9  # 9: a suit twice, out of order, a fifth
        suits[suit] = run[3]
        reds[suit] = run[4]
    if rank == 9:
        return tiles, format_tiles(tiles), None, None
    return tiles, "".join(texts), suits[0] + suits[1] + suits[2] + suits[3], reds[:3]


_RUN_ENDS = str.maketrans({suit: suit + "," for suit in SUITS})
"""Marks the end of each ``digits+suit`` run, to split a group into runs."""


def _read_run(key: str, text: str) -> tuple | None:
    """(tiles, canonical text, suit, counts in the suit, red fives, no fifth copy) of one
    ``digits+suit`` run, or None if ``key`` is not one."""
    digits = key[:-1]
    suit = _SUIT_INDEX.get(key[-1:])
    if suit is None or not (digits.isdigit() and digits.isascii()):
        return None
    if suit == 3 and digits.strip("1234567"):
        for d in digits:
            _from_digit(int(d), "z", text)  # raises the exact error at the first bad digit
    by_digit = _BY_DIGIT[suit]
    tiles = tuple([by_digit[d] for d in digits])
    counts = [0] * len(_NO_SUIT[suit])
    for t in tiles:
        counts[t.kind - 9 * suit] += 1
    canonical = "".join(sorted(digits))
    reds = 0
    if canonical[0] == "0":  # a red five sorts just before the plain fives, not first
        reds = canonical.count("0")
        rest = canonical[reds:]
        at = len(rest) - len(rest.lstrip("1234"))
        canonical = rest[:at] + "0" * reds + rest[at:]
    run = (tiles, canonical + key[-1], suit, tuple(counts), reds,
           len(digits) < 5 or max(counts) <= 4)
    if len(_RUNS) < _RUN_CACHE_SIZE:
        _RUNS[key] = run
    return run


_SUIT_INDEX = {suit: i for i, suit in enumerate(SUITS)}
_BY_DIGIT = tuple(
    {str(d): tile for (d, s), tile in _INTERNED.items() if s == suit} for suit in SUITS
)
"""Per suit, each digit's shared `Tile` (``0``: the red five)."""


def _parse_slowly(text: str) -> tuple[list[Tile], str, None, None]:
    """`parse_group` of text with spaces, or with something that is not a tile (the error)."""
    compact = text.replace(" ", "")
    pos = 0
    tiles: list[Tile] = []
    for m in _GROUP.finditer(compact):
        if m.start() != pos:
            raise InvalidTile(f"cannot read {compact[pos:m.start()]!r} in {text!r}")
        tiles.extend(tuple(_from_digit(int(d), m.group(2), text) for d in m.group(1)))
        pos = m.end()
    if pos != len(compact):
        raise InvalidTile(
            f"cannot read {compact[pos:]!r} in {text!r} (a suit letter m/p/s/z must end each run)"
        )
    return tiles, format_tiles(tiles), None, None


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Compact MPSZ, sorted by suit then number, red fives written as 0 beside the fives."""
    # Sort key kind·2 (+1 if plain) puts a red five just before the plain fives.
    keys = sorted([t.kind * 2 + (not t.red) for t in tiles])
    out: list[str] = []
    suit = ""
    for key in keys:
        kind = key >> 1
        if _SUIT_OF[kind] != suit:
            if suit:
                out.append(suit)
            suit = _SUIT_OF[kind]
        out.append(_DIGIT_OF[kind] if key & 1 else "0")
    if suit:
        out.append(suit)
    return "".join(out)


_SUIT_OF = tuple(k[1] for k in KINDS)
_DIGIT_OF = tuple(k[0] for k in KINDS)


def kind_counts(tiles: Iterable[Tile]) -> list[int]:
    """Copies of each of the 34 kinds (red fives count as their kind)."""
    counts = [0] * 34
    for t in tiles:
        counts[t.kind] += 1
    return counts
