"""Every writer's output read back: what the format can carry must survive."""

import json
from dataclasses import replace

import pytest
from agari.datasets.annotation import ImageAnnotation
from agari.datasets.formats import WRITERS, open_dataset, open_writer, read_annotations
from agari.engine.errors import InvalidInput
from dataset_factories import make_annotation, make_image

FULL = ("coco", "labelstudio", "csv")  # formats that carry every field we have


def write(fmt, root, anns, **kw):
    with open_writer(fmt, root, **kw) as w:
        for ann in anns:
            make_image(w.image_path(ann), ann.width, ann.height)
            w.add(ann)
    return root


def dataset():
    negative = ImageAnnotation("neg/empty.png", 50, 40)
    return [make_annotation("a.png"), negative, make_annotation("b.png", 300, 150)]


@pytest.mark.parametrize("fmt", FULL)
def test_full_formats_round_trip(tmp_path, fmt):
    anns = dataset()
    back = list(read_annotations(write(fmt, tmp_path, anns)))
    if fmt != "csv":  # meta is written as-is; the readers only default it when absent
        assert back[1].meta == (("source", fmt),) or back[1].meta == ()
        back[1] = replace(back[1], meta=())
    assert back == anns


@pytest.mark.parametrize("fmt", ["yolo", "yolo-obb"])
def test_yolo_round_trip(tmp_path, fmt):
    anns = dataset()
    ds = open_dataset(write(fmt, tmp_path, anns))
    back = list(ds.annotations())
    assert [a.image for a in back] == sorted(a.image for a in anns)
    by_name = {a.image: a for a in back}
    for ann in anns:
        got = by_name[ann.image]
        assert (got.width, got.height) == (ann.width, ann.height)
        assert [t.label for t in got.tiles] == [t.label for t in ann.tiles]
        assert [t.face_down for t in got.tiles] == [t.face_down for t in ann.tiles]
        for a, b in zip(ann.tiles, got.tiles, strict=True):
            want = sum(a.quad, ()) if fmt == "yolo-obb" else ann.clipped_box(a)
            have = sum(b.quad, ()) if fmt == "yolo-obb" else b.box
            assert have == pytest.approx(want, abs=0.01)
        assert ds.image_path(got).is_file()


def test_coco_loads_in_pycocotools(tmp_path):
    pycoco = pytest.importorskip("pycocotools.coco")
    write("coco", tmp_path, dataset())
    coco = pycoco.COCO(str(tmp_path / "annotations.json"))
    assert len(coco.getImgIds()) == 3 and len(coco.getAnnIds()) == 10
    ann = coco.loadAnns(coco.getAnnIds(imgIds=[1]))[1]
    assert coco.loadCats(ann["category_id"])[0]["name"] == "0p"
    assert coco.annToMask(ann).sum() == pytest.approx(ann["area"], rel=0.15)


def test_labelstudio_splits_truth_and_predictions(tmp_path):
    write("labelstudio", tmp_path, [make_annotation()])
    (task,) = json.loads((tmp_path / "tasks.json").read_text())
    assert len(task["annotations"][0]["result"]) == 4
    (pred,) = task["predictions"]
    region = pred["result"][0]
    assert region["score"] == 0.75 and region["value"]["polygonlabels"] == ["9s"]
    assert "<PolygonLabels" in (tmp_path / "label_config.xml").read_text()


def test_tiles_outside_or_not_tiles_are_left_out(tmp_path):
    ann = make_annotation()
    far = replace(ann.tiles[0], quad=((500, 500), (520, 500), (520, 530), (500, 530)))
    none = replace(ann.tiles[0], label="none")
    ann = replace(ann, tiles=(ann.tiles[0], far, none))
    for fmt in WRITERS:
        back = list(read_annotations(write(fmt, tmp_path / fmt, [ann])))
        assert len(back[0].tiles) == (3 if fmt == "csv" else 1), fmt


@pytest.mark.parametrize("fmt", WRITERS)
def test_resume_keeps_finished_images(tmp_path, fmt):
    first, second = make_annotation("a.png"), make_annotation("b.png")
    w = open_writer(fmt, tmp_path)
    make_image(w.image_path(first))
    w.add(first)
    if fmt in ("coco", "labelstudio"):
        w._fh.close()  # a killed run: the journal is all that is left
    else:
        w.close()
    w = open_writer(fmt, tmp_path, resume=True)
    assert w.done == {"a.png"}
    with pytest.raises(InvalidInput, match="already written"):
        w.add(first)
    make_image(w.image_path(second))
    w.add(second)
    w.close()
    assert [a.image for a in read_annotations(tmp_path, fmt=fmt)] == ["a.png", "b.png"]


def test_unknown_format(tmp_path):
    with pytest.raises(InvalidInput, match="unknown format"):
        open_writer("voc", tmp_path)
