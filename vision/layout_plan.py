"""The layout's plans: where the hand's tiles, melds and indicators lie in a photo.

`agari.vision.layout.analyse_layout` returns `LayoutPlan` values, likeliest first;
the reading stage (`agari.vision.reading`) reads each one as tiles. Detection
indices name the tiles, so a plan says nothing about what each tile is.
"""

from __future__ import annotations

from dataclasses import dataclass

from agari.engine.hand import SOURCES
from agari.vision.layout_geometry import HandFrame


@dataclass(frozen=True, slots=True)
class MeldPlace:
    """Where one meld lies: its columns (detection indices) and which column is sideways.

    Attributes:
        kind: ``open`` (chi, pon or open kan: decided by the tiles), ``added_kan``
            (加槓: a stacked pair of sideways tiles) or ``closed_kan`` (暗槓).
        columns: detection indices per column, left to right; each column lists
            its tiles nearest the player first (two for an added kan's stack).
        sideways_index: the column lying sideways (None for a closed kan).
        hidden: columns showing their backs (a closed kan's two).
        unseen: where a closed kan laid in three columns lacks its fourth tile, an end back
            the locator did not find (`agari.vision.layout_parse.SHORT_KANS`): 0 before
            the first column, 3 after the last, 2 after the middle one (its two backs boxed
            as one, `LayoutConfig.wide_backs`); None for a meld whose tiles are all
            seen.
    """

    kind: str
    columns: tuple[tuple[int, ...], ...]
    sideways_index: int | None = None
    hidden: tuple[int, ...] = ()
    unseen: int | None = None

    @property
    def detections(self) -> tuple[int, ...]:
        """Every detection index of the meld, column by column."""
        return tuple(i for col in self.columns for i in col)

    @property
    def laid(self) -> tuple[int, ...]:
        """One detection per tile laid, in order: an added kan's called tile hidden under the
        added one (`agari.vision.layout_stacks`) shares that tile's detection, a closed kan's
        unseen end back (`unseen`) the detection of the back it shows."""
        out = self.detections
        k = self.sideways_index
        if self.kind == "added_kan" and len(out) == 3 and k is not None:
            return (*out[:k + 1], *out[k:])
        if self.unseen is not None and self.hidden:
            back = self.columns[self.hidden[0]][0]
            return (*out[:self.unseen], back, *out[self.unseen:])
        return out

    @property
    def laid_hidden(self) -> tuple[int, ...]:
        """The positions in `laid` of the tiles lying face down (a closed kan's two backs,
        an unseen one among them)."""
        if self.unseen is None:
            return self.hidden
        return tuple(sorted({k + (k >= self.unseen) for k in self.hidden} | {self.unseen}))

    @property
    def faces(self) -> tuple[int, ...]:
        """The face-up detections, left to right (a closed kan shows two)."""
        return tuple(i for k, col in enumerate(self.columns) if k not in self.hidden for i in col)

    @property
    def source(self) -> str | None:
        """Who discarded the called tile, from the sideways tile's position."""
        if self.sideways_index is None:
            return None
        if self.sideways_index == 0:
            return SOURCES[0]
        return SOURCES[2] if self.sideways_index == len(self.columns) - 1 else SOURCES[1]


@dataclass(frozen=True, slots=True)
class LayoutPlan:
    """One reading of the photo's geometry; detection indices name the tiles.

    Attributes:
        frame: the hand's axes and tile size.
        concealed: the concealed tiles left to right (without the winning tile).
        win: the winning tile set apart, or None when none is seen.
        melds: the melds left to right.
        dora, ura: indicator tiles left to right.
        others: everything else (other tiles on the table, dead-wall backs, non-tiles).
        flipped: the frame was turned round (the hand seen from the other side).
        notes: what the analyser assumed, for the user.
        apart: a tile set apart yet read as a concealed one (a waiting hand shows no
            winning tile), or None.
    """

    frame: HandFrame
    concealed: tuple[int, ...]
    win: int | None = None
    melds: tuple[MeldPlace, ...] = ()
    dora: tuple[int, ...] = ()
    ura: tuple[int, ...] = ()
    others: tuple[int, ...] = ()
    flipped: bool = False
    notes: tuple[str, ...] = ()
    apart: int | None = None

    @property
    def size(self) -> int:
        """Hand size counting each meld as three: 14 complete, 13 waiting."""
        return len(self.concealed) + (self.win is not None) + 3 * len(self.melds)

    @property
    def hand_tiles(self) -> tuple[int, ...]:
        """The hand's detections: concealed, the winning tile, then every meld's."""
        return (*self.concealed, *((self.win,) if self.win is not None else ()),
                *(i for m in self.melds for i in m.detections))

    def role_of(self) -> dict[int, str]:
        """Detection index → role name (``concealed``, ``win``, ``meld 1``, ``dora``, ``ura``)."""
        roles = {i: "concealed" for i in self.concealed}
        if self.win is not None:
            roles[self.win] = "win"
        for k, m in enumerate(self.melds):
            roles.update({i: f"meld {k + 1}" for i in m.detections})
        roles.update({i: "dora" for i in self.dora})
        roles.update({i: "ura" for i in self.ura})
        return roles


__all__ = ["LayoutPlan", "MeldPlace"]
