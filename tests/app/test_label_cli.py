"""`agari label`: the command's options, reports and errors, and a real kill -9 then --resume."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from agari.cli import app

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "datasets"))
from label_factories import (  # noqa: E402 - the label tests' shared factories
    add_bad_files,
    output_files,
    render_photos,
    write_toy_model,
)

runner = CliRunner()
KILL_AFTER = 3
"""Images finished before the run is killed (of `KILL_PHOTOS`)."""
KILL_PHOTOS = 10


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    root = tmp_path_factory.mktemp("photos")
    good = render_photos(root, 4)
    add_bad_files(root, good[0])
    return root


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return write_toy_model(tmp_path_factory.mktemp("model") / "toy.onnx")


def label(*args):
    return runner.invoke(app, ["label", *map(str, args)])


def test_label_writes_the_formats_and_summarises_as_json(photos, model, tmp_path):
    result = label(photos, "--out", tmp_path, "-f", "coco", "-f", "yolo-obb", "--model", model,
                   "--workers", "0", "--json", "--review", tmp_path / "r.html")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert (summary["done"], summary["skipped"], len(summary["failed"])) == (4, 1, 5)
    assert summary["not_images"][0].endswith("notes.txt")
    assert {Path(p).name for p in summary["outputs"]} == {"annotations.json", "data.yaml",
                                                            "labels"}
    assert summary["review_tiles"] == min(200, summary["tiles"]) > 0
    assert "agari: skipped cut.jpg: truncated JPEG" in result.stderr
    obb = (tmp_path / "labels" / "scene_00.txt").read_text().splitlines()
    assert obb and all(len(line.split()) == 9 for line in obb)


def test_the_human_summary_names_done_skipped_and_failed(photos, model, tmp_path):
    result = label(photos, "--out", tmp_path, "--model", model, "--workers", "0")
    assert result.exit_code == 0, result.output
    assert "done 4, skipped 1 (0 done before, 1 not image files), failed 5." in result.stdout
    assert "4 images" in result.stdout and "annotations.json" in result.stdout
    again = label("--out", tmp_path, "--model", model, "--workers", "0", "--resume")
    assert again.exit_code == 0 and "done 0, skipped 5 (4 done before" in again.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--out", "{out}"], "no inputs"),
    (["{photos}", "--out", "{out}", "-f", "voc"], "unknown format 'voc'"),
    (["{photos}", "--out", "{out}", "-f", "yolo", "-f", "yolo-obb"], "both write labels/"),
    (["{photos}", "--out", "{out}", "--min-confidence", "1.5"], "--min-confidence"),
    (["{photos}", "--out", "{out}", "--workers", "-1"], "--workers"),
    (["{photos}", "--out", "{out}", "--images", "move"], "--images"),
    (["{photos}/nope", "--out", "{out}"], "no such file or folder"),
    (["{photos}", "--out", "{out}", "--model", "{out}/none.onnx"], "model not found"),
    (["{photos}", "--out", "{out}", "--cluster", "udp://x", "--model", "{model}"],
     "--cluster must be"),
])
def test_bad_invocations_are_one_line_errors(photos, model, tmp_path, args, message):
    args = [a.format(out=tmp_path / "out", photos=photos, model=model) for a in args]
    result = label(*args)
    assert result.exit_code == 1
    assert result.stderr.startswith("agari: error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


def test_json_errors_carry_a_code(photos, tmp_path):
    result = label(photos, "--out", tmp_path, "--model", tmp_path / "x.onnx", "--json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)["error"]["code"] == "model_error"


def test_a_second_run_into_the_same_folder_needs_resume(photos, model, tmp_path):
    assert label(photos, "--out", tmp_path, "--model", model, "--workers", "0").exit_code == 0
    result = label(photos, "--out", tmp_path, "--model", model, "--workers", "0")
    assert result.exit_code == 1 and "pass --resume" in result.stderr


# -- a real process, killed --------------------------------------------------------------
def agari_label(*args, **popen):
    return subprocess.Popen([sys.executable, "-m", "agari.cli", "label", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, **popen)


def done_in_journal(out):
    """Images the job has committed, read as another process would (read-only: a plain
    connect would create the file and make the job think a run was there before)."""
    path = out / ".agari-label.sqlite"
    if not path.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5) as db:
            return db.execute("SELECT COUNT(*) FROM images WHERE status = 'done'").fetchone()[0]
    except sqlite3.OperationalError:  # created but its tables not yet
        return 0


def wait_for_done(out, count, proc, timeout=60.0):
    end = time.monotonic() + timeout
    while done_in_journal(out) < count:
        assert proc.poll() is None, proc.stderr.read().decode()
        assert time.monotonic() < end, "the job made no progress"
        time.sleep(0.02)


@pytest.fixture(scope="module")
def many_photos(tmp_path_factory):
    root = tmp_path_factory.mktemp("many")
    good = render_photos(root, KILL_PHOTOS)
    add_bad_files(root, good[0])
    return root


def test_kill_9_then_resume_writes_the_same_files(many_photos, model, tmp_path):
    job = ["-f", "coco", "-f", "yolo", "-f", "labelstudio", "-f", "csv", "--model", model,
           "--workers", "1"]
    whole = agari_label(many_photos, "--out", tmp_path / "whole", *job)
    assert whole.wait(timeout=120) == 0, whole.stderr.read().decode()

    killed = agari_label(many_photos, "--out", tmp_path / "killed", *job,
                         start_new_session=True)
    wait_for_done(tmp_path / "killed", KILL_AFTER, killed)
    os.killpg(killed.pid, signal.SIGKILL)  # the job and its workers, no chance to clean up
    killed.wait(timeout=30)
    saved = done_in_journal(tmp_path / "killed")
    assert KILL_AFTER <= saved < KILL_PHOTOS, "killed mid-run, finished images kept"

    resumed = agari_label("--out", tmp_path / "killed", *job, "--resume", "--json")
    stdout, stderr = resumed.communicate(timeout=120)
    assert resumed.returncode == 0, stderr.decode()
    summary = json.loads(stdout)
    assert (summary["resumed"], summary["done"]) == (saved, KILL_PHOTOS - saved)
    assert output_files(tmp_path / "killed") == output_files(tmp_path / "whole")


def test_sigterm_stops_saves_and_exits_130(many_photos, model, tmp_path):
    proc = agari_label(many_photos, "--out", tmp_path, "--model", model, "--workers", "1",
                       "--json")
    wait_for_done(tmp_path, 2, proc)
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr.decode()
    summary = json.loads(stdout)
    assert summary["interrupted"] and summary["labelled"] == done_in_journal(tmp_path) >= 2
    coco = json.loads((tmp_path / "annotations.json").read_text())
    assert len(coco["images"]) == summary["labelled"]
    assert "--resume" in stderr.decode()


def test_the_shipped_model_labels_photos(photos, tmp_path):
    from agari.models.classifier import default_model_path

    if not default_model_path().is_file():
        pytest.skip("no classifier model is committed yet (models/tile_classifier.onnx)")
    result = label(photos, "--out", tmp_path, "--workers", "0", "--json")
    assert result.exit_code == 0, result.output
    coco = json.loads((tmp_path / "annotations.json").read_text())
    names = {c["id"]: c["name"] for c in coco["categories"]}
    assert coco["annotations"] and all(names[a["category_id"]] for a in coco["annotations"])
