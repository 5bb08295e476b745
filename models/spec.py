"""`ModelSpec`: what the classifier's ONNX file says about itself (its metadata).

Inference never hard-codes the class list, input size, normalisation or crop
margin: export writes them into the model's metadata (``agari.*`` keys, JSON
values) and `ModelSpec.from_metadata` reads them back, so a retrained model with
another size or class list runs unchanged.

This module imports neither torch nor onnxruntime; export and inference share it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from agari.engine.errors import ModelError

INPUT_NAME = "image"
"""The model's one input: float32 ``(N, 3, H, W)``, normalised per the metadata."""
LOGITS_NAME = "logits"
"""Output: float32 ``(N, C)`` unnormalised class scores."""
EMBEDDING_NAME = "embedding"
"""Output: float32 ``(N, D)`` the feature vector before the class layer."""

_PREFIX = "agari."
_KEYS = ("class_names", "input_size", "mean", "std", "channel_order", "crop_margin")


@dataclass(frozen=True, slots=True)
class ModelSpec:
    """The contract between a trained model and its callers.

    Attributes:
        class_names: output order of the logits (``agari.engine.tiles.CLASS_NAMES``
            for the shipped model).
        input_size: crop ``(height, width)`` in pixels.
        mean: per-channel mean in ``channel_order``, on the 0..1 scale.
        std: per-channel standard deviation, same order and scale.
        channel_order: ``"RGB"`` or ``"BGR"``: the channel order the model expects.
        crop_margin: context around the tile in training crops (see `agari.vision.crops`).
        extra: any further metadata (seed, version, training command), as strings.
    """

    class_names: tuple[str, ...]
    input_size: tuple[int, int]
    mean: tuple[float, float, float]
    std: tuple[float, float, float]
    channel_order: str = "RGB"
    crop_margin: float = 0.06
    extra: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if len(self.class_names) < 2 or len(set(self.class_names)) != len(self.class_names):
            raise ModelError(f"model class names must be distinct, got {self.class_names!r}")
        size = self.input_size
        if len(size) != 2 or not all(isinstance(v, int) and v >= 8 for v in size):
            raise ModelError(f"model input size must be two ints >= 8, got {self.input_size!r}")
        if len(self.mean) != 3 or len(self.std) != 3 or min(self.std) <= 0:
            raise ModelError(f"model normalisation needs 3 means and 3 positive stds, "
                             f"got mean={self.mean!r} std={self.std!r}")
        if self.channel_order not in ("RGB", "BGR"):
            raise ModelError(f"model channel order must be RGB or BGR, got {self.channel_order!r}")
        if not 0.0 <= self.crop_margin < 1.0:
            raise ModelError(f"model crop margin must be in [0, 1), got {self.crop_margin!r}")

    def to_metadata(self) -> dict[str, str]:
        """The ``agari.*`` metadata entries (string values) that describe this spec."""
        meta = {
            "class_names": list(self.class_names),
            "input_size": list(self.input_size),
            "mean": list(self.mean),
            "std": list(self.std),
            "channel_order": self.channel_order,
            "crop_margin": self.crop_margin,
        }
        out = {_PREFIX + k: json.dumps(v) for k, v in meta.items()}
        out.update({_PREFIX + k: v for k, v in self.extra})
        return out

    @classmethod
    def from_metadata(cls, metadata: Mapping[str, str], *, source: str = "model") -> ModelSpec:
        """Read a spec back from ONNX metadata (``agari.*`` keys).

        Raises:
            ModelError: a key is missing or its value is malformed.
        """
        values: dict[str, object] = {}
        for key in _KEYS:
            raw = metadata.get(_PREFIX + key)
            if raw is None:
                raise ModelError(f"{source} lacks metadata {_PREFIX + key!r}; not an agari model?")
            try:
                values[key] = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise ModelError(f"{source}: metadata {_PREFIX + key!r} is not JSON") from exc
        extra = tuple(
            sorted((k[len(_PREFIX):], v) for k, v in metadata.items()
                   if k.startswith(_PREFIX) and k[len(_PREFIX):] not in _KEYS)
        )
        try:
            return cls(
                class_names=tuple(str(c) for c in values["class_names"]),
                input_size=tuple(int(v) for v in values["input_size"]),
                mean=tuple(float(v) for v in values["mean"]),
                std=tuple(float(v) for v in values["std"]),
                channel_order=str(values["channel_order"]),
                crop_margin=float(values["crop_margin"]),
                extra=extra,
            )
        except (TypeError, ValueError) as exc:
            raise ModelError(f"{source}: malformed metadata: {exc}") from exc
