"""Factories for layout and reading tests: detections of a laid-out hand with known geometry.

`lay_out` places tiles the way a player shows a hand (concealed row, winning
tile apart, melds to the right with the called tile sideways, dora above,
ura below) in a row frame turned by ``angle`` degrees, and returns perfect
detections (as a perfect locator and classifier would give) plus the truth.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np
from agari.engine.tiles import BACK, Tile, parse_tiles
from agari.vision.detection import TileDetection
from agari.vision.layout import DEFAULT_LAYOUT, LayoutConfig

W, H = 40.0, 54.0
ORIGIN = (200.0, 600.0)
"""Where `lay_out` puts the hand's row by default (image pixels)."""
HAND = dict(concealed="123m456p789s1122z", win="2z")
"""A plain closed hand, its winning tile apart: the dora tests' hand."""
U_WALL, V_WALL = 3.0 * W, 2.5 * H
"""Where the dora tests' dead wall starts, in the row's frame (behind the hand)."""
STEP = W * 1.03
"""The wall's column pitch: tiles a hair apart."""


def extras_config(**flags) -> LayoutConfig:
    """The default layout with these `ExtrasConfig` fields changed."""
    return replace(DEFAULT_LAYOUT, extras=replace(DEFAULT_LAYOUT.extras, **flags))


@dataclass
class Laid:
    """Detections of a laid-out hand and what each one is."""

    dets: list[TileDetection] = field(default_factory=list)
    roles: list[str] = field(default_factory=list)


def _quad(u0: float, v0: float, du: float, dv: float, origin, angle: float):
    a = math.radians(angle)
    e = (math.cos(a), math.sin(a))
    n = (math.sin(a), -math.cos(a))

    def p(u: float, v: float):
        return (origin[0] + u * e[0] + v * n[0], origin[1] + u * e[1] + v * n[1])

    u1, v1 = u0 + du, v0 + dv
    return (p(u0, v1), p(u1, v1), p(u1, v0), p(u0, v0))


def _det(label: str, quad, sideways: bool = False, p: float = 1.0) -> TileDetection:
    lab = BACK if label == BACK else Tile.parse(label)
    return TileDetection(quad=quad, sideways=sideways, face_down=label == BACK, label=lab,
                         confidence=p, alternatives=((label, p),))


def lay_out(concealed: str, win: str | None = None, melds: tuple = (), *, dora: str = "",
            ura: str = "", dead_wall: bool = False, angle: float = 0.0,
            origin=ORIGIN, win_gap: float = 0.6, meld_gap: float = 0.8,
            touch_gap: float = 0.03, dora_at=(3.0, 2.5), scale: float = 1.0) -> Laid:
    """Detections of a shown hand.

    Args:
        concealed: MPSZ text of the concealed row (without the winning tile).
        win: the winning tile set apart, or None.
        melds: ``(kind, tiles, sideways_index)`` with kind ``chi``/``pon``/``minkan``/
            ``shouminkan``/``ankan``; tiles as MPSZ text in laid order.
        dora, ura: indicator tiles; ``dead_wall`` puts the dora in a 7-stack dead wall.
        angle: the row's direction in degrees.
        win_gap, meld_gap, touch_gap: gaps in tile widths.
        dora_at: (along, up) position of the dora group in tile widths/heights.
    """
    w, h = W * scale, H * scale
    out = Laid()
    u = 0.0

    def add(label: str, du: float, dv: float, v0: float = 0.0, side=False, role="concealed"):
        out.dets.append(_det(label, _quad(u, v0, du, dv, origin, angle), side))
        out.roles.append(role)

    for t in parse_tiles(concealed):
        add(str(t), w, h)
        u += w * (1 + touch_gap)
    if win:
        u += w * (win_gap - touch_gap)
        add(win, w, h, role="win")
        u += w
    for k, (kind, text, side) in enumerate(melds):
        u += w * meld_gap
        tiles = [str(t) for t in parse_tiles(text)]
        role = f"meld {k + 1}"
        if kind == "ankan":
            for j, t in enumerate(tiles):
                add(BACK if j in (0, 3) else t, w, h, role=role)
                u += w * (1 + touch_gap)
            continue
        columns = len(tiles) - (kind == "shouminkan")
        j = 0
        for col in range(columns):
            if col == side:
                add(tiles[j], h, w, side=True, role=role)
                j += 1
                if kind == "shouminkan":
                    add(tiles[j], h, w, v0=w * 1.02, side=True, role=role)
                    j += 1
                u += h * (1 + touch_gap)
            else:
                add(tiles[j], w, h, role=role)
                j += 1
                u += w * (1 + touch_gap)
    u_dora, v_dora = dora_at[0] * w, dora_at[1] * h
    if dora:
        faces = [str(t) for t in parse_tiles(dora)]
        labels = [BACK, BACK, *faces, *[BACK] * (5 - len(faces))] if dead_wall else faces
        u = u_dora
        for lab in labels:
            out.dets.append(_det(lab, _quad(u, v_dora, w, h, origin, angle)))
            out.roles.append("dora" if lab != BACK else "other")
            u += w * (1 + touch_gap)
    if ura:
        u = u_dora + (2 * w * (1 + touch_gap) if dead_wall else 0.0)
        for t in parse_tiles(ura):
            out.dets.append(_det(str(t), _quad(u, v_dora - h * 1.15, w, h, origin, angle)))
            out.roles.append("ura")
            u += w * (1 + touch_gap)
    return out


def discard_behind_the_dora(laid, origin=ORIGIN) -> int:
    """Adds someone's discard (8m) just behind the dora `lay_out` placed, one tile height
    beyond them, with the role `other`; its index."""
    laid.dets.append(_det("8m", _quad(3.0 * W, 2.5 * H + 1.15 * H, W, H, origin, 0.0)))
    laid.roles.append("other")
    return len(laid.dets) - 1


def with_alternatives(det: TileDetection, alts: list[tuple[str, float]]) -> TileDetection:
    """A copy of ``det`` whose classifier output is ``alts`` (best first)."""
    name, p = alts[0]
    label = BACK if name == BACK else None if name == "none" else Tile.parse(name)
    return replace(det, label=label, confidence=p, alternatives=tuple(alts))


class PointReader:
    """A stub classifier (wall and indicator tests): reads ``name`` at ``p`` where a quad's
    centre lies within 10 px of ``at``, else none."""

    def __init__(self, at, name: str = "7s", p: float = 0.95) -> None:
        self.at, self.name, self.p, self.asked = np.asarray(at), name, p, 0

    def __call__(self, image, dets):
        out = []
        for d in dets:
            self.asked += 1
            if np.linalg.norm(np.asarray(d.quad).mean(axis=0) - self.at) < 10:
                out.append(replace(d, label=Tile.parse(self.name), confidence=self.p,
                                   alternatives=((self.name, self.p), ("none", 1 - self.p))))
            else:
                out.append(replace(d, label=None, confidence=0.95,
                                   alternatives=(("none", 0.95),)))
        return out
