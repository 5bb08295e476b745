"""Where each tile goes: a hand laid out the way players show it, plus the table around it.

World frame as in `agari.datasets.camera`: the hand's player sits at ``-y``,
the concealed row runs along ``+x`` from ``x = 0`` with its near edge at
``y = 0``. The layout follows table custom:

- concealed tiles touching, lying face up (a shown hand) or standing;
- the winning tile a little apart on the right;
- called melds further right, the first call rightmost; the called tile lies
  sideways at the position of its source (left: first, across: middle,
  right: last); an added kan's tile lies on, or beyond, the sideways tile;
  a closed kan shows backs at its ends;
- dora indicators in a row above the hand or face up on a dead-wall stack,
  ura indicators beside them (a loose ura row lies below its dora, nearer the player).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from agari.datasets.hands import ShownHand
from agari.datasets.poses import footprint, pose_flat, pose_standing
from agari.datasets.tilebody import TilePose
from agari.engine.hand import Meld

GAP_MM = (0.0, 0.8)
"""Space between touching tiles."""
SPIN_DEG = 0.8
"""Standard deviation of each tile's small twist on the table."""
JITTER_MM = 0.4
"""Standard deviation of each tile's offset from its row."""


@dataclass(frozen=True, eq=False)
class Placement:
    """One tile in the scene.

    Attributes:
        pose: where it is.
        face: the tile name printed on its face (also for a tile lying face down).
        role: annotation role (see `agari.datasets.annotation.ROLES`).
        group: meld index for role ``meld``.
        turn: art turn in the row frame, degrees anticlockwise (0, 90, 180, 270).
        sideways: the long side runs along the row.
    """

    pose: TilePose
    face: str
    role: str = "other"
    group: int | None = None
    turn: int = 0
    sideways: bool = False


@dataclass
class Row:
    """A cursor along a row: ``x`` along it, ``y`` its near edge, in the row's own frame.

    The row's frame sits at ``origin`` on the table, turned by ``heading`` degrees.
    """

    rng: np.random.Generator
    size: tuple[float, float, float]
    x: float = 0.0
    y: float = 0.0
    origin: tuple[float, float] = (0.0, 0.0)
    heading: float = 0.0

    def gap(self) -> float:
        return float(self.rng.uniform(*GAP_MM))

    def _world(self, x: float, y: float) -> tuple[float, float]:
        c, s = math.cos(math.radians(self.heading)), math.sin(math.radians(self.heading))
        return (self.origin[0] + c * x - s * y, self.origin[1] + s * x + c * y)

    def flat(self, face: str, *, turn: int = 0, face_up: bool = True, role: str = "other",
             group: int | None = None, base_z: float = 0.0, advance: bool = True,
             dy: float = 0.0) -> Placement:
        """A tile lying at the cursor; the cursor moves past it unless ``advance`` is False."""
        along, across = footprint(self.size, turn)
        jitter = self.rng.normal(0, JITTER_MM)
        wx, wy = self._world(self.x + along / 2, self.y + dy + across / 2 + jitter)
        pose = pose_flat(wx, wy, heading=self.heading, turn=turn, face_up=face_up,
                         size_mm=self.size, base_z=base_z,
                         spin=float(self.rng.normal(0, SPIN_DEG)))
        if advance:
            self.x += along + self.gap()
        return Placement(pose, face, role, group, turn, turn % 180 == 90)

    def standing(self, face: str, *, lean: float, turn: int = 0, role: str = "other",
                 facing_player: bool = True) -> Placement:
        """A tile standing at the cursor, facing this row's player (or away)."""
        w, _, d = self.size
        wx, wy = self._world(self.x + w / 2, self.y + d / 2 + self.rng.normal(0, JITTER_MM))
        pose = pose_standing(wx, wy, heading=self.heading, size_mm=self.size, turn=turn,
                             lean=lean + float(self.rng.normal(0, 1.5)),
                             facing_player=facing_player,
                             spin=float(self.rng.normal(0, SPIN_DEG)))
        self.x += w + self.gap()
        return Placement(pose, face, role, None, turn, False)


def layout_hand(rng: np.random.Generator, hand: ShownHand, size: tuple[float, float, float], *,
                standing: bool = False, upside_down: float = 0.01) -> list[Placement]:
    """The player's own hand: concealed row, winning tile, melds, dora area.

    Args:
        standing: the concealed tiles stand facing the player (a hand in play);
            otherwise they lie face up (a shown hand).
        upside_down: chance that any one concealed tile was placed upside down.
    """
    w, h, d = size
    row = Row(rng, size)
    lean = float(rng.uniform(0, 14))
    out: list[Placement] = []
    for t in hand.concealed:
        turn = 180 if rng.random() < upside_down else 0
        out.append(row.standing(t.name, lean=lean, turn=turn, role="concealed") if standing
                   else row.flat(t.name, turn=turn, role="concealed"))
    if hand.win is not None:
        row.x += float(rng.uniform(0.25, 1.0)) * w
        win_standing = standing and rng.random() < 0.6
        out.append(row.standing(hand.win.name, lean=lean, role="win") if win_standing
                   else row.flat(hand.win.name, role="win"))
    row.x += float(rng.uniform(0.6, 3.0)) * w
    if standing:
        row.y = -float(rng.uniform(0.0, 0.6)) * h  # melds lie nearer the table edge
    turn = 90 if rng.random() < 0.85 else 270
    for index in reversed(range(len(hand.melds))):
        out.extend(_meld(row, hand.melds[index], index, turn))
        row.x += float(rng.uniform(0.0, 0.25)) * w
    out.extend(layout_dora(rng, hand, size, right=row.x))
    return out


def _meld(row: Row, meld: Meld, group: int, turn: int) -> list[Placement]:
    """One called set, left to right, with its sideways tile (and added kan tile)."""
    rng, (w, _, d) = row.rng, row.size
    tiles = meld.tiles
    out: list[Placement] = []
    if meld.kind == "ankan":
        backs = (1, 2) if rng.random() < 0.15 else (0, 3)
        for i, t in enumerate(tiles):
            out.append(row.flat(t.name, face_up=i not in backs, role="meld", group=group))
        return out
    shown = tiles[:3] if meld.kind == "shouminkan" else tiles
    for i, t in enumerate(shown):
        if i != meld.called:
            out.append(row.flat(t.name, role="meld", group=group))
            continue
        x = row.x
        out.append(row.flat(t.name, turn=turn, role="meld", group=group))
        if meld.kind == "shouminkan":
            x_end, row.x = row.x, x
            added = tiles[3].name
            out.append(row.flat(added, turn=turn, role="meld", group=group, base_z=d,
                                advance=False) if rng.random() < 0.5 else
                       row.flat(added, turn=turn, role="meld", group=group, advance=False,
                                dy=w + row.gap()))
            row.x = x_end
    return out


def layout_dora(rng: np.random.Generator, hand: ShownHand, size: tuple[float, float, float], *,
                right: float) -> list[Placement]:
    """Dora (and ura) indicators: a loose row above the hand, or on a dead-wall stack."""
    if not hand.dora or rng.random() < 0.12:
        return []
    w, h, d = size
    y = h + float(rng.uniform(0.6, 3.0)) * h
    x = float(rng.uniform(-1.0, max(1.0, right - 8 * w)))
    if rng.random() < 0.5:
        return _dead_wall(rng, hand, size, x, y)
    ura_below = bool(hand.ura) and rng.random() < 0.5
    if ura_below:  # ura lie below (nearer the player than) their dora: make room for them
        y += 2.0 * h
    row = Row(rng, size, x=x, y=y)
    out = [row.flat(t.name, role="dora") for t in hand.dora]
    if hand.ura:
        if ura_below:
            row.x = x
            row.y = y - h - float(rng.uniform(0.1, 0.8)) * h
        else:
            row.x += float(rng.uniform(0.3, 1.5)) * w
        out += [row.flat(t.name, role="ura") for t in hand.ura]
    return out


def _dead_wall(rng: np.random.Generator, hand: ShownHand, size, x: float, y: float,
               ) -> list[Placement]:
    """Seven two-high stacks lying face down; indicators turned up on top from the third."""
    w, h, d = size
    row = Row(rng, size, x=x, y=y)
    out: list[Placement] = []
    first = 2
    for i in range(7):
        start = row.x
        out.append(row.flat("5z", face_up=False, advance=False))
        k = i - first
        if 0 <= k < len(hand.dora):
            out.append(row.flat(hand.dora[k].name, role="dora", base_z=d, advance=False))
            if k < len(hand.ura):
                ura = Row(rng, size, x=start, y=y - h - float(rng.uniform(0.15, 0.6)) * h)
                out.append(ura.flat(hand.ura[k].name, role="ura"))
        else:
            out.append(row.flat("5z", face_up=False, base_z=d, advance=False))
        row.x = start + w + row.gap() * 0.3
    return out
