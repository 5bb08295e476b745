"""`run_label`: whole jobs on rendered photos mixed with broken files, stopped, crashed, resumed.

Every run here goes through the real locator and onnxruntime (a toy model, so
the files are small and the classes predictable); pool runs use real spawned
processes, and the crash tests kill real worker processes.
"""

import multiprocessing
import os
import signal

import pytest
from agari.datasets.label import ImageFinished, JobStarted, LabelOptions, run_label
from agari.datasets.label_inputs import expand_inputs
from agari.datasets.label_runners import run_pool
from agari.datasets.label_worker import WorkerConfig, label_source
from agari.engine.errors import InvalidInput, ModelError
from label_factories import add_bad_files, output_files, render_photos, write_toy_model

FORMATS = ("coco", "yolo", "labelstudio", "csv")
PHOTOS = 8


@pytest.fixture(scope="module")
def photos(tmp_path_factory):
    root = tmp_path_factory.mktemp("photos")
    good = render_photos(root, PHOTOS // 2, sub="day1")
    render_photos(root, PHOTOS // 2, start=PHOTOS // 2, sub="day2")
    bad = add_bad_files(root, good[0])
    return root, bad


@pytest.fixture(scope="module")
def model(tmp_path_factory):
    return write_toy_model(tmp_path_factory.mktemp("model") / "toy.onnx")


def options(photos, model, out, **kw):
    kw.setdefault("workers", 0)
    kw.setdefault("inputs", (str(photos[0]),))
    return LabelOptions(out=out, formats=FORMATS, model=model, **kw)


@pytest.fixture(scope="module")
def reference(photos, model, tmp_path_factory):
    """An uninterrupted run in this process: what every other run must reproduce."""
    out = tmp_path_factory.mktemp("reference")
    summary = run_label(options(photos, model, out))
    return summary, output_files(out)


def test_a_job_labels_good_photos_and_reports_bad_files(photos, reference):
    summary, files = reference
    assert (summary.total, summary.done, summary.labelled) == (PHOTOS + 5, PHOTOS, PHOTOS)
    assert {n: c for n, c, _ in summary.failed} == photos[1]
    assert [os.path.basename(p) for p in summary.not_images] == ["notes.txt"]
    assert summary.tiles > 0 and not summary.interrupted
    assert "labels/day1/scene_00.txt" in files and "images/day2/scene_07.jpg" in files
    assert "cut.jpg" not in files["annotations.json"].decode()


def test_two_worker_processes_write_the_same_files(photos, model, reference, tmp_path):
    summary = run_label(options(photos, model, tmp_path, workers=2))
    assert summary.done == PHOTOS and len(summary.failed) == 5
    assert output_files(tmp_path) == reference[1]


def stop_after(count, events):
    def on_event(event):
        events.append(event)
        if sum(isinstance(e, ImageFinished) for e in events) == count:
            raise KeyboardInterrupt
    return on_event


def test_ctrl_c_keeps_finished_images_and_resume_completes_the_job(photos, model, reference,
                                                                   tmp_path):
    events = []
    first = run_label(options(photos, model, tmp_path, workers=1),
                      on_event=stop_after(4, events))
    assert first.interrupted and first.done + len(first.failed) == 4
    assert first.labelled == first.done  # the outputs already hold what was finished
    assert isinstance(events[0], JobStarted) and events[0].todo == PHOTOS + 5
    second = run_label(options(photos, model, tmp_path, workers=1, resume=True, inputs=()))
    assert second.resumed == first.done and second.done == PHOTOS - first.done
    assert not second.interrupted
    assert output_files(tmp_path) == reference[1]


def kill_a_worker_once(events):
    def on_event(event):
        events.append(event)
        if sum(isinstance(e, ImageFinished) for e in events) == 2:
            worker = multiprocessing.active_children()[0]
            os.kill(worker.pid, signal.SIGKILL)
    return on_event


def test_a_killed_worker_loses_no_image(photos, model, reference, tmp_path):
    events = []
    summary = run_label(options(photos, model, tmp_path, workers=2),
                        on_event=kill_a_worker_once(events))
    assert summary.done == PHOTOS
    assert {c for _, c, _ in summary.failed} == {"truncated_image", "bad_image"}
    assert output_files(tmp_path) == reference[1]


def die_on_poison(source, name, config):
    """A unit of work whose process dies (no exception, no cleanup) on one image."""
    if name.endswith("scene_01.jpg"):
        os._exit(3)
    return label_source(source, name, config)


def test_only_the_image_that_kills_its_worker_fails(photos, model):
    images = expand_inputs([str(photos[0] / "day1")]).images
    config = WorkerConfig(model=str(model))
    results = dict(run_pool(images, config, workers=2, work=die_on_poison))
    outcomes = {task.name: outcome for task, outcome in results.items()}
    assert outcomes["scene_01.jpg"]["error"]["code"] == "worker_crashed"
    assert all("record" in outcomes[n] for n in ("scene_00.jpg", "scene_02.jpg", "scene_03.jpg"))


def die_once(source, name, config):
    """A unit of work whose process is killed from outside the first time it runs (the
    marker file says whether it ran before: each try is a fresh process)."""
    marker = os.environ["AGARI_TEST_DIED_ONCE"]
    if not os.path.exists(marker):
        open(marker, "w").close()
        os._exit(9)
    return label_source(source, name, config)


def test_an_image_alone_when_its_worker_is_killed_gets_one_more_try(photos, model, tmp_path,
                                                                     monkeypatch):
    monkeypatch.setenv("AGARI_TEST_DIED_ONCE", str(tmp_path / "died"))
    images = expand_inputs([str(photos[0] / "day1")]).images[:1]
    results = list(run_pool(images, WorkerConfig(model=str(model)), workers=1, work=die_once))
    assert (tmp_path / "died").exists()
    assert [task.name for task, _ in results] == [images[0].name]
    assert "record" in results[0][1]


def test_review_sheet_and_confidence_cut(photos, model, reference, tmp_path):
    sheet = tmp_path / "sheet.html"
    summary = run_label(options(photos, model, tmp_path / "out", min_confidence=0.4,
                                review=sheet, review_count=5))
    assert summary.review_tiles == 5 and sheet.read_text().count("<figure>") == 5
    assert 0 < summary.tiles < reference[0].tiles


@pytest.mark.parametrize(("change", "code"), [
    ("other model", "journal_mismatch"),
    ("other inputs", "journal_mismatch"),
    ("other top-k", "journal_mismatch"),
    ("no --resume", "journal_exists"),
])
def test_a_resume_must_be_the_same_job(photos, model, tmp_path, change, code):
    day1 = (str(photos[0] / "day1"),)
    run_label(options(photos, model, tmp_path / "out", inputs=day1))
    kw = {"resume": True, "model": model, "inputs": day1}
    if change == "other model":
        kw["model"] = write_toy_model(tmp_path / "other.onnx", input_size=(40, 30))
    elif change == "other inputs":
        kw["inputs"] = (str(photos[0] / "day2"),)
    elif change == "other top-k":
        kw["top_k"] = 5
    else:
        kw["resume"] = False
    with pytest.raises(InvalidInput) as err:
        run_label(options(photos, out=tmp_path / "out", **kw))
    assert err.value.code == code


def test_a_missing_model_stops_before_anything_is_written(photos, tmp_path):
    with pytest.raises(ModelError, match="not found"):
        run_label(options(photos, tmp_path / "none.onnx", tmp_path / "out"))
    assert not (tmp_path / "out").exists()


def test_the_same_job_on_a_dask_local_cluster_writes_the_same_files(photos, model, reference,
                                                                     tmp_path):
    pytest.importorskip("distributed")
    summary = run_label(options(photos, model, tmp_path, cluster="local", workers=1))
    assert summary.done == PHOTOS and len(summary.failed) == 5
    assert output_files(tmp_path) == reference[1]
