import pytest
from agari.datasets.annotation import (
    ImageAnnotation,
    TileAnnotation,
    box_quad,
    image_from_dict,
    image_to_dict,
)
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile

Q = box_quad(10, 20, 30, 40)


def tile(**kw) -> TileAnnotation:
    base = {"quad": Q, "label": "5m"}
    base.update(kw)
    return TileAnnotation(**base)


@pytest.mark.parametrize(
    "kw,error",
    [
        ({}, None),
        ({"label": "0p", "role": "win"}, None),
        ({"label": "back", "face_down": True, "role": "meld", "group": 1}, None),
        ({"rotation": 90, "sideways": True, "visible": 0.4, "score": 0.9}, None),
        ({"label": "5q"}, "label"),
        ({"label": "back"}, "face_down"),
        ({"face_down": True}, "face_down"),
        ({"role": "kan"}, "role"),
        ({"role": "meld"}, "group"),
        ({"group": 0}, "group"),
        ({"role": "meld", "group": -1}, "group"),
        ({"rotation": 45}, "rotation"),
        ({"visible": 1.5}, "visible"),
        ({"score": -0.1}, "score"),
        ({"quad": ((0, 0), (1, 0), (1, 1))}, "quad"),
        ({"quad": ((0, 0), (1, 0), (1, float("nan")), (0, 1))}, "non-finite"),
    ],
)
def test_tile_validation(kw, error):
    if error is None:
        assert tile(**kw).label == kw.get("label", "5m")
    else:
        with pytest.raises(InvalidInput, match=error):
            tile(**kw)


def test_tile_geometry_and_detection():
    t = tile(label="0s", sideways=True)
    assert t.tile == Tile.parse("0s")
    assert t.box == (10.0, 20.0, 30.0, 40.0) and t.centre == (25.0, 40.0)
    det = t.to_detection()
    assert det.label == Tile.parse("0s") and det.sideways and det.quad == t.quad
    back = tile(label="back", face_down=True).to_detection()
    assert back.label == "back" and back.face_down
    again = TileAnnotation.from_detection(det, role="win")
    assert again.label == "0s" and again.role == "win" and again.score == 1.0


def test_moved_applies_affine():
    t = tile().moved(((1, 0, 5), (0, 2, 0)))
    assert t.quad[0] == (15.0, 40.0) and t.quad[2] == (45.0, 120.0)


@pytest.mark.parametrize(
    "kw,error",
    [
        ({}, None),
        ({"hand": "123m406p789s11z 777p [5555m]", "win": "1z"}, None),
        ({"image": ""}, "empty"),
        ({"width": 0}, "positive"),
        ({"width": 10.5}, "integers"),
        ({"hand": "123x"}, "bad hand"),
        ({"win": "back"}, "win"),
        ({"tiles": ("5m",)}, "TileAnnotation"),
    ],
)
def test_image_validation(kw, error):
    base = {"image": "a.jpg", "width": 100, "height": 80, "tiles": (tile(),)}
    base.update(kw)
    if error is None:
        assert ImageAnnotation(**base).width == base["width"]
    else:
        with pytest.raises(InvalidInput, match=error):
            ImageAnnotation(**base)


def test_clipping_and_visibility():
    inside = tile(visible=0.9)
    cut = tile(quad=box_quad(90, 70, 30, 40), visible=0.2)
    outside = tile(quad=box_quad(200, 200, 10, 10))
    ann = ImageAnnotation("a.jpg", 100, 80, (inside, cut, outside))
    assert ann.clipped_box(cut) == (90.0, 70.0, 10.0, 10.0)
    assert ann.clipped_box(outside) is None
    assert ann.visible_tiles() == (inside, cut)
    assert ann.visible_tiles(0.5) == (inside,)


def test_dict_round_trip():
    ann = ImageAnnotation(
        "x/a.png", 640, 480,
        (tile(role="meld", group=0, rotation=90, sideways=True, visible=0.75),
         tile(label="back", face_down=True, role="dora"), tile(score=0.5)),
        hand="123m456p789s11z 222z", win="1z", meta=(("scene", "shown"),))
    assert image_from_dict(image_to_dict(ann)) == ann


@pytest.mark.parametrize("record", [{}, {"image": "a", "width": "x", "height": 1},
                                    {"image": "a", "width": 5, "height": 5, "tiles": [{}]}])
def test_dict_rejects(record):
    with pytest.raises(InvalidInput):
        image_from_dict(record)
