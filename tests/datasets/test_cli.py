"""`agari dataset synth|convert|crops` through the real CLI."""

import json

import pytest
from agari.datasets.formats import read_annotations
from typer.testing import CliRunner

from agari.cli import app

runner = CliRunner()
SMALL = ["--size", "320x240", "--tile-px", "14-60"]


@pytest.fixture(scope="module")
def synth_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("synth")
    result = runner.invoke(app, ["dataset", "synth", "--out", str(out), "--scenes", "3",
                                 "--seed", "5", "--format", "coco", "--json", *SMALL])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["images"] == 3 and summary["tiles"] > 0
    return out


def test_synth_writes_images_and_truth(synth_dir):
    anns = list(read_annotations(synth_dir))
    assert [a.image for a in anns] == [f"synth_0000000{i}.jpg" for i in (5, 6, 7)]
    assert all((synth_dir / "images" / a.image).is_file() for a in anns)
    assert all(t.visible >= 0.25 for a in anns for t in a.tiles)


def test_synth_resume_renders_only_the_rest(synth_dir):
    result = runner.invoke(app, ["dataset", "synth", "--out", str(synth_dir), "--scenes", "4",
                                 "--seed", "5", "--resume", "--json", *SMALL])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert (summary["images"], summary["skipped"]) == (1, 3)
    assert len(list(read_annotations(synth_dir))) == 4


@pytest.mark.parametrize("fmt", ["yolo", "yolo-obb", "labelstudio", "csv"])
def test_convert_to_every_format(synth_dir, tmp_path, fmt):
    result = runner.invoke(app, ["dataset", "convert", str(synth_dir), "--out", str(tmp_path),
                                 "--to", fmt])
    assert result.exit_code == 0, result.output
    source = {a.image: a for a in read_annotations(synth_dir)}
    back = list(read_annotations(tmp_path))
    assert sorted(a.image for a in back) == sorted(source)
    for ann in back:
        assert [t.label for t in ann.tiles] == [t.label for t in source[ann.image].tiles]
        assert (tmp_path / "images" / ann.image).is_file()


def test_crops_are_upright_files_with_a_listing(synth_dir, tmp_path):
    result = runner.invoke(app, ["dataset", "crops", str(synth_dir), "--out", str(tmp_path),
                                 "--size", "32x24", "--min-px", "6", "--json"])
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    files = sorted(tmp_path.glob("*/*.png"))
    assert summary["tiles"] == len(files) > 0
    listing = (tmp_path / "crops.csv").read_text().splitlines()
    assert listing[0].startswith("file,label,image") and len(listing) == len(files) + 1
    import cv2

    assert cv2.imread(str(files[0])).shape == (32, 24, 3)


@pytest.mark.parametrize(
    "args,message",
    [(["synth", "--out", "{tmp}", "--format", "voc"], "unknown format"),
     (["synth", "--out", "{tmp}", "--size", "big"], "--size"),
     (["synth", "--out", "{tmp}", "--kinds", "beach"], "scene kinds"),
     (["convert", "{tmp}/missing", "--out", "{tmp}/o", "--to", "coco"], "no such dataset"),
     (["crops", "{tmp}", "--out", "{tmp}/o"], "no dataset found")],
)
def test_errors_are_one_line(tmp_path, args, message):
    argv = ["dataset", *(a.replace("{tmp}", str(tmp_path)) for a in args), "--json"]
    result = runner.invoke(app, argv)
    assert result.exit_code == 1
    err = json.loads(result.stdout.strip().splitlines()[-1])["error"]
    assert message in err["message"]
    assert "Traceback" not in result.output
