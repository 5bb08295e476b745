"""Tile art, set styles, poses and the drawn tile's geometry."""

from dataclasses import replace

import numpy as np
import pytest
from agari.datasets.art import INK_LAYERS, find_art_folders, load_art, split_inks
from agari.datasets.camera import look_at
from agari.datasets.poses import footprint, pose_flat, pose_standing
from agari.datasets.tilebody import Light, draw_tile
from agari.datasets.tileface import sample_style
from agari.engine.errors import InvalidInput
from agari.engine.tiles import TILE_NAMES

LIGHT = Light(direction=np.array([0.0, 0.0, 1.0]), ambient=0.6, glare=0.0)


@pytest.fixture(scope="module")
def arts():
    return load_art()


@pytest.fixture(scope="module")
def style(arts):
    return sample_style(np.random.default_rng(0), arts, art_weights=(1.0,) * len(arts))


def test_default_art_has_every_face(arts):
    assert {a.name for a in arts} == {"light", "dark"}
    for art in arts:
        assert set(art.faces) == set(TILE_NAMES)
        base = art.faces["1m"].levels[0]
        assert base.shape == (320, 240, len(INK_LAYERS)) and base.dtype == np.uint8
    assert [a.light_ink for a in sorted(arts, key=lambda a: a.name)] == [True, False]


def test_split_inks_by_colour():
    bgra = np.zeros((4, 6, 4), np.uint8)
    colours = [(0, 0, 0), (150, 40, 20), (60, 60, 215), (0, 73, 0), (35, 160, 240), (255, 255, 255)]
    for k, c in enumerate(colours):  # black, blue, red, green, orange, white
        bgra[:, k, :3] = c
        bgra[:, k, 3] = 200
    layers = split_inks(bgra)
    assert layers.sum(axis=2).tolist() == bgra[..., 3].tolist()
    assert [int(np.argmax(layers[0, k])) for k in range(6)] == list(range(6))


def test_art_folder_errors(tmp_path):
    with pytest.raises(InvalidInput, match="not found"):
        find_art_folders(tmp_path / "missing")
    with pytest.raises(InvalidInput, match="no folder"):
        load_art(tmp_path)


@pytest.mark.shared
def test_cc0_art_variants(tile_art):
    names = sorted(a.name for a in load_art(tile_art))
    assert names == ["Black", "Regular"]  # Export/ PNGs duplicate the SVG folders


def test_texture_has_rounded_corners_and_ink(style):
    tex, alpha = style.texture("0p", 60)
    assert tex.dtype == np.uint8 and tex.shape[:2] == alpha.shape and alpha.shape[1] >= 60
    assert alpha[0, 0] < 64 and alpha[alpha.shape[0] // 2, alpha.shape[1] // 2] == 255
    red = (tex[..., 2].astype(int) - tex[..., 1]) > 60
    assert red.mean() > 0.05  # a red five is mostly red ink
    assert style.texture("0p", 60)[0] is tex  # cached per scene style


def test_styles_differ_and_repeat(arts):
    a = sample_style(np.random.default_rng(1), arts)
    b = sample_style(np.random.default_rng(1), arts)
    c = sample_style(np.random.default_rng(2), arts)
    assert np.array_equal(a.face, b.face) and a.size_mm == b.size_mm
    assert not np.array_equal(a.back, c.back) or a.size_mm != c.size_mm


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
@pytest.mark.parametrize("face_up", [True, False])
def test_flat_pose_is_a_rotation(turn, face_up):
    pose = pose_flat(0, 0, heading=30, turn=turn, face_up=face_up, size_mm=(26, 35, 20))
    assert np.linalg.det(pose.rot) == pytest.approx(1.0)
    assert pose.rot[2, 2] == pytest.approx(1.0 if face_up else -1.0)


@pytest.mark.parametrize("facing", [True, False])
@pytest.mark.parametrize("turn", [0, 180])
def test_standing_pose(facing, turn):
    pose = pose_standing(0, 0, heading=0, size_mm=(26, 35, 20), turn=turn, lean=8,
                         facing_player=facing)
    assert np.linalg.det(pose.rot) == pytest.approx(1.0)
    assert (pose.rot[1, 2] < 0) == facing  # the face looks at the player on -y


def top_down(size=(400, 300)):
    return look_at(np.zeros(3), elevation=90, azimuth=0, distance=400, roll=0, focal=400,
                   size=size)


@pytest.mark.parametrize("turn,expect_tl", [(0, (-13, 17.5)), (90, (-17.5, 13)),
                                             (180, (-13, 17.5)), (270, (-17.5, 13))])
def test_drawn_quad_is_in_row_order(style, turn, expect_tl):
    """Whatever the turn, TL is the row's far-left corner; a sideways quad runs long side first."""
    size = (26.0, 35.0, 20.0)
    style = replace(style, size_mm=size)
    cam = top_down()
    canvas = np.zeros((300, 400, 3), np.uint8)
    pose = pose_flat(0, 0, heading=0, turn=turn, face_up=True, size_mm=size)
    drawn = draw_tile(canvas, cam, pose, style, "1z", LIGHT)
    # top-down at 380 mm above the face, f = 400: 1 mm = 400/380 px, world +y is image up
    k = 400 / 380
    tl = drawn.quad[0]
    assert tl == pytest.approx((200 + expect_tl[0] * k, 150 - expect_tl[1] * k), abs=0.5)
    along, across = footprint(size, turn)
    assert np.linalg.norm(drawn.quad[1] - drawn.quad[0]) == pytest.approx(along * k, abs=0.5)
    assert drawn.face_up and drawn.cap is not None
    centre = canvas[150, 200].astype(int)
    assert centre.sum() > 0 and canvas[5, 5].sum() == 0


def test_face_down_shows_the_back(style):
    cam = top_down()
    canvas = np.zeros((300, 400, 3), np.uint8)
    pose = pose_flat(0, 0, heading=0, turn=0, face_up=False, size_mm=style.size_mm)
    drawn = draw_tile(canvas, cam, pose, style, "1z", LIGHT)
    assert not drawn.face_up and drawn.cap is not None
    assert np.abs(canvas[150, 200].astype(float) - style.back * 1.0).max() < 12


@pytest.mark.parametrize("lean", [-0.5, 0.0, 0.5, 10.0])
def test_standing_quad_top_is_the_upper_edge(style, lean):
    """Seen from the seat, TL/TR are the standing tile's upper corners whatever its lean."""
    cam = look_at(np.array([0.0, 0.0, 15.0]), elevation=20, azimuth=0, distance=300, roll=0,
                  focal=500, size=(400, 300))
    pose = pose_standing(0, 0, heading=0, size_mm=style.size_mm, lean=lean)
    quad = draw_tile(np.zeros((300, 400, 3), np.uint8), cam, pose, style, "1m", LIGHT).quad
    assert quad[0][1] < quad[3][1] and quad[1][1] < quad[2][1]  # top above bottom
    assert quad[0][0] < quad[1][0] and quad[3][0] < quad[2][0]  # left of right
