"""Reading a photo again when the first reading makes no hand: other working scales, and
crops round the hand (`agari.pipeline.read_photo` runs them; a hand is taken only where two
readings agree on it).

The locator's proposals and splits depend on the scale it works at and on what else is in
the picture: a pair boxed as one, a meld's front sides taken for faces, a row cut out of
phase at one scale are often right at another, or in a crop of the hand alone (the scale
probe then sees only the hand's tiles, and the core net reads the crop at its own size, so
small tiles come out larger). One other reading alone is as often wrong as right; two that
agree are right most of the time (`RetryConfig`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from agari.engine.errors import AgariError, InvalidHand, NotAgari
from agari.engine.tiles import NONE
from agari.models.polarity import PolarityConfig
from agari.retry_hole import holed_row
from agari.vision.detection import TileDetection, as_quad
from agari.vision.layout_hand import HandLayout

Box = tuple[int, int, int, int]
"""``(x0, y0, x1, y1)`` in the photo's pixels, ends excluded."""


@dataclass(frozen=True, slots=True)
class ZoomConfig:
    """A crop round the tiles the first reading gave a role (hand, melds, indicators),
    located again on its own. Margins are in the tiles' median long side, and at least
    `min_share` of the tiles' own extent (a meld or indicator the first reading missed
    lies beside the tiles it found)."""

    margin_x: float
    """Margin left and right (rows run across the picture, so tiles missed lie there)."""
    margin_y: float
    """Margin above and below."""
    faces: bool = False
    """Also take in tiles read as faces (at `face_floor` or more) that were given no role:
    a meld the layout left out."""
    face_floor: float = 0.5
    min_share: float = 0.15
    min_tiles: int = 3
    """Fewer tiles with a role than this say too little of where the hand lies."""
    max_area: float = 0.5
    """A crop this much of the photo or more is no zoom, only one more vote: not tried (at
    0.9 the tuning renders read the same, and a real photo's variant, cropped, made a wrong
    hand from a crop of 0.6 agreeing with a scale)."""


@dataclass(frozen=True, slots=True)
class RetryConfig:
    """What is tried when the first reading makes no hand, or a shaky one.

    On the tuning renders 910000-910099 and 920000-920099, 50 photos made no hand: each
    single other scale read 7-8 of them right and 3-6 wrong, but where two scales read
    the same hand it was right 8 times in 10; so a hand is taken only when two agree.
    A crop round the hand is one more such reading (of the 49 photos that made no hand
    at the same commit, each crop alone read 10 right and 4 wrong; with them, readings
    agreed on 10 right hands instead of 8, on 2 wrong ones either way)."""

    max_pixels: tuple[float, ...] = (0.7e6, 0.5e6, 1.4e6)
    """The working-image caps tried in turn (`LocateConfig.max_pixels`; the hand locator's
    own is 1.0e6). The largest, dearest to locate and read, goes last: where the two
    smaller agree it is spared (replayed over every retry of the five tuning sets: the
    same hands, layouts and scores as 0.7/1.4/0.5, 11 fewer readings, the main thread's
    median CPU a photo 237 -> 201 ms on 970000)."""
    zooms: tuple[ZoomConfig, ...] = field(default_factory=lambda: (
        ZoomConfig(margin_x=3.0, margin_y=1.5), ZoomConfig(margin_x=6.0, margin_y=2.0,
                                                           faces=True)))
    """Crops tried after the scales, in turn."""
    agree: int = 2
    """This many readings must give the same layout (hand, melds, indicators)."""
    sure: float | None = 0.95
    """Where no two readings agree, a hand only one of them made is taken if that reading
    is this sure of it (`Reading.confidence`) and overruled the classifier on no tile (no
    `Reading.corrections`); None: never. On the tuning renders (940000, 960000, 910000,
    920000; every retry of the photos whose first reading made no hand) such readings were
    right 9 times of 9, while those with corrections were wrong 3 of 3."""
    shaky_below: float = 0.6
    """A hand read with less confidence than this (`Reading.confidence`: its share of the
    probability of the valid readings found) is read again too, as if it made none, and is
    kept unless two other readings agree on another; 0 never. On the tuning renders
    940000/960000 (x100, interleaved) 0.6 took exact hands 58+59 -> 60+60 and none lost
    (0.9: 62+60, for more retries); real variants 360 -> 363 of 390 tiles."""
    by_hand: bool = True
    """Shakiness is the hand's own: readings that differ from the best only in the dora or
    ura indicators count with it (`hand_confidence`). A hand read surely beside indicators
    read unsurely (a dead wall's tiles half hidden, a pond tile taken for one) was read
    again for them. With `same_tiles`, interleaved A/B of the whole read_photo (x100):
    exact hands/layouts/scores 990000 67/58/66, 970000 69/48/65, 960000 69/44/67 the
    same, 980000 69/52/61 -> 70/52/63 (with `ReadingConfig.bare`); retried renders
    36/49/43/42 -> 34/43/37/40. Readings again fixed an indicator (980091, dora 6m for 5m)
    about as often as they broke one (980072); real variants the same."""
    same_tiles: bool = True
    """With `by_hand`: in a complete hand that scores, readings of the very tiles the best one
    reads (the same detections, the same names) laid out in another plan count with it too:
    the layout ranked its plan first, and the two are equally probable by their names alone
    (a pair beside a pon, the tile set apart). Not in a waiting hand: read so beside an equal
    rival, its winning tile was more often lost (the tuning renders' 13-tile readings)."""
    shaky_unread: bool = True
    """A hand that takes as one of its tiles a quad the classifier called no tile (``none``
    its first name) is shaky too: such a quad is more often half a tile or a gap (on the
    four tuning sets, 19 of the 27 first readings that took one in were wrong)."""
    unread_alone: bool = True
    """Not where that quad is the only tile the reading overruled the classifier on (its one
    `Reading.corrections`), the hand scores (level ``scores``) and is read surely enough
    (`shaky_below`): read again, such hands were kept every time on the tuning renders
    980000/970000/960000 (each photo's readings all recorded), so their retries only cost
    time. Not at level ``winning shape``: there, too, the renders' retries kept the hand
    (3 of 3 right, 2 wrong that no retry fixed), but a real photo's variant (a standing
    hand, soft) read its unread quad into a called 567p, and two other scales read it all
    concealed, as it is."""
    holed: float | None = 1.4
    """A waiting hand whose concealed tiles step this many times the larger of the steps
    beside it somewhere along the row is read again too (`agari.retry_hole`): a concealed
    tile was lost there and the winning tile taken in among the rest (990045); a reading
    again that makes the same hand with the same hole gives no vote (the other scales lost
    the same tile in 990048, the crops found it). None: never."""
    sure_by_hand: bool = True
    """A sure reading (`sure`) stays sure when a later reading makes the same hand with other
    indicators: that one agrees on the hand (950041: a crop read the hand surely, the next
    crop read it too, with a pond tile for a dora, and the sure hand was dropped). Replayed
    over every retry of the tuning sets (with `lone`): exact hands/scores 950000 68/63 ->
    69/64 (photo_eval on a clean tree: the same, layouts 39 either way); 1000000, 990000,
    980000, 970000, 960000 the same; real photos' variants the same, photo by photo. One
    scene in six sets: on as it costs nothing (no reading added)."""
    lone: bool = True
    """Where the first reading made no hand and one reading again alone made one (every other
    made none), that hand is taken if it overruled the classifier on at most
    `lone_corrections` tiles (`Reading.corrections`), however unsure it is of them: the
    others' "no hand" (too few tiles, a fifth copy) says only that they missed or misframed
    some tile, not that this reading did (standing hands with a meld lying flat beside
    them boxed whole at one scale only: 1000003, 1000088). No reading is added: every
    other is read already when no two agree. Replayed over every retry of the tuning sets
    (each photo's readings all recorded; the same figures as photo_eval where off), exact
    hands/scores off -> on: 1000000 66/61 -> 69/63, 950000 68/63 the same, 990000 67/66 ->
    67/67, 980000 70/64 -> 71/65; guards 970000 70/66 the same, 960000 68/69 -> 69/70. Of
    the 6 lone hands taken 5 were right (990083 wrong, its score right). Real photos'
    variants 368/390 tiles, 19/30 exact either way, photo by photo. False: never."""
    lone_corrections: int = 0
    """At 1 the same replay took 4 more lone hands, 2 right (990020, 980006) and 2 wrong
    (970019, 960048)."""
    firm: bool = True
    """Two readings again that agree on a hand are taken at once only where one of them is not
    itself doubtful (`no_hand`: shaky, holed or taking an unread quad): two scales often give
    the very same doubtful reading again, which is no second opinion (1030023, 1000044: two
    scales agreed on a shaky hand, two crops later read the true one surely). Agreements of
    doubtful readings alone are kept for last, after `sure` and `lone`, the one with most
    readings winning, the first reading counted with its own hand (1000084). False: the first
    agreement reached is taken."""
    firm_alone: bool = True
    """Where the first reading made a doubtful hand (`no_hand`) and every other reading that
    made a hand either repeated it, itself doubtful, or is the one reading of another hand,
    that other hand is taken if its reading is firm: not doubtful, scoring (level
    ``scores``) and overruling the classifier on no tile (no `Reading.corrections`). Scales
    that repeat a doubtful reading are no second opinion (`firm`), yet they kept the first
    reading: 1020003 (a shaky winning shape read again twice, one scale read the true hand
    at 0.89), 990094, 990032 (a crop read the true hand, every scale the first one).
    Whole photo_eval with `LayoutConfig.weak_gap_over` (hands/scores/layouts): 1020000
    82/78/65 -> 83/79/66, 990000 79/79/66 -> 82/81/68 (with 990045, the layout's), 1040000,
    1030000, 1000000, guard 980000 and real variants the same. Without asking it to score,
    an earlier build lost a hand on 1030000. False: the first reading is kept unless two
    readings agree on another hand (or one is `sure`)."""
    confirm: int | None = 1
    """A shaky hand (the first reading's) is given back as soon as one other reading makes
    the same hand, itself not shaky and overruling the classifier on at most this many
    tiles (`Reading.corrections`); the readings left are spared. Without this the shaky
    hand is kept anyway unless two others agree on another (or one sure reading makes
    another). None: never. Replayed over every retry of the five tuning sets (x100, each
    photo's readings all read): 19 readings spared, every exact hand, layout and score
    kept; taking any reading overruling at most one tile, shaky or not, as confirmation
    spared 65 but lost 2 hands on 920000 (confirmed by readings as shaky as the first,
    0.50), and any agreeing reading at all 1 more on 940000."""

    inverted: PolarityConfig | None = field(default_factory=lambda: PolarityConfig(faces=True))
    """A dark-faced set's photo (its first reading's located faces, read as they are, read
    surer with their lightness inverted: `agari.models.polarity.face_polarity` judged on faces
    alone) is located again with its lightness turned over
    (`agari.vision.locate.LocateConfig.inverted`), first of the readings again: its faces,
    which the locator finds mostly by the core net alone and often frames half a face off,
    become light plates with dark ink. None: never."""
    inverted_caps: tuple[float | None, ...] = (None,)
    """The working-image caps those readings are made at (None: the locator's own), in turn.
    A second at 0.7e6 most often located the very tiles of the first again, and its vote
    with a plain scale's took a wrong hand for a shaky right one (1030000): on the 57 dark
    renders of the tuning sets and guard, hands/scores 40/40 -> 42/40 with it, 41/42 without
    (no hand lost)."""
    inverted_zooms: bool = True
    """The crops round the hand (`zooms`) are read inverted too, after the plain ones."""
    inverted_firm: bool = True
    """A hand made by one of those inverted readings of the whole photo is the hand taken
    where that reading is not itself doubtful (`no_hand`): read in the set's own polarity, it
    is no mere other scale, and the plain readings again mostly repeat the first one's
    misreads (1040046: inverted, 111s read surely; two plain crops then agreed on a wrong
    999m). The readings again go on, agreeing on that hand alone: of its readings the one
    most agreed on is given back (its indicators: taken at once, 1030023 lost its dora),
    else the inverted one."""
    inverted_plates: float | None = 100.0
    """The set is dark-faced too where its located faces (read as tile kinds as they are)
    are light ink on dark plates by their pixels: their crops' median lightness (8-bit L*)
    under this and their lightness tail leaning light (`agari.models.polarity.dark_plates`).
    The classifier's judge (`inverted`) doubts dark faces it misreads either way: on the
    first readings of the 57 dark renders of the tuning sets and guard it left 16 photos
    plain, among them 5 retried that read no hand (1040016, 1000011, 1040018, 1040093,
    1000090); the plates take 56 of the 57 and none of 72 light renders (median crop
    lightness 80-234 there, their tails dark). None: the judge alone."""

DEFAULT_RETRY = RetryConfig()


def no_hand(result, cfg: RetryConfig = DEFAULT_RETRY) -> bool:
    """The tiles read make no hand: too few or too many, a fifth copy, or not a win (not
    "no yaku": that is a legal hand the situation gives nothing for); or the hand read is
    shaky (`RetryConfig.shaky_below`, `RetryConfig.shaky_unread`)."""
    if isinstance(result.error, (InvalidHand, NotAgari)):
        return True
    reading = result.reading
    if reading is None:
        return False
    confidence = hand_confidence(reading, cfg.same_tiles) if cfg.by_hand else \
        getattr(reading, "confidence", 1.0)
    if confidence < cfg.shaky_below:
        return True
    if cfg.holed is not None and holed_row(result, cfg.holed):
        return True
    best = getattr(reading, "best", None)  # a stand-in reading may not say which tiles
    if cfg.unread_alone and len(reading.corrections) <= 1 \
            and getattr(reading, "level", None) == "scores":
        return False  # an unread quad taken in is itself a correction: at most that one
    return cfg.shaky_unread and best is not None and any(
        _unread(result.detections[i]) for i, _ in best.tiles)


def hand_confidence(reading, same_tiles: bool = False) -> float:
    """`Reading.confidence` with the alternatives that read the same hand (they differ only
    in the indicators) counted with the best: the share of the valid readings found that
    make this hand (at least: only the listed alternatives are known). ``same_tiles``: in a
    hand that scores, also those reading the best's tiles in another plan
    (`RetryConfig.same_tiles`)."""
    confidence = getattr(reading, "confidence", 1.0)
    alternatives = getattr(reading, "alternatives", ())
    if not alternatives:
        return confidence
    hand = reading.layout.hand_text
    best = getattr(reading, "best", None)  # a stand-in reading may not say which tiles
    tiles = set(best.tiles) if same_tiles and best is not None and \
        getattr(reading, "level", None) == "scores" else None
    return min(1.0, confidence * (1.0 + sum(
        reading.relative(alt) for alt in alternatives
        if alt.layout.hand_text == hand or set(alt.tiles) == tiles)))


def _unread(det: TileDetection) -> bool:
    return bool(det.alternatives) and det.alternatives[0][0] == NONE


def layout_key(layout: HandLayout) -> tuple:
    """What two readings must share to agree: the hand with its melds and the indicators."""
    return (layout.hand_text, tuple(map(str, layout.dora)), tuple(map(str, layout.ura)))


def retried(first, attempts: Sequence[Callable[[], object]], cfg: RetryConfig,
            turned: int = 0):
    """``first`` (a `PhotoResult` that made no hand, a shaky one or found no tile), or the
    first reading that ``cfg.agree`` of the ``attempts`` (each a call giving a `PhotoResult`)
    agree on, or else the one reading that made a hand if it is sure of it
    (`RetryConfig.sure`); with every attempt's time. ``first`` comes back at once where a
    reading confirms the hand it made (`RetryConfig.confirm`). ``turned``: the first this
    many attempts read a dark-faced set's photo inverted (`RetryConfig.inverted_firm`)."""
    timings, seen, sure, lone = list(first.timings), [], None, None
    firm = None  # the hand of a firm inverted reading (`RetryConfig.inverted_firm`)
    read = []  # the reading of each key in ``seen``
    doubtful, agreed = [], {}  # per reading in ``seen``; the doubtful agreements by hand
    own = layout_key(first.reading.layout) if first.error is None and \
        first.reading is not None else None
    holed = own is not None and cfg.holed is not None and holed_row(first, cfg.holed)
    for k, attempt in enumerate(attempts):
        agreeable = max(map(seen.count, seen), default=0) + len(attempts) - k >= cfg.agree
        single = (cfg.sure is not None or cfg.lone) and (not seen or sure is not None)
        if not (agreeable or single):
            break  # no hand can be picked any more: save the readings left
        t = time.perf_counter()
        try:
            got = attempt()
        except AgariError:  # e.g. no tile at this scale: the reading gives no vote
            got = None
        timings.append((f"retry {k + 1}", (time.perf_counter() - t) * 1e3))
        if got is None or got.error is not None or got.reading is None:
            continue
        key = layout_key(got.reading.layout)
        if key == own and holed and holed_row(got, cfg.holed):
            continue  # the same tile lost again (990048): no vote, so the crops are read too
        if key == own and _confirms(got, cfg) and firm in (None, own[0]):
            note = (f"read again at {k + 1} other scale(s) or crop(s), the first reading "
                    "being doubtful: another made the same hand")
            return replace(first, timings=tuple(timings), notes=(*first.notes, note))
        if k < turned and cfg.inverted_firm and firm is None and not no_hand(got, cfg):
            firm = got.reading.layout.hand_text
        seen.append(key)
        read.append(got)
        doubtful.append(cfg.firm and no_hand(got, cfg))
        if firm is not None and got.reading.layout.hand_text != firm:
            continue  # another hand than the inverted reading's firm one: no agreement
        if seen.count(key) >= cfg.agree:
            if not all(d for other, d in zip(seen, doubtful, strict=True) if other == key):
                return _agreed(got, first, timings)
            agreed.setdefault(key, got)
        if not (cfg.sure_by_hand and sure is not None
                and got.reading.layout.hand_text == sure.reading.layout.hand_text):
            sure = got if len(seen) == 1 and _sure(got.reading, cfg.sure) else None
        lone = got if len(seen) == 1 else None
    if firm is not None:  # the readings of its hand: the most agreed, else the first
        best = max((got for got in read if got.reading.layout.hand_text == firm),
                   key=lambda got: seen.count(layout_key(got.reading.layout)))
        note = ("read again with its lightness inverted, the set's faces being dark: that "
                "reading made this hand, not doubtful")
        return replace(best, timings=tuple(timings), notes=(*best.notes, note))
    if sure is not None:  # reset to None once a second reading made a hand
        note = (f"read again at {len(timings) - len(first.timings)} other scale(s) or crop(s): "
                "the first reading made no hand, or a doubtful one; one other made this one, "
                "sure of every tile")
        return replace(sure, timings=tuple(timings), notes=(*sure.notes, note))
    if cfg.lone and own is None and len(seen) == 1 and lone is not None \
            and len(lone.reading.corrections) <= cfg.lone_corrections:
        note = (f"read again at {len(timings) - len(first.timings)} other scale(s) or crop(s): "
                "the first reading made no hand; only one other made one, this one")
        return replace(lone, timings=tuple(timings), notes=(*lone.notes, note))
    if cfg.firm_alone and own is not None and (alone := _firm_alone(own, seen, read, cfg)):
        note = (f"read again at {len(timings) - len(first.timings)} other scale(s) or crop(s): "
                "the first reading made a doubtful hand, the others repeated it or made none; "
                "one made this one, firmly")
        return replace(alone, timings=tuple(timings), notes=(*alone.notes, note))
    if agreed:  # doubtful readings alone agreed: the most of them, the first with its own
        return _agreed(agreed[max(agreed, key=lambda key: seen.count(key) + (key == own))],
                       first, timings)
    return replace(first, timings=tuple(timings))


def _firm_alone(own: tuple, seen: list[tuple], read: list, cfg: RetryConfig) -> object | None:
    """The one reading in ``read`` (keyed by ``seen``) of a hand other than ``own`` where it
    is firm and every other is a doubtful repeat of ``own`` (`RetryConfig.firm_alone`)."""
    other = [got for key, got in zip(seen, read, strict=True) if key != own]
    if len(other) != 1 or any(not no_hand(got, cfg) for key, got in zip(seen, read, strict=True)
                              if key == own):
        return None
    got = other[0]
    firm = not got.reading.corrections and getattr(got.reading, "level", None) == "scores" \
        and not no_hand(got, cfg)
    return got if firm else None


def _agreed(got, first, timings: list) -> object:
    note = (f"read again at {len(timings) - len(first.timings)} other scale(s) or crop(s): "
            "the first reading made no hand, or a doubtful one")
    return replace(got, timings=tuple(timings), notes=(*got.notes, note))


def _confirms(got, cfg: RetryConfig) -> bool:
    return cfg.confirm is not None and len(got.reading.corrections) <= cfg.confirm \
        and not no_hand(got, cfg)


def _sure(reading, floor: float | None) -> bool:
    return floor is not None and reading.confidence >= floor and not reading.corrections


def hand_region(dets: Sequence[TileDetection], roles: Sequence[str], size: tuple[int, int],
                cfg: ZoomConfig) -> Box | None:
    """The crop `cfg` takes round the tiles given a role (``size``: the photo's width and
    height), or None when there are too few of them or the crop is nearly the photo."""
    picked = [d for d, role in zip(dets, roles, strict=True)
              if role != "other" or (cfg.faces and _face(d, cfg.face_floor))]
    if sum(role != "other" for role in roles) < cfg.min_tiles or not picked:
        return None
    quads = np.array([d.quad for d in picked], np.float64)  # (n, 4, 2)
    long = float(np.median(np.maximum(np.linalg.norm(quads[:, 1] - quads[:, 0], axis=1),
                                      np.linalg.norm(quads[:, 3] - quads[:, 0], axis=1))))
    (x0, y0), (x1, y1) = quads.reshape(-1, 2).min(0), quads.reshape(-1, 2).max(0)
    ex = max(cfg.margin_x * long, cfg.min_share * (x1 - x0))
    ey = max(cfg.margin_y * long, cfg.min_share * (y1 - y0))
    w, h = size
    box = (max(0, int(x0 - ex)), max(0, int(y0 - ey)), min(w, int(x1 + ex) + 1),
           min(h, int(y1 + ey) + 1))
    if (box[2] - box[0]) * (box[3] - box[1]) >= cfg.max_area * w * h:
        return None
    return box


def _face(det: TileDetection, floor: float) -> bool:
    return det.label is not None and det.label != "back" and det.confidence >= floor


def in_region(locate: Callable[[np.ndarray], list[TileDetection]], box: Box
              ) -> Callable[[np.ndarray], list[TileDetection]]:
    """``locate`` run on the ``box`` of a photo, its quads given in the photo's pixels."""
    x0, y0, x1, y1 = box

    def located(image: np.ndarray) -> list[TileDetection]:
        part = np.ascontiguousarray(image[y0:y1, x0:x1])
        return [replace(d, quad=as_quad(np.asarray(d.quad) + (x0, y0))) for d in locate(part)]

    return located


__all__ = ["DEFAULT_RETRY", "RetryConfig", "ZoomConfig", "hand_confidence", "hand_region",
           "in_region", "layout_key", "no_hand", "retried"]
