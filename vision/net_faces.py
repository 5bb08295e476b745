"""Net faces: a box still read ``none`` after row completion gives way to the core net's quad.

A called tile lying sideways beside upright ones, or a lying tile seen at a low angle, is
often boxed across the seam of two tiles or over its face and front side together; the
classifier rightly calls such a box ``none``, and no later stage re-frames it (row
completion starts from sure faces; the quarter turns keep the quad). The core net
(`agari.vision.cores`) frames most of these tiles well, but the locator adds a net quad
only where no kept box covers it (`agari.vision.cores.uncovered`), and its spares
(`agari.vision.spares`) are settled before row completion has read the row's faces.

Here, once every other stage has read the photo, each sure net quad that lies over a box
read ``none`` and over no tile read as a face or a back is read (a wide one both as a tile
lying sideways and turned upright); read as a face surely, it takes the place of the
boxes read ``none`` that it overlaps. Only quads the net made are read: nothing is
searched.

Off by default (`agari.pipeline.PipelineConfig.net_faces`). First readings of the tuning
renders (seeds 950000, 990000, 980000; stages 3-4 replayed on recorded detections): exact
hands 54 -> 56, 58 -> 59, 58 -> 58, none lost; hand tiles missed 77 -> 75, 83 -> 81,
115 -> 113. The whole read_photo, readings again included (x100, interleaved): exact hands
950000 63 -> 65, 990000 67 -> 66, 980000 70 -> 70, 970000 69 -> 68, 960000 69 -> 69. The
tiles added were right (990060's 2p, 970065's called 3p, 990081's 3z), but a first reading
made whole was then taken without the readings again that had mended another of its tiles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.cores import CoreQuad
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.layout_tokens import WHITE_DRAGON
from agari.vision.quads import (
    bounds_meeting,
    convex_parts,
    parts_overlap,
    quad_bounds,
    quad_overlap,
)


@dataclass(frozen=True, slots=True)
class NetFacesConfig:
    """Which net quads are read, and when one replaces the boxes under it."""

    min_core: float = 0.6
    """Net quads less sure than this (mean core probability) are not read."""
    clear: float = 0.2
    """A net quad overlapping a tile read as a face or a back by more than this (of the
    smaller quad) is that tile, or lies across it: not read."""
    over: float = 0.3
    """A net quad is read only where it overlaps a box read ``none`` by more than this (of
    the smaller): a tile boxed badly, not one never boxed (those the locator judged)."""
    accept: float = 0.9
    """A net quad read as a face at least this surely replaces the boxes under it."""
    upright_boxes: bool = True
    """A net quad wider than tall (in a box's own frame) never replaces a box taller than wide:
    on the real photos the net's quad of a standing tile holds only its printed part, which
    read as a tile lying sideways (8p at 0.94) in place of the box read ``none`` round it, a
    called tile the hand does not have (the standing photo doubled in size: 13 tiles right
    -> 10). A called tile lies flat, its box as wide as it."""
    weak: float | None = None
    """A box read as a face less surely than this gives way as one read ``none`` does (a box
    across a seam often reads as one of the two faces, unsurely); None: only ``none``.
    Replayed first readings (see the module's doc) at 0.8: 980000 58 -> 59 as well, none
    lost; off until the whole pipeline is measured with it."""
    never: tuple[Tile, ...] = (WHITE_DRAGON,)
    """Faces never taken from a net quad: a quad on a tile's blank top or side reads as 白."""

    def __post_init__(self) -> None:
        if not all(0.0 <= p <= 1.0 for p in (self.min_core, self.clear, self.over,
                                             self.accept, self.weak or 0.0)):
            raise InvalidInput("net-face thresholds must lie in [0, 1]")


DEFAULT_NET_FACES = NetFacesConfig()


def net_faces(image: np.ndarray, detections: Sequence[TileDetection],
              cores: Sequence[CoreQuad], classify: Classify, *,
              config: NetFacesConfig = DEFAULT_NET_FACES) -> list[TileDetection]:
    """The detections with boxes read ``none`` replaced by the net's quads over them, where
    those read as faces surely.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the photo the quads refer to.
        detections: classified detections (photo pixels).
        cores: the core net's quads for the same photo.
        classify: labels a batch of detections in ``image``.
        config: thresholds.

    Returns:
        A new list: each net face stands where the first box under it stood, the boxes
        under the net faces are left out; everything else as given.
    """
    out = list(detections)
    unread = [i for i, d in enumerate(out) if _gives_way(d, config)]
    if not unread:
        return out
    giving = set(unread)
    held = [np.asarray(d.quad, np.float64) for i, d in enumerate(out)
            if d.label is not None and i not in giving]
    # Bounds first: a photo has a hundred net quads and boxes, each quad meets a few.
    held_bounds, held_parts = quad_bounds(held), [convex_parts(h) for h in held]
    unread_quads = [np.asarray(out[i].quad, np.float64) for i in unread]
    unread_bounds = quad_bounds(unread_quads)
    unread_parts = [convex_parts(u) for u in unread_quads]
    trials: list[TileDetection] = []
    owners: list[tuple[int, tuple[int, ...]]] = []
    for k, core in enumerate(cores):
        if core.face_down or core.score < config.min_core:
            continue
        q = np.asarray(core.quad, np.float64)
        near = bounds_meeting(unread_bounds, q)
        if not len(near):
            continue
        parts = convex_parts(q)
        under = tuple(unread[j] for j in near
                      if parts_overlap(parts, unread_parts[j]) > config.over)
        if not under:
            continue
        if config.upright_boxes and any(_wide_in_tall(q, out[i].quad) for i in under):
            continue
        if any(parts_overlap(parts, held_parts[j]) > config.clear
               for j in bounds_meeting(held_bounds, q)):
            continue
        for det in _readings(q):
            trials.append(det)
            owners.append((k, under))
    if not trials:
        return out
    best: dict[int, tuple[TileDetection, tuple[int, ...]]] = {}
    for det, (k, under) in zip(classify(image, trials), owners, strict=True):
        if not _acceptable(det, config):
            continue
        if k not in best or det.confidence > best[k][0].confidence:
            best[k] = (det, under)
    taken: list[np.ndarray] = []
    placed: dict[int, list[TileDetection]] = {}
    for det, under in sorted(best.values(), key=lambda b: -b[0].confidence):
        q = np.asarray(det.quad, np.float64)
        if any(quad_overlap(q, t) > config.clear for t in taken):
            continue  # two net quads of one tile: the surer stands
        taken.append(q)
        placed.setdefault(under[0], []).append(det)  # a box over two tiles gives way to both
        for i in under[1:]:
            placed.setdefault(i, [])
    found: list[TileDetection] = []
    for i, d in enumerate(out):
        found.extend(placed.get(i, [d]))
    return found


def _readings(q: np.ndarray) -> list[TileDetection]:
    """A net quad (corners clockwise from the top left) as detections to read: a tall one
    upright; a wide one lying sideways and turned upright (its corners named a step round),
    as a called tile or a foreshortened upright one would be."""
    wide = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])
    tall = np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1])
    if wide <= tall:
        return [TileDetection(as_quad(q))]
    return [TileDetection(as_quad(q), sideways=True),
            TileDetection(as_quad(np.roll(q, -1, axis=0)))]


def _wide_in_tall(q: np.ndarray, box) -> bool:
    """Whether ``box`` (TL, TR, BR, BL) is taller than wide and quad ``q`` wider than tall,
    both measured along the box's sides."""
    b = np.asarray(box, np.float64)
    along = (b[1] - b[0]) + (b[2] - b[3])
    across = (b[3] - b[0]) + (b[2] - b[1])
    wide, tall = np.linalg.norm(along), np.linalg.norm(across)
    if tall <= wide:
        return False
    return float(np.ptp(q @ (along / wide))) > float(np.ptp(q @ (across / tall)))


def _gives_way(det: TileDetection, config: NetFacesConfig) -> bool:
    """Read ``none``, or (with `NetFacesConfig.weak`) as a face unsurely; never a back."""
    if det.label is None:
        return True
    return (config.weak is not None and isinstance(det.label, Tile)
            and det.confidence < config.weak)


def _acceptable(det: TileDetection, config: NetFacesConfig) -> bool:
    return (isinstance(det.label, Tile) and det.confidence >= config.accept
            and det.label not in config.never)


__all__ = ["DEFAULT_NET_FACES", "NetFacesConfig", "net_faces"]
