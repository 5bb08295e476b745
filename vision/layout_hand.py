"""`HandLayout`: a photographed hand as read, with the detections each part came from.

The value that stage 3 hands to the engine: concealed tiles, the winning tile
(None when the photo does not show which it is), melds with their sideways
tile and source, dora and ura indicators. `HandLayout.hand` gives the
engine's `Hand`; `to_json` the ``layout`` object of the photo JSON contract.
"""

from __future__ import annotations

from dataclasses import dataclass

from agari.engine.errors import InvalidHand
from agari.engine.hand import MELD_KINDS, SOURCES, Hand, Meld
from agari.engine.tiles import Tile, format_tiles
from agari.vision.detection import TileDetection


@dataclass(frozen=True, slots=True)
class LaidMeld:
    """One meld as laid on the table.

    Attributes:
        kind: chi, pon, minkan, ankan or shouminkan.
        tiles: the tiles left to right (a closed kan's hidden tiles included;
            an added kan's stacked tile right after the one it lies on).
        sideways_index: index in ``tiles`` of the sideways (called) tile, None for ankan.
        source: who discarded the called tile (left, across, right), if known.
        detections: the detections of ``tiles``, same order (backs for hidden tiles).
    """

    kind: str
    tiles: tuple[Tile, ...]
    sideways_index: int | None = None
    source: str | None = None
    detections: tuple[TileDetection, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(self.tiles))
        object.__setattr__(self, "detections", tuple(self.detections))
        if self.kind not in MELD_KINDS:
            raise InvalidHand(f"meld kind must be one of {MELD_KINDS}, got {self.kind!r}")
        if self.detections and len(self.detections) != len(self.tiles):
            raise InvalidHand(f"a meld of {len(self.tiles)} tiles has "
                              f"{len(self.detections)} detections")
        if self.source is not None and self.source not in SOURCES:
            raise InvalidHand(f"meld source must be one of {SOURCES}, got {self.source!r}")

    def meld(self) -> Meld:
        """The engine's `Meld` (a chi's source is always the left player)."""
        if self.kind == "ankan":
            return Meld("ankan", self.tiles)
        source = "left" if self.kind == "chi" else self.source
        return Meld(self.kind, self.tiles, called=self.sideways_index, source=source)

    def to_json(self) -> dict:
        return {"kind": self.kind, "tiles": [str(t) for t in self.tiles],
                "sideways_index": self.sideways_index, "source": self.source}


@dataclass(frozen=True, slots=True)
class HandLayout:
    """A photographed hand: what each part shows and which detections show it.

    Attributes:
        concealed: the concealed tiles left to right, without the winning tile.
        win: the winning tile, or None when the photo does not single it out.
        melds: called melds and closed kans, left to right.
        dora, ura: indicator tiles (表示牌), left to right.
        concealed_detections, win_detection, dora_detections, ura_detections:
            where each of those tiles was seen (same order).
    """

    concealed: tuple[Tile, ...]
    win: Tile | None = None
    melds: tuple[LaidMeld, ...] = ()
    dora: tuple[Tile, ...] = ()
    ura: tuple[Tile, ...] = ()
    concealed_detections: tuple[TileDetection, ...] = ()
    win_detection: TileDetection | None = None
    dora_detections: tuple[TileDetection, ...] = ()
    ura_detections: tuple[TileDetection, ...] = ()

    def __post_init__(self) -> None:
        for name in ("concealed", "melds", "dora", "ura", "concealed_detections",
                     "dora_detections", "ura_detections"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        for tiles, dets in ((self.concealed, self.concealed_detections),
                            (self.dora, self.dora_detections), (self.ura, self.ura_detections)):
            if dets and len(dets) != len(tiles):
                raise InvalidHand(f"{len(tiles)} tiles but {len(dets)} detections")
        if not all(isinstance(t, Tile) for t in (*self.concealed, *self.dora, *self.ura)):
            raise InvalidHand("layout tiles must be Tile values")
        if self.win is not None and not isinstance(self.win, Tile):
            raise InvalidHand(f"win must be a Tile or None, got {self.win!r}")

    @property
    def size(self) -> int:
        """Tiles counting each meld as three: 14 complete, 13 waiting."""
        return len(self.concealed) + (self.win is not None) + 3 * len(self.melds)

    def hand(self) -> Hand:
        """The engine's `Hand`: concealed tiles with the winning tile last, and the melds.

        Raises:
            InvalidHand: the tiles cannot be one hand (wrong size, a fifth copy…).
        """
        tiles = self.concealed + ((self.win,) if self.win is not None else ())
        return Hand(tiles, tuple(m.meld() for m in self.melds))

    @property
    def hand_text(self) -> str:
        """HAND notation ``agari score`` accepts; the winning tile, when known, written last."""
        first = format_tiles(self.concealed)
        if self.win is not None:
            first += str(self.win)
        return " ".join([first, *(str(m.meld()) for m in self.melds)])

    def to_json(self) -> dict:
        """The ``layout`` object of the photo JSON contract."""
        return {
            "concealed": [str(t) for t in self.concealed],
            "win": str(self.win) if self.win is not None else None,
            "melds": [m.to_json() for m in self.melds],
            "dora": [str(t) for t in self.dora],
            "ura": [str(t) for t in self.ura],
        }
