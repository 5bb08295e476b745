"""Settings and records of a tile-set profile: how evidence is weighed, which photos went in.

Kept apart from `agari.models.calibration` (which re-exports them) so that the
profile's arithmetic and its knobs each stay small.
"""

from __future__ import annotations

from dataclasses import dataclass

from agari.engine.errors import InvalidInput

RED_FIVE_NAMES = ("0m", "0p", "0s")
"""The red fives a set may have; the reference layout lists the ones it has."""


@dataclass(frozen=True, slots=True)
class AdjustConfig:
    """How strongly a profile's evidence moves the model's probabilities.

    Attributes:
        alpha: weight of the model's evidence (its output read through its
            confusions on this set; < 1 softens a model over-sure on a set it never saw).
        beta: weight of the similarity evidence (per unit of cosine similarity).
        shape_weight: share of the shape descriptors in the similarity (the rest is
            the embedding's); used when the crops' descriptors are given.
        confusion_smoothing: share of the identity mixed into the model's confusions
            (0 trusts them fully; 1 ignores them: plain ``log p``).
        trust_reliable: scale the similarity evidence for a crop by how unreliable the
            model's first choice proved on this set's views (1 − its precision there, one
            more choice counted wrong): where the model reads a kind of this set
            faultlessly, its word all but stands.
        colour_tolerance: Lab distance between a crop's middle colour and a class's
            nearest view that costs nothing (light and white balance vary).
        colour_weight: log-probability lost per ``colour_tolerance`` beyond it.
        colour_relative: measure a class's colour distance beyond the crop's nearest class's
            (`calibration_evidence.colour_penalty`): the light of a photo shifts every kind alike.
        absent_prior: probability multiplier for red fives the set does not have.
        neighbours: a class's similarity is the mean of its ``neighbours`` most
            similar samples (1 = nearest sample; views of one tile differ in turn,
            light and framing, so the nearest view is the fairest comparison).
        ref_quantile: quantile of the samples' nearest-wrong-kind similarities
            taken as ``s_ref`` (see the module doc).
        keep_none: leave the model's ``none`` probability as it was and let the
            evidence share out only the rest among the tile classes.
        ink_weight: log-probability per unit of ink-colour similarity (the Bhattacharyya
            coefficient of the crop's ink histogram with a class's nearest view's).
        ink_trusts: scale the ink evidence like the similarity (``trust_reliable``).
        none_from_set: with ``keep_none``, discount the model's ``none`` on an inked crop
            by how often it read this set's views of the kind the crop resembles as no
            tile (`calibration_evidence.kept_none`); needs the crops' ink histograms.
        back_prior: how much likelier a crop is a face-down tile than any one face kind
            before it is looked at (`calibration_evidence.confusion_log_likelihood`):
            walls, standing hands and face-down melds show more backs than there are
            tiles of a kind. It cancels where the model tells this set's kinds apart and
            decides where the set's back and a kind look alike to it (a white-backed set's
            back and its blank 白: from above, the same slab).
        views_vouch_full: with ``trust_reliable``, the similarity and ink evidence on a
            crop the model reads as ``c`` at ``views_vouch_sure`` or more is scaled
            by ``min(1, M[c, c] / views_vouch_full)``, how often the model read this set's
            views of ``c`` as ``c`` (`calibration_evidence.views_vouch`): a layout tile the
            model misread is unlike the set's tiles in play; 0 switches it off.
        views_vouch_sure: the model's probability for its first choice from which it applies.
        slab_colour: kinds drawn blank (no ink on most views) whose views' median colour lies
            within this many Lab units of the back's are one slab with it, and take the
            largest similarity of the group (`calibration_evidence.back_slabs`): a white-backed
            set's blank 白 and its back are told apart by the prior, not by how each layout
            tile happened to be framed; 0 switches it off.
    """

    alpha: float = 1.0
    beta: float = 40.0
    shape_weight: float = 0.3
    confusion_smoothing: float = 0.1
    trust_reliable: bool = True
    colour_tolerance: float = 20.0
    colour_weight: float = 3.0
    colour_relative: bool = True
    absent_prior: float = 0.02
    neighbours: int = 1
    ref_quantile: float = 0.5
    keep_none: bool = True
    ink_weight: float = 5.0
    ink_trusts: bool = False
    none_from_set: bool = True
    back_prior: float = 3.0
    views_vouch_full: float = 0.85
    views_vouch_sure: float = 0.5
    slab_colour: float = 15.0

    def __post_init__(self) -> None:
        if not (self.alpha >= 0 and self.beta >= 0):
            raise InvalidInput(f"alpha and beta must be >= 0, got {self.alpha}, {self.beta}")
        if not 0.0 < self.absent_prior <= 1.0:
            raise InvalidInput(f"absent_prior must be in (0, 1], got {self.absent_prior}")
        if self.neighbours < 1:
            raise InvalidInput(f"neighbours must be >= 1, got {self.neighbours}")
        if self.back_prior <= 0:
            raise InvalidInput(f"back_prior must be > 0, got {self.back_prior}")
        if self.views_vouch_full < 0 or not 0.0 <= self.views_vouch_sure <= 1.0:
            raise InvalidInput(f"views_vouch_full must be >= 0 and views_vouch_sure in [0, 1], "
                               f"got {self.views_vouch_full}, {self.views_vouch_sure}")
        if self.slab_colour < 0:
            raise InvalidInput(f"slab_colour must be >= 0, got {self.slab_colour}")
        if self.ink_weight < 0:
            raise InvalidInput(f"ink_weight must be >= 0, got {self.ink_weight}")
        if self.colour_tolerance <= 0 or self.colour_weight < 0:
            raise InvalidInput(f"colour_tolerance must be > 0 and colour_weight >= 0, got "
                               f"{self.colour_tolerance}, {self.colour_weight}")
        if not 0.0 <= self.confusion_smoothing <= 1.0:
            raise InvalidInput(f"confusion_smoothing must be in [0, 1], got "
                               f"{self.confusion_smoothing}")
        if not 0.0 <= self.shape_weight <= 1.0:
            raise InvalidInput(f"shape_weight must be in [0, 1], got {self.shape_weight}")
        if not 0.0 <= self.ref_quantile <= 1.0:
            raise InvalidInput(f"ref_quantile must be in [0, 1], got {self.ref_quantile}")


@dataclass(frozen=True, slots=True)
class PhotoRecord:
    """One calibration photo that went into a profile.

    Attributes:
        source: the photo's file name (or a caller's label).
        tiles: tiles bound to their kinds in it.
        added: ISO 8601 time it was added.
    """

    source: str
    tiles: int
    added: str
