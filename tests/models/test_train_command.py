"""`agari train classifier`: clear failure without the extra; a tiny end-to-end run (slow)."""

from __future__ import annotations

import json
import sys

import pytest
from typer.testing import CliRunner

from agari.cli import app

runner = CliRunner()


def test_missing_train_extra_is_one_line_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "torch", None)
    result = runner.invoke(app, ["train", "classifier", "--out", str(tmp_path / "m.onnx"),
                                 "--json"])
    assert result.exit_code == 1
    err = json.loads(result.stdout)["error"]
    assert err["code"] == "missing_extra" and "agari[train]" in err["message"]
    assert not (tmp_path / "m.onnx").exists()


@pytest.mark.slow
def test_tiny_training_run_exports_a_working_model(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from agari.models import TileClassifier

    out = tmp_path / "m.onnx"
    result = runner.invoke(app, ["train", "classifier", "--out", str(out), "--per-class", "3",
                                 "--epochs", "1", "--scenes", "0", "--workers", "1",
                                 "--threads", "1", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["sets"]["synth_val"]["n"] > 0
    clf = TileClassifier.load(out)
    assert clf.spec.extra and dict(clf.spec.extra)["seed"] == "0"
