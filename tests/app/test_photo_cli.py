"""`agari photo` through typer's CliRunner: the JSON contract, human output, --annotate, errors.

Stages 1-2 (locator, classifier) are replaced by ground truth so that these
tests check stages 3-4 and the command: the image is a real file read by the
real decoder, the detections are the renderer's (or a factory's) true tiles,
as a perfect locator and classifier would give them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest
from typer.testing import CliRunner

import agari.pipeline as pipeline
from agari.cli import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "vision"))
from layout_factories import lay_out  # noqa: E402

runner = CliRunner()


class Truth:
    """A perfect locator + classifier: returns the given detections for any image."""

    def __init__(self, dets: list) -> None:
        self.dets = list(dets)

    def locate(self, image: np.ndarray) -> list:
        return list(self.dets)

    def classify_detections(self, image, dets, *, top_k: int = 3) -> list:
        return list(dets)


@pytest.fixture
def stages(monkeypatch):
    """Install truth stages: ``stages(dets)``."""
    def install(dets: list) -> Truth:
        truth = Truth(dets)
        monkeypatch.setattr(pipeline, "default_locator", lambda *_: truth.locate)
        monkeypatch.setattr(pipeline, "default_classifier", lambda: truth)
        return truth
    return install


@pytest.fixture
def photo_file(tmp_path) -> Path:
    path = tmp_path / "hand.png"
    cv2.imwrite(str(path), np.full((700, 1100, 3), 90, np.uint8))
    return path


def photo(*args: str):
    return runner.invoke(app, ["photo", *args])


def doc_of(result) -> dict:
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_json_follows_the_contract_and_agrees_with_agari_score(stages, photo_file) -> None:
    laid = lay_out("123m456p789s1z", "1z", (("pon", "777z", 1),), dora="4p")
    stages(laid.dets)
    result = photo(str(photo_file), "--json", "--tsumo")
    assert result.exit_code == 0, result.output
    doc = doc_of(result)
    for key in ("image", "tiles", "layout", "hand", "score", "error"):
        assert key in doc
    assert doc["error"] is None
    assert doc["layout"] == {"concealed": list("123") and ["1m", "2m", "3m", "4p", "5p", "6p",
                                                            "7s", "8s", "9s", "1z"],
                             "win": "1z", "melds": [{"kind": "pon", "tiles": ["7z", "7z", "7z"],
                                                     "sideways_index": 1, "source": "across"}],
                             "dora": ["4p"], "ura": []}
    assert [t["role"] for t in doc["tiles"]] == [
        "concealed"] * 10 + ["win"] + ["meld 1"] * 3 + ["dora"]
    assert set(doc["tiles"][0]) >= {"tile", "confidence", "quad", "box", "sideways"}
    same = runner.invoke(app, ["score", doc["hand"], "--tsumo", "--dora", "4p", "--json"])
    assert doc_of(same) == doc["score"]


def test_human_output_shows_layout_and_score(stages, photo_file) -> None:
    stages(lay_out("123m456p789s1122z", "2z").dets)
    result = photo(str(photo_file), "--riichi")
    assert result.exit_code == 0, result.output
    assert "123m456p789s1122z2z" in result.stdout
    assert "Riichi" in result.stdout or "riichi" in result.stdout


def test_annotate_writes_the_picture(stages, photo_file, tmp_path) -> None:
    stages(lay_out("123m456p789s1122z", "2z").dets)
    out = tmp_path / "out.png"
    result = photo(str(photo_file), "--riichi", "--annotate", str(out))
    assert result.exit_code == 0, result.output
    drawn = cv2.imread(str(out))
    assert drawn.shape == (700, 1100, 3)
    assert (drawn != 90).any()  # quads and names were drawn


def test_win_and_indicators_can_be_overridden(stages, photo_file) -> None:
    stages(lay_out("123m456p789s1122z", "2z", dora="4p").dets)
    doc = doc_of(photo(str(photo_file), "--riichi", "--json", "--win", "1z", "--dora", ""))
    assert doc["layout"]["win"] == "1z" and doc["layout"]["dora"] == []
    assert doc["score"]["win"] == "1z"


def test_unknown_winning_tile_scores_each_candidate(stages, photo_file) -> None:
    stages(lay_out("123m456p789s11222z").dets)
    doc = doc_of(photo(str(photo_file), "--json", "--tsumo"))
    wins = {c["tile"] for c in doc["win_candidates"]}
    assert wins == {"1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z"}
    best = max(c["score"]["points"] for c in doc["win_candidates"] if c["score"])
    assert doc["score"]["points"] == best
    assert doc["hand"].split()[0].endswith(doc["score"]["win"])


def test_a_waiting_hand_lists_each_wait(stages, photo_file) -> None:
    stages(lay_out("123m456p789s1122z").dets)
    result = photo(str(photo_file), "--json", "--riichi")
    assert result.exit_code == 0, result.output
    doc = doc_of(result)
    assert doc["score"] is None
    assert {w["tile"] for w in doc["waits"]} == {"1z", "2z"}
    assert all(w["score"]["han"] >= 1 for w in doc["waits"])


def test_no_yaku_reports_the_reading_and_fails(stages, photo_file) -> None:
    stages(lay_out("123m456p789s1z", "1z", (("chi", "234s", 0),)).dets)
    result = photo(str(photo_file), "--json")
    assert result.exit_code == 1
    doc = doc_of(result)
    assert doc["error"]["code"] == "no_yaku" and doc["layout"] is not None
    assert result.stderr.count("\n") == 1


@pytest.mark.parametrize("make, code", [
    (lambda p: None, "bad_image"),                       # missing file
    (lambda p: p.write_bytes(b""), "bad_image"),         # empty file
    (lambda p: p.write_text("not an image"), "bad_image"),
])
def test_bad_images_are_one_line_errors(tmp_path, make, code, stages) -> None:
    stages([])
    path = tmp_path / "x.jpg"
    make(path)
    for args in ((), ("--json",)):
        result = photo(str(path), *args)
        assert result.exit_code == 1
        assert result.stderr.startswith("agari: error:") and result.stderr.count("\n") == 1
        if args:
            assert doc_of(result)["error"]["code"] == code


def test_no_tiles_is_an_error(stages, photo_file) -> None:
    stages([])
    result = photo(str(photo_file), "--json")
    assert result.exit_code == 1
    assert doc_of(result) == {
        "error": {"code": "no_tiles", "message": "no tiles found in the image"}}


def test_bad_option_is_an_error(stages, photo_file) -> None:
    stages(lay_out("123m456p789s1122z", "2z").dets)
    result = photo(str(photo_file), "--seat", "X", "--json")
    assert result.exit_code == 1
    assert doc_of(result)["error"]["code"] == "invalid_input"


SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "hand.jpg"


def test_the_shipped_sample_reads_as_its_ground_truth(stages) -> None:
    from agari.datasets.annotation import image_from_dict

    ann = image_from_dict(json.loads(SAMPLE.with_suffix(".json").read_text()))
    stages([t.to_detection() for t in ann.tiles if t.visible >= 0.5])
    doc = doc_of(photo(str(SAMPLE), "--json"))
    assert doc["hand"] == ann.hand and doc["layout"]["win"] == ann.win
    assert doc["layout"]["dora"] == ["3p"]
    assert (doc["width"], doc["height"]) == (1280, 960)
    assert doc["score"]["points"] == 2000


def test_the_readme_sample_reads_end_to_end() -> None:
    # The README's first command, with the real locator and the shipped model.
    from agari.datasets.annotation import image_from_dict

    ann = image_from_dict(json.loads(SAMPLE.with_suffix(".json").read_text()))
    doc = doc_of(photo(str(SAMPLE), "--json"))
    assert doc["hand"] == ann.hand and doc["layout"]["dora"] == ["3p"]
    assert doc["score"]["points"] == 2000 and doc["error"] is None


def test_annotate_to_a_bad_format_is_an_error(stages, photo_file, tmp_path) -> None:
    stages(lay_out("123m456p789s1122z", "2z").dets)
    result = photo(str(photo_file), "--riichi", "--annotate", str(tmp_path / "out.xyz"))
    assert result.exit_code == 1
    assert result.stderr.startswith("agari: error: cannot write")


def test_doubtful_tiles_and_scored_alternatives_are_reported(stages, photo_file) -> None:
    from layout_factories import with_alternatives

    dets = list(lay_out("123m456p789s1122z", "2z").dets)
    dets[4] = with_alternatives(dets[4], [("5p", 0.55), ("0p", 0.45)])
    stages(dets)
    doc = doc_of(photo(str(photo_file), "--json", "--riichi"))
    (doubt,) = doc["reading"]["doubts"]
    assert doubt["tile_index"] == 4 and doubt["read"] == "5p"
    (alt,) = doc["reading"]["alternatives"]
    assert alt["hand"] == "123m406p789s1122z2z"
    assert alt["score"]["han"] == doc["score"]["han"] + 1  # the red five's dora
    human = photo(str(photo_file), "--riichi").stdout
    assert "could be 0p" in human


def test_photo_takes_every_situation_option_of_score() -> None:
    import inspect

    from agari.commands import photo as photo_command
    from agari.commands import score as score_command

    shared = set(inspect.signature(score_command.score).parameters) - {
        "hand", "json_", "batch", "jobs"}
    assert shared <= set(inspect.signature(photo_command.photo).parameters)


def test_a_grey_photo_says_red_fives_cannot_be_told(stages, photo_file, tmp_path) -> None:
    stages(lay_out("123m456p789s1122z", "2z").dets)
    grey = doc_of(photo(str(photo_file), "--json"))  # the fixture photo is one grey level
    assert pipeline.COLOURLESS_NOTE in grey["notes"]
    coloured = tmp_path / "coloured.png"
    image = np.full((700, 1100, 3), 90, np.uint8)
    image[..., 2] = 120  # a warm cast, as any colour photo has
    cv2.imwrite(str(coloured), image)
    assert pipeline.COLOURLESS_NOTE not in doc_of(photo(str(coloured), "--json"))["notes"]


def test_once_reads_a_photo_that_made_no_hand_only_once(stages, photo_file, monkeypatch) -> None:
    truth = stages(lay_out("123m456p789s1z", "1z").dets)  # 11 tiles: no hand
    located = []

    def counted(*_):
        located.append(1)
        return truth.locate

    monkeypatch.setattr(pipeline, "default_locator", counted)
    assert photo(str(photo_file), "--json").exit_code == 1
    assert len(located) > 1  # read again at other scales
    located.clear()
    result = photo(str(photo_file), "--once", "--json")
    assert result.exit_code == 1 and doc_of(result)["error"]["code"] == "invalid_hand"
    assert len(located) == 1
