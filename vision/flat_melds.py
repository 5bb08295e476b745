"""Called tiles laid flat beside a standing hand, found through the table's perspective.

Seen from a player's seat, the melds lie flat beside the standing hand: their faces
are thin slanted strips above their front sides, and a face and front side of the
same ivory often make one bright block. The locator then boxes the block, or a part
of it, as if it were an upright tile, the classifier reads that box as ``none`` (or
a blank 白), and row completion (`agari.vision.fill`) has no flat face to step from:
its steps copy the standing tiles' shape.

Here the standing row itself says where the table lies (`agari.vision.table_view`):
past each end of the row, flat faces are projected at steps along the row, for a few
leans of the standing tiles and distances in front of or behind them, the classifier
reads them, and the likeliest faces are moved a little at a time (position, distance,
lean) while their face probability rises. A face read surely is kept; row completion
then steps from it to its neighbours, with its own (flat) shape.

Like row completion this verifies quads derived from located tiles; the table's
geometry only says which quads are worth reading.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from agari.engine.tiles import Tile
from agari.vision.detection import Classify, TileDetection, as_quad
from agari.vision.fill import _plain
from agari.vision.layout_tokens import WHITE_DRAGON
from agari.vision.quads import inside_image, quad_overlap
from agari.vision.reframe import face_probability
from agari.vision.table_view import TableView, rises_towards_camera


@dataclass(frozen=True, slots=True)
class FlatConfig:
    """Where flat faces are looked for beside a standing row, and when one is kept."""

    sure: float = 0.9
    """Upright tiles read at least this surely make the standing row."""
    min_row: int = 4
    """A row of fewer standing tiles says too little of the table's perspective."""
    standing: float = 0.98
    """A row whose median face is narrower at the top than at the bottom by more than this
    ratio lies flat (a shown hand). True standing faces of renders are 1.00-1.07 (shown
    ones 0.95-1.01), but the located quads' top edges run a little short (0.99 on 1040062)."""
    leans: tuple[float, ...] = (-7.0, 7.0, 21.0)
    """Leans (degrees) of the standing faces tried: renders lean 0-14 degrees, and the lean
    also takes up the focal length's error (fitted to the true faces of tuning renders'
    melds, the best leans ran from -7 to 21)."""
    depths: tuple[float, ...] = (-0.25,)
    """Distances (tile widths) of a flat face's near edge from the standing faces' plane,
    negative nearer the camera: melds lie level with the hand or nearer the table's edge
    (the climbs move from there; on the flat searches of 12 tuning renders (-0.45, -0.05)
    found the same 14 meld tiles with 70 % more crops)."""
    reach: tuple[float, float] = (1.0, 8.0)
    """Steps along the row past its end tile, in tile widths (the winning tile set apart
    and a wide gap can put the first meld seven widths off)."""
    step: float = 0.25
    """Spacing of the steps, in tile widths."""
    scan_sideways: bool = True
    """The scan also reads each step lying sideways (a called tile)."""
    thickness: float = 0.75
    """A tile's depth over its width: how high a flat face lies above the table."""
    aspect: float = 1.31
    """A face's height over its width."""
    focal: float = 0.85
    """Focal length guessed, in the picture's long sides (phone and web cameras)."""
    plain_below: float | None = 5.0
    """Steps over a patch this even (grey standard deviation) are bare table, not read."""
    max_overlap: float = 0.3
    """A step covering more than this of a tile read firmly (or it of the step) is not
    tried; a loose box a flat face found covers as much is dropped."""
    firm: float = 0.8
    """Tiles read at least this surely stand in a step's way; boxes read less surely (or
    as ``none``) give way to a flat face found over them (as in `agari.vision.fill`)."""
    apart: float = 0.1
    """Flat faces touch but do not overlap: the seeds, and the steps from a face to its
    neighbours, overlap faces found by at most this (of the smaller)."""
    seeds: int = 3
    """Runs are grown from at most this many of the surest faces found, and the longest
    kept: a quad straddling two faces often reads surely as another tile (half a 4p
    turned is a 2p), and steps from it find nothing beside it."""
    gaps: tuple[float, ...] = (0.0, 0.08, 0.2, 0.3)
    """Gaps (tile widths) tried between a flat face and the next: touching, the thin gap
    between a meld's tiles, and between two melds."""
    mate_gap: float = 0.1
    mate_overlap: float = 0.5
    """A lone flat face found is kept only where a face read off the row covers a step
    beside it (at most `mate_gap` tile widths away) by more than `mate_overlap`: a meld's
    other tiles touch it."""
    max_run: int = 16
    """Most flat faces one end's run may hold (four kans)."""
    climb_from: float = 0.05
    """Steps read as a face at least this likely are moved to climb (the likeliest first)."""
    climbs: int = 4
    """At most this many steps a row's end climb."""
    rounds: int = 3
    """Moves per climb."""
    moves: tuple[float, float, float] = (0.1, 0.15, 5.0)
    """A move: along the row, across it (tile widths) and in lean (degrees)."""
    accept: float = 0.95
    """A flat face is kept when read as a face at least this surely..."""
    accept_white: float = 0.97
    """...and a blank 白 only this surely: a tile's bare front side reads as one."""


DEFAULT_FLAT = FlatConfig()


@dataclass(frozen=True, slots=True)
class _Step:
    lean: float
    x: float
    y: float
    sideways: bool


class _End:
    """One end of a standing row: its table views by lean and the end tile's foot."""

    def __init__(self, view: TableView, end: np.ndarray, side: int, cfg: FlatConfig) -> None:
        self.side, self.cfg = side, cfg
        self.foot = view.foot(end)  # the same at any lean: the lean turns about the row
        self._view = view
        self._views: dict[float, TableView] = {}

    def wide(self, sideways: bool) -> float:
        """A flat face's length along the row, in tile widths."""
        return self.cfg.aspect if sideways else 1.0

    def quad(self, step: _Step) -> np.ndarray | None:
        if self.foot is None:
            return None
        if step.lean not in self._views:
            self._views[step.lean] = self._view.leaned(step.lean)
        view, foot = self._views[step.lean], self.foot
        wide = self.wide(step.sideways)
        deep = 1.0 if step.sideways else self.cfg.aspect
        x = step.x if self.side > 0 else 1.0 - step.x - wide
        return view.flat(foot, x, step.y, self.cfg.thickness, wide, deep)


def add_flat_faces(image: np.ndarray, detections: Sequence[TileDetection],
                   classify: Classify, *, config: FlatConfig = DEFAULT_FLAT
                   ) -> list[TileDetection]:
    """``detections`` with the faces lying flat past the ends of their standing rows added
    (read surely; see the module), and the loose boxes those cover dropped: a quad read
    as ``none``, or as a face less surely than `FlatConfig.firm`, over a tile's front side
    or straddling two faces."""
    flat = find_flat_faces(image, detections, classify, config=config)
    if not flat:
        return detections if isinstance(detections, list) else list(detections)
    quads = [np.asarray(d.quad, np.float32) for d in flat]
    kept = [d for d in detections if _firm(d, config) or not any(
        quad_overlap(np.asarray(d.quad, np.float32), q) > config.max_overlap for q in quads)]
    return kept + flat


def find_flat_faces(image: np.ndarray, detections: Sequence[TileDetection],
                    classify: Classify, *, config: FlatConfig = DEFAULT_FLAT
                    ) -> list[TileDetection]:
    """Faces lying flat past the ends of the standing rows among ``detections``, read
    surely (classified detections, new ones only; none overlap each other or a face
    already read firmly)."""
    h, w = image.shape[:2]
    known = [np.asarray(d.quad, np.float32) for d in detections if _firm(d, config)]
    found: list[TileDetection] = []
    for row in _standing_rows(detections, config):
        view = TableView(row, (w, h), focal=config.focal)
        beside = [np.asarray(d.quad, np.float32) for d in detections  # a lone face's mates
                  if isinstance(d.label, Tile) and _firm(d, config) and not any(
                      quad_overlap(np.asarray(d.quad, np.float32), r.astype(np.float32))
                      > config.max_overlap for r in row)]
        for end, side in ((row[-1], 1), (row[0], -1)):
            run = _found_at(image, _End(view, end, side, config), known, beside, classify,
                            config)
            found += run
            known += [np.asarray(d.quad, np.float32) for d in run]
            beside += [np.asarray(d.quad, np.float32) for d in run]
    return found


def _firm(det: TileDetection, cfg: FlatConfig) -> bool:
    """Read as a face (or a back) at least as surely as `FlatConfig.firm` asks."""
    return det.label is not None and det.confidence >= cfg.firm


def _found_at(image: np.ndarray, end: _End, known: list[np.ndarray],
              beside: list[np.ndarray], classify: Classify, cfg: FlatConfig
              ) -> list[TileDetection]:
    """The longest run of flat faces read surely past one end of a row: grown tile by
    tile from each of the surest faces the scan (and its climbs) found. A run of one face
    is kept only where a tile off the row (``beside``) lies where its neighbour would."""
    steps = [_Step(lean, float(x), y, sideways)
             for lean in cfg.leans for y in cfg.depths
             for x in np.arange(cfg.reach[0], cfg.reach[1] + 1e-9, cfg.step)
             for sideways in ((False, True) if cfg.scan_sideways else (False,))]
    trials, tried = _trials(image, end, steps, known, cfg)
    if not trials:
        return []
    read = classify(image, trials)
    ranked = sorted(range(len(read)), key=lambda k: -face_probability(read[k]))
    sure = [(tried[k], read[k]) for k in ranked if _accepted(read[k], cfg)]
    starts = [k for k in ranked if face_probability(read[k]) >= cfg.climb_from
              and not _accepted(read[k], cfg)][:cfg.climbs]
    for k in starts:
        climbed = _climbed(image, end, tried[k], read[k], known, classify, cfg)
        if climbed is not None:
            sure.append(climbed)
    seeds: list[tuple[_Step, TileDetection]] = []
    for step, det in sorted(sure, key=lambda sd: -sd[1].confidence):
        q = np.asarray(det.quad, np.float32)
        if len(seeds) < cfg.seeds and not any(
                quad_overlap(q, np.asarray(d.quad, np.float32)) > cfg.apart for _, d in seeds):
            seeds.append((step, det))
    runs = [_grown(image, end, seed, known, classify, cfg) for seed in seeds]
    run = max(runs, key=lambda r: (len(r), sum(d.confidence for _, d in r)), default=[])
    if len(run) == 1 and not _neighboured(end, run[0][0], beside, cfg):
        return []
    return [d for _, d in run]


def _neighboured(end: _End, step: _Step, beside: list[np.ndarray], cfg: FlatConfig) -> bool:
    """Whether one of ``beside`` covers a step beside ``step`` (either way, upright or
    sideways, touching or `FlatConfig.mate_gap` apart, as a meld's tiles lie): a face
    lying alone on the table is as often a patch of a wall's side read as a face (990043:
    a 2s read at 0.95)."""
    steps = []
    for sideways in (False, True):
        for gap in (0.0, cfg.mate_gap):
            steps.append(_Step(step.lean, step.x + end.wide(step.sideways) + gap, step.y,
                               sideways))
            steps.append(_Step(step.lean, step.x - gap - end.wide(sideways), step.y,
                               sideways))
    quads = [q.astype(np.float32) for q in map(end.quad, steps) if q is not None]
    return any(quad_overlap(q, b) > cfg.mate_overlap for q in quads for b in beside)


def _grown(image: np.ndarray, end: _End, seed: tuple[_Step, TileDetection],
           known: list[np.ndarray], classify: Classify, cfg: FlatConfig
           ) -> list[tuple[_Step, TileDetection]]:
    """``seed`` and the flat faces stepped to from it, outwards and back towards the row:
    each step lies beside the last face found, at its lean and distance, upright or
    sideways, touching or across one of `FlatConfig.gaps`; the surest is kept."""
    run = [seed]
    for outwards in (True, False):
        last = seed
        while len(run) < cfg.max_run:
            steps = []
            for sideways in (False, True):
                wide = end.wide(sideways)
                for gap in cfg.gaps:
                    x = last[0].x + end.wide(last[0].sideways) + gap if outwards \
                        else last[0].x - gap - wide
                    if cfg.reach[0] - cfg.step <= x <= cfg.reach[1] + 1.0:
                        steps.append(_Step(last[0].lean, x, last[0].y, sideways))
            taken = known + [np.asarray(d.quad, np.float32) for _, d in run]
            trials, tried = _trials(image, end, steps, taken, cfg, overlap=cfg.apart)
            if not trials:
                break
            read = classify(image, trials)
            best = max(range(len(read)), key=lambda k: face_probability(read[k]))
            last = (tried[best], read[best])
            if not _accepted(read[best], cfg):  # a little off, as the seed's lean may be
                climbed = None if face_probability(read[best]) < cfg.climb_from else _climbed(
                    image, end, tried[best], read[best], taken, classify, cfg,
                    overlap=cfg.apart)
                if climbed is None:
                    break
                last = climbed
            run.append(last)
    return sorted(run, key=lambda sd: sd[0].x)


def _climbed(image: np.ndarray, end: _End, step: _Step, det: TileDetection,
             known: list[np.ndarray], classify: Classify, cfg: FlatConfig, *,
             overlap: float | None = None) -> tuple[_Step, TileDetection] | None:
    """``det`` moved while its face probability rises; the result if read surely."""
    along, across, lean = cfg.moves
    for _ in range(cfg.rounds):
        moved = [_Step(step.lean, step.x + dx, step.y + dy, step.sideways)
                 for dx, dy in ((along, 0.0), (-along, 0.0), (0.0, across), (0.0, -across))]
        moved += [_Step(step.lean + dl, step.x, step.y, step.sideways) for dl in (lean, -lean)]
        trials, tried = _trials(image, end, moved, known, cfg, overlap=overlap)
        if not trials:
            break
        read = classify(image, trials)
        k = max(range(len(read)), key=lambda i: face_probability(read[i]))
        if face_probability(read[k]) <= face_probability(det):
            break
        step, det = tried[k], read[k]
        if _accepted(det, cfg):
            return step, det
    return None


def _trials(image: np.ndarray, end: _End, steps: Sequence[_Step], known: list[np.ndarray],
            cfg: FlatConfig, *, overlap: float | None = None
            ) -> tuple[list[TileDetection], list[_Step]]:
    """The steps worth reading, as unclassified detections, and the steps they are (none
    overlapping a ``known`` quad by more than ``overlap``, default `FlatConfig.max_overlap`)."""
    limit = cfg.max_overlap if overlap is None else overlap
    h, w = image.shape[:2]
    # Only quads whose boxes meet can overlap: the near ones of each step found at once.
    boxes = np.array([np.concatenate([k.min(axis=0), k.max(axis=0)]) for k in known]
                     ).reshape(-1, 4)
    trials, tried = [], []
    for step in steps:
        q = end.quad(step)
        if q is None or not inside_image(q, (w, h)):
            continue
        q32 = q.astype(np.float32)
        lo, hi = q32.min(axis=0), q32.max(axis=0)
        near = np.flatnonzero((boxes[:, 0] < hi[0]) & (boxes[:, 2] > lo[0])
                              & (boxes[:, 1] < hi[1]) & (boxes[:, 3] > lo[1]))
        if any(quad_overlap(q32, known[k]) > limit for k in near):
            continue
        if _plain(image, q, cfg.plain_below):
            continue
        trials.append(TileDetection(as_quad(q), sideways=step.sideways))
        tried.append(step)
    return trials, tried


def _accepted(det: TileDetection, cfg: FlatConfig) -> bool:
    if not isinstance(det.label, Tile):
        return False
    floor = cfg.accept_white if det.label == WHITE_DRAGON else cfg.accept
    return det.confidence >= floor


def _standing_rows(detections: Sequence[TileDetection], cfg: FlatConfig
                   ) -> list[list[np.ndarray]]:
    """Runs of touching upright faces read surely, wider at the top than at the foot (so
    standing), of `FlatConfig.min_row` tiles or more, each in the row's order; the run
    of the largest faces only (the player's own hand is nearest the camera)."""
    faces = [np.asarray(d.quad, np.float64) for d in detections
             if isinstance(d.label, Tile) and not d.sideways and d.confidence >= cfg.sure]
    rows = [r for r in _runs(faces)
            if len(r) >= cfg.min_row and rises_towards_camera(r, cfg.standing)]
    if not rows:
        return []
    return [max(rows, key=lambda r: float(np.median([_width(q) for q in r])))]


def _width(q: np.ndarray) -> float:
    return float(np.linalg.norm(((q[1] - q[0]) + (q[2] - q[3])) / 2.0))


def _runs(faces: list[np.ndarray]) -> list[list[np.ndarray]]:
    """Faces linked to their neighbours one tile pitch along the row (0.8-1.35 widths,
    within 0.3 heights across), in groups ordered along the row."""
    centres = [q.mean(axis=0) for q in faces]
    links: list[set[int]] = [set() for _ in faces]
    for i, q in enumerate(faces):
        along = ((q[1] - q[0]) + (q[2] - q[3])) / 2.0
        up = ((q[0] - q[3]) + (q[1] - q[2])) / 2.0
        wide, high = float(np.linalg.norm(along)) or 1.0, float(np.linalg.norm(up)) or 1.0
        for j, c in enumerate(centres):
            d = c - centres[i]
            if j != i and 0.8 * wide <= abs(d @ along) / wide <= 1.35 * wide \
                    and abs(d @ up) / high <= 0.3 * high:
                links[i].add(j)
                links[j].add(i)
    seen: set[int] = set()
    out = []
    for i in range(len(faces)):
        if i in seen:
            continue
        group, todo = [], [i]
        while todo:
            k = todo.pop()
            if k in seen:
                continue
            seen.add(k)
            group.append(k)
            todo += list(links[k])
        along = faces[i][1] - faces[i][0]
        out.append([faces[k] for k in sorted(group, key=lambda k: centres[k] @ along)])
    return out


__all__ = ["DEFAULT_FLAT", "FlatConfig", "add_flat_faces", "find_flat_faces"]
