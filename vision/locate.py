"""`locate`: find every tile in a photo (stage 1 of the pipeline).

Classical OpenCV, and for hand photos (`HAND_LOCATE`) a small net that fills gaps:

1. Working scale (`agari.vision.scale`): a small probe estimates the tile size
   and the photo is shrunk so that tiles are about 64 pixels long (never
   above `LocateConfig.max_pixels`; with `HAND_LOCATE` a small photo of small
   tiles is enlarged, at most twice). A noisy working image is softened (`agari.vision.noise`).
2. Score maps and regions (`agari.vision.regions`): faces are bright, nearly
   colourless plates (plain, ink-filled, colourless and locally-bright maps),
   backs are colourful; each map is thresholded at several levels and the
   outer contours that are rectangular enough become regions. Rows of ink
   blobs are regions too (faces no brighter than a pale table still carry ink).
3. Splitting (`agari.vision.split`): each region is cut into tiles along
   seams and blank bands between faces, by dynamic programming under the
   local tile size (or a row's own repeat), row by row in a grid.
4. Scoring and suppression (`agari.vision.proposals`, `agari.vision.scoring`,
   `agari.vision.verify`): every candidate is scored from its outline, seams,
   ink, contrast with its surroundings and how often it was found; the best
   non-overlapping ones are kept, less specks far smaller than the rest
   (optionally, a quad holding a tile's body as well as its face is trimmed
   to the face: `agari.vision.trim`, off by default).
5. Standing rows (`agari.vision.standing`): faces in shade below a long bright
   band (the tiles' tops) are cut by the repeat of their seams, where the
   other proposals left them uncovered.
6. Core net (`agari.vision.cores`, when `LocateConfig.cores` is set): a small
   convolutional net, run beside steps 1-5, marks tile middles and corners (small
   tiles: read again enlarged, `CoreConfig.zoom_below`; a blob run together over
   touching faces cut into one quad per face, `CoreConfig.part`, or judged,
   `agari.vision.core_parts`); its quads are added where no other proposal lies and a
   like-sized one is near (or, given a judge and `LocateConfig.lone_tile`, where the
   judge is all but sure of it).
   Given a judge (`agari photo` passes the classifier), a classical proposal
   that straddles two sure net quads, or fits the one it covers badly, is
   replaced by them when the judge doubts it holds a tile and rates them higher; so is
   one that holds a net quad's face with more round it (`LocateConfig.holds`), and one
   that fits a sure net quad loosely where the judge is all but sure of the net quad
   (`LocateConfig.net_fit`).
7. Rows (`agari.vision.rows`): tiles are grouped into rows, given the row's up
   direction and the sideways flag, sorted in reading order, and mapped back
   to the original image's pixels.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace

import cv2
import numpy as np
from agari.engine.errors import ImageError
from agari.vision.core_parts import PartsConfig, judged_parts
from agari.vision.cores import CoreConfig, CoreQuad, find_cores, in_company, uncovered
from agari.vision.crops import as_bgr
from agari.vision.detection import Classify, TileDetection
from agari.vision.holds import HoldConfig, held
from agari.vision.lab import inverted_lightness
from agari.vision.net_fit import NetFitConfig, loose_fits
from agari.vision.noise import NoiseConfig, soften
from agari.vision.proposals import Proposal, ProposalConfig, propose
from agari.vision.quads import bounds_meeting, quad_area, quad_bounds, quad_iou, quad_overlap
from agari.vision.refit import RefitConfig, refit
from agari.vision.regions import LevelContours, face_map
from agari.vision.rows import SLANTED_ROWS, RowConfig, arrange
from agari.vision.scale import ScaleConfig, choose_scale, pixel_scale, shrink
from agari.vision.spares import SpareConfig, settle_spares
from agari.vision.standing import StandingConfig, standing_proposals
from agari.vision.threads import beside


@dataclass(frozen=True, slots=True)
class LocateConfig:
    """Everything `locate` can be tuned by; the defaults are the shipped behaviour."""

    max_pixels: float = 1.0e6
    """Working-image size cap: larger photos are downscaled to this many pixels."""
    probe: bool = True
    """Probe the tile size first and work at the scale that suits it (see `agari.vision.scale`)."""
    scale: ScaleConfig = field(default_factory=ScaleConfig)
    min_side: int = 32
    """Images smaller than this on either side are refused."""
    noise: NoiseConfig | None = field(default_factory=NoiseConfig)
    """A noisy working image is softened first (`agari.vision.noise`); None never."""
    proposals: ProposalConfig = field(default_factory=ProposalConfig)
    standing: StandingConfig | None = field(default_factory=StandingConfig)
    """Standing rows cut beside their bright tops (`agari.vision.standing`); None skips."""
    cores: CoreConfig | None = None
    """Tiles the core net finds (`agari.vision.cores`) where no classical proposal is;
    None skips the net."""
    core_score: float = 0.5
    """Proposal score given to a core quad (the locator keeps proposals above 0)."""
    refit: RefitConfig | None = field(default_factory=RefitConfig)
    """With the core net on: a classical proposal holding only a part of a tile (a bright
    gap between its symbols) gives way to the net's quad of it (`agari.vision.refit`);
    None never."""
    lone_tile: float | None = None
    """With the core net and a judge: a face-up core quad with no like-sized one near it
    (`CoreConfig.company` keeps those out: a blob on a sleeve or bottle is no tile) is
    added all the same where the judge rates it a tile at least this surely and nothing
    else covers it. A dora indicator lies alone beside the hand. None never."""
    holds: HoldConfig | None = None
    """With the core net and a judge: a classical proposal that holds a net quad's face with
    more round it (a lying tile's front side, half a neighbour) is judged against it too
    (`agari.vision.holds`); None never."""
    net_fit: NetFitConfig | None = None
    """With the core net and a judge: a classical proposal fitting the sure net quads over it
    loosely gives way to them where the judge is all but sure they are tiles, in photos where
    the net frames faces as the locator does (`agari.vision.net_fit`); None never."""
    core_parts: PartsConfig | None = None
    """With the core net and a judge: a net blob that may be two faces (`CoreQuad.parts`,
    `CoreConfig.judged_parts`) is taken as two where the judge is sure of both
    (`agari.vision.core_parts`); None never."""
    rows: RowConfig = field(default_factory=RowConfig)
    spares: SpareConfig | None = None
    """With the core net and a reader (the classifier): a located tile it reads unsurely
    gives way to the net's quads over it that were left out, where it reads those as faces
    surely (`agari.vision.spares`); None never."""
    inverted: bool = False
    """Locate in the photo with its lightness (CIE L*) turned over and its hue kept
    (`inverted_lightness`): a dark-faced set's faces with light ink become light plates
    with dark ink, as the score maps look for, the core net learnt and the judge reads
    best. The quads are the photo's own. Off in the first reading (light sets and dark
    ones are found about as often either way, but not the same tiles: on the 57 dark
    renders of the tuning sets and guard 745 and 738 of 820 hand tiles boxed); a reading
    again of a dark photo (`agari.retry.RetryConfig.inverted`)."""


DEFAULT_CONFIG = LocateConfig()
HAND_LOCATE = LocateConfig(scale=ScaleConfig(max_upscale=2.0),
                           cores=CoreConfig(part=0.8, part_trim=0.1, judged_parts=(0.5, 1.6)),
                           rows=SLANTED_ROWS, lone_tile=0.99, holds=HoldConfig(),
                           net_fit=NetFitConfig(off_centre=0.15), core_parts=PartsConfig(),
                           spares=SpareConfig())
"""For a photo that holds a hand (`agari photo`): small tiles in a small photo are
enlarged first (see `agari.vision.scale`), and the core net fills in the tiles the
classical steps missed (`agari.vision.cores`); rows of faces seen at a slant are one row
(`agari.vision.rows.SLANTED_ROWS`); a lone net quad the classifier is all but sure of is
added (`LocateConfig.lone_tile`: on the 200 tuning renders, 37 of them with a lone quad
rated 0.98 or more, exact scores there 13 -> 18, hand tiles missed 66 -> 44, no exact
hand lost; of the lone quads rated 0.99 or more 22 framed hand or indicator tiles, 7 other
tiles and 4 no tile, while below 0.98 most framed none); a classical box holding a net
quad's face with its front side gives way to it where the classifier doubts the box
(`agari.vision.holds`); a classical box fitting a sure net quad loosely gives way to it
where the classifier is all but sure of the net quad, in photos where the net frames
faces as the locator does (`agari.vision.net_fit`); given a reader, a located box read
unsurely gives way to the net's quads over it that were left out (`agari.vision.spares`);
a net blob run together over two or more faces is cut into one quad per face, or, where
its pixels group less clearly, into two where the classifier is sure of both
(`CoreConfig.part`, `agari.vision.core_parts`).
`agari detect` and bulk labelling keep `DEFAULT_CONFIG`, where enlarging tile-free
photos turns up false tiles; the webcam keeps it for speed."""


working_scale = pixel_scale


Judge = Callable[[np.ndarray, list[np.ndarray]], np.ndarray]
"""``judge(photo, quads)``: how likely each quad (photo pixels) frames one tile, 0..1."""
Dispute = tuple[Proposal, list[Proposal]]
"""A classical proposal and the sure core quads that disagree with it."""


def core_proposals(cores: list[CoreQuad], existing: list[Proposal], scale: float,
                   config: LocateConfig,
                   contest: Callable[[list[Dispute]], list[Proposal]] | None = None,
                   vouch: Callable[[list[Proposal]], list[bool]] | None = None,
                   hold: Callable[[list[Dispute]], list[Proposal]] | None = None,
                   fits: Callable[[list[Dispute]], list[Proposal]] | None = None,
                   ) -> tuple[list[Proposal], list[Proposal]]:
    """The classical proposals kept, and the core net's tiles (working pixels) to add:
    those no kept proposal covers.

    ``contest(disputes) -> losers``, when given, settles the classical proposals that
    sure core quads disagree with (`CoreConfig.contest`); the losers are not kept, so
    their rivals take their place. ``vouch(proposals) -> keep each``, when given, decides
    on the face-up core quads without company that nothing covers (`LocateConfig.lone_tile`).
    ``hold(disputes) -> losers`` settles the proposals that hold a net quad with more round
    it (`LocateConfig.holds`); ``fits(disputes) -> losers`` those that fit the sure net quads
    over them loosely (`LocateConfig.net_fit`).
    """
    assert config.cores is not None
    cfg = config.cores
    every = cores
    if cfg.company is not None:
        cores = in_company(cores, cfg.company)
    found = [Proposal(c.quad * np.float32(scale), config.core_score, c.face_down)
             for c in cores]
    kept = existing
    if contest is not None and cfg.contest is not None:
        sure = [f for f, c in zip(found, cores, strict=True) if c.score >= cfg.contest]
        bounds = quad_bounds([f.quad for f in sure])  # only quads whose boxes meet can overlap
        disputes = []
        for p in existing:
            rivals = [sure[i] for i in bounds_meeting(bounds, p.quad)
                      if quad_overlap(sure[i].quad, p.quad) > cfg.overlap]
            straddles = len(rivals) >= 2
            misfits = len(rivals) == 1 and quad_iou(rivals[0].quad, p.quad) < cfg.misfit
            if straddles or misfits:
                disputes.append((p, rivals))
        lost = {id(p) for p in contest(disputes)}
        kept = [p for p in existing if id(p) not in lost]
    if hold is not None and config.holds is not None:
        lost = {id(p) for p in hold(held(kept, found, [c.score for c in cores], config.holds))}
        kept = [p for p in kept if id(p) not in lost]
    if fits is not None and config.net_fit is not None:
        scores = [c.score for c in cores]
        lost = {id(p) for p in fits(loose_fits(kept, found, scores, config.net_fit))}
        kept = [p for p in kept if id(p) not in lost]
    added = uncovered(found, [p.quad for p in kept], cfg.overlap)
    if vouch is not None:
        added += _vouched(every, cores, kept + added, scale, config, vouch)
    return kept, added


def _vouched(every: list[CoreQuad], company: list[CoreQuad], taken: list[Proposal],
             scale: float, config: LocateConfig,
             vouch: Callable[[list[Proposal]], list[bool]]) -> list[Proposal]:
    """The face-up core quads left out for want of company that ``vouch`` keeps, among
    those no proposal in ``taken`` covers (working pixels)."""
    assert config.cores is not None
    chosen = {id(c) for c in company}
    lone = [Proposal(c.quad * np.float32(scale), config.core_score, False)
            for c in every if id(c) not in chosen and not c.face_down]
    lone = uncovered(lone, [p.quad for p in taken], config.cores.overlap)
    if not lone:
        return []
    return [p for p, ok in zip(lone, vouch(lone), strict=True) if ok]


def _contest(bgr: np.ndarray, scale: float, judge: Judge, cfg: CoreConfig
             ) -> Callable[[list[Dispute]], list[Proposal]]:
    """Settles disputes: a classical proposal loses when the judge doubts it (under
    `CoreConfig.doubt`) and rates its core-net rivals higher by `CoreConfig.margin`, or
    when it is many times their size and the judge is sure of them (`CoreConfig.engulf`)."""

    def settle(disputes: list[Dispute]) -> list[Proposal]:
        if not disputes:
            return []
        # One batch for every quad in every dispute, in photo pixels.
        quads = [q.quad / np.float32(scale) for p, rivals in disputes for q in (p, *rivals)]
        odds = iter(judge(bgr, quads))
        lost = []
        for p, rivals in disputes:
            mine = next(odds)
            each = [next(odds) for _ in rivals]
            theirs = np.mean(each)
            if (mine < cfg.doubt and theirs > mine + cfg.margin) or _engulfs(p, rivals, each, cfg):
                lost.append(p)
        return lost

    return settle


def _all_sure(bgr: np.ndarray, scale: float, judge: Judge, sure: float
              ) -> Callable[[list[Dispute]], list[Proposal]]:
    """Settles disputes: a classical proposal loses when the judge rates every one of its
    net rivals a tile at least ``sure`` (`NetFitConfig.sure`), however it rates the proposal."""

    def settle(disputes: list[Dispute]) -> list[Proposal]:
        if not disputes:
            return []
        odds = iter(judge(bgr, [r.quad / np.float32(scale) for _, rivals in disputes
                                for r in rivals]))
        return [p for p, rivals in disputes if min(next(odds) for _ in rivals) >= sure]

    return settle


def _engulfs(p: Proposal, rivals: list[Proposal], odds: list[float], cfg: CoreConfig) -> bool:
    """Whether ``p`` is many times its net rivals' size (`CoreConfig.engulf`) and the judge
    rates each of them a tile surely."""
    if cfg.engulf is None or min(odds) < cfg.engulf_sure:
        return False
    return quad_area(p.quad) >= cfg.engulf * float(np.mean([quad_area(r.quad) for r in rivals]))


def _vouch(bgr: np.ndarray, scale: float, judge: Judge, threshold: float
           ) -> Callable[[list[Proposal]], list[bool]]:
    """Keeps the proposals (working pixels) the judge rates a tile at least ``threshold``."""

    def keep(proposals: list[Proposal]) -> list[bool]:
        odds = judge(bgr, [p.quad / np.float32(scale) for p in proposals])
        return [bool(o >= threshold) for o in odds]

    return keep


def _work_size(height: int, width: int, scale: float) -> tuple[int, int]:
    """The working image's ``(width, height)`` at ``scale`` (as `shrink` rounds it): two
    scales of one size make the same working image."""
    return max(1, round(width * scale)), max(1, round(height * scale))


def working_size(image: np.ndarray, config: LocateConfig = DEFAULT_CONFIG) -> tuple[int, int]:
    """The working image's ``(width, height)`` `locate` makes of ``image`` under ``config``.
    Everything `locate` does after choosing the scale reads the working image (of this
    size, whatever the scale) and the photo, never the size cap: two configs differing
    only in `LocateConfig.max_pixels` that give one size find the same tiles."""
    bgr = as_bgr(image)
    h, w = bgr.shape[:2]
    cap = pixel_scale(h, w, config.max_pixels)
    return _work_size(h, w, choose_scale(bgr, config.max_pixels, config.scale)
                      if config.probe else cap)


def _working(bgr: np.ndarray, scale: float, config: LocateConfig
             ) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """The working image at ``scale`` (softened if noisy), in HSV, and its face map and
    grey image (`agari.vision.regions.face_map`)."""
    work = shrink(bgr, scale)
    gray = None
    if config.noise is not None:
        gray = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)  # the noise test and the face map's
        softened = soften(work, config.noise, gray=gray)
        work, gray = softened, (gray if softened is work else None)
    hsv = cv2.cvtColor(work, cv2.COLOR_BGR2HSV)  # the face, filled and back maps read it
    # Both sources read the face map and grey image.
    return work, hsv, face_map(work, config.proposals.maps, hsv=hsv, gray=gray)


class _Tracing:
    """The face levels left to trace, taken in turn by the thread that made the working
    image and, once the probe is done, by the caller's (which would wait for them idle)."""

    def __init__(self, traced: LevelContours, levels: np.ndarray,
                 unwanted: threading.Event | None) -> None:
        self.traced, self.unwanted = traced, unwanted
        self._left = iter(levels.tolist())
        self._lock = threading.Lock()
        traced.open()  # before a second thread traces

    def trace(self) -> None:
        """Trace the levels no thread took yet (each once; a level's contours are the same,
        whoever traces them), until none is left or they are ``unwanted``."""
        while self.unwanted is None or not self.unwanted.is_set():
            with self._lock:
                level = next(self._left, None)
            if level is None:
                return
            self.traced.areas(float(level))


Working = tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray], LevelContours]


def _working_traced(bgr: np.ndarray, scale: float, config: LocateConfig,
                    unwanted: threading.Event | None = None,
                    made: Future | None = None) -> Working:
    """`_working`, and the face map's levels traced (`LevelContours`, with their contours'
    areas): made beside the probe, whose thread has little else to do. Tracing stops
    once ``unwanted`` is set (the probe chose another scale; the rest traces lazily).
    ``made``, when given, is handed the working image and the `_Tracing` as soon as they
    are made, so that the caller can share the tracing."""
    try:
        work, hsv, face = _working(bgr, scale, config)
        traced = LevelContours(face[0], config.proposals.levels.open_kernel)
        tracing = _Tracing(traced, traced.levels(config.proposals.levels), unwanted)
    except BaseException as exc:
        if made is not None:
            made.set_exception(exc)
        raise
    if made is not None:
        made.set_result(((work, hsv, face, traced), tracing))
    tracing.trace()
    return work, hsv, face, traced


def locate(image: np.ndarray, *, config: LocateConfig = DEFAULT_CONFIG,
           judge: Judge | None = None, reader: Classify | None = None,
           cores_of: Callable[[np.ndarray, CoreConfig], list[CoreQuad]] | None = None
           ) -> list[TileDetection]:
    """Find the tiles in a photo.

    Args:
        image: BGR ``uint8 (H, W, 3)`` (grey and BGRA are accepted), any size.
        config: tuning; see `LocateConfig`.
        judge: rates quads as tiles (the classifier: `TileClassifier.tile_likeness`); with
            the core net on, it settles where net and classical proposals disagree.
        reader: labels a batch of detections (the classifier); with the core net on and
            `LocateConfig.spares` set, it settles where a located tile reads badly and net
            quads left out lie over it.
        cores_of: the core net's quads for a photo (None: `agari.vision.cores.find_cores`); the
            net reads a photo at its own size, whatever ``config.max_pixels``, so a caller
            locating one photo at several scales may pass a memo of it.

    Returns:
        One `TileDetection` per tile found (unlabelled: ``label`` None), quads in
        the original image's pixels, in reading order: rows from the top of the
        image down, tiles along each row left to right in the row's own frame.
        An empty list when nothing tile-like is in the picture.

    Raises:
        ImageError: not a usable image (wrong type or shape, empty, too small).
    """
    bgr = as_bgr(image)
    h, w = bgr.shape[:2]
    if min(h, w) < config.min_side:
        raise ImageError(f"image is too small to hold tiles: {w}x{h} pixels")
    if config.inverted:
        bgr = inverted_lightness(bgr)
    # The core net runs beside the classical steps.
    net = None if config.cores is None else beside(cores_of or find_cores, bgr, config.cores,
                                                   name="agari-cores")
    cap = pixel_scale(h, w, config.max_pixels)
    if config.probe and net is None:
        # The probe mostly keeps the size cap (a big photo's tiles are short of the
        # target), so the working image at the cap is made beside it, and used if so.
        # Not while the net runs beside: a third thread on two cores made `agari photo`
        # slower (median +5 ms a photo, tuning renders 910000, two runs each).
        # Its face levels are traced there too: the probe takes longer than the working
        # image, and the calling thread would trace them next.
        unwanted, made = threading.Event(), Future()
        ahead = beside(_working_traced, bgr, cap, config, unwanted, made, name="agari-ahead")
        scale = choose_scale(bgr, config.max_pixels, config.scale)
        if _work_size(h, w, scale) == _work_size(h, w, cap):
            (work, hsv, face, traced), tracing = made.result()
            tracing.trace()  # the levels left, beside the helper
            ahead.result()  # its last level traced too
        else:
            unwanted.set()
            work, hsv, face, traced = _working_traced(bgr, scale, config)
    else:
        scale = choose_scale(bgr, config.max_pixels, config.scale) if config.probe else cap
        work, hsv, face = _working(bgr, scale, config)
        traced = LevelContours(face[0], config.proposals.levels.open_kernel)  # and its levels
    scale = work.shape[1] / w  # the exact factor after rounding the size
    proposals = propose(work, config.proposals, face=face, hsv=hsv, face_levels=traced)
    if config.standing is not None:
        proposals += standing_proposals(work, proposals, config=config.standing, face=face,
                                        face_levels=traced)
    if net is not None:  # last: the classical quads fit a face better where both found it
        cores = net.result()
        if judge is not None and config.core_parts is not None:
            cores = judged_parts(bgr, cores, judge, config.core_parts)
        if config.refit is not None:
            proposals = refit(proposals, cores, scale, config.refit)
        contest = None if judge is None else _contest(bgr, scale, judge, config.cores)
        vouch = None if judge is None or config.lone_tile is None \
            else _vouch(bgr, scale, judge, config.lone_tile)
        hold = None if judge is None or config.holds is None else _contest(
            bgr, scale, judge, replace(config.cores, doubt=config.holds.doubt,
                                       margin=config.holds.margin))
        fits = None if judge is None or config.net_fit is None \
            else _all_sure(bgr, scale, judge, config.net_fit.sure)
        proposals, added = core_proposals(cores, proposals, scale, config, contest, vouch, hold,
                                          fits)
        proposals += added
    dets = arrange(proposals, scale=scale, cfg=config.rows)
    if net is not None and reader is not None and config.spares is not None:
        dets = settle_spares(bgr, dets, cores, reader, config=config.spares)
    return dets


__all__ = ["DEFAULT_CONFIG", "HAND_LOCATE", "Judge", "LocateConfig", "Proposal", "locate",
           "working_scale", "working_size"]
