"""Tile proposals: regions at many levels, split into tiles, reduced to one per tile.

Works on the downscaled working image; `agari.vision.locate` maps the result
back. A proposal is a quad with a score (how clean a tile it is) and whether it
came from the back (colourful) map.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial

import cv2
import numpy as np
from agari.vision.quads import quad_area, quad_areas, quad_overlap
from agari.vision.regions import (
    LevelConfig,
    LevelContours,
    MapConfig,
    Region,
    back_map,
    contrast_map,
    face_map,
    filled_map,
    ink_map,
    level_regions,
    neutral_map,
    threshold_levels,
)
from agari.vision.scoring import ScoreWeights, count_votes, tile_score
from agari.vision.split import Piece, SplitConfig, TileSize, split_region
from agari.vision.threads import beside, in_turn
from agari.vision.tile_sizes import local_size, same_box, size_anchors
from agari.vision.trim import TrimConfig, trim_to_face
from agari.vision.verify import VerifyConfig, edge_support, ink_share

INK_KERNELS: tuple[int, ...] = (3, 5, 7, 9, 13, 17, 23, 31, 41, 55)
"""Closing sides the ink test uses (candidates take the nearest to their own size)."""


@dataclass(frozen=True, slots=True)
class Proposal:
    """One tile candidate in working pixels.

    Attributes:
        quad: float32 ``(4, 2)`` corners, unordered.
        score: log-odds of being one whole tile (`agari.vision.scoring`).
        face_down: found on the back (colour) map.
        features: the measurements the score was made of (for evaluation: only
            ``propose(keep_all=True)`` fills them in).
    """

    quad: np.ndarray
    score: float
    face_down: bool = False
    features: dict[str, float] | None = field(default=None, compare=False)

    @property
    def centre(self) -> np.ndarray:
        return self.quad.mean(axis=0)


@dataclass(frozen=True, slots=True)
class ProposalConfig:
    """Tuning of proposal generation (sizes in working pixels)."""

    maps: MapConfig = field(default_factory=MapConfig)
    levels: LevelConfig = field(default_factory=LevelConfig)
    split: SplitConfig = field(default_factory=SplitConfig)
    verify: VerifyConfig = field(default_factory=VerifyConfig)
    contrast_steps: tuple[float, ...] = (2.0, 5.0, 9.0, 14.0, 20.0)
    """Grey levels above the local mean at which the contrast map is thresholded."""
    contrast_block: float = 0.05
    """Box side of the local mean, as a fraction of the image's shorter side."""
    contrast_min_block: int = 15
    neutral_levels: int = 6
    """Levels of the neutral (bright, colourless) map; 0 skips it."""
    ink_darkness: float = 0.35
    """Ink (as scored) is at least this share darker than the face around it: symbols are,
    wood grain is not."""
    back_max_marks: float = 0.04
    """Backs with more marks than this share of their middle are something printed."""
    back_min_seam: float = 0.12
    """Backs cut from a longer coloured region need a seam at least this clear: a wall of
    backs has seams, a point stick or a pen does not."""
    max_tile_fraction: float = 0.2
    """A single tile never covers more than this share of the working image."""
    ink_rows: bool = True
    """Also take rows of ink blobs (`agari.vision.regions.ink_map`) as regions: on bright
    tables faces may be no brighter than the table, or even darker (standing tiles lit
    from above), yet a row of them is a row of ink."""
    ink_max_aspect: float = 0.5
    """Ink blobs are kept only as rows of tiles (short/long at most this)."""
    use_filled: bool = True
    """Also threshold the face map with ink filled in (faces crowded with symbols)."""
    min_tile_side: float = 11.0
    """Smallest tile short side kept (working pixels)."""
    max_area_fraction: float = 0.5
    """Regions larger than this share of the image are background."""
    max_region_tiles: float = 120.0
    """Regions holding more than this many tiles' areas (at their local tile size) are not
    split: on tuning renders and real trays none of their pieces was ever kept (a table
    or tray floor cut into hundreds of pieces), yet they cost a third of the splitting."""
    region_min_rectangularity: float = 0.72
    """Regions less rectangular than this are not tile groups."""
    single_min_rectangularity: float = 0.85
    single_aspect: tuple[float, float] = (0.5, 0.95)
    """Short/long side range of a region taken as one tile (faces foreshorten)."""
    tile_aspect: float = 0.75
    """Short/long of an upright riichi tile face, used when nothing better is known."""
    group_cover: float = 0.12
    """A tile-shaped region this much covered by smaller ones is a pair or a grid."""
    anchor_outlier: float = 1.8
    """Single tiles longer than this times the median single are not trusted."""
    symbol_ratio: tuple[float, float] = (3.0, 10.0)
    """A tile-shaped region inside one this many times larger is a symbol, not a tile."""
    grid_factor: float = 3.0
    """A tile-shaped region this many times a typical tile's area is a grid of tiles."""
    size_radius: float = 2.0
    """Single tiles within this many tile lengths of a region set its tile size."""
    weights: ScoreWeights = field(default_factory=ScoreWeights)
    speck_share: float = 0.2
    """Kept proposals smaller than this share of the median kept one are dropped (0: none)."""
    trim: TrimConfig | None = None
    """Kept proposals holding a tile's body as well are trimmed to the face (e.g.
    ``TrimConfig()``); None skips. Off by default: it matches rendered faces better
    (renders 1000-1059: hand recall +0.011, precision +0.014) but the shipped classifier
    then misread 3 of the 13 tiles of the real standing-hand photo that it reads
    faultlessly from the untrimmed quads."""
    vote_iou: float = 0.7
    """Two proposals with boxes this alike count as finding the same tile."""
    back_steps: tuple[float, ...] = (60.0, 80.0, 100.0, 120.0, 140.0, 160.0, 185.0)
    """Levels of the colourfulness map for face-down tiles (faces and tables stay below)."""
    nms_overlap: float = 0.45
    """Proposals overlapping a better one by more than this (of the smaller) are dropped."""
    min_score: float = 0.0
    """Proposals scoring lower are dropped."""


def propose(work: np.ndarray, cfg: ProposalConfig = ProposalConfig(), *,
            keep_all: bool = False,
            face: tuple[np.ndarray, np.ndarray] | None = None,
            hsv: np.ndarray | None = None,
            face_levels: LevelContours | None = None) -> list[Proposal]:
    """Tile proposals in a working image.

    Args:
        work: BGR ``uint8 (h, w, 3)`` working image.
        keep_all: return every scored candidate, without suppression or the
            score threshold (for evaluation and fitting the score weights).
        face: ``face_map(work, cfg.maps)`` when the caller has it already.
        hsv: the working image in HSV, likewise.
        face_levels: the face map's traced levels, shared with the standing rows.

    Returns:
        Non-overlapping proposals, best first.
    """
    if hsv is None:  # the filled and back maps share it
        hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)
    # The backs are found on a thread of their own (mostly OpenCV work, which releases
    # the GIL) while this one finds and splits the faces.
    backs = beside(_back_pieces, work, hsv, cfg, name="agari-backs") if cfg.back_steps else None
    regions, gray = face_regions(work, cfg, face=face, hsv=hsv, face_levels=face_levels)
    cands = [_split_all(regions, gray, cfg)]
    if backs is not None:
        cands.append(backs.result())
    props = _scored(cands, cfg, features=keep_all)
    if keep_all:
        return props
    kept = _not_specks(suppress(props, cfg.nms_overlap, cfg.min_score), cfg.speck_share)
    return kept if cfg.trim is None else [_trimmed(p, gray, cfg.trim) for p in kept]


def _back_pieces(work: np.ndarray, hsv: np.ndarray, cfg: ProposalConfig
                 ) -> dict[str, np.ndarray]:
    """The back map's regions split into tiles and measured (`_split_all`)."""
    backs = back_map(work, cfg.maps, hsv=hsv)
    steps = np.asarray(cfg.back_steps, np.float32)
    return _split_all(_regions(backs, cfg, steps), backs, cfg, face_down=True)


def _not_specks(props: list[Proposal], share: float) -> list[Proposal]:
    """Drop proposals smaller than ``share`` of the median proposal's area: specks of
    texture and symbols, not tiles farther away (perspective halves a side, no more)."""
    if len(props) < 3 or share <= 0:
        return props
    area = quad_areas(np.stack([p.quad for p in props]))
    keep = area >= share * float(np.median(area))
    return [p for p, k in zip(props, keep, strict=True) if k]


def _trimmed(p: Proposal, gray: np.ndarray, cfg: TrimConfig) -> Proposal:
    """The proposal with its quad trimmed to the face (`agari.vision.trim`), if it holds a
    tile's body too."""
    face = None if p.face_down else trim_to_face(gray, p.quad, cfg)
    return p if face is None else replace(p, quad=face.astype(np.float32))


def face_regions(work: np.ndarray, cfg: ProposalConfig, *,
                 face: tuple[np.ndarray, np.ndarray] | None = None,
                 hsv: np.ndarray | None = None, face_levels: LevelContours | None = None
                 ) -> tuple[list[Region], np.ndarray]:
    """Regions of every face map at every level, and the grey image ``uint8 (h, w)``
    (``face``: the face map and grey image, ``hsv``: the image in HSV, ``face_levels``:
    the face map's traced levels, if already made)."""
    score, gray = face_map(work, cfg.maps) if face is None else face
    # The other maps and their levels are OpenCV work, traced beside the face levels: a
    # helper thread takes them in turn, the costliest first, and this one joins in once
    # the face levels are done (a helper alone with all of them left it waiting for it
    # up to 10 ms of a 1080p render). The regions keep the maps' order, whoever traced them.
    tasks: list[tuple[int, Callable[[], list[Region]]]] = []  # (cost rank, task)
    if cfg.use_filled:
        tasks.append((2, lambda: _regions(filled_map(work, cfg.maps, gray=gray, hsv=hsv), cfg)))
    if cfg.neutral_levels:
        tasks.append((0, lambda: _neutral_regions(work, cfg)))
    if cfg.ink_rows:
        tasks.append((3, lambda: _ink_rows(gray, cfg)))
    if cfg.contrast_steps:
        tasks.append((1, lambda: _contrast_regions(gray, cfg)))
    costliest = sorted(range(len(tasks)), key=lambda i: tasks[i][0])
    others = in_turn([t for _, t in tasks], costliest, name="agari-regions")
    regions = _regions(score, cfg, traced=face_levels)
    for part in others():
        regions += part
    return regions, gray


def _neutral_regions(work: np.ndarray, cfg: ProposalConfig) -> list[Region]:
    neutral = neutral_map(work, cfg.maps)
    return _regions(neutral, cfg, threshold_levels(
        neutral, replace(cfg.levels, levels=cfg.neutral_levels)))


def _ink_rows(gray: np.ndarray, cfg: ProposalConfig) -> list[Region]:
    """Rows of ink blobs only: a single blob of ink is as often a printed label as a face."""
    blobs = ink_map(gray, cfg.maps, darkness=cfg.split.ink_darkness,
                    min_valid=cfg.levels.min_valid)
    return [r for r in _regions(blobs, cfg, np.float32([127.0]))
            if r.aspect <= cfg.ink_max_aspect]


def _contrast_regions(gray: np.ndarray, cfg: ProposalConfig) -> list[Region]:
    block = max(cfg.contrast_min_block, int(min(gray.shape) * cfg.contrast_block) | 1)
    steps = 128.0 + np.asarray(cfg.contrast_steps, np.float32)
    return _regions(contrast_map(gray, block), cfg, steps)


def _regions(score: np.ndarray, cfg: ProposalConfig, thresholds: np.ndarray | None = None, *,
             traced: LevelContours | None = None) -> list[Region]:
    min_area = cfg.min_tile_side * cfg.min_tile_side / cfg.tile_aspect
    if thresholds is None:
        thresholds = traced.levels(cfg.levels) if traced is not None and traced.score is score \
            else threshold_levels(score, cfg.levels)
    return level_regions(
        score,
        thresholds,
        min_area=min_area,
        max_area=cfg.max_area_fraction * score.size,
        min_rectangularity=cfg.region_min_rectangularity,
        open_kernel=cfg.levels.open_kernel,
        traced=traced,
    )


def _split_all(regions: list[Region], image: np.ndarray, cfg: ProposalConfig, *,
               face_down: bool = False) -> dict[str, np.ndarray]:
    """Split every distinct region by its local tile size and measure the pieces.

    Returns:
        Column arrays: ``quad`` float32 ``(N, 4, 2)``, ``face_down`` bool and the
        per-piece features of `agari.vision.scoring` except ``votes``.
    """
    anchors = size_anchors(regions, cfg)
    jobs = [(r, found, size) for r, found in _distinct(regions)
            if (size := local_size(r, anchors, cfg)) is not None
            and r.area <= cfg.max_region_tiles * size.short * size.long]
    split = _split_each(image, jobs, cfg.split)
    quads, expected, pieces, weights = [], [], [], []
    for (_, found, size), parts in zip(jobs, split, strict=True):
        for p in parts:
            if quad_area(p.quad) > cfg.max_tile_fraction * image.size:
                continue  # a whole tray or the photo's own edge, never one tile
            if face_down and p.cuts and p.seam < cfg.back_min_seam:
                continue  # a seamless colour strip (a point stick, a pen) cut to size
            quads.append(p.quad)
            expected.append(size.short * size.long)
            pieces.append(p)
            weights.append(found)
    if not quads:
        return {}

    q = np.stack(quads).astype(np.float32)
    area = quad_areas(q).astype(np.float32)
    kernels = _ink_kernels(area, cfg)
    if not face_down:
        # The ink test (mostly OpenCV closings, which release the GIL) beside the edge
        # test, which the calling thread ran after it (the backs' are judged on their ink
        # first, below). Each quad's values are its own: the same features either way.
        inked = beside(partial(ink_share, kernel=kernels, darkness=cfg.ink_darkness), image, q,
                       name="agari-ink")
        support = edge_support(image, q, cfg.verify)
        ink = inked.result()
    else:
        ink = ink_share(image, q, kernel=kernels, darkness=cfg.ink_darkness)
    if face_down:
        # A back is plain colour: marks on it (a key's letter, print on paper) rule it
        # out; otherwise it is judged without ink.
        keep = np.nonzero(ink <= cfg.back_max_marks)[0]
        if not len(keep):
            return {}
        q, area = q[keep], area[keep]
        pieces = [pieces[i] for i in keep]
        expected = [expected[i] for i in keep]
        weights = [weights[i] for i in keep]
        ink = np.full(len(q), cfg.weights.ink_cap, np.float32)
        support = edge_support(image, q, cfg.verify)
    sides = np.sort(support.sides, axis=1)
    return {
        "quad": q,
        "face_down": np.full(len(q), face_down),
        "side_mean": sides.mean(axis=1),
        "side_2": sides[:, 1],
        "seam": np.array([p.seam for p in pieces], np.float32),
        "uncut": np.array([p.cuts == 0 for p in pieces], np.float32),
        "size_dev": np.abs(np.log(np.maximum(area, 1.0) / np.asarray(expected, np.float32))),
        "fill": np.array([p.fill for p in pieces], np.float32),
        "ink": ink,
        "plate": support.plate,
        "weight": np.array(weights, np.float32),
    }


def _split_each(image: np.ndarray, jobs: list[tuple[Region, int, TileSize]],
                cfg: SplitConfig) -> list[list[Piece]]:
    """`split_region` of each ``(region, votes, tile size)``, in the order given.

    Two threads take the regions in turn, the largest first (a tray or a long row
    costs most), so that neither waits long for the other: the splitter's OpenCV calls
    release the GIL, and the caller's thread did two thirds of the locator's work
    alone. Each region's pieces are its own, so the result is the same.
    """
    largest = sorted(range(len(jobs)), key=lambda i: -jobs[i][0].area)
    tasks = [partial(split_region, image, r.contour, size, cfg, rect=r.rect)
             for r, _, size in jobs]
    return in_turn(tasks, largest, name="agari-split", helper=len(jobs) > 1)()


def _ink_kernels(area: np.ndarray, cfg: ProposalConfig) -> np.ndarray:
    """Ink closing side per candidate, int ``(N,)``: a share of its own short side,
    on a coarse odd ladder (a few closings serve every candidate)."""
    short = np.sqrt(np.maximum(area, 1.0) * cfg.tile_aspect)
    want = np.maximum(3.0, cfg.split.ink_kernel_frac * short)
    ladder = np.asarray(INK_KERNELS)
    return ladder[np.abs(np.log(want[:, None] / ladder[None, :])).argmin(axis=1)]


def _scored(cands: list[dict[str, np.ndarray]], cfg: ProposalConfig, *,
            features: bool = True) -> list[Proposal]:
    """Join the candidates of all maps, count votes, and score them (with each one's
    measurements, when ``features``: a dict per candidate costs more than the scoring)."""
    cands = [c for c in cands if c]
    if not cands:
        return []
    cols = {k: np.concatenate([c[k] for c in cands]) for k in cands[0]}
    q = cols["quad"]
    boxes = np.concatenate([q.min(axis=1), q.max(axis=1)], axis=1)
    cols["votes"] = count_votes(boxes, cfg.vote_iou, cols.pop("weight")).astype(np.float32)
    score = tile_score(cols, cfg.weights)
    down = cols["face_down"].tolist()
    if not features:
        return [Proposal(q[i], s, d)
                for i, (s, d) in enumerate(zip(score.tolist(), down, strict=True))]
    names = [k for k in cols if k not in ("quad", "face_down")]
    return [
        Proposal(q[i], float(score[i]), down[i], {k: float(cols[k][i]) for k in names})
        for i in range(len(q))
    ]


def _distinct(regions: list[Region], tol: float = 0.08) -> list[tuple[Region, int]]:
    """Regions that do not repeat an earlier one (same box within ``tol``), whatever its
    level or map, each with how many regions it stands for: splitting a repeat again
    would only repeat the same pieces, but that it was found again still counts."""
    out: list[Region] = []
    counts: list[int] = []
    kept = np.zeros((len(regions), 3), np.float32)  # cx, cy, size of the regions kept
    for r in regions:
        (cx, cy), (w, h), _ = r.rect
        size = max(w, h, 1.0)
        if out:
            boxes = kept[:len(out)]
            near = np.nonzero((np.abs(boxes[:, 0] - cx) <= tol * size)
                              & (np.abs(boxes[:, 1] - cy) <= tol * size)
                              & (np.abs(boxes[:, 2] - size) <= tol * size))[0]
            same = [i for i in near if same_box(r, out[i], tol)]
            if same:
                counts[same[0]] += 1
                continue
        kept[len(out)] = (cx, cy, size)
        out.append(r)
        counts.append(1)
    return list(zip(out, counts, strict=True))


def suppress(props: list[Proposal], overlap: float, min_score: float) -> list[Proposal]:
    """Greedy non-maximum suppression by overlap of the smaller quad.

    Args:
        props: proposals in any order.
        overlap: a proposal overlapping an accepted one by more than this is dropped.
        min_score: proposals below this score are dropped first.

    Returns:
        Accepted proposals, best score first.
    """
    props = sorted((p for p in props if p.score >= min_score), key=lambda p: -p.score)
    if not props:
        return []
    q = np.stack([p.quad for p in props])
    boxes = np.concatenate([q.min(axis=1), q.max(axis=1)], axis=1).astype(np.float32)
    kept: list[int] = []
    for i, p in enumerate(props):
        if kept:
            k = np.array(kept)
            b = boxes[k]
            hit = (
                (b[:, 0] < boxes[i, 2]) & (b[:, 2] > boxes[i, 0])
                & (b[:, 1] < boxes[i, 3]) & (b[:, 3] > boxes[i, 1])
            )
            if any(quad_overlap(p.quad, props[j].quad) > overlap for j in k[hit]):
                continue
        kept.append(i)
    return [props[i] for i in kept]
