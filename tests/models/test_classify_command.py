"""`agari classify` through typer's CliRunner, on the toy model (real onnxruntime)."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

from agari.cli import app

runner = CliRunner()


@pytest.fixture()
def crops(tmp_path):
    red = tmp_path / "red.png"
    cv2.imwrite(str(red), np.full((80, 60, 3), (0, 0, 255), np.uint8))
    blue = tmp_path / "blue.jpg"
    cv2.imwrite(str(blue), np.full((60, 80, 3), (255, 0, 0), np.uint8))
    broken = tmp_path / "broken.png"
    broken.write_bytes(b"\x89PNG not really")
    return red, blue, broken


def test_json_one_document_per_crop(toy_model, crops):
    red, blue, _ = crops
    result = runner.invoke(app, ["classify", str(red), str(blue), "--json",
                                 "--model", str(toy_model), "--top", "2"])
    assert result.exit_code == 0, result.output
    docs = [json.loads(line) for line in result.stdout.splitlines()]
    assert [d["image"] for d in docs] == [str(red), str(blue)]
    assert [d["tile"] for d in docs] == ["0m", "back"]
    assert docs[0]["top"][0][0] == "0m" and len(docs[0]["top"]) == 2
    assert 0.9 < docs[0]["confidence"] <= 1.0


def test_text_output(toy_model, crops):
    red, _, _ = crops
    result = runner.invoke(app, ["classify", str(red), "--model", str(toy_model)])
    assert result.exit_code == 0
    assert "red.png: 0m" in result.stdout


def test_unreadable_crop_reports_and_others_still_run(toy_model, crops):
    red, _, broken = crops
    result = runner.invoke(app, ["classify", str(broken), str(red), "--json",
                                 "--model", str(toy_model)])
    assert result.exit_code == 1
    docs = [json.loads(line) for line in result.stdout.splitlines()]
    assert docs[0]["error"]["code"] == "bad_image"
    assert docs[1]["tile"] == "0m"


def test_missing_model_is_one_line_error(tmp_path, crops):
    result = runner.invoke(app, ["classify", str(crops[0]), "--json",
                                 "--model", str(tmp_path / "nope.onnx")])
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "model_error"
    assert "Traceback" not in result.output
