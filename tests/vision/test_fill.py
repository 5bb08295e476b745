"""Row completion: tiles dropped from a real row are found again by the shipped model."""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import numpy as np
import pytest
from agari.engine.errors import InvalidInput
from agari.engine.tiles import Tile
from agari.vision.detection import TileDetection
from agari.vision.fill import HAND_FILL, FillConfig, fill_rows
from agari.vision.quads import quad_iou


@pytest.fixture(scope="module")
def sample(sample_hand):
    image, truth, clf = sample_hand
    return image, truth, partial(clf.classify_detections, top_k=3)


def _row(truth: list[dict]) -> list[TileDetection]:
    """The concealed row's true quads, left to right, unlabelled."""
    row = [t for t in truth if t["role"] == "concealed" and not t["sideways"]]
    row.sort(key=lambda t: t["quad"][0][0])
    return [TileDetection(tuple(tuple(p) for p in t["quad"])) for t in row]


@pytest.mark.parametrize("dropped", [(3,), (4, 5, 6), (0, 1)])
def test_dropped_tiles_are_found_again(sample, dropped):
    image, truth, classify = sample
    row = _row(truth)
    labelled = classify(image, row)
    kept = [d for i, d in enumerate(labelled) if i not in dropped]
    filled = fill_rows(image, kept, classify)
    assert len(filled) == len(row)
    for i in dropped:
        best = max(filled, key=lambda d: quad_iou(np.float32(d.quad), np.float32(row[i].quad)))
        assert quad_iou(np.float32(best.quad), np.float32(row[i].quad)) > 0.6
        assert best.label == labelled[i].label
    # Reading order is kept: centres run left to right as the row does.
    xs = [d.centre[0] for d in filled]
    assert xs == sorted(xs)


def test_whole_row_gets_nothing_added(sample):
    image, truth, classify = sample
    labelled = classify(image, _row(truth))
    assert fill_rows(image, labelled, classify) == labelled


def test_nothing_is_added_where_the_model_sees_no_tile(sample):
    image, truth, _ = sample
    anchor = replace(_row(truth)[0], label=Tile.parse("2m"), confidence=0.99)

    def no_tile(img, dets):
        return [replace(d, label=None, confidence=0.99) for d in dets]

    assert fill_rows(image, [anchor], no_tile) == [anchor]


def test_growth_is_bounded_when_everything_looks_like_a_tile():
    image = np.full((200, 2000, 3), 200, np.uint8)
    quad = ((100.0, 50.0), (140.0, 50.0), (140.0, 105.0), (100.0, 105.0))
    anchor = TileDetection(quad, label=Tile.parse("1p"), confidence=0.99)

    def always_a_tile(img, dets):
        return [replace(d, label=Tile.parse("1p"), confidence=0.99) for d in dets]

    grown = fill_rows(image, [anchor], always_a_tile, config=FillConfig(max_rounds=5))
    assert len(grown) == 1 + 5 + 2  # right: one per round; left: two steps to the border
    grown = fill_rows(image, [anchor], always_a_tile, config=FillConfig(max_new=3))
    assert len(grown) == 4


@pytest.mark.parametrize(("confidence", "added"), [(0.93, False), (0.99, True)])
def test_a_step_read_as_a_blank_white_dragon_must_be_sure_in_a_hand(confidence, added):
    # Bare pale table in a gap reads as 白 at ~0.92: a hand keeps it only as surely as a back.
    image = np.full((200, 400, 3), 200, np.uint8)
    quad = ((100.0, 50.0), (140.0, 50.0), (140.0, 105.0), (100.0, 105.0))
    anchor = TileDetection(quad, label=Tile.parse("1p"), confidence=0.99)

    def blank(img, dets):
        return [replace(d, label=Tile.parse("5z"), confidence=confidence) for d in dets]

    grown = fill_rows(image, [anchor], blank, config=replace(HAND_FILL, max_rounds=1))
    assert (len(grown) > 1) is added
    # Trays (bulk labelling, agari detect) take a step read as 白 as any face.
    assert len(fill_rows(image, [anchor], blank, config=FillConfig(max_rounds=1))) > 1


def test_a_called_tile_lying_sideways_is_found_beside_its_meld(sample):
    from agari.vision.fill import HAND_FILL

    image, truth, classify = sample
    meld = [t for t in truth if t["role"] == "meld"]
    (called,) = [t for t in meld if t["sideways"]]
    upright = classify(image, [TileDetection(tuple(tuple(p) for p in t["quad"]))
                               for t in meld if not t["sideways"]])
    filled = fill_rows(image, upright, classify, config=HAND_FILL)
    found = [d for d in filled if d.sideways]
    assert len(found) == 1
    assert quad_iou(np.float32(found[0].quad), np.float32(called["quad"])) > 0.7
    assert found[0].label == Tile.parse(called["label"])
    # Off by default (bulk labelling): nothing sideways is tried.
    assert not any(d.sideways for d in fill_rows(image, upright, classify))


def test_far_steps_cross_the_gap_to_the_winning_tile(sample):
    image, truth, classify = sample
    row = _row(truth)  # the concealed tiles; the winning tile lies a little apart
    win = next(t for t in truth if t["role"] == "win")
    labelled = classify(image, row)
    near_only = fill_rows(image, labelled, classify, config=FillConfig(sideways=True))
    assert not any(_covers(d, win) for d in near_only)
    across = fill_rows(image, labelled, classify, config=HAND_FILL)
    found = [d for d in across if _covers(d, win)]
    assert len(found) == 1 and found[0].label_name == win["label"]


@pytest.mark.parametrize(("plain_below", "far_reads"), [(5.0, 0), (None, 10)])
def test_far_steps_over_bare_table_are_not_read(plain_below, far_reads):
    rng = np.random.default_rng(5)
    image = np.clip(rng.normal(90, 2, (200, 1000, 3)), 0, 255).astype(np.uint8)  # plain felt
    image[50:105, 100:140] = rng.integers(0, 255, (55, 40, 3))  # a busy patch: the tile
    quad = ((100.0, 50.0), (140.0, 50.0), (140.0, 105.0), (100.0, 105.0))
    anchor = TileDetection(quad, label=Tile.parse("1p"), confidence=0.99)
    asked = []

    def no_tile(img, dets):
        asked.append(len(dets))
        return [replace(d, label=None, confidence=0.99, alternatives=(("none", 0.99),))
                for d in dets]

    cfg = replace(HAND_FILL, sideways=False, rescue_floor=None, plain_below=plain_below)
    assert fill_rows(image, [anchor], no_tile, config=cfg) == [anchor]
    near, *far = asked
    assert near == 4  # two pitches either side
    assert sum(far) == far_reads  # six far steps right, four left (then the photo ends)


@pytest.mark.parametrize("at_ends", [True, False])
def test_far_steps_are_taken_beside_a_rows_ends_only(at_ends):
    # Three touching tiles read surely, nothing else anywhere: far steps go out from the
    # row's two ends (six each), not from inside the row, where they land on or past the
    # neighbours, which step across a gap beyond them themselves.
    image = np.full((200, 2000, 3), 120, np.uint8)
    row = [TileDetection(((x, 50.0), (x + 40, 50.0), (x + 40, 105.0), (x, 105.0)),
                         label=Tile.parse("1p"), confidence=0.99) for x in (800.0, 840.0, 880.0)]
    asked = []

    def no_tile(img, dets):
        asked.append([d.centre[0] for d in dets])
        return [replace(d, label=None, confidence=0.99, alternatives=(("none", 0.99),))
                for d in dets]

    cfg = replace(HAND_FILL, sideways=False, rescue_floor=None, plain_below=None,
                  far_at_ends=at_ends)
    assert fill_rows(image, row, no_tile, config=cfg) == row
    _, far = asked
    assert len([x for x in far if x < 800 or x > 920]) == len(far)  # past the row's ends
    assert (len(far) == 12) is at_ends  # else twice as many: the inner tiles' land there too


def _covers(det: TileDetection, tile: dict) -> bool:
    return quad_iou(np.float32(det.quad), np.float32(tile["quad"])) > 0.5


def test_a_step_that_lands_off_its_tile_is_re_framed_onto_it():
    image = np.full((200, 400, 3), 200, np.uint8)
    square = np.array([[100.0, 50.0], [140.0, 50.0], [140.0, 110.0], [100.0, 110.0]])
    anchor = TileDetection(tuple(map(tuple, square)), label=Tile.parse("1p"), confidence=0.99)
    # The next tile lies a third of a tile further than one step: the step straddles the
    # gap and reads unsurely; a quarter-tile move lands on it.
    tile = square + [53.0, 0.0]
    two_pin, none = Tile.parse("2p"), None

    def reads(img, dets):
        out = []
        for d in dets:
            iou = quad_iou(np.float32(d.quad), np.float32(tile))
            label, p = ((two_pin, 0.95) if iou > 0.8 else (two_pin, 0.5) if iou > 0.4
                        else (none, 0.9))
            name = str(label) if label else "none"
            out.append(replace(d, label=label, confidence=p, alternatives=((name, p),)))
        return out

    plain = FillConfig(pitches=(1.0,))
    assert fill_rows(image, [anchor], reads, config=plain) == [anchor]
    rescued = fill_rows(image, [anchor], reads, config=replace(plain, rescue_floor=0.3))
    assert [d.label for d in rescued] == [Tile.parse("1p"), two_pin]
    assert quad_iou(np.float32(rescued[1].quad), np.float32(tile)) > 0.8
    # Not likely enough a face to begin with: left alone.
    assert fill_rows(image, [anchor], reads, config=replace(plain, rescue_floor=0.6)) == [anchor]


def test_a_loose_box_over_part_of_a_tile_gives_way_to_the_step_that_reads_it():
    image = np.full((200, 400, 3), 200, np.uint8)
    square = np.array([[100.0, 50.0], [140.0, 50.0], [140.0, 110.0], [100.0, 110.0]])
    anchor = TileDetection(tuple(map(tuple, square)), label=Tile.parse("1p"), confidence=0.99)
    tile = square + [40.0, 0.0]
    # The locator boxed the lower half of the next tile; the model can hardly read it.
    part = TileDetection(tuple(map(tuple, tile + [[0, 30], [0, 30], [0, 0], [0, 0]])),
                         label=Tile.parse("2p"), confidence=0.2)
    two_pin = Tile.parse("2p")

    def reads(img, dets):
        return [replace(d, label=two_pin, confidence=0.95)
                if quad_iou(np.float32(d.quad), np.float32(tile)) > 0.9
                else replace(d, label=None, confidence=0.9) for d in dets]

    config = FillConfig(pitches=(1.0,))
    assert fill_rows(image, [anchor, part], reads, config=config) == [anchor, part]
    filled = fill_rows(image, [anchor, part], reads, config=replace(config, firm_confidence=0.8))
    assert len(filled) == 2 and filled[0] == anchor
    assert filled[1].confidence == 0.95 and np.allclose(filled[1].quad, tile)
    with pytest.raises(InvalidInput):
        FillConfig(firm_confidence=0.9)  # above anchor_confidence: anchors could give way



def test_a_called_tile_boxed_whole_is_read_sideways_not_cut_in_half():
    # A called tile lying sideways, boxed whole but read unsurely: an upright step over
    # half of it reads that half surely as another tile; the box read sideways reads it.
    image = np.full((200, 400, 3), 200, np.uint8)
    upright = np.array([[100.0, 50.0], [140.0, 50.0], [140.0, 105.0], [100.0, 105.0]])
    anchor = TileDetection(tuple(map(tuple, upright)), label=Tile.parse("1p"), confidence=0.99)
    called = np.array([[140.0, 65.0], [195.0, 65.0], [195.0, 105.0], [140.0, 105.0]])
    box = TileDetection(tuple(map(tuple, called)), label=Tile.parse("4p"), confidence=0.3)
    two_pin, four_pin = Tile.parse("2p"), Tile.parse("4p")
    sure = [0.95]

    def reads(img, dets):
        out = []
        for d in dets:
            if d.sideways and quad_iou(np.float32(d.quad), np.float32(called)) > 0.99:
                out.append(replace(d, label=four_pin, confidence=sure[0]))
            elif not d.sideways and np.float32(d.quad)[:, 0].min() >= 139.0:
                out.append(replace(d, label=two_pin, confidence=0.98))  # half the called tile
            else:
                out.append(replace(d, label=None, confidence=0.9))
        return out

    # Only the box itself reads as the called tile (the sideways step lands off it).
    config = replace(HAND_FILL, sideways=False, far_pitches=(), rescue_floor=None, max_rounds=1)
    whole = fill_rows(image, [anchor, box], reads, config=config)
    assert [d.label for d in whole] == [Tile.parse("1p"), four_pin] and whole[1].sideways
    assert np.allclose(whole[1].quad, called)
    cut = fill_rows(image, [anchor, box], reads, config=replace(config, squat_aspect=0.0))
    assert [d.label for d in cut] == [Tile.parse("1p"), two_pin] and not cut[1].sideways
    sure[0] = 0.6  # read sideways, but not surely: the step stands
    assert [d.label for d in fill_rows(image, [anchor, box], reads, config=config)] == [
        Tile.parse("1p"), two_pin]
    # A box over the lower part of an upright tile is squat too, but no longer than the
    # step is wide: not read sideways.
    part = replace(box, quad=tuple(map(tuple, upright + [[40, 25], [40, 25], [40, 0], [40, 0]])))
    assert fill_rows(image, [anchor, part], reads, config=config)[1].label == two_pin


THREE_SOU = Tile.parse("3s")
BESIDE = replace(HAND_FILL, far_pitches=(), rescue_floor=None, max_rounds=1)


def called_beside(box, called):
    """A blank image, a 1p read surely in ``box``, and a stand-in classifier that reads 3s
    surely for a sideways quad over ``called`` and no tile elsewhere."""
    def reads(img, dets):
        return [replace(d, label=THREE_SOU, confidence=0.97)
                if d.sideways and quad_iou(np.float32(d.quad), np.float32(called)) > 0.8
                else replace(d, label=None, confidence=0.9) for d in dets]
    anchor = TileDetection(box, label=Tile.parse("1p"), confidence=0.99)
    return np.full((200, 400, 3), 200, np.uint8), anchor, reads


def test_a_called_tile_beside_a_foreshortened_meld_is_sized_by_the_tile_not_the_picture():
    # Tiles lying flat seen at a slant: the upright tile's picture is squat (40 x 26), but
    # the called tile beside it is still a tile's height long (1.31 widths) and shallower.
    called = np.array([[140.0, 85.0], [192.4, 85.0], [192.4, 105.0], [140.0, 105.0]])
    image, anchor, reads = called_beside(
        ((100.0, 79.0), (140.0, 79.0), (140.0, 105.0), (100.0, 105.0)), called)
    config = BESIDE
    found = fill_rows(image, [anchor], reads, config=config)
    assert [d.label for d in found] == [Tile.parse("1p"), THREE_SOU] and found[1].sideways
    assert quad_iou(np.float32(found[1].quad), np.float32(called)) > 0.9
    # Sized by the picture (as long as the upright tile is high): it lands off the tile.
    old = fill_rows(image, [anchor], reads, config=replace(config, sideways_aspect=0.0))
    assert old == [anchor]


def test_a_called_tile_is_tried_beside_the_face_of_a_tile_boxed_with_its_front_side():
    # A tile lying flat boxed with its front side: 26 px of face over 17 px of side. The
    # called tile beside it lies level with the face, not with the box's bottom.
    called = np.array([[140.0, 85.0], [192.4, 85.0], [192.4, 104.8], [140.0, 104.8]])
    image, anchor, reads = called_beside(
        ((100.0, 79.0), (140.0, 79.0), (140.0, 122.0), (100.0, 122.0)), called)
    config = replace(BESIDE, sideways_trim=0.0)
    assert fill_rows(image, [anchor], reads, config=config) == [anchor]
    found = fill_rows(image, [anchor], reads, config=replace(config, sideways_trim=0.6))
    assert [d.label for d in found] == [Tile.parse("1p"), THREE_SOU] and found[1].sideways


def test_known_tiles_overlap_as_checked_one_by_one():
    """The batched overlap test of row completion (the near tiles of all steps found at once)
    agrees with measuring every step against every known tile, for tiles of one size (a
    step is as big as the row's tile it steps from)."""
    from agari.vision.fill import _Tiles
    from agari.vision.quads import convex_parts, parts_overlap

    rng = np.random.default_rng(5)

    def tile(x, y, w, turn):
        c, s = np.cos(turn), np.sin(turn)
        q = np.array([[0, 0], [w, 0], [w, 1.33 * w], [0, 1.33 * w]]) @ [[c, s], [-s, c]]
        return q + (x, y) + rng.normal(0, 1.0, (4, 2))

    hits = 0
    for _ in range(40):
        w = rng.uniform(20, 60)
        known = [tile(*rng.uniform(0, 600, 2), w * rng.uniform(0.95, 1.05), rng.normal(0, 0.2))
                 for _ in range(rng.integers(1, 25))]
        tiles = _Tiles([TileDetection(tuple(map(tuple, q)), label=Tile.parse("5m"))
                        for q in known])
        steps = [tile(*rng.uniform(0, 600, 2), w, 0.0) for _ in range(30)]
        brute = [any(parts_overlap(convex_parts(s), convex_parts(k.astype(np.float32))) > 0.3
                     for k in known) for s in steps]
        assert tiles.overlapping(steps, 0.3) == brute
        assert [tiles.overlaps(s, 0.3) for s in steps] == brute
        hits += sum(brute)
    assert hits > 50  # the draw does put steps on known tiles


def _turned_box(centre, width, height, degrees):
    """A rectangle ``width`` x ``height`` round ``centre``, turned ``degrees`` (TL, TR, BR, BL)."""
    a = np.radians(degrees)
    along, down = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
    c = np.asarray(centre, np.float64)
    corners = [c - along * width / 2 - down * height / 2, c + along * width / 2 - down * height / 2,
               c + along * width / 2 + down * height / 2, c - along * width / 2 + down * height / 2]
    return tuple(tuple(float(v) for v in p) for p in corners)


@pytest.mark.parametrize(("seen_pitch", "second_height", "found"),
                         [(None, 40.0, 0), ((0.7, 1.3), 40.0, 2), ((0.7, 1.3), 60.0, 0)])
def test_steps_follow_the_spacing_seen_when_boxes_are_wider_and_turned_off_the_row(
        seen_pitch, second_height, found):
    # Faces at a steep slant: boxed as rectangles wider than the 40 px pitch and turned 10°
    # off the row, so a step by a box's own width and edge lands off the next face.
    image = np.full((200, 400, 3), 200, np.uint8)
    # A box unlike its neighbour (a standing tile's boxed with its top) gives no spacing.
    anchors = [TileDetection(_turned_box((x, 100.0), 50.0, height, 10.0),
                             label=Tile.parse("1p"), confidence=0.99)
               for x, height in ((140.0, 40.0), (180.0, second_height))]
    faces = np.array([(100.0, 100.0), (220.0, 100.0)])  # the row's next tile either side

    def faces_only(img, dets):
        return [replace(d, label=Tile.parse("2p"), confidence=0.99)
                if np.min(np.linalg.norm(faces - np.asarray(d.quad).mean(axis=0), axis=1)) < 5
                else replace(d, label=None, confidence=0.99) for d in dets]

    config = FillConfig(seen_pitch=seen_pitch, seen_alike=0.15, seen_differs=0.15, max_rounds=1)
    grown = fill_rows(image, anchors, faces_only, config=config)
    assert len(grown) - len(anchors) == found


def test_remembered_plains_measure_each_patch_once(monkeypatch):
    import agari.vision.fill as fill

    rng = np.random.default_rng(3)
    image = rng.integers(0, 255, (80, 120, 3), dtype=np.uint8)
    image[:, 60:] = 128
    busy, flat = ((5, 5), (40, 5), (40, 50), (5, 50)), ((70, 5), (110, 5), (110, 50), (70, 50))
    want = [fill._plain(image, q, 5.0) for q in (busy, flat)]
    assert want == [False, True]
    calls = []
    measure = fill._plain_patch
    monkeypatch.setattr(fill, "_plain_patch", lambda *a: calls.append(1) or measure(*a))
    with fill.remembered_plains():
        got = [fill._plain(image, q, 5.0) for q in (busy, flat, busy, np.asarray(flat))]
        other = fill._plain(image.copy(), busy, 5.0)  # another array: measured anew
    assert got == [False, True, False, True] and other is False
    assert len(calls) == 3
    fill._plain(image, busy, 5.0)  # outside the block: nothing kept
    assert len(calls) == 4
