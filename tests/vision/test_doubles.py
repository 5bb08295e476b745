"""`agari.vision.doubles`: boxes over several touching tiles of a row are cut apart."""

from dataclasses import replace

import numpy as np
import pytest
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection, as_quad
from agari.vision.doubles import HAND_DOUBLES, cut, split_doubles, tile_counts

W, H = 40.0, 54.0  # an upright tile's face in a row


def box(x: float, width: float = W, height: float = H, y: float = 100.0, label="3s",
        confidence: float = 0.95) -> TileDetection:
    """A detection whose quad's left side is at ``x``."""
    quad = as_quad([(x, y), (x + width, y), (x + width, y + height), (x, y + height)])
    return TileDetection(quad, label=None if label is None else Tile.parse(label),
                         confidence=confidence if label else 0.0)


def row(widths: list[float], gap: float = 1.0) -> list[TileDetection]:
    out, x = [], 0.0
    for w in widths:
        out.append(box(x, w))
        x += w + gap
    return out


@pytest.mark.parametrize("width, expected", [
    (W, 1), (1.33 * W, 1),   # a tile; a called tile lying sideways is only 4/3 as wide
    (2 * W, 2), (2.3 * W, 2),  # two touching tiles, the box a little loose
    (3 * W, 3), (4 * W, 1),    # three; four is more than any box is cut into
])
def test_a_box_counts_as_the_tiles_its_width_holds(width, expected):
    dets = row([W, W, width, W, W])
    assert tile_counts(dets)[2] == expected


def test_a_box_without_agreeing_neighbours_is_one_tile():
    assert tile_counts(row([W, 2 * W]))[1] == 1           # one neighbour only
    assert tile_counts(row([W, 2 * W, 1.6 * W]))[1] == 1  # neighbours disagree


def test_tiles_of_another_row_or_size_are_no_neighbours():
    dets = [box(0), box(W + 1), box(2 * W + 2, 2 * W)]
    dets += [box(0, y=300.0), box(W + 1, y=300.0)]          # a row further down
    assert tile_counts(dets)[2] == 2
    far = [box(0, y=300.0), box(W + 1, y=300.0), box(2 * W + 2, 2 * W)]
    assert tile_counts(far)[2] == 1
    small = [box(0, height=H / 2), box(W + 1, height=H / 2), box(2 * W + 2, 2 * W)]
    assert tile_counts(small)[2] == 1


def test_cut_parts_share_their_corners_and_cover_the_quad():
    quad = np.array([(0.0, 0.0), (90.0, 10.0), (88.0, 70.0), (-2.0, 60.0)])
    parts = cut(quad, 3)
    assert len(parts) == 3
    np.testing.assert_allclose(parts[0][0], quad[0])
    np.testing.assert_allclose(parts[-1][2], quad[2])
    for a, b in zip(parts, parts[1:], strict=False):
        np.testing.assert_allclose(a[1], b[0])
        np.testing.assert_allclose(a[2], b[3])
    np.testing.assert_allclose(parts[1][1], quad[0] + 2 / 3 * (quad[1] - quad[0]))


def reader(names: dict[float, tuple[str | None, float]]):
    """A stand-in classifier: reads a quad by its left edge (rounded)."""
    def classify(image, dets):
        out = []
        for d in dets:
            label, p = names.get(round(d.quad[0][0]), (None, 0.9))
            out.append(replace(d, label=None if label is None else Tile.parse(label), confidence=p))
        return out
    return classify


def test_a_double_box_is_replaced_by_its_parts_read_surely():
    dets = row([W, W, 2 * W, W])
    image = np.zeros((200, 300, 3), np.uint8)
    double_x = round(2 * (W + 1))
    classify = reader({double_x: ("3z", 0.96), round(double_x + W): ("3z", 0.95)})
    out = split_doubles(image, dets, classify)
    assert [str(d.label) for d in out] == ["3s", "3s", "3z", "3z", "3s"]
    assert out[2].quad[0] == dets[2].quad[0] and out[3].quad[2] == dets[2].quad[2]


def test_parts_read_unsurely_leave_the_box_alone():
    dets = row([W, W, 2 * W, W])
    image = np.zeros((200, 300, 3), np.uint8)
    double_x = round(2 * (W + 1))
    classify = reader({double_x: ("3z", 0.96), round(double_x + W): ("3z", 0.5)})
    assert split_doubles(image, dets, classify) == dets
    refined = split_doubles(image, dets, classify,
                            refine=lambda ds: [replace(d, confidence=0.9) for d in ds])
    assert len(refined) == 5
    off = replace(HAND_DOUBLES, parts=(3,))
    assert split_doubles(image, dets, classify, config=off) == dets
