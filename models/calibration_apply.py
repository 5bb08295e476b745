"""Using a tile-set profile: a `TileClassifier` whose outputs carry the profile's evidence.

`calibrated(classifier, profile)` returns a `CalibratedClassifier`: the same
model and session, but ``predict`` (and so ``classify_detections``, and
everything built on them: `agari detect`, `agari photo`, the webcam loop, bulk
labelling) returns probabilities adjusted by `TilesetProfile.adjust`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from agari.engine.errors import ModelError
from agari.models.calibration import RED_FIVE_NAMES, AdjustConfig, TilesetProfile
from agari.models.calibration_features import CropLooks, crop_looks
from agari.models.calibration_store import model_fingerprint
from agari.models.classifier import Predictions, TileClassifier


def check_compatible(classifier: TileClassifier, profile: TilesetProfile) -> None:
    """Refuse a profile made with another model: its embeddings would mean nothing here.

    Raises:
        ModelError: different class list, or a different model file (code
            ``tileset_model_mismatch``).
    """
    if tuple(classifier.class_names) != profile.class_names:
        raise ModelError(f"tile-set profile {profile.name!r} was made for a model with other "
                         f"classes; recalibrate with 'agari calibrate'",
                         code="tileset_model_mismatch")
    found = model_fingerprint(classifier.path)
    if found != profile.model_id:
        raise ModelError(f"tile-set profile {profile.name!r} was made with another classifier "
                         f"model ({profile.model_id}, this one is {found}); recalibrate with "
                         f"'agari calibrate PHOTO --name {profile.name} --replace'",
                         code="tileset_model_mismatch")


def apply_profile(predictions: Predictions, profile: TilesetProfile,
                  looks: CropLooks | None = None) -> Predictions:
    """``predictions`` with probabilities adjusted by ``profile`` (embeddings unchanged).

    Args:
        looks: the crops' shape descriptors and colours (`looks_of`), or None for
            the embedding evidence alone.
    """
    return Predictions(probs=profile.adjust(predictions.probs, predictions.embeddings, looks),
                       embeddings=predictions.embeddings, class_names=predictions.class_names)


def looks_of(classifier: TileClassifier, crops: np.ndarray | Sequence[np.ndarray]) -> CropLooks:
    """Shape descriptors and middle colours of crops as ``classifier`` sees them."""
    return crop_looks(classifier.prepare(crops), classifier.spec)


class CalibratedClassifier(TileClassifier):
    """A `TileClassifier` that reads one tile set better, using its profile.

    >>> clf = calibrated(TileClassifier.load(), load(tileset_dir(), "myset"))  # doctest: +SKIP
    >>> clf.predict(crops).top_k(3)                                            # doctest: +SKIP
    """

    def __init__(self, base: TileClassifier, profile: TilesetProfile) -> None:
        check_compatible(base, profile)
        super().__init__(base._session, base.spec, path=base.path)
        self.base = base
        self.profile = profile

    def predict(self, crops: np.ndarray | Sequence[np.ndarray]) -> Predictions:
        """As `TileClassifier.predict`, probabilities adjusted by the profile."""
        return apply_profile(super().predict(crops), self.profile, looks_of(self, crops))


def new_profile(name: str, classifier: TileClassifier, *,
                reds: Sequence[str] = RED_FIVE_NAMES,
                config: AdjustConfig | None = None) -> TilesetProfile:
    """An empty profile for ``classifier`` (its fingerprint, classes and feature sizes)."""
    probe = np.zeros((1, *classifier.input_size, 3), np.uint8)
    dim = classifier.predict(probe).embeddings.shape[1]
    looks = looks_of(classifier, probe)
    return TilesetProfile.create(name, model_fingerprint(classifier.path),
                                 classifier.class_names, dim, looks.shapes.shape[1],
                                 ink_dim=looks.inks.shape[1], reds=reds, config=config)


def calibrated(classifier: TileClassifier, profile: TilesetProfile | None) -> TileClassifier:
    """``classifier`` reading with ``profile``; unchanged when ``profile`` is None."""
    if profile is None:
        return classifier
    base = classifier.base if isinstance(classifier, CalibratedClassifier) else classifier
    return CalibratedClassifier(base, profile)
