"""agari.models: the ONNX tile classifier (inference) and, behind `agari[train]`, its training.

``TileClassifier`` and ``Predictions`` load lazily so that importing a light
submodule (``agari.models.spec``) does not pull in OpenCV or onnxruntime.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agari.models.classifier import Predictions, TileClassifier

__all__ = ["Predictions", "TileClassifier"]


def __getattr__(name: str) -> object:
    if name in __all__:
        from agari.models import classifier

        return getattr(classifier, name)
    raise AttributeError(f"module 'agari.models' has no attribute {name!r}")
