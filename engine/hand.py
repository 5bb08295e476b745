"""A hand (手牌): concealed tiles plus called melds (副露), and the HAND notation.

HAND notation (the CLI contract): whitespace-separated groups; the first is
the concealed tiles including the winning tile (``123m406p789s1122z``), each
further group a meld: ``234s`` chi, ``777p`` pon, ``1111z`` open kan,
``[5555m]`` closed kan. ``0`` is a red five anywhere.

>>> h = parse_hand("123m406p11z 777p [5555m]")
>>> [m.kind for m in h.melds], len(h.concealed)
(['pon', 'ankan'], 8)
>>> str(h)
'123m406p11z 777p [5555m]'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agari.engine.errors import InvalidHand, InvalidTile
from agari.engine.tiles import KINDS, Tile, format_tiles, parse_tiles, read_group

MELD_KINDS = ("chi", "pon", "minkan", "ankan", "shouminkan")
"""チー, ポン, 大明槓, 暗槓, 加槓."""
SOURCES = ("left", "across", "right")
"""Whom a called tile came from: 上家, 対面, 下家."""
KAN_KINDS = frozenset(("minkan", "ankan", "shouminkan"))
SANMA_MISSING = frozenset(range(1, 8))
"""Kind ids of 2m..8m, which a 3-player set does not have."""
MAX_MELDS = 4


@dataclass(frozen=True, slots=True)
class Meld:
    """One declared set: chi, pon, or a kan (open ``minkan``/``shouminkan``, closed ``ankan``).

    Attributes:
        kind: one of `MELD_KINDS`.
        tiles: the tiles as laid down (3, or 4 for a kan).
        called: index in ``tiles`` of the sideways (called) tile, if known.
        source: ``left``/``across``/``right``: who discarded the called tile, if known.
    """

    kind: str
    tiles: tuple[Tile, ...]
    called: int | None = None
    source: str | None = None
    first: int = field(init=False, repr=False, compare=False)
    """Lowest kind id in the meld (the start of a chi, the kind of a pon/kan)."""
    text: str = field(init=False, repr=False, compare=False)
    """HAND notation of the meld (``777p``, ``[5555m]``)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(self.tiles))
        if self.kind not in MELD_KINDS:
            raise InvalidHand(
                f"meld kind must be one of {', '.join(MELD_KINDS)}, got {self.kind!r}"
            )
        if not all(isinstance(t, Tile) for t in self.tiles):
            raise InvalidHand(f"meld tiles must be Tile values, got {self.tiles!r}")
        object.__setattr__(self, "first", _check_shape(self.kind, self.tiles))
        _check_call(self)
        text = format_tiles(self.tiles)
        object.__setattr__(self, "text", f"[{text}]" if self.kind == "ankan" else text)

    @property
    def opened(self) -> bool:
        """Every meld but a closed kan opens the hand (門前でなくなる)."""
        return self.kind != "ankan"

    @property
    def is_kan(self) -> bool:
        """A four-tile set."""
        return self.kind in KAN_KINDS

    def __str__(self) -> str:
        return self.text


def _check_shape(kind: str, tiles: tuple[Tile, ...]) -> int:
    kinds = sorted([t.kind for t in tiles])
    size = 4 if kind in KAN_KINDS else 3
    if len(kinds) != size:
        raise InvalidHand(f"a {kind} has {size} tiles, got {len(kinds)} ({format_tiles(tiles)})")
    if kind == "chi":
        a = kinds[0]
        if a >= 27 or kinds != [a, a + 1, a + 2] or a % 9 > 6:
            raise InvalidHand(
                f"chi {format_tiles(tiles)} is not three consecutive tiles of one suit"
            )
    elif kinds.count(kinds[0]) != size:
        raise InvalidHand(f"{kind} {format_tiles(tiles)} is not {size} copies of one tile")
    return kinds[0]


def _check_call(meld: Meld) -> None:
    if meld.kind == "ankan":
        if meld.called is not None or meld.source is not None:
            raise InvalidHand("a closed kan (ankan) has no called tile")
        return
    if meld.called is not None and not 0 <= meld.called < len(meld.tiles):
        raise InvalidHand(
            f"called index {meld.called} is outside the {len(meld.tiles)} tiles of the meld"
        )
    if meld.source is not None and meld.source not in SOURCES:
        raise InvalidHand(f"meld source must be one of {', '.join(SOURCES)}, got {meld.source!r}")
    if meld.kind == "chi" and meld.source not in (None, "left"):
        raise InvalidHand(f"a chi can only be called from the left, got {meld.source!r}")


@dataclass(frozen=True, slots=True)
class Hand:
    """Concealed tiles (in written order, incl. the winning tile) and melds.

    A scoring hand has 14 tiles counting each meld as 3 (kans add one more
    physical tile); a waiting hand has 13.
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    counts: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Copies of each of the 34 kinds among the concealed tiles."""
    reds: tuple[int, int, int] = field(init=False, repr=False, compare=False)
    """Red fives held per suit (m, p, s), melds included."""
    held: tuple[int, ...] = field(init=False, repr=False, compare=False)
    """Copies of each kind held anywhere: concealed plus melds (a kan counts 4)."""
    closed: bool = field(init=False, repr=False, compare=False)
    """門前: no open meld (closed kans keep a hand closed)."""
    _text: list[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        setattr_ = object.__setattr__
        if type(self.concealed) is not tuple:
            setattr_(self, "concealed", tuple(self.concealed))
        if type(self.melds) is not tuple:
            setattr_(self, "melds", tuple(self.melds))
        counts = [0] * 34
        reds = [0, 0, 0]
        try:
            for t in self.concealed:
                counts[t.kind] += 1
                if t.red:
                    reds[t.kind // 9] += 1
        except AttributeError:
            raise InvalidHand("concealed tiles must be Tile values") from None
        _finish(self, tuple(counts), reds)

    @classmethod
    def _counted(cls, concealed: tuple[Tile, ...], melds: tuple[Meld, ...],
                 counts: tuple[int, ...], reds: list[int], text: str) -> Hand:
        """The hand the notation parser has already counted (concealed counts at most 4 each)
        and written out canonically: the same value and checks as ``Hand(concealed, melds)``."""
        self = object.__new__(cls)
        object.__setattr__(self, "concealed", concealed)
        object.__setattr__(self, "melds", melds)
        _finish(self, counts, reds, text)
        return self

    @property
    def size(self) -> int:
        """Tiles counting each meld as 3: 14 for a complete hand, 13 waiting."""
        return len(self.concealed) + 3 * len(self.melds)

    def all_tiles(self) -> list[Tile]:
        """Every physical tile: concealed, then melds."""
        tiles = list(self.concealed)
        for m in self.melds:
            tiles.extend(m.tiles)
        return tiles

    def __str__(self) -> str:
        if not self._text:  # cached: results echo the hand text on every score
            self._text.append(
                " ".join([format_tiles(self.concealed), *(m.text for m in self.melds)])
            )
        return self._text[0]


def _finish(hand: Hand, counts: tuple[int, ...], reds: list[int], text: str | None = None) -> None:
    """Set the derived fields from the concealed counts and red fives, add the melds, check.

    With ``text`` (the parser's canonical notation) the concealed counts are known to be
    at most 4 each, so only the kinds the melds add to are checked for a fifth copy.
    """
    setattr_ = object.__setattr__
    setattr_(hand, "counts", counts)
    closed = True
    fifth = text is None and max(counts) > 4
    if hand.melds:
        counts = list(counts)
        for m in hand.melds:
            if type(m) is not Meld:
                raise InvalidHand("melds must be Meld values")
            if m.kind != "ankan":
                closed = False
            for t in m.tiles:
                kind = t.kind
                counts[kind] += 1
                if counts[kind] > 4:
                    fifth = True
                if t.red:
                    reds[kind // 9] += 1
        counts = tuple(counts)
    setattr_(hand, "held", counts)
    setattr_(hand, "reds", tuple(reds))
    setattr_(hand, "closed", closed)
    setattr_(hand, "_text", [] if text is None else [text])
    if fifth:
        _check_copies(hand)
    if len(hand.melds) > MAX_MELDS or len(hand.concealed) + 3 * len(hand.melds) not in (13, 14):
        _check_size(hand)


def _check_size(hand: Hand) -> None:
    if len(hand.melds) > MAX_MELDS:
        raise InvalidHand(f"a hand has at most {MAX_MELDS} melds, got {len(hand.melds)}")
    if hand.size not in (13, 14):
        raise InvalidHand(
            f"a hand has 13 or 14 tiles counting each meld as 3, got {hand.size} "
            f"({len(hand.concealed)} concealed + {len(hand.melds)} meld(s))"
        )


def _check_copies(hand: Hand) -> None:
    if max(hand.held) > 4:
        kind = max(range(34), key=hand.held.__getitem__)
        raise InvalidHand(f"{hand.held[kind]} copies of {KINDS[kind]} (a set has only 4)")


def check_players(hand: Hand, players: int) -> None:
    """Reject what a ``players``-player set cannot hold: 2m-8m and chi in sanma.

    Raises:
        InvalidHand: a tile or call that 3-player mahjong does not have.
    """
    if players == 4:
        return
    if players != 3:
        raise InvalidHand(f"players must be 3 or 4, got {players!r}")
    if any(hand.held[1:8]):
        kind = next(k for k in SANMA_MISSING if hand.held[k])
        raise InvalidHand(f"3-player mahjong has no 2m-8m, got {KINDS[kind]}")
    if any(m.kind == "chi" for m in hand.melds):
        raise InvalidHand("3-player mahjong has no chi")


def parse_hand(text: str, *, players: int = 4) -> Hand:
    """Parse HAND notation into a `Hand` (see the module docstring).

    Raises:
        InvalidHand: empty text, a bracket out of place, a meld that is not a
            set, a fifth copy, a wrong tile count, or 2m-8m/chi in 3-player.
        InvalidTile: characters that are not tiles.
    """
    if not isinstance(text, str):
        raise InvalidHand(f"a hand must be text, got {type(text).__name__}")
    groups = text.split()
    if not groups:
        raise InvalidHand("empty hand: expected e.g. '123m406p789s1122z'")
    if groups[0][0] == "[":
        raise InvalidHand(f"the first group must be the concealed tiles, got {groups[0]!r}")
    try:
        concealed, canonical, counts, reds = read_group(groups[0])
    except InvalidTile as exc:
        raise InvalidTile(f"concealed tiles {groups[0]!r}: {exc}") from None
    melds = ()
    if len(groups) > 1:
        melds = tuple([_parse_meld(g) for g in groups[1:]])
        canonical = " ".join([canonical, *(m.text for m in melds)])
    if counts is None:
        hand = Hand(tuple(concealed), melds)
        hand._text.append(canonical)  # what str() would work out again
    else:
        hand = Hand._counted(tuple(concealed), melds, counts, reds, canonical)
    if players != 4:
        check_players(hand, players)
    return hand


def _tiles_of(group: str, what: str) -> list[Tile]:
    try:
        return parse_tiles(group)
    except InvalidTile as exc:
        raise InvalidTile(f"{what} {group!r}: {exc}") from None


_MELDS: dict[str, Meld] = {}
"""Parsed meld groups: a few hundred spellings cover every meld, and `Meld` is immutable."""
_MELD_CACHE_SIZE = 4096


def _parse_meld(group: str) -> Meld:
    meld = _MELDS.get(group)
    if meld is None:
        meld = _read_meld(group)
        if len(_MELDS) < _MELD_CACHE_SIZE:
            _MELDS[group] = meld
    return meld


def _read_meld(group: str) -> Meld:
    closed = group.startswith("[")
    if closed != group.endswith("]"):
        raise InvalidHand(f"unbalanced brackets in meld {group!r}: a closed kan is written [5555m]")
    body = group[1:-1] if closed else group
    if "[" in body or "]" in body:
        raise InvalidHand(f"unexpected bracket in meld {group!r}")
    tiles = tuple(_tiles_of(body, "meld"))
    kinds = {t.kind for t in tiles}
    if closed:
        if len(tiles) != 4 or len(kinds) != 1:
            raise InvalidHand(f"closed kan {group!r} must be four copies of one tile, e.g. [5555m]")
        return Meld("ankan", tiles)
    if len(tiles) == 4:
        if len(kinds) != 1:
            raise InvalidHand(f"kan {group!r} must be four copies of one tile")
        return Meld("minkan", tiles)
    if len(tiles) == 3:
        return Meld("pon" if len(kinds) == 1 else "chi", tiles)
    raise InvalidHand(f"meld {group!r} has {len(tiles)} tiles: a chi or pon has 3, a kan 4")
