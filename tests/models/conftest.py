"""Fixtures for the classifier tests: a toy ONNX model with known behaviour."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from agari.engine.tiles import CLASS_NAMES
from agari.models.spec import EMBEDDING_NAME, INPUT_NAME, LOGITS_NAME, ModelSpec

TOY_SIZE = (32, 24)
"""The toy model's input (height, width): deliberately not the shipped model's."""
TOY_COLOURS = {"0m": 0, "6s": 1, "back": 2}
"""Class picked by a crop that is pure red, green or blue (RGB channel index)."""


def write_toy_model(path: Path, *, spec: ModelSpec | None = None,
                    n_classes: int = len(CLASS_NAMES)) -> Path:
    """An ONNX graph: embedding = mean colour (N, 3); logits = 10 * embedding @ W.

    W sends red to ``0m``, green to ``6s`` and blue to ``back``, so the truth of
    any flat-colour crop is known. Built with the onnx helper (no torch needed).
    """
    import onnx
    from onnx import TensorProto, helper

    spec = spec or ModelSpec(class_names=CLASS_NAMES, input_size=TOY_SIZE,
                             mean=(0.0, 0.0, 0.0), std=(1.0, 1.0, 1.0))
    weights = np.zeros((3, n_classes), np.float32)
    for name, channel in TOY_COLOURS.items():
        weights[channel, CLASS_NAMES.index(name) % n_classes] = 10.0
    h, w = spec.input_size
    graph = helper.make_graph(
        [
            helper.make_node("GlobalAveragePool", [INPUT_NAME], ["pooled"]),
            helper.make_node("Flatten", ["pooled"], [EMBEDDING_NAME]),
            helper.make_node("MatMul", [EMBEDDING_NAME, "W"], [LOGITS_NAME]),
        ],
        "toy",
        [helper.make_tensor_value_info(INPUT_NAME, TensorProto.FLOAT, ["N", 3, h, w])],
        [
            helper.make_tensor_value_info(LOGITS_NAME, TensorProto.FLOAT, ["N", n_classes]),
            helper.make_tensor_value_info(EMBEDDING_NAME, TensorProto.FLOAT, ["N", 3]),
        ],
        [helper.make_tensor("W", TensorProto.FLOAT, weights.shape, weights.ravel())],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    helper.set_model_props(model, spec.to_metadata())
    onnx.save(model, str(path))
    return path


@pytest.fixture(scope="session")
def make_toy_model():
    """`write_toy_model`, for tests that need a variant."""
    pytest.importorskip("onnx")
    return write_toy_model


@pytest.fixture(scope="session")
def toy_model(tmp_path_factory) -> Path:
    pytest.importorskip("onnx")
    return write_toy_model(tmp_path_factory.mktemp("toy") / "toy.onnx")
