"""Dark-faced tile sets: read with each crop's lightness turned over.

The classifier learnt faces that are lighter than their ink (ivory, white), and dark faces
with light ink only from about one training scene in nine. A photo of a dark-faced set
reads better with every crop's lightness (CIE L*) inverted and its hue kept: light ink on a
dark face becomes dark ink on a light one, and a red five stays red. Which way a photo
reads better is decided once per photo, over all its tiles, by how surely the model names
them each way (`face_polarity`): tile by tile, "the surer reading" would also turn the
light faces' shadowed or blurred crops over, and read them worse.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np
from agari.engine.tiles import BACK, NONE
from agari.models.classifier import TileClassifier
from agari.vision.crops import crop_detections
from agari.vision.detection import TileDetection
from agari.vision.lab import inverted_lightness, lab_ready


@dataclass(frozen=True, slots=True)
class PolarityConfig:
    """When a photo is read with its crops' lightness inverted."""

    max_lightness: float = 150.0
    """Only photos whose located crops' median middle lightness (OpenCV's 8-bit L*, 0-255)
    is below this are tried inverted (spares the second reading on about half the photos):
    the crops of dark-faced sets' photos lay at 36-147 on the tuning renders but one (178),
    those of light sets at 37-240 (the crops take in more than faces)."""
    min_tiles: int = 4
    """Fewer located tiles than this say too little about the set."""
    max_crops: int = 24
    """At most this many of the located tiles (spread evenly over the reading order) are
    read again inverted to decide: enough to judge a set by, and the second reading costs
    ~0.25 ms a crop."""
    sure: float = 0.9
    """A crop is read surely as a tile when its likeliest class, a tile kind or a back, has
    this probability. Inverted, a photo must have more such crops, and a higher mean log
    probability of each crop's likeliest tile kind or back: on the tuning renders the
    second alone took 10 photos of light sets of 270 for dark ones, both together 1 (and 17
    of the 30 dark-set photos)."""
    faces: bool = False
    """Judge on faces only: the crops are drawn from the tiles not read as backs, and both
    tests count only those read as a tile kind one way or the other (not ``none``, not a
    back). On a table, backs (walls, the others' hands: read surely as they are, less so
    inverted) were up to half the crops judged and outvoted a dark set's faces. On the
    true quads of the 57 dark renders of the tuning sets and guard it read 45 photos
    inverted instead of 24 (hand, meld and indicator tiles wrong 37 → 22 of 820, as many
    as reading every one inverted), none of 110 light ones (2 before); through `agari
    photo` exact hands 413 → 412 on the five tuning sets (scores 395 → 396), so off
    (docs/photo.md)."""


DEFAULT_POLARITY = PolarityConfig()


class InvertedClassifier(TileClassifier):
    """A `TileClassifier` (same session) that reads each crop with its lightness inverted."""

    def __init__(self, base: TileClassifier) -> None:
        super().__init__(base._session, base.spec, path=base.path)
        self.base = base

    def pixels(self, crops: np.ndarray | Sequence[np.ndarray]) -> np.ndarray:
        return inverted_lightness(super().pixels(crops))


def face_polarity(classifier: TileClassifier, image: np.ndarray,
                  detections: Sequence[TileDetection],
                  config: PolarityConfig = DEFAULT_POLARITY) -> TileClassifier:
    """``classifier``, or it reading inverted crops (`InvertedClassifier`) where the photo's
    located tiles read surer so.

    Args:
        classifier: reads the photo as it is (a plain `TileClassifier`; any other, e.g. one
            calibrated to a set, is returned as it is).
        image: BGR ``uint8 (H, W, 3)``.
        detections: the photo's located tiles as ``classifier`` read them (their
            ``alternatives`` hold its probabilities), quads in ``image`` pixels.
    """
    if type(classifier) is not TileClassifier or len(detections) < config.min_tiles:
        return classifier
    spec = classifier.spec
    judged = detections
    if config.faces:  # backs read alike either way, and less surely inverted
        judged = [d for d in detections if not _read_as(d.alternatives, BACK)]
        if len(judged) < config.min_tiles:
            return classifier
    picked = [judged[int(i)] for i in np.unique(np.linspace(
        0, len(judged) - 1, min(len(judged), config.max_crops)).round())]
    crops = crop_detections(image, picked, size=spec.input_size, margin=spec.crop_margin)
    h, w = spec.input_size
    middle = crops[:, h // 4: h - h // 4, w // 4: w - w // 4]
    lab_ready()
    lightness = cv2.cvtColor(middle.reshape(-1, middle.shape[2], 3), cv2.COLOR_BGR2LAB)[..., 0]
    if float(np.median(lightness)) >= config.max_lightness:
        return classifier
    plain = np.array([_likeliest_tile(d.alternatives, config.sure) for d in picked])
    inverted = InvertedClassifier(classifier)
    probs = inverted.predict(crops).probs
    tiles = np.array([n != NONE for n in spec.class_names])
    turned = probs[:, tiles].max(axis=1)
    first = probs.argmax(axis=1)
    named = first != spec.class_names.index(NONE)
    face = np.ones(len(picked), bool)
    if config.faces:
        # Crops read as a tile kind one way or the other: what holds no tile, or a back,
        # says nothing of which way the set's faces read.
        kinds = np.array([n not in (NONE, BACK) for n in spec.class_names])
        face = kinds[first] | np.array([not (_read_as(d.alternatives, NONE)
                                             or _read_as(d.alternatives, BACK))
                                        for d in picked], bool)
        if face.sum() < config.min_tiles:
            return classifier
    turned_sure = named & (turned >= config.sure)
    surer = (np.mean(np.log(turned[face] + 1e-6))
             > np.mean(np.log(plain[face, 0] + 1e-6)))
    if surer and turned_sure[face].sum() > plain[face, 1].sum():
        return inverted
    return classifier


def dark_plates(image: np.ndarray, detections: Sequence[TileDetection], spec,
                max_lightness: float, min_tiles: int = 4) -> bool:
    """Whether the located faces look like a dark-faced set's by their pixels alone: light ink
    on dark plates. Of the tiles read as a tile kind (not ``none``, not a back), each crop (as
    the classifier cuts it, margin and all) has a median lightness (OpenCV's 8-bit L*) and a
    tail: its 90th percentile as far above the median as its 10th below (light ink on a dark
    plate) or less (dark ink on a light one). The set is dark where the crops' median
    lightness is under ``max_lightness`` and their median tail leans light. A light set in dim
    light keeps its dark ink, so its tail still leans dark.

    Args:
        image: BGR ``uint8 (H, W, 3)``.
        detections: the photo's located tiles, read as they are (``alternatives`` set).
        spec: the classifier's `ModelSpec` (``input_size``, ``crop_margin``).
    """
    faces = [d for d in detections
             if d.alternatives and d.alternatives[0][0] not in (NONE, BACK)]
    if len(faces) < min_tiles:
        return False
    crops = crop_detections(image, faces, size=spec.input_size, margin=spec.crop_margin)
    lab_ready()
    lightness = cv2.cvtColor(crops.reshape(-1, crops.shape[2], 3), cv2.COLOR_BGR2LAB)[..., 0]
    lightness = lightness.reshape(len(faces), -1).astype(np.float32)
    low, middle, high = np.percentile(lightness, (10, 50, 90), axis=1)
    return bool(np.median(middle) < max_lightness and np.median(high + low - 2 * middle) > 0)


def _read_as(alternatives: Sequence[tuple[str, float]], name: str) -> bool:
    """Whether a crop's first class (of ``alternatives``, best first) is ``name``; a crop not
    read yet (none given) is read as ``none``."""
    return (alternatives[0][0] if alternatives else NONE) == name


def _likeliest_tile(alternatives: Sequence[tuple[str, float]], sure: float
                    ) -> tuple[float, bool]:
    """From a crop's ``(class, p)`` best first: the probability of its likeliest tile kind or
    back (0 when none is among them), and whether that is its first class at ``sure``."""
    for k, (name, p) in enumerate(alternatives):
        if name != NONE:
            return p, k == 0 and p >= sure
    return 0.0, False


__all__ = ["DEFAULT_POLARITY", "InvertedClassifier", "PolarityConfig", "dark_plates",
           "face_polarity"]
