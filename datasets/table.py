"""Tiles around the hand: discard ponds, walls, opponents' hands, a tray, loose tiles.

All of it is annotated with role ``other``: a locator must find these tiles too,
and a layout analyser must learn to leave them out of the hand. Seats turn
about the table centre: seat 0 is the hand's player (at ``-y``), seat 1 the
player to the right, 2 across, 3 to the left.
"""

from __future__ import annotations

import numpy as np
from agari.datasets.layout import Placement, Row
from agari.engine.tiles import TILE_NAMES

RED_SHARE = 0.3
"""Weight of a red five against 1 for every other face when drawing loose tiles."""
CENTRE_BOX_MM = (60.0, 85.0)
"""Half-size of the automatic table's centre panel, inside the ponds."""


def random_faces(rng: np.random.Generator, n: int) -> list[str]:
    """``n`` face names, red fives rarer as in a real set."""
    weights = np.array([RED_SHARE if name.startswith("0") else 1.0 for name in TILE_NAMES])
    picks = rng.choice(len(TILE_NAMES), size=n, p=weights / weights.sum())
    return [TILE_NAMES[int(i)] for i in picks]


def _seat_row(rng, size, centre, seat: int, depth: float, x: float = 0.0) -> Row:
    """A row in seat ``seat``'s frame whose near edge is ``depth`` mm from the centre."""
    heading = 90.0 * seat
    return Row(rng, size, x=x, y=-depth, origin=centre, heading=heading)


def pond(rng: np.random.Generator, size, centre: tuple[float, float], seat: int,
         count: int) -> list[Placement]:
    """A discard pond (河): rows of six lying face up, one riichi tile sideways maybe."""
    w, h, _ = size
    box = float(rng.uniform(*CENTRE_BOX_MM))
    riichi = int(rng.integers(count)) if count and rng.random() < 0.4 else -1
    out: list[Placement] = []
    faces = random_faces(rng, count)
    for i, face in enumerate(faces):
        r, c = divmod(i, 6)
        if c == 0:
            row = _seat_row(rng, size, centre, seat, box + (min(r, 2) + 1) * (h + 0.5),
                            x=-3 * w + (6 * w if r > 2 else 0.0))
        out.append(row.flat(face, turn=90 if i == riichi else 0))
    return out


def wall(rng: np.random.Generator, size, centre: tuple[float, float], seat: int, *,
         stacks: int, start: int = 0) -> list[Placement]:
    """Part of a seat's wall (山): ``stacks`` two-high stacks lying face down."""
    w, h, d = size
    half = 8.5 * (w + 0.3)
    row = _seat_row(rng, size, centre, seat, half + h + 2.0, x=-half + start * (w + 0.3))
    out: list[Placement] = []
    for _ in range(stacks):
        x = row.x
        for level in range(2):
            row.x = x
            out.append(row.flat("5z", face_up=False, base_z=level * d))
        row.x = x + w + 0.3
    return out


def opponent_hand(rng: np.random.Generator, size, centre: tuple[float, float], seat: int,
                  *, count: int = 13) -> list[Placement]:
    """An opponent's standing hand, its faces turned to its owner (we see backs or edges)."""
    w, h, _ = size
    half = 8.5 * (w + 0.3)
    row = _seat_row(rng, size, centre, seat, half + 2.2 * h, x=-count * w / 2)
    lean = float(rng.uniform(0, 10))
    return [row.standing(f, lean=lean) for f in random_faces(rng, count)]


def tray(rng: np.random.Generator, size, *, rows: int, cols: int, origin=(0.0, 0.0),
         heading: float = 0.0) -> list[Placement]:
    """Loose tiles in a grid, as in a tile tray: some upside down, now and then face down."""
    _, h, _ = size
    out: list[Placement] = []
    gap = float(rng.uniform(0.5, 6.0))
    flip = float(rng.uniform(0.0, 0.3))
    for r in range(rows):
        row = Row(rng, size, x=0.0, y=-r * (h + gap), origin=origin, heading=heading)
        for face in random_faces(rng, cols):
            out.append(row.flat(face, turn=180 if rng.random() < flip else 0,
                                face_up=rng.random() > 0.05))
            row.x += gap
    return out


def scattered(rng: np.random.Generator, size, count: int, *, centre: tuple[float, float],
              radius: float) -> list[Placement]:
    """Loose tiles anywhere within ``radius`` of ``centre``, at any angle."""
    out: list[Placement] = []
    for face in random_faces(rng, count):
        a, r = rng.uniform(0, 2 * np.pi), radius * np.sqrt(rng.uniform(0.15, 1.0))
        row = Row(rng, size, origin=(centre[0] + r * np.cos(a), centre[1] + r * np.sin(a)),
                  heading=float(rng.uniform(0, 360)))
        turn = int(rng.choice((0, 90, 180, 270)))
        out.append(row.flat(face, turn=turn, face_up=rng.random() > 0.3))
    return out
