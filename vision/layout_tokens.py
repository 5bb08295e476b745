"""Tokens of a hand's row: each column as the layout parser sees it (`agari.vision.layout_parse`).

``P`` an upright face, ``B`` a back, ``S`` a sideways tile, ``K`` two stacked
sideways tiles; ``b`` a back the classifier also thought a face (a blank 白)
and ``w`` a white dragon it also thought a back (or one of two flanking a closed
kan's faces, `white_kans`), tried both ways (`upright_variants`).
"""

from __future__ import annotations

import numpy as np
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import back_mass, face_mass, is_face_down

TILE_MASS_MIN = 0.2
"""A detection the classifier calls ``none`` still counts as a tile with this much face or
back probability (see `is_tile`)."""
WHITE_DRAGON = Tile(31)
"""白: blank or framed on many sets, so easily taken for a pale back (and back for it)."""
PALE_BACK = 0.01
"""A white dragon read with this much back probability may be a back."""
MAX_VARIANTS = 6
"""Readings of the row's tokens other than as seen, at most (see `upright_variants`)."""


def row_tokens(cols: list[list[int]], dets: list[TileDetection], side: np.ndarray,
               raised: frozenset[int] | set[int] = frozenset()) -> str:
    """One token per column, from its first tile (``side``: bool ``(N,)`` sideways flags;
    ``raised``: sideways tiles lying on a hidden one, each an added kan's stack by itself,
    see `agari.vision.layout_stacks`)."""
    out = []
    for col in cols:
        # Called tiles show their faces: a back is a back however it lies.
        if is_face_down(dets[col[0]]):
            # "b": a back the classifier also thought might be a face (a blank 白).
            out.append("b" if face_mass(dets[col[0]]) >= TILE_MASS_MIN else "B")
        elif _stacked(col, dets, side, raised):
            out.append("K")
        elif side[col[0]]:
            out.append("S")
        else:
            # "w": a white dragon the classifier also thought might be a back.
            det = dets[col[0]]
            pale = det.label == WHITE_DRAGON and back_mass(det) >= PALE_BACK
            out.append("w" if pale else "P")
    for k in range(len(cols) - 3):
        if _white_kan(cols[k:k + 4], dets, out[k:k + 4]):
            out[k] = out[k + 3] = "w"
    return "".join(out)


def _white_kan(cols: list[list[int]], dets: list[TileDetection], tokens: list[str]) -> bool:
    """Four columns shaped like a closed kan whose backs both read as 白: white dragons at the
    ends, two faces of one other name between (a blank 白 and a pale back look alike; in a
    sorted hand the white dragons lie together)."""
    a, b, c, d = (dets[col[0]].label for col in cols)
    return a == d == WHITE_DRAGON and b == c != WHITE_DRAGON and tokens[1] == tokens[2] == "P"


def white_kans(tokens: list[str]) -> list[list[str]]:
    """The row's tokens as seen with each ``wPPw`` (a closed kan whose backs read as 白, or
    pale backs) read as ``BPPB``, one variant for all such."""
    if not any(WHITE_KAN in t for t in tokens):
        return []
    return [as_seen([t.replace(WHITE_KAN, "BPPB") for t in tokens])]


WHITE_KAN = "wPPw"


def _stacked(col: list[int], dets: list[TileDetection], side: np.ndarray,
             raised: frozenset[int] | set[int]) -> bool:
    """Two sideways faces one on the other, or one lying on a hidden tile (or under an unread
    one, `agari.vision.layout_stacks.capped`)."""
    if col[0] in raised:
        return True
    return len(col) > 1 and all(side[i] and not is_face_down(dets[i]) for i in col)


def face_first(col: list[int], dets: list[TileDetection]) -> list[int]:
    """A column whose first (nearest) detection is no face, with a face above it, led by
    that face: two quads over one tile (a face and a fragment of it the classifier calls
    ``none``) make a column too, and its first tile gives the column's token."""
    if len(col) < 2 or isinstance(dets[col[0]].label, Tile):
        return col
    best = max(col, key=lambda i: face_mass(dets[i]))
    if not isinstance(dets[best].label, Tile):
        return col
    return [best, *(i for i in col if i != best)]


def as_seen(tokens: list[str]) -> list[str]:
    return [g.replace("b", "B").replace("w", "P") for g in tokens]


def upright_variants(tokens: list[str]) -> list[list[str]]:
    """The row's tokens with tiles read otherwise than seen, for up to `MAX_VARIANTS`.

    A tile lying flat next to standing ones looks as wide as a called tile (so
    does a jittery quad): each sideways tile is tried upright. White dragons and
    pale backs look alike: a back the classifier also thought a face is tried
    face up, and a white dragon it also thought a back is tried face down (all
    such together, and each alone). The reading rejects the variants whose
    melds are no sets.
    """
    seen = as_seen(tokens)
    out = []
    for g, group in enumerate(tokens):
        for k, token in enumerate(group):
            if token in "Sbw":
                other = "B" if token == "w" else "P"
                out.append(seen[:g] + [seen[g][:k] + other + seen[g][k + 1:]] + seen[g + 1:])
    for token, other in (("b", "P"), ("w", "B")):
        if sum(group.count(token) for group in tokens) > 1:
            out.insert(0, [g.replace(token, other).replace("b", "B").replace("w", "P")
                           for g in tokens])
    return out[:MAX_VARIANTS]


__all__ = ["MAX_VARIANTS", "PALE_BACK", "TILE_MASS_MIN", "WHITE_DRAGON", "WHITE_KAN", "as_seen",
           "face_first", "row_tokens", "upright_variants", "white_kans"]
