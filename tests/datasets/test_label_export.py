"""Journal → annotation files, and the review sheet: stable bytes, filters, every format."""

import base64
import json
import random
import re

import cv2
import numpy as np
import pytest
from agari.datasets.annotation import box_quad
from agari.datasets.formats import read_annotations
from agari.datasets.label_export import export, record_annotation
from agari.datasets.label_journal import Journal
from agari.datasets.label_review import CROP_SIZE, lowest_confidence, write_review
from agari.engine.errors import InvalidInput
from agari.engine.tiles import BACK, Tile
from agari.vision.detection import TileDetection
from label_factories import output_files

ALL_FORMATS = ("coco", "yolo", "labelstudio", "csv")


def tile(x, label, conf, *, y=10.0, sideways=False):
    """A classified detection as the journal stores it (``label`` None = the ``none`` class)."""
    lab = None if label is None else BACK if label == BACK else Tile.parse(label)
    w, h = (28.0, 20.0) if sideways else (20.0, 28.0)
    top = [(label or "none", conf), ("1m", round((1 - conf) * 0.6, 4)),
           ("9p", round((1 - conf) * 0.3, 4))]
    return TileDetection(quad=box_quad(x, y, w, h), sideways=sideways, face_down=label == BACK,
                         label=lab, confidence=conf, alternatives=tuple(top)).to_json()


def record(*tiles, width=200, height=100):
    return {"width": width, "height": height, "tiles": list(tiles)}


RECORDS = {
    "b/2.jpg": record(tile(10, "5m", 0.99), tile(40, "0p", 0.42), tile(70, None, 0.9)),
    "a.jpg": record(tile(10, BACK, 0.97), tile(40, "7z", 0.61, sideways=True)),
    "c.jpg": record(),
    "b/10.jpg": record(tile(100, "9s", 0.25, y=50)),
}


def make_sources(folder):
    """A real image file for every record (for links, copies and review crops)."""
    rng = np.random.default_rng(0)
    for name, rec in RECORDS.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(path), rng.integers(0, 255, (rec["height"], rec["width"], 3), np.uint8))
    return folder


def journal_with(folder, names, sources):
    journal = Journal.open(folder, resume=False)
    for name in names:
        journal.commit(name, str(sources / name), {"record": RECORDS[name]})
    journal.commit("broken.jpg", str(sources / "broken.jpg"),
                   {"error": {"code": "bad_image", "message": "broken.jpg: not an image"}})
    return journal


@pytest.fixture
def sources(tmp_path):
    return make_sources(tmp_path / "src")


def test_files_do_not_depend_on_the_order_images_finished(tmp_path, sources):
    outputs = []
    for run, seed in enumerate((1, 2)):
        names = list(RECORDS)
        random.Random(seed).shuffle(names)
        out = tmp_path / f"out{run}"
        journal = journal_with(out, names, sources)
        export(list(journal.entries()), out, ("coco", "labelstudio", "csv"))
        export(list(journal.entries()), out, ("yolo",))
        outputs.append(output_files(out))
    assert outputs[0] == outputs[1]
    assert {"annotations.json", "tasks.json", "annotations.csv", "data.yaml",
            "labels/b/2.txt", "images/a.jpg"} <= set(outputs[0])


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_every_format_reads_back_as_the_kept_tiles_in_name_order(tmp_path, sources, fmt):
    journal = journal_with(tmp_path / "out", list(RECORDS), sources)
    result = export(list(journal.entries()), tmp_path / "out", (fmt,), min_confidence=0.4)
    anns = list(read_annotations(tmp_path / "out", fmt=fmt,
                                 names="agari" if fmt == "yolo" else None))
    assert [a.image for a in anns] == ["a.jpg", "b/10.jpg", "b/2.jpg", "c.jpg"]
    labels = {a.image: [t.label for t in a.tiles] for a in anns}
    # "none" never written; 9s (0.25) below the cut; the back is kept as class back.
    assert labels == {"a.jpg": [BACK, "7z"], "b/10.jpg": [], "b/2.jpg": ["5m", "0p"],
                      "c.jpg": []}
    assert (result.images, result.tiles) == (4, 4)
    if fmt != "yolo":  # YOLO stores no confidence
        scores = [t.score for a in anns for t in a.tiles]
        assert scores == pytest.approx([0.97, 0.61, 0.99, 0.42])


def test_coco_output_loads_in_pycocotools_as_scored_predictions(tmp_path, sources):
    coco_mod = pytest.importorskip("pycocotools.coco")
    journal = journal_with(tmp_path / "out", list(RECORDS), sources)
    export(list(journal.entries()), tmp_path / "out", ("coco",))
    gt = coco_mod.COCO(str(tmp_path / "out" / "annotations.json"))
    assert len(gt.getImgIds()) == 4 and len(gt.getAnnIds()) == 5
    doc = json.loads((tmp_path / "out" / "annotations.json").read_text())
    results = gt.loadRes(doc["annotations"])  # the form COCOeval scores
    assert sorted(a["score"] for a in results.dataset["annotations"]) == pytest.approx(
        [0.25, 0.42, 0.61, 0.97, 0.99])


def test_label_studio_gets_predictions_for_review_not_annotations(tmp_path, sources):
    journal = journal_with(tmp_path / "out", list(RECORDS), sources)
    export(list(journal.entries()), tmp_path / "out", ("labelstudio",))
    tasks = json.loads((tmp_path / "out" / "tasks.json").read_text())
    task = next(t for t in tasks if t["data"]["agari"]["image"] == "b/2.jpg")
    assert task["annotations"] == [] and task["data"]["image"] == "images/b/2.jpg"
    regions = task["predictions"][0]["result"]
    assert [(r["value"]["polygonlabels"], r["score"]) for r in regions] == [
        (["5m"], 0.99), (["0p"], 0.42)]


def test_a_new_export_replaces_the_last_and_leaves_no_staging(tmp_path, sources):
    out = tmp_path / "out"
    journal = journal_with(out, list(RECORDS), sources)
    export(list(journal.entries()), out, ("yolo", "csv"))
    export(list(journal.entries()), out, ("yolo", "csv"), min_confidence=0.98)
    assert (out / "labels" / "a.txt").read_text() == ""
    assert (out / "labels" / "b" / "2.txt").read_text().count("\n") == 1
    assert sorted(p.name for p in out.iterdir() if p.name.startswith(".agari-label-st")) == []
    assert not list(out.glob(".labels.old"))


def test_images_are_linked_copied_or_left_alone(tmp_path, sources):
    for mode in ("link", "copy", "none"):
        out = tmp_path / mode
        journal = journal_with(out, ["b/2.jpg"], sources)
        export(list(journal.entries()), out, ("coco",), images=mode)
        placed = out / "images" / "b" / "2.jpg"
        if mode == "none":
            assert not placed.exists()
            continue
        assert placed.read_bytes() == (sources / "b" / "2.jpg").read_bytes()
        same_inode = placed.stat().st_ino == (sources / "b" / "2.jpg").stat().st_ino
        assert same_inode == (mode == "link")


@pytest.mark.parametrize(("formats", "message"), [
    (("yolo", "yolo-obb"), "both write labels"),
    (("pascal",), "unknown format 'pascal'"),
    ((), "no output format"),
])
def test_bad_format_choices_are_refused(tmp_path, formats, message):
    with pytest.raises(InvalidInput, match=message):
        export([], tmp_path, formats)


def test_record_annotation_carries_sideways_and_face_down():
    ann = record_annotation("a.jpg", RECORDS["a.jpg"])
    assert [(t.label, t.face_down, t.sideways) for t in ann.tiles] == [
        (BACK, True, False), ("7z", False, True)]


# -- review sheet ---------------------------------------------------------------------
def test_review_picks_the_least_certain_written_tiles(tmp_path, sources):
    journal = journal_with(tmp_path / "out", list(RECORDS), sources)
    picked = lowest_confidence(journal.entries(), count=3)
    assert [(t.name, t.detection.label_name, t.detection.confidence) for t in picked] == [
        ("b/10.jpg", "9s", 0.25), ("b/2.jpg", "0p", 0.42), ("a.jpg", "7z", 0.61)]
    kept = lowest_confidence(journal.entries(), count=3, min_confidence=0.5)
    assert [t.detection.confidence for t in kept] == [0.61, 0.97, 0.99]


def test_review_sheet_is_self_contained_html_with_crops(tmp_path, sources):
    journal = journal_with(tmp_path / "out", list(RECORDS), sources)
    sheet = tmp_path / "review.html"
    assert write_review(list(journal.entries()), sheet, count=3) == 3
    text = sheet.read_text()
    assert not re.search(r"""(src|href)=["'](?!data:)""", text)  # nothing fetched from outside
    uris = re.findall(r'src="data:image/jpeg;base64,([^"]+)"', text)
    assert len(uris) == 3
    crop = cv2.imdecode(np.frombuffer(base64.b64decode(uris[0]), np.uint8), cv2.IMREAD_COLOR)
    assert crop.shape[:2] == CROP_SIZE
    assert text.index("b/10.jpg") < text.index("b/2.jpg") < text.index("a.jpg")
    assert "1m 45% · 9p" in text  # 9s's runner-ups: (1 - 0.25) * 0.6, then 9p
    assert "3 tiles from 4 labelled images" in text


def test_review_names_are_escaped_and_missing_images_shown(tmp_path, sources):
    journal = Journal.open(tmp_path / "out", resume=False)
    journal.commit("<b>.jpg", str(tmp_path / "gone.jpg"), {"record": RECORDS["b/10.jpg"]})
    sheet = tmp_path / "review.html"
    write_review(list(journal.entries()), sheet)
    text = sheet.read_text()
    assert "&lt;b&gt;.jpg" in text and "<b>.jpg" not in text
    assert "image unavailable" in text
