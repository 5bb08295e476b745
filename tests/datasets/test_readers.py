"""Readers of foreign files: YOLO (boxes, OBB, polygons) and COCO, and the real riichi-tray set."""

import json
from collections import Counter

import pytest
from agari.datasets.formats import detect_format, open_dataset, read_annotations
from agari.engine.errors import InvalidInput
from dataset_factories import make_image


def yolo_dir(tmp_path, lines, names="names: ['1man', 'chun', 'back']\n"):
    make_image(tmp_path / "images" / "sub" / "a.jpg", 100, 50)
    (tmp_path / "labels" / "sub").mkdir(parents=True)
    (tmp_path / "labels" / "sub" / "a.txt").write_text("\n".join(lines) + "\n")
    if names:
        (tmp_path / "data.yaml").write_text("path: .\n" + names)
    return tmp_path


def test_yolo_box_obb_and_polygon(tmp_path):
    root = yolo_dir(tmp_path, [
        "0 0.5 0.5 0.2 0.4",                                  # box 20x20 at (40, 15)
        "1 0.1 0.2 0.3 0.2 0.3 0.6 0.1 0.6",                  # OBB, kept in order
        "2 0.6 0.2 0.9 0.2 0.9 0.4 0.6 0.4 0.6 0.2",          # closed polygon
    ])
    assert detect_format(root) == "yolo"
    (ann,) = read_annotations(root)
    assert (ann.image, ann.width, ann.height) == ("sub/a.jpg", 100, 50)
    box, obb, poly = ann.tiles
    assert box.label == "1m" and box.quad == ((40, 15), (60, 15), (60, 35), (40, 35))
    assert obb.label == "7z" and obb.quad[0] == pytest.approx((10, 10)) and not obb.sideways
    assert poly.label == "back" and poly.face_down and poly.sideways
    assert poly.quad[0] == pytest.approx((60, 10)) and poly.quad[2] == pytest.approx((90, 20))


@pytest.mark.parametrize(
    "names",
    ["names:\n  - 1man\n  - chun\n  - back\n", "names:\n  0: 1man\n  1: chun\n  2: back\n"],
)
def test_yolo_block_names(tmp_path, names):
    (ann,) = read_annotations(yolo_dir(tmp_path, ["1 0.5 0.5 0.1 0.1"], names))
    assert ann.tiles[0].label == "7z"


@pytest.mark.parametrize(
    "lines,names,error",
    [
        (["0 0.5 0.5 0.1"], "names: [1m]\n", "expected a box"),
        (["5 0.5 0.5 0.1 0.1"], "names: [1m]\n", "outside"),
        (["x 0.5 0.5 0.1 0.1"], "names: [1m]\n", "not a YOLO line"),
        (["0 0.5 0.5 0.1 0.1"], "names: [dragon]\n", "unknown tile class"),
        (["0 0.5 0.5 0.1 0.1"], None, "no class list"),
    ],
)
def test_yolo_errors(tmp_path, lines, names, error):
    with pytest.raises(InvalidInput, match=error):
        list(read_annotations(yolo_dir(tmp_path, lines, names), fmt="yolo"))


def test_coco_foreign_file(tmp_path):
    doc = {
        "images": [{"id": 7, "file_name": "p.jpg", "width": 100, "height": 80},
                   {"id": 8, "file_name": "empty.jpg", "width": 10, "height": 10}],
        "categories": [{"id": 3, "name": "5pin-dora"}, {"id": 4, "name": "east"}],
        "annotations": [
            {"id": 1, "image_id": 7, "category_id": 3, "bbox": [1, 2, 10, 20]},
            {"id": 2, "image_id": 7, "category_id": 4, "bbox": [0, 0, 1, 1],
             "segmentation": [[50, 10, 80, 10, 80, 30, 65, 31, 50, 30]], "score": 0.5},
        ],
    }
    path = tmp_path / "instances.json"
    path.write_text(json.dumps(doc))
    assert detect_format(path) == "coco"
    first, second = read_annotations(path)
    a, b = first.tiles
    assert a.label == "0p" and a.quad == ((1, 2), (11, 2), (11, 22), (1, 22)) and a.score is None
    assert b.label == "1z" and b.sideways and b.score == 0.5
    assert b.quad[0] == pytest.approx((50, 10)) and b.quad[2] == pytest.approx((80, 31))
    assert second.tiles == ()


@pytest.mark.parametrize(
    "text,error",
    [("{", "not JSON"), ('{"images": []}', "not a COCO"),
     ('{"images": [{"id": 1, "file_name": "a", "width": 5, "height": 5}], '
      '"categories": [{"id": 1, "name": "1m"}], '
      '"annotations": [{"id": 1, "image_id": 1, "category_id": 9, "bbox": [0, 0, 1, 1]}]}',
      "unknown category")],
)
def test_coco_errors(tmp_path, text, error):
    path = tmp_path / "x.json"
    path.write_text(text)
    with pytest.raises(InvalidInput, match=error):
        list(read_annotations(path, fmt="coco"))


def test_missing_dataset(tmp_path):
    with pytest.raises(InvalidInput, match="no dataset"):
        detect_format(tmp_path)
    with pytest.raises(InvalidInput, match="no such dataset"):
        open_dataset(tmp_path / "nope")


@pytest.mark.shared
def test_real_riichi_tray(real_dev):
    ds = open_dataset(real_dev / "riichi-tray", fmt="yolo", names="riichi-tray")
    anns = list(ds.annotations())
    assert len(anns) == 333
    assert sum(1 for a in anns if not a.tiles) == 65  # the README's negatives
    labels = Counter(t.label for a in anns for t in a.tiles)
    assert set(labels) == {f"{n}{s}" for s in "mps" for n in range(1, 10)} | {
        f"{n}z" for n in range(1, 8)}
    first = next(a for a in anns if a.tiles)
    assert (first.width, first.height) == (640, 640) and ds.image_path(first).is_file()
    widths = sorted(min(t.box[2], t.box[3]) for a in anns for t in a.tiles)
    assert 35 < widths[len(widths) // 2] < 60  # "tiles ~45 px wide"
