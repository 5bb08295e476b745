"""A lone core quad (no like-sized one near) is added only where the judge vouches for it."""

from dataclasses import replace

import numpy as np
from agari.vision.cores import CoreQuad
from agari.vision.locate import HAND_LOCATE, LocateConfig, _vouch, core_proposals
from agari.vision.proposals import Proposal


def _face(x: float, y: float = 0.0) -> np.ndarray:
    return np.float32([[x, y], [x + 30, y], [x + 30, y + 40], [x, y + 40]])


ROW = [CoreQuad(_face(32 * k), 0.9, False) for k in range(3)]
DORA = CoreQuad(_face(400, 200), 0.9, False)  # a face-up tile far from the others
BACK = CoreQuad(_face(600, 200), 0.9, True)


def _added(config: LocateConfig, vouch, existing=()) -> list[float]:
    _, added = core_proposals([*ROW, DORA, BACK], list(existing), 1.0, config, None, vouch)
    return sorted(float(p.quad[0, 0]) for p in added)


def test_a_lone_face_is_added_only_when_vouched_for():
    asked = []

    def vouch(proposals):
        asked.append([float(p.quad[0, 0]) for p in proposals])
        return [True] * len(proposals)

    assert _added(HAND_LOCATE, None) == [0, 32, 64]  # without a judge: company only
    assert _added(HAND_LOCATE, vouch) == [0, 32, 64, 400]
    assert asked == [[400.0]]  # only the lone face-up quad is judged, never a back
    assert _added(HAND_LOCATE, lambda ps: [False] * len(ps)) == [0, 32, 64]


def test_a_covered_lone_face_is_not_judged():
    covering = Proposal(_face(402, 201), 1.0)  # a classical box over the lone face
    asked = []

    def vouch(proposals):
        asked.append(proposals)
        return [True] * len(proposals)

    assert _added(HAND_LOCATE, vouch, [covering]) == [0, 32, 64]
    assert asked == []


def test_vouch_keeps_what_the_judge_rates_at_the_threshold_or_more():
    marks = {200.0: 0.97, 300.0: 0.9}
    seen = []

    def judge(image, quads):  # photo pixels: working pixels / scale
        seen.append([float(q[0, 0]) for q in quads])
        return np.float32([marks[float(q[0, 0])] for q in quads])

    keep = _vouch(np.zeros((8, 8, 3), np.uint8), 2.0, judge, 0.95)
    assert keep([Proposal(_face(400), 0.5), Proposal(_face(600), 0.5)]) == [True, False]
    assert seen == [[200.0, 300.0]]


def test_the_hand_locator_vouches_and_the_default_one_does_not():
    from agari.vision.locate import DEFAULT_CONFIG

    assert DEFAULT_CONFIG.lone_tile is None
    assert HAND_LOCATE.lone_tile is not None and HAND_LOCATE.lone_tile >= 0.9
    assert replace(HAND_LOCATE, lone_tile=None).lone_tile is None
