"""From a calibration photo to a profile: views of each bound tile, colours, sanity checks.

`calibrate_photo` is what ``agari calibrate`` runs once the locator has found
the tiles: bind them to the layout, check the classifier does not read two
tiles as each other's kinds (tiles swapped, a row reversed), cut several
*views* of every tile — the locator's crop, turned upside down (tiles lie both
ways up in play), loosely framed, lighter and darker — embed them, and add
them to the profile with the photo's face and back colours.
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial

import cv2
import numpy as np
from agari.engine.tiles import BACK, NONE
from agari.models.calibration import PhotoRecord, TilesetProfile
from agari.models.calibration_apply import looks_of
from agari.models.calibration_layout import (
    DEFAULT_BIND,
    BindConfig,
    BoundTile,
    LayoutMismatch,
    ReferenceLayout,
    bind_layout,
    group_rows,
    mismatch_message,
)
from agari.models.calibration_mend import mended_bind
from agari.models.classifier import Predictions, TileClassifier
from agari.vision.cores import find_cores
from agari.vision.crops import crop_tile
from agari.vision.detection import TileDetection
from agari.vision.fill import DEFAULT_FILL, fill_rows, read_tiles
from agari.vision.locate import HAND_LOCATE, locate


@dataclass(frozen=True, slots=True)
class ViewConfig:
    """The views cut of each calibration tile: how tiles of the set look in other photos.

    View 0 is the locator's crop, view 1 the same turned 180°; every further view
    is loosely framed (corner noise ``jitter`` × width, turned by up to ``turn``
    degrees, foreshortened down to ``squash``, its far edge narrowed by up to
    ``keystone``), seen at a lower resolution (tile
    width drawn from ``width_px``), lit by ``gain``, blurred up to ``blur`` px,
    with sensor noise up to ``noise``, and turned 180° every other time.

    Attributes:
        seed: the views are a pure function of the photo and this seed.
    """

    views: int = 16
    jitter: float = 0.04
    turn: float = 4.0
    squash: float = 0.75
    keystone: float = 0.0
    width_px: tuple[float, float] = (14.0, 60.0)
    gain: tuple[float, float] = (0.6, 1.25)
    blur: float = 1.2
    noise: float = 6.0
    seed: int = 0


@dataclass(frozen=True, slots=True)
class CheckConfig:
    """When the classifier's reading says two tiles of the layout are swapped.

    Tiles ``i`` and ``j`` look swapped when giving ``i`` the kind laid out at ``j``
    and ``j`` the kind laid out at ``i`` is more likely under the model than the
    layout by ``min_gain`` nats (natural log) — and the model reads each of them
    as the other's kind. A model that is merely wrong about an unusual set (it
    reads this set's 4p as 5p, but its 5p as 5p too) never looks swapped; a
    reversed row or rows laid in the wrong order look like many swaps.
    """

    min_gain: float = 6.0
    floor: float = 1e-6


BLANK_PAIRS = ({"5z", BACK},)
"""Kinds never taken for swapped: a blank 白 and a tile's back are both plain slabs, and on
dark-faced sets the model may well read each as the other (calibration sorts that out)."""
NOT_A_TILE = 0.9
"""`none` probability above which a detection that spoils the layout is left out."""
DEFAULT_VIEWS = ViewConfig()
DEFAULT_CHECK = CheckConfig()
LAYOUT_FILL = replace(DEFAULT_FILL, accept_back=0.90)
"""Row completion for a calibration photo. The layout ends in one face-down tile, which the
shipped classifier reads as a back at about 0.95 at best (its label smoothing's ceiling;
97 % of the synthetic validation backs stay below 0.97, the bar `DEFAULT_FILL` sets for a
back beside a tile on bare felt). Here a back the locator missed is expected where the
layout puts one, and binding checks the rows it lands in: on 24 rendered layout photos
(plain, hollow and offpalette sets, seeds 10-17) 9 bound with this, 3 without."""


def read_layout_tiles(image: np.ndarray, classifier: TileClassifier, *,
                      net: bool = False) -> list[TileDetection]:
    """The tiles of a calibration photo: located, classified (those read as no tile kept:
    binding goes by position) and rows completed.

    ``net``: located as ``agari photo`` locates a hand (`HAND_LOCATE`: the core net fills in
    the faces the classical steps missed, the classifier settling where they disagree);
    otherwise as ``agari detect`` does.
    """
    if not net:
        return read_tiles(image, classifier, config=LAYOUT_FILL)
    classify = partial(classifier.classify_detections, top_k=3)
    # A stand-in classifier (tests) may not rate quads: then the net's quads fill gaps only.
    dets = locate(image, config=HAND_LOCATE, judge=getattr(classifier, "tile_likeness", None),
                  reader=classify, cores_of=find_cores)
    return fill_rows(image, classify(image, dets), classify, config=LAYOUT_FILL)


def calibrate_layout_photo(profile: TilesetProfile, image: np.ndarray,
                           classifier: TileClassifier, *, source: str, force: bool = False,
                           ) -> tuple[TilesetProfile, CalibrationReport]:
    """`calibrate_photo` on the tiles `read_layout_tiles` finds with the classical locator,
    or, where they do not fit the layout, on those it finds with the core net too.

    On 96 rendered layout photos (tuning seeds 100000-100015, six families) the classical
    reading bound 68, the net's 88, either 91; dark faces 0, 12 and 12 of 16 (the classical
    steps look for bright faces and find the pips). The classical reading goes first, so a
    photo it binds makes the profile it made before: from the net's looser boxes a profile is
    worse than from the true faces (dark sets, tuning seeds 100000-100007, hand tiles
    misread: 10.4 % with no profile, 9.1 % with six of the eight profiles made from the net's
    reading, 6.6 % with all eight from the true quads).

    Raises:
        LayoutMismatch: neither reading fits; the message is the classical reading's, or
            one naming tiles that look swapped (all were found: the likelier fault).
    """
    errors: list[LayoutMismatch] = []
    for net in (False, True):
        try:
            return calibrate_photo(profile, image, read_layout_tiles(image, classifier, net=net),
                                   classifier, source=source, force=force)
        except LayoutMismatch as err:
            errors.append(err)
    raise next((e for e in errors if "swapped" in e.details), errors[0])


@dataclass(frozen=True, slots=True)
class CalibrationReport:
    """What one photo added: tiles bound, views, and the model's own reading of the layout."""

    source: str
    tiles: int
    views: int
    model_agreement: float
    disagreements: tuple[tuple[str, str, float], ...]

    def to_json(self) -> dict:
        return {"source": self.source, "tiles": self.tiles, "views": self.views,
                "model_agreement": round(self.model_agreement, 4),
                "disagreements": [{"expected": e, "read": r, "p": round(p, 4)}
                                  for e, r, p in self.disagreements]}


def tile_views(image: np.ndarray, det: TileDetection, *, size: tuple[int, int], margin: float,
               config: ViewConfig, rng: np.random.Generator) -> np.ndarray:
    """``config.views`` crops of one tile: BGR ``uint8 (V, H, W, 3)`` (see `ViewConfig`)."""
    q = np.asarray(det.quad, np.float32)
    width = float(np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2
    out = np.empty((config.views, *size, 3), np.uint8)
    for v in range(config.views):
        if v < 2:
            crop = crop_tile(image, q, sideways=det.sideways, size=size, margin=margin)
        else:
            crop = _loose_view(image, _moved(q, width, config, rng), det.sideways, size=size,
                               margin=margin, config=config, rng=rng)
        out[v] = crop[::-1, ::-1] if v % 2 else crop
    return out


def _moved(q: np.ndarray, width: float, config: ViewConfig,
           rng: np.random.Generator) -> np.ndarray:
    """The quad turned, foreshortened along its up axis and with jittered corners."""
    centre = q.mean(axis=0)
    t = np.radians(rng.uniform(-config.turn, config.turn))
    rot = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]], np.float32)
    up = (q[0] + q[1] - q[2] - q[3]) / 2
    up_unit = up / max(float(np.linalg.norm(up)), 1e-6)
    right_unit = np.array([-up_unit[1], up_unit[0]], np.float32)
    rel = q - centre
    along_up = rel @ up_unit
    rel = rel - (1.0 - rng.uniform(config.squash, 1.0)) * along_up[:, None] * up_unit
    # Keystone: the far edge of a tile seen at a slant looks narrower than the near one.
    far = [0, 1] if rng.random() < 0.5 else [2, 3]
    rel[far] -= rng.uniform(0, config.keystone) * (rel[far] @ right_unit)[:, None] * right_unit
    moved = rel @ rot.T + centre
    return moved + rng.normal(0, config.jitter * width, (4, 2)).astype(np.float32)


def _loose_view(image: np.ndarray, quad: np.ndarray, sideways: bool, *, size: tuple[int, int],
                margin: float, config: ViewConfig, rng: np.random.Generator) -> np.ndarray:
    """One photographic variant: lower resolution, light, blur, noise."""
    h, w = size
    small_w = rng.uniform(*config.width_px)
    if small_w < w:
        small = (max(4, round(h * small_w / w)), max(4, round(small_w)))
        crop = crop_tile(image, quad, sideways=sideways, size=small, margin=margin)
        crop = cv2.resize(crop, (w, h), interpolation=cv2.INTER_LINEAR)
    else:
        crop = crop_tile(image, quad, sideways=sideways, size=size, margin=margin)
    x = crop.astype(np.float32) * rng.uniform(*config.gain)
    sigma = rng.uniform(0, config.blur)
    if sigma > 0.3:
        x = cv2.GaussianBlur(x, (0, 0), sigma)
    x += rng.normal(0, rng.uniform(0, config.noise), x.shape).astype(np.float32)
    return np.clip(x, 0, 255).astype(np.uint8)


def _centre_region(crop: np.ndarray, share: float = 0.5) -> np.ndarray:
    h, w = crop.shape[:2]
    dy, dx = round(h * (1 - share) / 2), round(w * (1 - share) / 2)
    return crop[dy:h - dy, dx:w - dx].reshape(-1, 3)


def colour_stats(crops: np.ndarray, names: Sequence[str]) -> tuple[tuple | None, tuple | None]:
    """``(back BGR, face BGR)`` medians from plain crops ``(N, H, W, 3)`` of known kinds.

    The face colour is each face crop's bright end (the 75th percentile of its
    centre: ink covers less than half of most faces), medianed over tiles.
    """
    backs = [np.median(_centre_region(c), axis=0) for c, n in zip(crops, names, strict=True)
             if n == BACK]
    faces = [np.percentile(_centre_region(c, 0.7), 75, axis=0)
             for c, n in zip(crops, names, strict=True) if n not in (BACK, NONE)]
    back = tuple(float(v) for v in np.median(backs, axis=0)) if backs else None
    face = tuple(float(v) for v in np.median(faces, axis=0)) if faces else None
    return back, face


def swapped_pairs(preds: Predictions, names: Sequence[str], *,
                  config: CheckConfig = DEFAULT_CHECK) -> list[tuple[int, int, float]]:
    """Pairs of positions the model reads as each other's kinds: ``(i, j, gain)``, best first.

    Each position is reported at most once (in its strongest pair).
    """
    cols = [preds.class_names.index(n) for n in names]
    logp = np.log(np.maximum(preds.probs[:, cols], config.floor))    # (N, N): tile i as kind j
    best = logp.argmax(axis=1)
    own = np.diag(logp)
    gain = logp + logp.T - own[:, None] - own[None, :]
    out, used = [], set()
    for i, j in zip(*np.nonzero(np.triu(gain, 1) > config.min_gain), strict=True):
        if best[i] == j and best[j] == i and {names[i], names[j]} not in BLANK_PAIRS:
            out.append((int(i), int(j), float(gain[i, j])))
    out.sort(key=lambda t: -t[2])
    kept = []
    for i, j, g in out:
        if i not in used and j not in used:
            kept.append((i, j, g))
            used |= {i, j}
    return kept


def calibrate_photo(profile: TilesetProfile, image: np.ndarray,
                    detections: Sequence[TileDetection], classifier: TileClassifier, *,
                    source: str, force: bool = False, bind: BindConfig = DEFAULT_BIND,
                    views: ViewConfig = DEFAULT_VIEWS, check: CheckConfig = DEFAULT_CHECK,
                    ) -> tuple[TilesetProfile, CalibrationReport]:
    """Add one calibration photo to ``profile``.

    Args:
        image: BGR ``uint8 (H, W, 3)``, the photo the detections were found in.
        detections: the locator's tiles in it.
        classifier: the (uncalibrated) model the profile is for.
        source: the photo's name, kept in the profile.
        force: keep the layout's kinds even where tiles look swapped.

    Raises:
        LayoutMismatch: the rows do not fit the layout (which row, what is missing
            or extra), or, unless ``force``, tiles look swapped (`swapped_pairs`).
    """
    layout = _layout(profile)
    spec = classifier.spec
    bound = bind_photo(image, detections, classifier, layout, bind)
    names = [b.name for b in bound]
    plain = np.stack([crop_tile(image, b.detection.quad, sideways=b.detection.sideways,
                                size=spec.input_size, margin=spec.crop_margin) for b in bound])
    preds = classifier.predict(plain)
    swaps = swapped_pairs(preds, names, config=check)
    if swaps and not force:
        raise LayoutMismatch(_swap_message(bound, swaps), swapped=[
            [_where(bound[i]), _where(bound[j])] for i, j, _ in swaps])
    rng = np.random.default_rng(views.seed)
    crops = np.concatenate([tile_views(image, b.detection, size=spec.input_size,
                                       margin=spec.crop_margin, config=views, rng=rng)
                            for b in bound])
    seen = classifier.predict(crops)
    looks = looks_of(classifier, crops)
    back, face = colour_stats(plain, names)
    record = PhotoRecord(source=source, tiles=len(bound),
                         added=datetime.now(UTC).isoformat(timespec="seconds"))
    labels = [n for n in names for _ in range(views.views)]
    ids = np.repeat(np.arange(len(bound)), views.views)
    updated = profile.added(seen.embeddings, looks, labels, ids, photo=record,
                            probs=seen.probs, back_colour=back, face_colour=face)
    agree = float(np.mean([b == n for b, n in zip(preds.best, names, strict=True)]))
    report = CalibrationReport(source=source, tiles=len(bound), views=len(labels),
                               model_agreement=agree,
                               disagreements=tuple((n, b, float(preds.probs[i].max()))
                                                   for i, (b, n) in enumerate(
                                                       zip(preds.best, names, strict=True))
                                                   if b != n))
    return updated, report


def bind_photo(image: np.ndarray, detections: Sequence[TileDetection],
               classifier: TileClassifier, layout: ReferenceLayout,
               bind: BindConfig = DEFAULT_BIND) -> tuple[BoundTile, ...]:
    """Bind the detections to ``layout``; if they do not fit, once more without what the
    model calls surely not a tile (a patch of table the locator took for one), then with
    the rows mended (`completed_rows`: rows rejoined, boxes twice on a tile dropped, tiles
    the locator missed added where the classifier reads the layout's kind there).

    Raises:
        LayoutMismatch: none of that fits; the message is about the detections as found.
    """
    try:
        return bind_layout(detections, layout, config=bind)
    except LayoutMismatch as err:
        first = err
    if detections:
        spec = classifier.spec
        crops = np.stack([crop_tile(image, d.quad, sideways=d.sideways, size=spec.input_size,
                                    margin=spec.crop_margin) for d in detections])
        p_none = classifier.predict(crops).probs[:, spec.class_names.index(NONE)]
        kept = [d for d, p in zip(detections, p_none, strict=True) if p < NOT_A_TILE]
        if len(kept) < len(detections):
            with contextlib.suppress(LayoutMismatch):
                return bind_layout(kept, layout, config=bind)
        with contextlib.suppress(LayoutMismatch):
            return mended_bind(image, kept, classifier, layout, bind=bind)
    raise _explained(first, image, detections, classifier, layout, bind) from None


def _layout(profile: TilesetProfile) -> ReferenceLayout:
    return ReferenceLayout(reds=profile.reds)


def _where(tile: BoundTile) -> str:
    return f"row {tile.row + 1} tile {tile.col + 1} ({tile.name})"


def _swap_message(bound: Sequence[BoundTile], swaps: list[tuple[int, int, float]]) -> str:
    parts = [f"{bound[i].name} and {bound[j].name} look swapped ({_where(bound[i])} reads as "
             f"{bound[j].name}, {_where(bound[j])} as {bound[i].name})" for i, j, _ in swaps[:3]]
    more = f" and {len(swaps) - 3} more pairs" if len(swaps) > 3 else ""
    return ("the photo does not match the calibration layout: " + "; ".join(parts) + more +
            " (--force keeps the layout's kinds)")


def _explained(err: LayoutMismatch, image: np.ndarray, detections: Sequence[TileDetection],
               classifier: TileClassifier, layout: ReferenceLayout,
               bind: BindConfig) -> LayoutMismatch:
    """``err`` with, for rows one tile short or long, which kind the model thinks is off."""
    rows = group_rows(detections, config=bind)
    found = [len(r) for r in rows]
    if len(rows) != len(layout.rows):
        return err
    if sum(a == b for a, b in zip(found[::-1], layout.counts, strict=True)) > \
            sum(a == b for a, b in zip(found, layout.counts, strict=True)):
        rows = [r[::-1] for r in rows[::-1]]
    notes = []
    spec = classifier.spec
    for k, (row, names) in enumerate(zip(rows, layout.rows, strict=True)):
        if abs(len(row) - len(names)) != 1:
            continue
        crops = np.stack([crop_tile(image, d.quad, sideways=d.sideways, size=spec.input_size,
                                    margin=spec.crop_margin) for d in row])
        logp = np.log(np.maximum(classifier.predict(crops).probs, 1e-9))
        notes.append(f"row {k + 1}: " + _odd_one(logp, names, spec.class_names))
    if not notes:
        return err
    return LayoutMismatch(mismatch_message(found, layout) + " (" + "; ".join(notes) + ")",
                          **err.details)


def _odd_one(logp: np.ndarray, names: Sequence[str], classes: Sequence[str]) -> str:
    """Which expected kind is missing (one tile short) or which tile is extra (one long)."""
    cols = [classes.index(n) for n in names]
    if len(logp) < len(names):
        scores = [sum(logp[j, cols[j if j < k else j + 1]] for j in range(len(logp)))
                  for k in range(len(names))]
        return f"{names[int(np.argmax(scores))]} seems to be missing"
    scores = [sum(logp[j if j < k else j + 1, cols[j]] for j in range(len(names)))
              for k in range(len(logp))]
    k = int(np.argmax(scores))
    read = classes[int(np.argmax(logp[k]))]
    return f"tile {k + 1} (reads as {read}) seems to be extra"
