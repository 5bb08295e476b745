"""`agari detect` through the CLI: contract JSON, the classifier's veto, errors, annotation."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from agari.engine.tiles import CLASS_NAMES
from locate_factories import add_row, blank
from typer.testing import CliRunner

from agari.cli import app

runner = CliRunner()


def write_flat_model(path: Path, favourite: str) -> Path:
    """A toy ONNX classifier that calls every crop ``favourite`` (a bias, no weights)."""
    onnx = pytest.importorskip("onnx")
    from agari.models.spec import EMBEDDING_NAME, INPUT_NAME, LOGITS_NAME, ModelSpec
    from onnx import TensorProto, helper

    spec = ModelSpec(class_names=CLASS_NAMES, input_size=(32, 24), mean=(0.0, 0.0, 0.0),
                     std=(1.0, 1.0, 1.0))
    n = len(CLASS_NAMES)
    bias = np.zeros((1, n), np.float32)
    bias[0, CLASS_NAMES.index(favourite)] = 20.0
    graph = helper.make_graph(
        [
            helper.make_node("GlobalAveragePool", [INPUT_NAME], ["pooled"]),
            helper.make_node("Flatten", ["pooled"], [EMBEDDING_NAME]),
            helper.make_node("MatMul", [EMBEDDING_NAME, "W"], ["scaled"]),
            helper.make_node("Add", ["scaled", "B"], [LOGITS_NAME]),
        ],
        "flat",
        [helper.make_tensor_value_info(INPUT_NAME, TensorProto.FLOAT, ["N", 3, 32, 24])],
        [
            helper.make_tensor_value_info(LOGITS_NAME, TensorProto.FLOAT, ["N", n]),
            helper.make_tensor_value_info(EMBEDDING_NAME, TensorProto.FLOAT, ["N", 3]),
        ],
        [
            helper.make_tensor("W", TensorProto.FLOAT, (3, n), np.zeros(3 * n, np.float32)),
            helper.make_tensor("B", TensorProto.FLOAT, (1, n), bias.ravel()),
        ],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    helper.set_model_props(model, spec.to_metadata())
    onnx.save(model, str(path))
    return path


@pytest.fixture(scope="module")
def photo(tmp_path_factory) -> Path:
    rng = np.random.default_rng(11)
    s = blank(rng)
    add_row(s, rng, 60, 100, n=7, width=40)
    add_row(s, rng, 60, 300, n=3, width=40, gap=8)
    path = tmp_path_factory.mktemp("detect") / "hand.png"
    cv2.imwrite(str(path), s.image)
    return path


def _docs(output: str) -> list[dict]:
    return [json.loads(line) for line in output.splitlines() if line.startswith("{")]


def test_json_follows_the_contract(photo, tmp_path):
    model = write_flat_model(tmp_path / "m.onnx", "5m")
    res = runner.invoke(app, ["detect", str(photo), "--json", "--model", str(model),
                              "--no-fill"])
    assert res.exit_code == 0, res.output
    (doc,) = _docs(res.output)
    assert doc["image"] == str(photo)
    assert (doc["width"], doc["height"]) == (640, 480)
    assert len(doc["tiles"]) == 10
    tile = doc["tiles"][0]
    assert tile["tile"] == "5m" and tile["confidence"] > 0.9
    assert len(tile["quad"]) == 4 and len(tile["box"]) == 4
    assert tile["sideways"] is False
    assert doc["elapsed_ms"] >= 0


def test_rows_are_completed_along_themselves_unless_no_fill(photo, tmp_path):
    # A model that calls everything a tile makes row completion run to the picture's
    # edges: the extra tiles lie on the two rows, never elsewhere.
    model = write_flat_model(tmp_path / "m.onnx", "5m")
    res = runner.invoke(app, ["detect", str(photo), "--json", "--model", str(model)])
    tiles = _docs(res.output)[0]["tiles"]
    located = _docs(runner.invoke(app, ["detect", str(photo), "--json", "--locate-only"]
                                  ).output)[0]["tiles"]
    assert len(tiles) > len(located)
    row_ys = sorted({round(t["box"][1] + t["box"][3] / 2, -1) for t in located})
    for t in tiles:
        y = t["box"][1] + t["box"][3] / 2
        assert min(abs(y - r) for r in row_ys) < 15


def test_candidates_the_classifier_calls_none_are_dropped(photo, tmp_path):
    model = write_flat_model(tmp_path / "none.onnx", "none")
    res = runner.invoke(app, ["detect", str(photo), "--json", "--model", str(model)])
    assert res.exit_code == 0
    assert _docs(res.output)[0]["tiles"] == []


def test_locate_only_needs_no_model_and_leaves_tiles_unnamed(photo):
    res = runner.invoke(app, ["detect", str(photo), "--json", "--locate-only"])
    assert res.exit_code == 0
    tiles = _docs(res.output)[0]["tiles"]
    assert len(tiles) == 10 and all(t["tile"] is None for t in tiles)


def test_a_bad_image_is_reported_and_the_others_still_run(photo, tmp_path):
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg")
    res = runner.invoke(app, ["detect", str(bad), str(photo), "--json", "--locate-only"])
    assert res.exit_code != 0
    first, second = _docs(res.output)
    assert first["error"]["code"] == "bad_image"
    assert len(second["tiles"]) == 10


def test_a_missing_model_is_a_one_line_error(photo, tmp_path):
    res = runner.invoke(app, ["detect", str(photo), "--model", str(tmp_path / "nope.onnx")])
    assert res.exit_code != 0
    assert "model" in res.output and "Traceback" not in res.output


def test_annotate_writes_a_drawn_copy(photo, tmp_path):
    out = tmp_path / "drawn.png"
    res = runner.invoke(app, ["detect", str(photo), "--locate-only", "--annotate", str(out)])
    assert res.exit_code == 0
    drawn = cv2.imread(str(out))
    assert drawn.shape == (480, 640, 3)
    assert not np.array_equal(drawn, cv2.imread(str(photo)))


def test_several_images_annotate_into_a_folder(photo, tmp_path):
    out = tmp_path / "drawn"
    res = runner.invoke(app, ["detect", str(photo), str(photo), "--locate-only",
                              "--annotate", str(out)])
    assert res.exit_code == 0
    assert (out / "hand.detect.png").is_file()
