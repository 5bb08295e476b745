"""Per-tile-set calibration: a `TilesetProfile` and how it corrects the classifier.

Every physical set draws its tiles a little differently (the 1-sou bird, the
1-pin, the script of the winds, the red of the fives). A profile holds what
agari learned from photos of one set laid out in the reference layout
(`agari.models.calibration_layout`): for several *views* of every tile, the
classifier's embedding and a shape descriptor of the crop
(`agari.models.calibration_features`: a histogram of stroke directions that
owes nothing to the training sets), the colours of its face and back, and
which red fives the set has.

`TilesetProfile.adjust` combines the model's output with that evidence as a
product of experts, per crop and class ``c``::

    log p'(c) = alpha * log π(c) Σ_c' p(c') / π(c') M[c, c'] + beta * g * s(c) [− colour(c)]
                [+ ink_weight * ink(c)] [+ log absent_prior]

then normalised. ``M`` is how the model reads *this* set: ``M[c, c']`` is its
mean probability of ``c'`` over the views of ``c`` (smoothed towards the
identity). Where the model reads the set right, ``M`` is near the identity
and the first term is its own ``log p(c)``; where it reads this set's 4s as 0s,
a crop it calls 0s counts as evidence for 4s too, and the similarity decides.
``π`` is the classes' prior (``back_prior`` for the back, 1 else): it cancels where
the model tells the set's kinds apart, and where it reads the set's back as its
blank 白 (a white-backed set) the likelier back is taken — the similarity to the two
layout tiles' views is tied there too (``slab_colour``): it tells how each was framed, not
which slab a crop is.
``g`` (``trust_reliable``) is 1 − the (smoothed) precision of the model's first
choice for the crop, measured on the views: evidence speaks where the model
proved fallible on this set, and barely where it read the set faultlessly; and
(``views_vouch_full``) only as far as the model read the views of its choice as that
kind (``M[c, c]``; the ink evidence too): a crop read surely as a kind whose layout
views it misread (a washed-out layout tile) keeps its word.

``s(c)`` is the crop's similarity to this set's own views of ``c``: per
channel (embedding, shape), the cosine similarity to the nearest views, both
sides centred on the set's mean (which removes what the whole set has in
common, its "accent"); the channels are mixed by ``shape_weight``. Classes
without views (``none``; a red five the set lacks) take ``s_ref``, the
similarity a view typically has to the nearest view of *another* kind, so a
crop that matches none of the set's tiles drifts towards ``none``. Red fives
the set does not have are damped by ``absent_prior``; colours off every view of
a class (beyond the crop's nearest kind: a photo's light shifts all alike) count
against it, ink colours like a class's views for it; the model's
``none`` stands, less what this set's own tiles explain (docs/calibration.md).

Pure numpy: no torch, no onnxruntime. `CalibratedClassifier` (a
`TileClassifier` whose ``predict`` applies a profile) lives in
`agari.models.calibration_apply`; files in `agari.models.calibration_store`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
from agari.engine.errors import InvalidInput, ModelError
from agari.engine.tiles import BACK, NONE
from agari.models.calibration_config import RED_FIVE_NAMES, AdjustConfig, PhotoRecord
from agari.models.calibration_evidence import (
    BLANK_INK,
    back_slabs,
    class_similarity,
    colour_penalty,
    confusion,
    confusion_log_likelihood,
    ink_similarity,
    inked_kinds,
    keep_mass,
    kept_none,
    reliability,
    tie_slabs,
    tile_mean,
    unit_rows,
    views_vouch,
)
from agari.models.calibration_features import CropLooks

__all__ = ["RED_FIVE_NAMES", "AdjustConfig", "PhotoRecord", "TilesetProfile"]

@dataclass(frozen=True, eq=False)
class TilesetProfile:
    """What agari knows about one tile set; build with `TilesetProfile.create` and `added`.

    Attributes:
        name: the set's name (``agari calibrate --name``).
        model_id: fingerprint of the classifier whose embeddings these are
            (`agari.models.calibration_store.model_fingerprint`).
        class_names: the classifier's classes, in its column order.
        samples: float32 ``(N, D)`` raw embeddings of the calibration views.
        shapes: float32 ``(N, F)`` shape descriptors of the same views (``F`` may be 0).
        colours: float32 ``(N, 3)`` the views' middle colours (CIE Lab).
        view_probs: float32 ``(N, C)`` the model's probabilities for each view (how
            it reads this set).
        labels: int32 ``(N,)`` index into ``class_names`` of each sample.
        tile_ids: int32 ``(N,)`` which physical tile (one per kind per photo) a view is of.
        inks: float32 ``(N, K)`` the views' ink colour histograms
            (`agari.models.calibration_features.ink_colours`); ``K`` is 0 in profiles
            made before they were kept (None gives that), and the ink evidence is then off.
        reds: red fives this set has (as laid out).
        back_colour: median BGR of the face-down tile(s), or None.
        face_colour: median BGR of the bare face, or None.
        photos: the calibration photos, oldest first.
        config: how `adjust` weighs the evidence.
    """

    name: str
    model_id: str
    class_names: tuple[str, ...]
    samples: np.ndarray
    shapes: np.ndarray
    colours: np.ndarray
    view_probs: np.ndarray
    labels: np.ndarray
    tile_ids: np.ndarray
    inks: np.ndarray | None = None
    reds: tuple[str, ...] = RED_FIVE_NAMES
    back_colour: tuple[float, float, float] | None = None
    face_colour: tuple[float, float, float] | None = None
    photos: tuple[PhotoRecord, ...] = ()
    config: AdjustConfig = field(default_factory=AdjustConfig)

    def __post_init__(self) -> None:
        n = len(self.labels)
        if self.inks is None:
            object.__setattr__(self, "inks", np.zeros((n, 0), np.float32))
        if self.samples.ndim != 2 or self.shapes.ndim != 2 or len(self.samples) != n \
                or len(self.shapes) != n or self.colours.shape != (n, 3) \
                or self.view_probs.shape != (n, len(self.class_names)) \
                or len(self.tile_ids) != n or self.inks.ndim != 2 or len(self.inks) != n:
            raise ModelError(f"profile {self.name!r}: expected samples (N, D), shapes (N, F), "
                             f"colours (N, 3), view_probs (N, C), labels (N,), tile_ids (N,) "
                             f"and inks (N, K), got {self.samples.shape}, {self.shapes.shape}, "
                             f"{self.colours.shape}, {self.view_probs.shape}, "
                             f"{self.labels.shape}, {self.tile_ids.shape}, {self.inks.shape}")
        if n and (self.labels.min() < 0 or self.labels.max() >= len(self.class_names)):
            raise ModelError(f"profile {self.name!r}: a label is outside the class list")
        unknown = set(self.reds) - set(RED_FIVE_NAMES)
        if unknown:
            raise InvalidInput(f"not red fives: {sorted(unknown)}")

    # -- building ---------------------------------------------------------------
    @classmethod
    def create(cls, name: str, model_id: str, class_names: Sequence[str], dim: int,
               shape_dim: int = 0, *, ink_dim: int = 0, reds: Sequence[str] = RED_FIVE_NAMES,
               config: AdjustConfig | None = None) -> TilesetProfile:
        """An empty profile for a model with ``dim``-wide embeddings, ``shape_dim``-wide
        shape descriptors and ``ink_dim``-wide ink histograms of its input crops."""
        return cls(name=name, model_id=model_id, class_names=tuple(class_names),
                   samples=np.zeros((0, dim), np.float32),
                   shapes=np.zeros((0, shape_dim), np.float32),
                   colours=np.zeros((0, 3), np.float32),
                   view_probs=np.zeros((0, len(class_names)), np.float32),
                   labels=np.zeros(0, np.int32),
                   tile_ids=np.zeros(0, np.int32), inks=np.zeros((0, ink_dim), np.float32),
                   reds=tuple(reds),
                   config=config or AdjustConfig())

    def added(self, samples: np.ndarray, looks: CropLooks, labels: Sequence[str],
              tile_ids: np.ndarray, *, photo: PhotoRecord, probs: np.ndarray | None = None,
              back_colour: Sequence[float] | None = None,
              face_colour: Sequence[float] | None = None) -> TilesetProfile:
        """A copy with one more photo's views added.

        Args:
            samples: float32 ``(M, D)`` embeddings of the photo's views.
            looks: their shape descriptors and middle colours.
            probs: float32 ``(M, C)`` the model's probabilities for them; None takes
                the model to read every view right (no confusions learned).
            labels: ``M`` class names (each in ``class_names``).
            tile_ids: int ``(M,)`` the physical tile of each view, numbered within the photo.
            photo: the record kept for this photo.
            back_colour, face_colour: this photo's colour estimates (BGR); the profile
                keeps the running mean over photos.
        """
        samples = np.asarray(samples, np.float32)
        if samples.ndim != 2 or samples.shape[1] != self.dim:
            raise ModelError(f"expected embeddings (M, {self.dim}), got {samples.shape}")
        self._check_looks(looks, len(samples))
        index = {c: i for i, c in enumerate(self.class_names)}
        missing = sorted(set(labels) - set(index))
        if missing:
            raise ModelError(f"classes {missing} are not among the model's classes")
        lab = np.array([index[c] for c in labels], np.int32)
        probs = np.eye(len(self.class_names), dtype=np.float32)[lab] if probs is None \
            else np.asarray(probs, np.float32)
        if probs.shape != (len(samples), len(self.class_names)):
            raise ModelError(f"expected view probabilities ({len(samples)}, "
                             f"{len(self.class_names)}), got {probs.shape}")
        offset = int(self.tile_ids.max()) + 1 if len(self.tile_ids) else 0
        ids = np.asarray(tile_ids, np.int32) + offset
        k = len(self.photos)
        return replace(
            self,
            samples=np.concatenate([self.samples, samples]),
            shapes=np.concatenate([self.shapes, looks.shapes]),
            colours=np.concatenate([self.colours, looks.colours]),
            inks=self._inks_with(looks.inks),
            view_probs=np.concatenate([self.view_probs, probs]),
            labels=np.concatenate([self.labels, lab]),
            tile_ids=np.concatenate([self.tile_ids, ids]),
            back_colour=_running_mean(self.back_colour, back_colour, k),
            face_colour=_running_mean(self.face_colour, face_colour, k),
            photos=(*self.photos, photo),
        )

    def _inks_with(self, inks: np.ndarray) -> np.ndarray:
        """The views' ink histograms with a new photo's; a profile made before inks were kept
        stays without (its old views have none to compare with)."""
        if not len(self.labels):
            return np.asarray(inks, np.float32)
        if inks.shape[1] != self.inks.shape[1]:
            inks = np.zeros((len(inks), self.inks.shape[1]), np.float32)
        return np.concatenate([self.inks, inks])

    # -- what it knows --------------------------------------------------------------
    @property
    def dim(self) -> int:
        return int(self.samples.shape[1])

    @property
    def known(self) -> tuple[str, ...]:
        """Classes with at least one sample, in class order."""
        present = set(np.unique(self.labels).tolist())
        return tuple(c for i, c in enumerate(self.class_names) if i in present)

    @property
    def absent(self) -> tuple[str, ...]:
        """Classes this set does not have: the red fives that were not laid out."""
        return tuple(c for c in RED_FIVE_NAMES if c in self.class_names and c not in self.reds)

    @property
    def centre(self) -> np.ndarray:
        """float32 ``(D,)``: the mean embedding of the set (each tile weighs the same)."""
        return _cached(self, "centre", lambda: tile_mean(self.samples, self.tile_ids))

    def features(self, embeddings: np.ndarray) -> np.ndarray:
        """Embeddings ``(N, D)`` → centred unit vectors ``(N, D)`` float32, as compared."""
        return unit_rows(np.asarray(embeddings, np.float32) - self.centre)

    def shape_features(self, shapes: np.ndarray) -> np.ndarray:
        """Shape descriptors ``(N, F)`` → centred unit vectors, as compared."""
        centre = _cached(self, "shape_centre", lambda: tile_mean(self.shapes, self.tile_ids))
        return unit_rows(np.asarray(shapes, np.float32) - centre)

    @property
    def uses_shapes(self) -> bool:
        """Whether shape descriptors take part (the profile has them and the config weighs them)."""
        return self.shapes.shape[1] > 0 and self.config.shape_weight > 0

    @property
    def s_ref(self) -> float:
        """Similarity a view typically has to the nearest view of another kind."""
        return _cached(self, "s_ref", self._reference_similarity)

    def _reference_similarity(self) -> float:
        if len(self.known) < 2:
            return 0.0
        sim = self._class_similarities(self.samples, self.shapes if self.uses_shapes else None)
        sim[np.arange(len(sim)), self.labels] = -np.inf
        nearest_wrong = sim.max(axis=1)
        return float(np.quantile(nearest_wrong, self.config.ref_quantile))

    def _check_looks(self, looks: CropLooks, n: int) -> None:
        if len(looks) != n or looks.shapes.shape[1] != self.shapes.shape[1] \
                or (self.uses_inks and looks.inks.shape[1] != self.inks.shape[1]):
            raise ModelError(f"profile {self.name!r} expects looks of {n} crops with "
                             f"{self.shapes.shape[1]}-wide shape descriptors and "
                             f"{self.inks.shape[1]}-wide ink histograms, got "
                             f"{looks.shapes.shape} and {looks.inks.shape}")

    def similarities(self, embeddings: np.ndarray, looks: CropLooks | None = None) -> np.ndarray:
        """float32 ``(N, C)``: each crop's similarity to each class of this set.

        Args:
            embeddings: float32 ``(N, D)``, the model's embeddings of the crops.
            looks: their shape descriptors and colours, or None (embedding only).

        Classes without views get `s_ref`.
        """
        emb = np.asarray(embeddings, np.float32)
        if emb.ndim != 2 or emb.shape[1] != self.dim:
            raise ModelError(f"profile {self.name!r} expects embeddings (N, {self.dim}), "
                             f"got {emb.shape}")
        if looks is not None:
            self._check_looks(looks, len(emb))
        shapes = looks.shapes if looks is not None and self.uses_shapes else None
        sim = self._class_similarities(emb, shapes)
        sim[:, ~self._has_views] = self.s_ref
        return sim

    @property
    def uses_inks(self) -> bool:
        """Whether ink colours take part (the profile has them and the config weighs them)."""
        return self.inks.shape[1] > 0 and self.config.ink_weight > 0

    def ink_similarities(self, inks: np.ndarray) -> np.ndarray:
        """float32 ``(N, C)``: how like each class's views the crops' ink colours are
        (`calibration_evidence.ink_similarity`)."""
        return ink_similarity(inks, self.inks, self.labels, len(self.class_names))

    def colour_penalty(self, colours: np.ndarray) -> np.ndarray:
        """float32 ``(N, C)`` ≤ 0: log-probability each class loses for colours off its views."""
        cfg = self.config
        return colour_penalty(colours, self.colours, self.labels, len(self.class_names),
                              tolerance=cfg.colour_tolerance, weight=cfg.colour_weight,
                              relative=cfg.colour_relative)

    @property
    def confusion(self) -> np.ndarray:
        """float32 ``(C, C)``: how the model reads this set (`calibration_evidence.confusion`)."""
        return _cached(self, "confusion", lambda: confusion(
            self.view_probs, self.labels, len(self.class_names),
            smoothing=self.config.confusion_smoothing))

    @property
    def reliability(self) -> np.ndarray:
        """float32 ``(C,)``: how far the model's first choice of each class can be trusted on
        this set (`calibration_evidence.reliability`)."""
        return _cached(self, "reliability", lambda: reliability(
            self.view_probs, self.labels, len(self.class_names)))

    @property
    def prior(self) -> np.ndarray:
        """float32 ``(C,)``: the classes' prior weights (``back_prior`` for the back, else 1)."""
        def make() -> np.ndarray:
            out = np.ones(len(self.class_names), np.float32)
            if BACK in self.class_names:
                out[self.class_names.index(BACK)] = self.config.back_prior
            return out
        return _cached(self, "prior", make)

    @property
    def inked_kinds(self) -> np.ndarray:
        """bool ``(C,)``: kinds most of whose views carry ink (not a plain 白 or back)."""
        return _cached(self, "inked_kinds", lambda: inked_kinds(
            self.inks, self.labels, len(self.class_names)))

    @property
    def slabs(self) -> np.ndarray:
        """bool ``(C,)``: the back and the blank kinds of its colour
        (`calibration_evidence.back_slabs`); none in profiles without ink histograms."""
        def make() -> np.ndarray:
            if not self.inks.shape[1] or BACK not in self.class_names:
                return np.zeros(len(self.class_names), bool)
            return back_slabs(self.colours, self.labels, self.inked_kinds, self.confusion,
                              self.class_names.index(BACK), tolerance=self.config.slab_colour)
        return _cached(self, "slabs", make)

    @property
    def _has_views(self) -> np.ndarray:
        return np.isin(np.arange(len(self.class_names)), self.labels)

    def _class_similarities(self, emb: np.ndarray, shapes: np.ndarray | None) -> np.ndarray:
        """Per class, mixed-channel similarity to its nearest views (-inf for classes without)."""
        if not len(self.labels) or not len(emb):
            return np.full((len(emb), len(self.class_names)), -np.inf, np.float32)
        channels = [(self.features(emb) @ self._sample_features.T, 1.0)]
        if shapes is not None:
            w = self.config.shape_weight
            channels = [(channels[0][0], 1.0 - w),
                        (self.shape_features(shapes) @ self._sample_shapes.T, w)]
        return class_similarity(channels, self.labels, len(self.class_names),
                                self.config.neighbours)

    @property
    def _sample_features(self) -> np.ndarray:
        return _cached(self, "sample_features", lambda: self.features(self.samples))

    @property
    def _sample_shapes(self) -> np.ndarray:
        return _cached(self, "sample_shapes", lambda: self.shape_features(self.shapes))

    def adjust(self, probs: np.ndarray, embeddings: np.ndarray,
               looks: CropLooks | None = None) -> np.ndarray:
        """The model's probabilities corrected by this set's evidence.

        Args:
            probs: float32 ``(N, C)`` softmax output over ``class_names``.
            embeddings: float32 ``(N, D)`` the model's embeddings of the same crops.
            looks: the crops' shape descriptors and colours
                (`agari.models.calibration_features.crop_looks`), or None.

        Returns:
            float32 ``(N, C)``, rows summing to 1 (see the module doc for the rule).
        """
        p = np.asarray(probs, np.float32)
        if p.ndim != 2 or p.shape[1] != len(self.class_names):
            raise ModelError(f"expected probs (N, {len(self.class_names)}), got {p.shape}")
        cfg = self.config
        logits = cfg.alpha * confusion_log_likelihood(p, self.confusion, self.prior)
        trust = vouch = np.float32(1.0)
        if cfg.trust_reliable and len(self.labels):
            trust = (1.0 - self.reliability[p.argmax(axis=1)])[:, None]
            if cfg.views_vouch_full > 0:
                vouch = views_vouch(p, self.confusion, full=cfg.views_vouch_full,
                                    sure=cfg.views_vouch_sure)
        sims = tie_slabs(self.similarities(embeddings, looks), self.slabs)
        logits += cfg.beta * trust * vouch * sims
        if looks is not None:
            logits += self.colour_penalty(looks.colours)
            if self.uses_inks and len(self.labels):
                ink = np.float32(cfg.ink_weight) * vouch * (trust if cfg.ink_trusts else 1.0)
                logits += ink * self.ink_similarities(looks.inks)
        for name in self.absent:
            logits[:, self.class_names.index(name)] += np.float32(np.log(cfg.absent_prior))
        logits -= logits.max(axis=1, keepdims=True)
        out = np.exp(logits)
        out /= out.sum(axis=1, keepdims=True)
        if cfg.keep_none and NONE in self.class_names:
            # Bare table, a fragment or a gap resembles a set's plainest faces (白, the back)
            # as much as those resemble themselves: whether a crop is a tile at all stays the
            # model's call, and the set's evidence only decides which tile it is.
            k = self.class_names.index(NONE)
            kept = None
            if cfg.none_from_set and looks is not None and self.inks.shape[1] and len(self.labels):
                kept = kept_none(out, p, self.confusion, sims, self.s_ref,
                                 inked=looks.inks[:, -1] < BLANK_INK, inked_kinds=self.inked_kinds,
                                 k=k)
            out = keep_mass(out, p, k, kept)
        return out.astype(np.float32)

    def summary(self) -> dict:
        """A JSON-able description (what `agari calibrate` reports)."""
        counts = np.bincount(self.labels, minlength=len(self.class_names))
        tiles = {self.class_names[i]: int(len(np.unique(self.tile_ids[self.labels == i])))
                 for i in np.flatnonzero(counts)}
        faces = [c for c in self.known if c not in (BACK, NONE)]
        return {
            "name": self.name, "photos": len(self.photos), "kinds": len(faces),
            "backs": tiles.get(BACK, 0), "views": int(len(self.labels)),
            "shape_dim": int(self.shapes.shape[1]),
            "reds": list(self.reds), "s_ref": round(self.s_ref, 4),
            "back_colour": _rounded(self.back_colour), "face_colour": _rounded(self.face_colour),
            "tiles_per_kind": tiles,
        }


def _cached(profile: TilesetProfile, key: str, make):
    """A value derived from a frozen profile, computed once (profiles never change)."""
    cache = profile.__dict__.setdefault("_derived", {})
    if key not in cache:
        cache[key] = make()
    return cache[key]


def _running_mean(old: tuple[float, ...] | None, new: Sequence[float] | None,
                  n_old: int) -> tuple[float, float, float] | None:
    if new is None:
        return old
    new_t = tuple(float(v) for v in new)
    if old is None or n_old == 0:
        return new_t  # type: ignore[return-value]
    return tuple((o * n_old + v) / (n_old + 1) for o, v in zip(old, new_t, strict=True))  # type: ignore[return-value]


def _rounded(colour: tuple[float, ...] | None) -> list[float] | None:
    return None if colour is None else [round(float(c), 1) for c in colour]
