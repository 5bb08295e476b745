"""Photo → score: locate, classify, lay out, read under the hand's constraints, score.

The library behind ``agari photo`` (and usable from Python); it never prints.

>>> from agari.pipeline import load_image, read_photo, situation_of   # doctest: +SKIP
>>> result = read_photo(load_image("samples/hand.jpg"), situation_of({}))  # doctest: +SKIP
>>> result.hand, result.score.points                                   # doctest: +SKIP
('22333m067p44s4s 567p', 2000)
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from agari.engine.errors import AgariError, ImageError, InvalidHand, NoTiles
from agari.engine.result import ScoreResult
from agari.engine.tiles import Tile
from agari.hand_score import WinOption, error_json, score_layout
from agari.models.polarity import DEFAULT_POLARITY, PolarityConfig, dark_plates, face_polarity
from agari.read_memo import remembering
from agari.retry import DEFAULT_RETRY, RetryConfig, hand_region, in_region, no_hand, retried
from agari.vision.cores import CoreConfig, CoreQuad, find_cores
from agari.vision.crops import remembered_shrinks
from agari.vision.detection import TileDetection
from agari.vision.doubles import HAND_DOUBLES, DoublesConfig, split_doubles
from agari.vision.fill import HAND_FILL, FillConfig, fill_rows, remembered_plains
from agari.vision.flat_melds import DEFAULT_FLAT, FlatConfig, add_flat_faces
from agari.vision.hand_reframe import DEFAULT_HAND_REFRAME, HandReframeConfig, reframe_hand
from agari.vision.indicator_faces import IndicatorFacesConfig, find_indicator_faces
from agari.vision.indicator_look import (
    DEFAULT_INDICATOR_LOOK,
    IndicatorLookConfig,
    look_at_indicators,
)
from agari.vision.inked_backs import DEFAULT_INK, InkConfig, inked_backs
from agari.vision.layout import DEFAULT_LAYOUT, LayoutConfig, LayoutPlan, analyse_layout
from agari.vision.layout_hand import HandLayout
from agari.vision.locate import HAND_LOCATE, LocateConfig, locate
from agari.vision.locate_memo import LocateMemo
from agari.vision.net_faces import NetFacesConfig, net_faces
from agari.vision.none_twins import DEFAULT_NONE_TWINS, NoneTwinsConfig, drop_none_twins
from agari.vision.quarter import DEFAULT_QUARTER, QuarterConfig, turn_unread
from agari.vision.reading import DEFAULT_READING, Reading, ReadingConfig
from agari.vision.reading_checks import Situation, changed
from agari.vision.reading_copies import cap_copies
from agari.vision.reading_cuts import Cuts, other_cuts
from agari.vision.reading_repair import DEFAULT_REPAIR, RepairConfig, read_with_repairs
from agari.vision.reframe import ReframeConfig, reframe
from agari.vision.reread import reread_in_hand_frame
from agari.vision.scale import remembered_probes
from agari.vision.second_look import SecondLookConfig, second_look
from agari.vision.sheared import DEFAULT_SHEARED, ShearedConfig, sheared_faces
from agari.vision.wall_faces import DEFAULT_WALL_FACES, WallFacesConfig, find_wall_faces

TOP_K = 5
"""Names per tile asked of the classifier: the reading's room to correct it."""


@dataclass(frozen=True, slots=True)
class PipelineConfig:
    """Tuning of the photo pipeline's own stages."""

    top_k: int = TOP_K
    locate: LocateConfig = HAND_LOCATE
    """The locator's settings when `read_photo` is given no locator."""
    layout: LayoutConfig = DEFAULT_LAYOUT
    reading: ReadingConfig = DEFAULT_READING
    repair: RepairConfig = DEFAULT_REPAIR
    reframe: ReframeConfig | None = None
    """Re-read unsure located tiles through shifted, trimmed or turned quads
    (`agari.vision.reframe`) before row completion; None (the default) skips it. Row
    completion re-frames its own unsure steps (`FillConfig.rescue_floor`), and since it
    does, re-framing the located tiles first no longer pays: 200 held-out renders read 38
    hands exactly without it and 35 with it, the 100 tuning renders 20 either way, the
    real photos the same, and it costs 13 ms. It still rescues a row where nothing was
    read surely enough to anchor completion (`DEFAULT_REFRAME` turns it on)."""
    doubles: DoublesConfig | None = HAND_DOUBLES
    """Cut a box about two or three tiles wide beside its row's tiles into single tiles,
    re-framed, where each part reads surely (`agari.vision.doubles`); None skips it. Two
    identical tiles side by side show no seam: two 西 boxed as one read as 2p at 0.9."""
    inked_backs: InkConfig | None = DEFAULT_INK
    """Give a dark back with green ink in its face's centre its 發, above the 白 a back
    read as a face is taken for (`agari.vision.inked_backs`); None skips it. On the five
    tuning sets 1040026 (66z read 55z) and 1030000 (666z read 555z) read exactly, nothing
    else changed (hands 381 → 383, scores 363 → 365)."""
    sheared: ShearedConfig | None = DEFAULT_SHEARED
    """Before row completion, rows of boxes read ``none`` or unsurely whose band repeats at
    some lean get plates leaning as their faces do (`agari.vision.sheared`: faces seen at a
    steep slant, boxed only round their symbols); None skips it. Five tuning sets (OpenCV 5.1)
    387/369/305 -> 389/371/307 hands/scores/layouts (1040007, 1000092), guard and real
    variants the same; about 16 ms of calling-thread CPU a photo (median)."""
    fill: FillConfig | None = HAND_FILL
    """Row completion after classifying (`agari.vision.fill`); None skips it."""
    flat: FlatConfig | None = DEFAULT_FLAT
    """Where the located tiles read as no hand: called tiles lying flat past the ends of a
    standing row, framed through the table's perspective (`agari.vision.flat_melds`), and the
    hand read again with them; None skips (so does a pipeline without `fill`)."""
    wall_faces: WallFacesConfig | None = DEFAULT_WALL_FACES
    """A dead wall's indicator the locator missed, read where the wall's stacks leave room,
    only where the layout finds no dora on a wall (`agari.vision.wall_faces`); None skips."""
    indicator_faces: IndicatorFacesConfig | None = IndicatorFacesConfig(search=True)
    """Where the layout reads no dora, the core net's lone quads where indicators lie, read
    (`agari.vision.indicator_faces`, with its grid `search`); None skips. Exact layouts
    298 -> 303 and scores 366 -> 369 over the five tuning sets, hands the same (stop 35)."""
    indicator_look: IndicatorLookConfig | None = DEFAULT_INDICATOR_LOOK
    """After re-reading and re-framing the hand, the indicators a layout picked but read
    unsurely, read again from their boxes stretched along their length at either end, both
    ways up, named anew where every sure cut agrees (`agari.vision.indicator_look`); None
    skips it. Of the 85 scenes over the five tuning sets and the guard with an unsure
    indicator it renames three: 1030073 (2m -> 3m) and 1030012 (2z -> 1z) right, 980014
    (0s -> 0p, truly 4z) wrong either way. Whole `photo_eval`: see
    `agari.vision.layout_extras.ExtrasConfig.wall_end`."""
    quarter: QuarterConfig | None = DEFAULT_QUARTER
    """After row completion, read each tile called ``none`` again with its corners named a
    quarter round (`agari.vision.quarter`); None skips it. On the 200 tuning renders it took
    exact hands 97 to 106 (meld and dora tiles lying flat, foreshortened until the locator
    took them for wide ones); the real photos' variants 11 to 14 of 30 exact."""
    none_twins: NoneTwinsConfig | None = DEFAULT_NONE_TWINS
    """After the quarter turns, a box read ``none`` lying the other way round over a tile
    another box reads surely is left out (`agari.vision.none_twins`); None skips it.
    Interleaved A/B of the whole read_photo (x100, off -> on), exact hands/scores/layouts:
    950000 63/59/36 -> 65/61/37 (misread 34 -> 22, wrong role 145 -> 134), 990000 and
    980000 the same (wrong role fewer); real variants 368/390, 19/30 either way. Guards:
    970000 69/65/48 -> 70/66/49 (misread 37 -> 12), 960000 69/69/47 -> 68/69/45 (misread
    15 -> 27; 960047 lost: its meld's upright none boxes gone, the sideways faces of the
    same tiles left, every reading needed a fifth copy)."""
    net_faces: NetFacesConfig | None = None
    """Last of all, a box still read ``none`` gives way to the core net's sure quads over it
    that read as faces (`agari.vision.net_faces`: called and lying tiles boxed across a seam
    or with their front sides); only where the locator ran the net (it is not run again);
    None (the default) skips it. The tiles it adds are nearly all right, but the hands they
    make no better: interleaved A/B of the whole read_photo (x100, off -> `NetFacesConfig()`),
    exact hands/scores/layouts 950000 63/59/36 -> 65/61/37, 990000 67/66/59 -> 66/65/57,
    980000 70/64/53 the same, 970000 69/65/48 -> 68/64/47, 960000 69/69/47 the same (a
    first reading made whole skips the readings again that had mended it elsewhere). With
    `none_twins` on: 950000 67/62/38 -> 68/63/39, 990000 67/66/59 -> 66/65/57, 980000
    70/64/53 the same."""
    other_cuts: bool = True
    """Read the meld tiles that a layout plan lays otherwise than they were cut (a called
    tile the locator boxed upright) cut that plan's way too, and read each plan with its
    own cuts (`agari.vision.reading_cuts`)."""
    reread: bool = True
    """Read the hand's tiles again cut as they lie in a first layout's frame, called tiles
    turned (`agari.vision.reread`), before the layout proper. On the 200 tuning renders
    (seeds 910000 and 920000) it halved the misread hand tiles (112 to 58) for 83 to 84
    exact hands and 55 to 58 exact scores; the real photos' variants 340 to 342 tiles."""
    reread_both: float | None = None
    """Where re-reading a hand tile as it lies names another tile at least this surely,
    though less surely than its first cut, keep both cuts' names for the hand to choose from
    (`reread_in_hand_frame`'s ``both``) rather than the first cut's alone; None never.
    read_photo of stop 31's tree (b77694d) with it, against the tree's own per-render
    results, hands/scores/layouts: at 0.5, 1020000 66/68/51 -> 67/69/51 (1020039: an upright
    9s boxed as a called tile), 1000000, 950000, 990000 and guard 980000 the same, real
    variants 368/390, 19/30 either way: one render in 400, so off. At 0.0 (any cut): 1020000
    +2/+1, 1000000 -1/-1, 950000 -1/-1, 990000 the same (the extra names let a retry's
    attempt make a wrong hand, 1000088)."""
    reread_unsure: float | None = None
    """Re-reading the hand as it lies, a tile cut upright whose face is read less surely than
    this is read turned a quarter too, and the hand chooses between the cuts
    (`reread_in_hand_frame`'s ``unsure``); None reads only squat tiles so. At 0.9, the same
    A/B as ``reread_both``: 1020000, 950000, 990000 the same hands and scores, 1000000 -1/-1;
    misread hand tiles 11 -> 13, 11 -> 13, 13, 7 -> 8: off."""
    second_look: SecondLookConfig | None = None
    """After re-reading the hand as it lies, read its doubtful tiles again turned 180° and
    average the two answers (`agari.vision.second_look`); None (the default) skips it.
    The same A/B as ``reread_both``, `SecondLookConfig()` (hands/scores): 1020000 +1/0,
    1000000 +1/+1, 950000 -1/-1, 990000 -1/-2 (the changed probabilities move retries'
    votes both ways: 950040, 950041, 990060); ``faces_only``: 1020000 and 1000000 the same
    hands, 950000 950040 and 950041 lost. Real variants with `SecondLookConfig()`: 369/390,
    20/30 (368, 19 without). Off."""
    polarity: PolarityConfig | None = DEFAULT_POLARITY
    """Read the photo's tiles with each crop's lightness inverted where they read surer so
    (a dark-faced set, `agari.models.polarity`); None never."""
    remember: bool = True
    """Run the classifier once per distinct crop of a photo (`agari.read_memo`): the same
    answers, without reading again what an earlier stage or reading already read."""
    retry: RetryConfig | None = DEFAULT_RETRY
    """When no reading makes a hand (the photo read as too few tiles, or no legal hand),
    locate again at other working scales and in crops round the hand, and take a reading
    that two of them agree on (`agari.retry`); None never."""
    hand_reframe: HandReframeConfig | None = DEFAULT_HAND_REFRAME
    """After the layout has found the hand, re-frame its tiles read as a face only unsurely
    (`agari.vision.hand_reframe`: reframe's variants, then the box grown upwards to the row's
    tile height); None skips it. On (hands/scores): 1030000 75/70 -> 77/71 (1030005,
    1030045), 1020000, 1000000, 950000, 990000 the same; guard 980000 the same (78/74); the
    real photos and their variants the same row for row (370/390 tiles, 20/30 exact)."""


DEFAULT_PIPELINE = PipelineConfig()




@dataclass(frozen=True, slots=True)
class PhotoResult:
    """Everything read from one photo.

    Attributes:
        image: the photo's name (path as given).
        width, height: its size in pixels.
        detections: classified tiles, in the locator's order.
        roles: per detection: ``concealed``, ``win``, ``meld 1``…, ``dora``, ``ura`` or ``other``.
        read: per detection, the tile name the chosen reading gives it (None outside the hand).
        reading: the hand-constrained reading (None when no hand could be read).
        score: the score (the best candidate's when the winning tile is not known).
        error: why the hand could not be scored, if it could not.
        win_options: each candidate winning tile's score when the photo does not show it.
        waits: each wait's score for a 13-tile hand.
        alternative_scores: the score (or why none) of each of ``reading.alternatives``.
        notes: what was assumed, for the user.
        timings: ``(stage, milliseconds)``.
    """

    image: str
    width: int
    height: int
    detections: tuple[TileDetection, ...] = ()
    roles: tuple[str, ...] = ()
    read: tuple[str | None, ...] = ()
    reading: Reading | None = None
    score: ScoreResult | None = None
    error: AgariError | None = None
    win_options: tuple[WinOption, ...] = ()
    waits: tuple[WinOption, ...] = ()
    alternative_scores: tuple[ScoreResult | AgariError | None, ...] = ()
    notes: tuple[str, ...] = ()
    timings: tuple[tuple[str, float], ...] = ()

    @property
    def layout(self) -> HandLayout | None:
        return self.reading.layout if self.reading is not None else None

    @property
    def hand(self) -> str | None:
        """HAND notation of the read hand (winning tile last; the best candidate if unknown)."""
        if self.layout is None:
            return None
        if self.layout.win is None and self.score is not None and self.layout.size == 14:
            return _with_win_last(self.layout, _tile(self.score.win))
        return self.layout.hand_text

    @property
    def elapsed_ms(self) -> float:
        return sum(ms for _, ms in self.timings)

    def to_json(self) -> dict:
        """The photo JSON contract's document (plus reading details and timings)."""
        tiles = []
        for det, role, read in zip(self.detections, self.roles, self.read, strict=True):
            tiles.append({**det.to_json(), "role": role, "read": read})
        return {
            "image": self.image, "width": self.width, "height": self.height, "tiles": tiles,
            "layout": self.layout.to_json() if self.layout is not None else None,
            "hand": self.hand,
            "score": self.score.to_json() if self.score is not None else None,
            "error": error_json(self.error),
            "win_candidates": [o.to_json() for o in self.win_options],
            "waits": [o.to_json() for o in self.waits],
            "reading": _reading_json(self.reading, self.alternative_scores)
            if self.reading is not None else None,
            "notes": list(self.notes),
            "elapsed_ms": round(self.elapsed_ms, 1),
        }


def _tile(value: Tile | str) -> Tile:
    return value if isinstance(value, Tile) else Tile.parse(value)


def _with_win_last(layout: HandLayout, win: Tile) -> str:
    rest = list(layout.concealed)
    for i, t in enumerate(rest):
        if t.kind == win.kind:
            win = rest.pop(i)
            break
    return replace(layout, concealed=tuple(rest), win=win, concealed_detections=()).hand_text


def _reading_json(reading: Reading, scores: Sequence[ScoreResult | AgariError | None]) -> dict:
    alts = []
    for alt, got in zip(reading.alternatives, scores, strict=True):
        alts.append({"hand": alt.layout.hand_text, "layout": alt.layout.to_json(),
                     "relative_probability": round(reading.relative(alt), 4),
                     "score": got.to_json() if isinstance(got, ScoreResult) else None,
                     "error": error_json(got) if isinstance(got, AgariError) else None})
    return {
        "level": reading.level, "confidence": round(reading.confidence, 4),
        "doubts": [d.to_json() for d in reading.doubts],
        "corrections": [{"tile_index": i, "classifier": a, "read": b}
                        for i, a, b in reading.corrections],
        "alternatives": alts,
    }




# -- inputs ----------------------------------------------------------------------
def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as BGR ``uint8 (H, W, 3)`` (the project's one decoder).

    Raises:
        ImageError: missing, empty, or not an image OpenCV can decode.
    """
    from agari.models.classifier import read_image

    return read_image(path)


def write_image(path: str | Path, image: np.ndarray) -> None:
    """Write an image (format from the extension: .png, .jpg…), creating folders.

    Raises:
        ImageError: the file cannot be written or the extension is not an image format.
    """
    import cv2

    from agari.datasets.imagefiles import write_image as write

    try:
        write(Path(path), image)
    except cv2.error:
        raise ImageError(f"cannot write {str(path)!r}: not an image format "
                         "(use .png or .jpg)") from None


def annotate_result(image: np.ndarray, result: PhotoResult) -> np.ndarray:
    """The photo with each tile's quad, read name and role drawn (a new image)."""
    from agari.vision.layout_draw import annotate

    names = [r if r is not None else d.label_name for r, d in zip(result.read, result.detections,
                                                                   strict=True)]
    doubtful = [d.detection for d in result.reading.doubts] if result.reading else []
    return annotate(image, result.detections, roles=result.roles, names=names, doubtful=doubtful)


def situation_of(request: Mapping[str, Any]) -> Situation:
    """The situation from ``agari score``'s option fields (``hand`` is the photo's, so absent).

    ``win``, ``dora`` and ``ura``, when given, fix what the photo would otherwise say.

    Raises:
        InvalidInput: a bad option value (same messages as ``agari score``).
    """
    from agari.engine.requests import parse_situation

    ctx, rules = parse_situation(request)
    fixed_dora = ctx.dora if request.get("dora") is not None else None
    fixed_ura = ctx.ura if request.get("ura") is not None else None
    return Situation(rules, changed(ctx, win=None, dora=(), ura=()), ctx.win, fixed_dora,
                     fixed_ura)


def default_locator(config: LocateConfig = HAND_LOCATE, judge=None, reader=None,
                    cores_of=None):
    """The locator `read_photo` uses unless given one: `agari.vision.locate.locate`
    (``judge``: the classifier's `tile_likeness`, which settles where the core net and
    the classical steps disagree; ``reader``: its `classify_detections`, which reads the
    net's left-out quads against boxes read unsurely, `agari.vision.spares`;
    ``cores_of``: the core net, or a memo of it)."""
    return partial(locate, config=config, judge=judge, reader=reader, cores_of=cores_of)


class _NetMemo:
    """`find_cores` remembering its answer per net setting: one photo located at several
    working scales is read by the net once (it reads the photo at its own size)."""

    def __init__(self) -> None:
        self._seen: dict[CoreConfig, list[CoreQuad]] = {}

    def __call__(self, bgr: np.ndarray, cfg: CoreConfig) -> list[CoreQuad]:
        if cfg not in self._seen:
            self._seen[cfg] = find_cores(bgr, cfg)
        return self._seen[cfg]

    def found(self, cfg: CoreConfig | None) -> list[CoreQuad] | None:
        """The net's quads for ``cfg`` if it has read the photo so (None if not)."""
        return None if cfg is None else self._seen.get(cfg)


@lru_cache(maxsize=1)
def default_classifier():
    """The shipped classifier, loaded once per process."""
    from agari.models import TileClassifier

    return TileClassifier.load()


# -- stages ------------------------------------------------------------------------
def read_photo(image: np.ndarray, situation: Situation, *, name: str = "", locator=None,
               classifier=None, flip: bool | None = None,
               config: PipelineConfig = DEFAULT_PIPELINE) -> PhotoResult:
    """Read and score the hand in a photo.

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        situation: rules, the win's situation and any tiles the user fixed.
        name: the photo's name for the result.
        locator: ``image -> list[TileDetection]``; default `agari.vision.locate.locate`.
        classifier: a `agari.models.TileClassifier`; default the shipped model.
        flip: force the hand's frame turned round (True) or not (False); None guesses.
        config: tuning.

    Raises:
        ImageError: not a usable image.
        NoTiles: no tile found.
        ModelError: the classifier model cannot be loaded.
    """
    from agari.vision.crops import as_bgr

    image = as_bgr(image)
    clf = classifier if classifier is not None else default_classifier()
    if config.remember:
        clf = remembering(clf)  # for this photo only

    net = _NetMemo()  # the retries below read the same photo again
    seen = LocateMemo()  # ... at caps that may give the same working image

    def located(cfg: LocateConfig, cores_of=net):
        # A stand-in classifier (tests, a caller's own) may not rate quads: then no contests.
        found = default_locator(cfg, getattr(clf, "tile_likeness", None),
                                partial(clf.classify_detections, top_k=config.top_k), cores_of)
        return seen.remembered(found, cfg) if cores_of is net else found

    once = partial(_read_once, image, situation, clf=clf, name=name, flip=flip,
                   config=config, cores=partial(net.found, config.locate.cores), read={})
    retry = config.retry is not None and locator is None
    # The retries at other size caps probe the same photo, and its tiles are cut again (and
    # row completion and the flat-meld search measure the same patches again).
    with remembered_probes(), remembered_shrinks(), remembered_plains():
        try:
            result = once(locator if locator is not None else located(config.locate))
        except NoTiles as err:
            if not retry:
                raise
            # A tiny or blurred hand may show no tile at the first working scale, and tiles
            # at another (940047: the hand's tiles ~25 px wide at 1 MP, found at 1.4 MP).
            result = PhotoResult(name, image.shape[1], image.shape[0], error=err)
        if retry and (no_hand(result, config.retry) or isinstance(result.error, NoTiles)):
            attempts, turned = _attempts(image, result, once, located, config, clf)
            result = retried(result, attempts, config.retry, turned)
    if isinstance(result.error, NoTiles):
        raise result.error
    notes = (COLOURLESS_NOTE, *result.notes) if is_colourless(image) else result.notes
    return replace(result, notes=notes)


def _attempts(image: np.ndarray, first: PhotoResult, once, located, config: PipelineConfig,
              clf=None):
    """The readings `RetryConfig` asks for after ``first`` made no hand (or a shaky one):
    other working scales, then crops round the tiles ``first`` gave a role (each crop is new
    to the core net, which reads it at its own size); for a dark-faced set (judged by
    ``clf``, `dark_set`), the photo located with its lightness inverted first, and its
    crops so last; with how many of the first attempts are inverted readings of the whole
    photo."""
    # A cap that binds neither here nor at the first reading would read the same again.
    most = image.shape[0] * image.shape[1] * config.locate.scale.max_upscale ** 2
    caps = [mp for mp in config.retry.max_pixels if most > min(mp, config.locate.max_pixels)]
    attempts = [partial(once, located(replace(config.locate, max_pixels=mp))) for mp in caps]
    inverted = dark_set(image, first, clf, config)
    turned = replace(config.locate, inverted=True)
    if inverted:  # first; each another photo to the core net, not its memo of this one
        attempts[:0] = [partial(once, located(turned if mp is None else replace(
            turned, max_pixels=mp), None)) for mp in config.retry.inverted_caps]
    size = (image.shape[1], image.shape[0])
    boxes = [hand_region(first.detections, first.roles, size, zoom)
             for zoom in config.retry.zooms]
    crops = list(dict.fromkeys(b for b in boxes if b is not None))  # the same crop once
    for box in crops:
        attempts.append(partial(once, in_region(located(config.locate, None), box)))
    if inverted and config.retry.inverted_zooms:
        attempts += [partial(once, in_region(located(turned, None), box)) for box in crops]
    return attempts, len(config.retry.inverted_caps) if inverted else 0


def dark_set(image: np.ndarray, first: PhotoResult, clf, config: PipelineConfig) -> bool:
    """Whether ``first``'s located tiles are a dark-faced set's (`RetryConfig.inverted`): their
    faces, read by ``clf`` as they are, read surer inverted (`face_polarity`), or they are
    light ink on dark plates by their pixels (`dark_plates`, `RetryConfig.inverted_plates`);
    False for a stand-in classifier, or where the first reading found no tile."""
    judge = config.retry.inverted
    if judge is None or clf is None or not first.detections:
        return False
    plain = [replace(d, label=None, confidence=0.0, alternatives=()) for d in first.detections]
    # The first reading may have read them inverted already: the judge asks how they read so.
    read = clf.classify_detections(image, plain, top_k=config.top_k)
    if face_polarity(clf, image, read, judge) is not clf:
        return True
    plates = config.retry.inverted_plates
    spec = getattr(clf, "spec", None)  # a stand-in classifier cuts no crops
    return plates is not None and spec is not None and dark_plates(
        image, read, spec, plates, judge.min_tiles)


def _read_once(image: np.ndarray, situation: Situation, locate, *, clf, name: str,
               flip: bool | None, config: PipelineConfig, cores=None,
               read: dict | None = None) -> PhotoResult:
    """`read_photo` with one locator: stages 1-4 (notes on grey photos left to the caller).
    ``cores``: ``() -> the core net's quads of the whole photo`` (None where the net has not
    read it). ``read``: the photo's earlier readings by their located tiles, kept and used
    where they decide all that follows (`_located_key`)."""
    t0 = time.perf_counter()
    dets = locate(image)
    t1 = time.perf_counter()
    if not dets:
        raise NoTiles("no tiles found in the image")
    key = _located_key(dets, cores) if read is not None else None
    if key is not None and key in read:
        return replace(read[key], timings=(("locate", (t1 - t0) * 1e3), (
            "read as before", (time.perf_counter() - t1) * 1e3)))
    result = _read_located(image, situation, dets, clf=clf, name=name, flip=flip,
                           config=config, cores=cores)
    result = replace(result, timings=(("locate", (t1 - t0) * 1e3), *result.timings))
    if key is not None:
        read[key] = result
    return result


def _located_key(dets: list[TileDetection], cores=None) -> tuple | None:
    """The located tiles as a key for `_read_once`'s earlier readings, or None where they
    cannot be one (a locator of the caller's giving quads as arrays).

    What follows the locator depends on the photo, its situation, classifier and settings
    (the same for every reading of one photo), the located tiles, and the core net's quads
    where `PipelineConfig.indicator_faces` or `net_faces` reads them: those are read once
    a photo (`_NetMemo` keeps one list per setting), so whether the net has read the photo yet
    is all of them the key needs. A reading again that locates the very same tiles (another
    working scale or crop: 3 of the 52 readings again of 40 tuning renders, ~150 ms each)
    then reads what the earlier one read."""
    key = (tuple(dets), cores is not None and cores() is not None)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _read_located(image: np.ndarray, situation: Situation, dets: list[TileDetection], *,
                  clf, name: str, flip: bool | None, config: PipelineConfig, cores=None
                  ) -> PhotoResult:
    """`_read_once` after the locator: stages 2-4 of its located tiles (timings from the
    classifier on)."""
    t1 = time.perf_counter()
    classify = partial(clf.classify_detections, top_k=config.top_k)
    dets = classify(image, dets)
    reader = clf
    if config.polarity is not None:
        reader = face_polarity(clf, image, dets, config.polarity)
        if reader is not clf:
            classify = partial(reader.classify_detections, top_k=config.top_k)
            dets = classify(image, dets)
    if config.reframe is not None:
        dets = reframe(image, dets, classify, config=config.reframe)
    if config.doubles is not None:
        dets = split_doubles(image, dets, classify, config=config.doubles,
                             refine=partial(reframe, image, classify=classify))
    if config.sheared is not None:
        dets = sheared_faces(image, dets, classify, config=config.sheared)
    if config.fill is not None:
        dets = fill_rows(image, dets, classify, config=config.fill)
    if config.wall_faces is not None:
        dets = find_wall_faces(image, dets, classify, layout=config.layout,
                               config=config.wall_faces)
    if config.indicator_faces is not None and cores is not None:
        dets = find_indicator_faces(image, dets, cores() or [], classify, layout=config.layout,
                                    config=config.indicator_faces)
    unturned = dets
    if config.quarter is not None:
        dets = turn_unread(image, dets, classify, config=config.quarter)
    if config.none_twins is not None:
        dets = drop_none_twins(dets, config=config.none_twins)
        unturned = drop_none_twins(unturned, config=config.none_twins)
    found = None if config.net_faces is None or cores is None else cores()
    if found:
        same = dets == unturned
        dets = net_faces(image, dets, found, classify, config=config.net_faces)
        unturned = dets if same else net_faces(image, unturned, found, classify,
                                               config=config.net_faces)
    if config.inked_backs is not None:
        same = dets == unturned
        dets = inked_backs(image, dets, config.inked_backs)
        unturned = dets if same else inked_backs(image, unturned, config.inked_backs)
    look = None
    if config.second_look is not None and hasattr(reader, "predict") and hasattr(reader, "spec"):
        look = partial(second_look, reader, image, top_k=config.top_k, config=config.second_look)
    read = partial(_reread_and_read, image, classify=classify, situation=situation, name=name,
                   flip=flip, config=config, look=look)
    result, t2 = read(dets)
    stages = (("classify", (t2 - t1) * 1e3), *result.timings)
    if result.reading is None and isinstance(result.error, InvalidHand) and dets != unturned:
        # The quarter turns are guesses (a box over half a tile reads as a face turned too):
        # where they leave no possible hand, the photo is read without them.
        t3 = time.perf_counter()
        without, _ = read(unturned)
        stages += (("read without quarter turns", (time.perf_counter() - t3) * 1e3),)
        if without.reading is not None:
            result = without
    if isinstance(result.error, InvalidHand) and config.flat is not None \
            and config.fill is not None:
        # A hand of too few (or too many) tiles: melds laid flat beside a standing hand
        # are often not located at all (`agari.vision.flat_melds`). Looked for only here,
        # where the tiles make no hand, as the search reads a few hundred crops.
        t3 = time.perf_counter()
        flat = add_flat_faces(image, dets, classify, config=config.flat)
        if flat is not dets:
            try:
                again, _ = read(flat)
            except NoTiles:  # the flat faces took the place of every face-up box
                again = result
            stages += (("read with flat melds", (time.perf_counter() - t3) * 1e3),)
            if not isinstance(again.error, InvalidHand):
                result = again
    return replace(result, timings=stages)


def _reread_and_read(image: np.ndarray, dets: list[TileDetection], *, classify, situation,
                     name: str, flip: bool | None, config: PipelineConfig, look=None
                     ) -> tuple[PhotoResult, float]:
    """The hand's tiles re-read as they lie (if configured), then stages 3-4; with the
    `time.perf_counter` at which the re-reading ended. ``look``: ``(dets, only=) -> dets``,
    a second look at the doubtful ones (`agari.vision.second_look`), or None."""
    plans = None
    if config.reread:
        try:
            first = analyse_layout(dets, config=config.layout)
        except NoTiles:
            first = None  # nothing to re-read; stages 3-4 say so
        again = dets if first is None else reread_in_hand_frame(
            image, dets, classify, layout=config.layout, plans=first, both=config.reread_both,
            unsure=config.reread_unsure)
        if flip is None and all(a is b for a, b in zip(again, dets, strict=True)):
            plans = first  # no tile read again: the first layout is the layout (~4 ms saved)
        dets = again
    if config.hand_reframe is not None:
        dets, plans = reframe_hand(image, dets, classify, plans=plans, flip=flip,
                                   layout=config.layout, config=config.hand_reframe)
    if config.indicator_look is not None:
        dets, plans = look_at_indicators(image, dets, classify, plans=plans, flip=flip,
                                         layout=config.layout, config=config.indicator_look)
    if look is not None:
        dets, plans = _looked_again(dets, plans, look, flip, config)
    cuts = None
    if config.other_cuts:
        try:
            plans = plans or analyse_layout(dets, config=config.layout, flip=flip)
            cuts = other_cuts(image, dets, plans, classify)
        except NoTiles:
            pass  # stages 3-4 say so
    t = time.perf_counter()
    return read_detections(dets, situation, name=name, size=image.shape[1::-1], flip=flip,
                           config=config, plans=plans, cuts=cuts), t


def _looked_again(dets: list[TileDetection], plans, look, flip: bool | None,
                  config: PipelineConfig):
    """``dets`` after `second_look` (at the tiles a layout gives a role, if so configured),
    and ``plans`` where it changed nothing (None where it did: the layout is made again)."""
    only = None
    if config.second_look.hand_only:
        try:
            first = plans or analyse_layout(dets, config=config.layout, flip=flip)
        except NoTiles:
            return dets, plans
        only, plans = set(first[0].role_of()), first
    looked = look(dets, only=only)
    if looked == dets:
        return dets, plans
    return looked, None


COLOURLESS_NOTE = ("the photo has no colour: a red five cannot be told from a plain one; check "
                   "the fives (and score the hand as it is with 'agari score' if one is red)")


def is_colourless(image: np.ndarray) -> bool:
    """Whether a BGR image is grey (its three channels equal, as a grey file decodes):
    red fives differ from plain fives only by colour."""
    few = image[::7, ::7]
    return bool(np.array_equal(few[..., 0], few[..., 1])
                and np.array_equal(few[..., 1], few[..., 2]))


def read_detections(dets: Sequence[TileDetection], situation: Situation, *, name: str = "",
                    size: tuple[int, int] = (0, 0), flip: bool | None = None,
                    config: PipelineConfig = DEFAULT_PIPELINE,
                    plans: Sequence[LayoutPlan] | None = None,
                    cuts: Cuts | None = None) -> PhotoResult:
    """Stages 3-4 on classified detections: layout, constrained reading, score.

    ``plans``: `analyse_layout` of exactly ``dets`` with ``flip`` and ``config.layout``,
    when the caller has it (used unless excess copies are turned into backs first).
    ``cuts``: meld tiles read cut otherwise (`agari.vision.reading_cuts.other_cuts`).

    Raises:
        NoTiles: no face-up tile among the detections.
    """
    t0 = time.perf_counter()
    dets, turned = cap_copies(dets)
    if plans is None or turned:
        plans = analyse_layout(dets, config=config.layout, flip=flip)
    situation, notes = _implied_riichi(plans[0], situation)
    if turned:
        notes = (f"{turned} tiles read as a face seen more than four times were taken as "
                 "backs", *notes)
    base = PhotoResult(name, int(size[0]), int(size[1]), tuple(dets),
                       roles=_roles(plans[0], len(dets)), read=(None,) * len(dets))
    try:
        repaired = read_with_repairs(dets, situation, flip=flip, layout=config.layout,
                                     reading=config.reading, repair=config.repair,
                                     plans=plans, cuts=cuts)
    except InvalidHand as err:
        return replace(base, error=err, notes=plans[0].notes + notes,
                       timings=(("layout", (time.perf_counter() - t0) * 1e3),))
    reading = repaired.reading
    t1 = time.perf_counter()
    scored = score_layout(reading.layout, situation)
    rivals = tuple(score_layout(alt.layout, situation) for alt in reading.alternatives)
    t2 = time.perf_counter()
    best = reading.best
    return replace(
        base, detections=repaired.detections, roles=_roles(best.plan, len(dets)),
        read=_read_names(best.tiles, len(dets)), reading=reading,
        notes=best.plan.notes + notes + repaired.notes + scored.notes, score=scored.score,
        error=scored.error, win_options=scored.win_options, waits=scored.waits,
        alternative_scores=tuple(r.score if r.score is not None else r.error for r in rivals),
        timings=(("layout+reading", (t1 - t0) * 1e3), ("score", (t2 - t1) * 1e3)))


def _roles(plan: LayoutPlan, n: int) -> tuple[str, ...]:
    roles = plan.role_of()
    return tuple(roles.get(i, "other") for i in range(n))


def _read_names(tiles: tuple[tuple[int, Tile], ...], n: int) -> tuple[str | None, ...]:
    names: list[str | None] = [None] * n
    for i, t in tiles:
        names[i] = str(t)
    return tuple(names)


def _implied_riichi(plan: LayoutPlan, situation: Situation) -> tuple[Situation, tuple[str, ...]]:
    """Ura indicators are shown only after a riichi win: imply riichi for a closed hand."""
    ctx = situation.ctx
    if not plan.ura or situation.ura is not None or ctx.in_riichi:
        return situation, ()
    if all(m.kind == "closed_kan" for m in plan.melds):
        note = "ura indicators are shown: scored as riichi (give --ura '' to ignore them)"
        return replace(situation, ctx=changed(ctx, riichi=True)), (note,)
    return situation, ("ura indicators shown beside an open hand are ignored",)
