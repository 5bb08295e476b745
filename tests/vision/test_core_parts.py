"""Core-net blobs that run together over touching faces are cut into one quad per face
(`CoreConfig.part`, `split_blob`), or carry the quads of two faces for the judge to take
(`CoreConfig.judged_parts`, `agari.vision.core_parts`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.vision.core_parts import PartsConfig, judged_parts
from agari.vision.cores import (
    CORNER_NORM,
    STRIDE,
    CoreConfig,
    CoreQuad,
    _blobs,
    split_blob,
    two_faces,
)
from agari.vision.locate import HAND_LOCATE, locate
from agari.vision.quads import quad_iou


def _touching(faces: list[np.ndarray], shape=(40, 80)) -> tuple[np.ndarray, np.ndarray]:
    """Probability and corner maps where each face's core fills its whole width, so that
    the cores of faces side by side touch and make one blob (input pixels)."""
    prob = np.zeros(shape, np.float32)
    offsets = np.zeros((8, *shape), np.float32)
    for q in faces:
        x0, x1 = int(q[:, 0].min() / STRIDE), int(q[:, 0].max() / STRIDE)
        yc = int(q[:, 1].mean() / STRIDE)
        ys, xs = np.mgrid[yc - 3:yc + 4, x0:x1]
        prob[ys, xs] = 0.9
        at = np.stack([(xs + 0.5) * STRIDE, (ys + 0.5) * STRIDE], -1)
        offsets[:, ys, xs] = ((q[None, None] - at[:, :, None]) / CORNER_NORM
                              ).reshape(*ys.shape, 8).transpose(2, 0, 1)
    return prob, offsets


def _row(n: int, width: float = 24.0, height: float = 30.0) -> list[np.ndarray]:
    return [np.float32([[20 + i * width, 20], [20 + (i + 1) * width, 20],
                        [20 + (i + 1) * width, 20 + height], [20 + i * width, 20 + height]])
            for i in range(n)]


def test_a_blob_over_two_touching_faces_gives_a_quad_half_on_each_by_default():
    faces = _row(2)
    prob, offsets = _touching(faces)
    found = _blobs(prob, offsets, CoreConfig(), face_down=False)
    assert len(found) == 1
    assert all(quad_iou(found[0].quad, f) < 0.5 for f in faces)


def test_with_parts_each_face_of_a_run_together_blob_gets_its_own_quad():
    faces = _row(3)
    prob, offsets = _touching(faces)
    found = _blobs(prob, offsets, CoreConfig(part=0.8), face_down=False)
    assert len(found) == 3
    for f in faces:
        assert max(quad_iou(c.quad, f) for c in found) > 0.95
    assert all(abs(c.score - 0.9) < 1e-6 for c in found)


def test_one_face_stays_one_quad_though_its_pixels_disagree_a_little():
    rng = np.random.default_rng(0)
    face = _row(1)[0]
    corners = face[None] + rng.normal(0, 2.0, (40, 4, 2)).astype(np.float32)
    assert len(split_blob(corners, np.full(40, 0.8), 0.8)) == 1


def test_pixels_pointing_at_two_faces_are_grouped_by_face():
    a, b = _row(2)
    corners = np.concatenate([np.repeat(a[None], 10, 0), np.repeat(b[None], 7, 0)])
    groups = split_blob(corners, np.full(17, 0.8), 0.8)
    assert sorted(map(len, groups)) == [7, 10]
    assert {tuple(g) for g in groups} == {tuple(range(10)), tuple(range(10, 17))}


def _blurred(a: np.ndarray, b: np.ndarray, n: int = 12) -> np.ndarray:
    """Pixels' corners for a blob over faces ``a`` and ``b`` whose pixels point between
    them, drawn towards the blob's middle (as blurred cores do)."""
    middle = (a + b) / 2
    pull = np.linspace(0.25, 0.45, n)[:, None, None]
    return np.concatenate([a[None] + pull * (middle - a), b[None] + pull * (middle - b)])


def test_a_blurred_pair_is_left_whole_but_carries_the_quads_of_its_two_faces():
    a, b = _row(2)
    corners = _blurred(a, b)
    p = np.full(len(corners), 0.8)
    assert len(split_blob(corners, p, 0.8)) == 1  # they point less than a face apart
    parts = two_faces(corners, p, (0.5, 1.6))
    assert len(parts) == 2
    got = sorted(parts, key=lambda q: q[0, 0])
    assert quad_iou(got[0], a) > 0.6 and quad_iou(got[1], b) > 0.6
    assert two_faces(corners[:12], p[:12], (0.5, 1.6)) == ()  # one face's pixels


def _judge(rates: dict[int, float]):
    """A judge rating a quad by its left edge's x (rounded), 0.5 where not listed."""
    def judge(photo, quads):
        return np.array([rates.get(round(float(q[:, 0].min())), 0.5) for q in quads])
    return judge


def test_the_judge_takes_the_two_faces_where_it_is_sure_of_both():
    a, b = _row(2)
    whole = CoreQuad((a + b) / 2, 0.8, False, (a, b))
    plain = CoreQuad(a + np.float32([200, 0]), 0.9, False)
    photo = np.zeros((10, 10, 3), np.uint8)
    out = judged_parts(photo, [plain, whole], _judge({20: 0.99, 44: 0.98, 32: 0.9}),
                       PartsConfig())
    assert [c.quad[0, 0] for c in out] == [plain.quad[0, 0], 20, 44]
    assert all(c.parts == () and c.score == 0.8 for c in out[1:])


def test_a_doubted_part_or_two_halves_of_one_face_leave_the_blob_as_it_was():
    a, b = _row(2)
    photo = np.zeros((10, 10, 3), np.uint8)
    doubted = CoreQuad((a + b) / 2, 0.8, False, (a, b))
    out = judged_parts(photo, [doubted], _judge({20: 0.99, 44: 0.6, 32: 0.9}), PartsConfig())
    assert len(out) == 1 and out[0].parts == ()
    np.testing.assert_array_equal(out[0].quad, doubted.quad)
    halves = CoreQuad(a, 0.8, False, (a - np.float32([3, 0]), a + np.float32([3, 0])))
    out = judged_parts(photo, [halves], _judge({17: 1.0, 23: 1.0, 20: 0.5}), PartsConfig())
    assert len(out) == 1 and out[0].parts == ()


def test_locate_takes_the_two_faces_only_with_core_parts_and_a_judge():
    faces = [np.float32([[40 + 32 * k, 60], [70 + 32 * k, 60], [70 + 32 * k, 100],
                         [40 + 32 * k, 100]]) for k in range(4)]
    pair = CoreQuad((faces[2] + faces[3]) / 2, 0.8, False, (faces[2], faces[3]))
    cores = [CoreQuad(faces[0], 0.9, False), CoreQuad(faces[1], 0.9, False), pair]
    photo = np.full((200, 300, 3), 90, np.uint8)

    def judge(image, quads):
        return np.full(len(quads), 0.99, np.float32)

    def found(config):
        dets = locate(photo, config=config, judge=judge, cores_of=lambda bgr, cfg: cores)
        return sorted(round(float(np.min(np.asarray(d.quad)[:, 0]))) for d in dets)

    assert found(replace(HAND_LOCATE, core_parts=PartsConfig())) == [40, 72, 104, 136]
    assert found(replace(HAND_LOCATE, core_parts=None)) == [40, 72, 120]
