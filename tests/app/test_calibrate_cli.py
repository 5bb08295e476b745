"""`agari calibrate` through typer's CliRunner: layout, profiles on disk, errors, --tileset helper.

The photos are rendered layouts written as real JPEG files and read by the
real decoder; the classifier is the toy ONNX model (real onnxruntime). The
locator is replaced by the renderer's true quads (unlabelled, shuffled), as a
perfect locator would give them: these tests check the command, binding and
the profile files. The real locator on layout photos is measured by
``bench/calibrate_eval.py``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest
from agari.vision.detection import TileDetection
from typer.testing import CliRunner

from agari.cli import app

MODELS_TESTS = Path(__file__).resolve().parents[1] / "models"
sys.path.insert(0, str(MODELS_TESTS))
from test_calibration_scenes import LayoutView, render_layout, unseen_style  # noqa: E402


def write_toy_model(path: Path) -> Path:
    """The classifier tests' toy ONNX model (their conftest, loaded by path: a name clash)."""
    spec = importlib.util.spec_from_file_location("models_conftest", MODELS_TESTS / "conftest.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.write_toy_model(path)


locate_module = importlib.import_module("agari.vision.locate")
calibration_build = importlib.import_module("agari.models.calibration_build")
"""The locator's module (``agari.vision.locate`` the attribute is its function)."""
runner = CliRunner()
BLUE_BACK = np.array([175.0, 105.0, 25.0], np.float32)
"""BGR: a blue back, which the toy model reads as ``back`` (so the layout is not contradicted)."""


@pytest.fixture(scope="module")
def model(tmp_path_factory) -> Path:
    pytest.importorskip("onnx")
    return write_toy_model(tmp_path_factory.mktemp("toy") / "toy.onnx")


@pytest.fixture(scope="module")
def layouts(tmp_path_factory) -> dict[str, tuple[Path, list]]:
    """Rendered layout photos (JPEG files) and their true tiles."""
    out = {}
    folder = tmp_path_factory.mktemp("layouts")
    style = replace(unseen_style(4, "plain"), back=BLUE_BACK, _cache={})
    for seed in (1, 2):
        image, tiles = render_layout(seed, style, size=(800, 600),
                                     view=LayoutView(tile_px=(36.0, 50.0)))
        path = folder / f"layout{seed}.jpg"
        cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 92])
        out[path.stem] = (path, tiles)
    return out


@pytest.fixture
def home(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("AGARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def truth_locator(monkeypatch, layouts):
    """Make the locator return a layout's true quads; ``drop`` hides tiles from it."""
    by_shape = {}

    def install(name: str, drop: tuple[int, ...] = ()) -> None:
        path, tiles = layouts[name]
        dets = [TileDetection(quad=t.quad) for i, t in enumerate(tiles) if i not in drop]
        np.random.default_rng(0).shuffle(dets)
        by_shape[name] = dets
        monkeypatch.setattr(locate_module, "locate", lambda image, **config: list(dets))
        monkeypatch.setattr(calibration_build, "locate", lambda image, **config: list(dets))

    return install


def calibrate(*args: str):
    return runner.invoke(app, ["calibrate", *args])


def test_layout_is_printed():
    result = calibrate("--layout")
    assert result.exit_code == 0, result.output
    assert "[1m] [2m]" in result.output and "[7z]" in result.output
    assert "[0m] [0p] [0s] [##]" in result.output and "38 tiles" in result.output
    result = calibrate("--layout", "--reds", "0p", "--json")
    doc = json.loads(result.stdout)
    assert doc["rows"][-1] == ["0p", "back"] and doc["tiles"] == 36


def test_calibrate_saves_a_profile_and_adds_photos(home, model, layouts, truth_locator):
    truth_locator("layout1")
    result = calibrate(str(layouts["layout1"][0]), "--name", "club", "--model", str(model),
                       "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["added"][0]["tiles"] == 38 and doc["profile"]["kinds"] == 37
    assert (home / "tilesets" / "club.json").is_file()
    assert (home / "tilesets" / "club.npz").is_file()
    truth_locator("layout2")
    result = calibrate(str(layouts["layout2"][0]), "--name", "club", "--model", str(model))
    assert result.exit_code == 0, result.output
    assert "2 photo(s)" in result.output and "--tileset club" in result.output
    head = json.loads((home / "tilesets" / "club.json").read_text())
    assert [p["source"] for p in head["photos"]] == ["layout1.jpg", "layout2.jpg"]
    listed = json.loads(calibrate("--list", "--json").stdout)
    assert [s["name"] for s in listed["tilesets"]] == ["club"]
    result = calibrate(str(layouts["layout1"][0]), "--name", "club", "--model", str(model),
                       "--replace", "--json")
    assert json.loads(result.stdout)["profile"]["photos"] == 1


def test_profile_is_used_through_with_tileset(home, model, layouts, truth_locator):
    from agari.models.calibration_apply import CalibratedClassifier
    from agari.models.classifier import TileClassifier

    from agari.commands.calibrate import with_tileset

    truth_locator("layout1")
    assert calibrate(str(layouts["layout1"][0]), "--name", "club", "--model",
                     str(model)).exit_code == 0
    clf = TileClassifier.load(model, threads=1)
    assert with_tileset(clf, None) is clf
    cal = with_tileset(clf, "club")
    assert isinstance(cal, CalibratedClassifier) and cal.profile.name == "club"
    image = cv2.imread(str(layouts["layout1"][0]))
    dets = [TileDetection(quad=t.quad) for t in layouts["layout1"][1]]
    out = cal.classify_detections(image, dets)
    assert all(abs(sum(p for _, p in d.alternatives[:1]) - d.confidence) < 1e-6 for d in out)


@pytest.mark.parametrize(("drop", "reds", "needle"), [
    ((31,), None, "row 4 (1z-7z) has 6, expected 7"),
    ((), "0m,0p", "expected 37 tiles in 5 rows (9 9 9 7 3), found 38"),
    (tuple(range(9)), None, "found 29 tiles in 4 rows"),
])
def test_layout_mismatch_is_named(home, model, layouts, truth_locator, drop, reds, needle):
    truth_locator("layout1", drop=drop)
    args = [str(layouts["layout1"][0]), "--name", "club", "--model", str(model), "--json"]
    if reds:
        args += ["--reds", reds]
    result = calibrate(*args)
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["errors"][0]["error"]["code"] == "layout_mismatch"
    assert needle in doc["errors"][0]["error"]["message"]
    assert not (home / "tilesets" / "club.json").exists()


def test_bad_inputs(home, model, tmp_path, truth_locator, layouts):
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"not an image")
    truth_locator("layout1")
    result = calibrate(str(broken), str(layouts["layout1"][0]), "--name", "club", "--model",
                       str(model), "--json")
    assert result.exit_code == 1
    doc = json.loads(result.stdout)
    assert doc["errors"][0]["error"]["code"] == "bad_image"
    assert len(doc["added"]) == 1  # the good photo still counts
    result = calibrate(str(layouts["layout1"][0]), "--name", "../x", "--model", str(model))
    assert result.exit_code == 1 and "invalid tile-set name" in result.stderr
    result = calibrate(str(layouts["layout1"][0]), "--name", "club", "--model", str(model),
                       "--reds", "0p")
    assert result.exit_code == 1 and "pass the same --reds or --replace" in result.stderr
    result = calibrate("--name", "club")
    assert result.exit_code == 1 and "give PHOTO" in result.stderr
    from agari.engine.errors import InvalidInput

    from agari.commands.calibrate import with_tileset

    with pytest.raises(InvalidInput, match="no tile-set profile 'other'.*saved: club"):
        with_tileset(object(), "other")


def test_tileset_option_on_the_reading_commands(home, model, layouts, truth_locator, tmp_path):
    truth_locator("layout1")
    assert calibrate(str(layouts["layout1"][0]), "--name", "club", "--model",
                     str(model)).exit_code == 0
    photo = str(layouts["layout2"][0])
    plain, tuned = (runner.invoke(app, ["detect", photo, "--model", str(model), "--json", *more])
                    for more in ([], ["--tileset", "club"]))
    assert plain.exit_code == 0 and tuned.exit_code == 0, tuned.output
    tiles = [json.loads(r.stdout)["tiles"] for r in (plain, tuned)]
    assert tiles[0] and tiles[0] != tiles[1]  # the profile changed the reading
    for args in (["detect", photo, "--model", str(model)], ["photo", photo],
                 ["label", photo, "--out", str(tmp_path / "job"), "--workers", "0"]):
        result = runner.invoke(app, [*args, "--tileset", "nope", "--json"])
        assert result.exit_code == 1, (args, result.output)
        assert json.loads(result.stdout.splitlines()[-1])["error"]["code"] == "no_tileset"
        assert "saved: club" in result.stderr


def test_webcam_stages_read_with_the_tileset(home, model, layouts, truth_locator):
    from agari.engine.errors import InvalidInput

    import agari.webcam as live

    truth_locator("layout1")
    assert calibrate(str(layouts["layout1"][0]), "--name", "club", "--model",
                     str(model)).exit_code == 0
    _, classify = live.default_stages(str(model), tileset="club")
    assert classify.func.__self__.profile.name == "club"
    with pytest.raises(InvalidInput, match="no tile-set profile 'nope'"):
        live.default_stages(str(model), tileset="nope")
