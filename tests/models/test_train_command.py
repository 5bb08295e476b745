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


def test_train_cores_without_the_extra_is_one_line_error(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "torch", None)
    result = runner.invoke(app, ["train", "cores", "--out", str(tmp_path / "c.onnx"),
                                 "--data", str(tmp_path / "data")])
    assert result.exit_code == 1
    assert "agari[train]" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "c.onnx").exists() and not (tmp_path / "data").exists()


def test_train_cores_on_a_device_torch_lacks_is_one_line_error(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    result = runner.invoke(app, ["train", "cores", "--out", str(tmp_path / "c.onnx"),
                                 "--data", str(tmp_path / "data"), "--device", "gpu9"])
    assert result.exit_code == 1
    assert "device 'gpu9'" in result.output and "Traceback" not in result.output
    assert not (tmp_path / "data").exists()


@pytest.mark.slow
def test_tiny_cores_run_renders_trains_and_exports_a_net_the_locator_loads(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("onnx")
    import numpy as np
    from agari.vision.cores import CoreConfig, find_cores

    out, data = tmp_path / "c.onnx", tmp_path / "data"
    args = ["train", "cores", "--out", str(out), "--data", str(data), "--scenes", "4",
            "--steps", "2", "--workers", "2", "--threads", "1"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in data.glob("*.done")) == ["part0.done", "part1.done"]
    found = find_cores(np.full((120, 160, 3), 128, np.uint8), CoreConfig(model=str(out)))
    assert isinstance(found, list)
    # A second run reuses the rendered scenes instead of drawing them again.
    before = (data / "part0_images.npy").stat().st_mtime_ns
    assert runner.invoke(app, args).exit_code == 0
    assert (data / "part0_images.npy").stat().st_mtime_ns == before
