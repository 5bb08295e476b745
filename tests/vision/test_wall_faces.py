"""A dead wall's indicator the locator missed is read where the wall's stacks leave room
(`agari.vision.wall_faces`), and only where the layout found no dora on a wall."""

from __future__ import annotations

import numpy as np
from agari.vision.layout import analyse_layout
from agari.vision.wall_faces import WallFacesConfig, find_wall_faces
from layout_factories import HAND, PointReader, lay_out

IMAGE = np.zeros((1080, 1920, 3), np.uint8)


def _without_dora(laid):
    """The dets without the wall's indicator, and where it lay."""
    (k,) = [i for i, r in enumerate(laid.roles) if r == "dora"]
    centre = np.asarray(laid.dets[k].quad).mean(axis=0)
    return [d for i, d in enumerate(laid.dets) if i != k], centre


def test_a_missed_indicator_between_stacks_is_read() -> None:
    dets, centre = _without_dora(lay_out(**HAND, dora="7s", dead_wall=True))
    assert analyse_layout(dets)[0].dora == ()
    found = find_wall_faces(IMAGE, dets, PointReader(centre))
    plan = analyse_layout(found)[0]
    assert [str(found[i].label) for i in plan.dora] == ["7s"]


def test_a_missed_indicator_at_the_walls_end_is_read() -> None:
    laid = lay_out(**HAND, dora="7s", dead_wall=True)
    dets, centre = _without_dora(laid)
    # Only the two stacks before the indicator were boxed: it lies one stack beyond them.
    backs = [d for d in dets if d.label == "back"]
    dets = [d for d in dets if d.label != "back" or d in backs[:2]]
    found = find_wall_faces(IMAGE, dets, PointReader(centre))
    plan = analyse_layout(found)[0]
    assert [str(found[i].label) for i in plan.dora] == ["7s"]


def test_an_unsure_read_is_not_kept() -> None:
    dets, centre = _without_dora(lay_out(**HAND, dora="7s", dead_wall=True))
    reader = PointReader(centre, p=0.6)
    assert find_wall_faces(IMAGE, dets, reader) == dets
    assert reader.asked > 0


def test_nothing_is_read_where_the_wall_shows_its_indicator() -> None:
    laid = lay_out(**HAND, dora="7s", dead_wall=True)
    reader = PointReader((0, 0))
    assert find_wall_faces(IMAGE, laid.dets, reader) == laid.dets
    assert reader.asked == 0


def test_nothing_is_read_without_a_row_of_backs() -> None:
    laid = lay_out(**HAND)
    reader = PointReader((0, 0))
    assert find_wall_faces(IMAGE, laid.dets, reader) == laid.dets
    assert reader.asked == 0


def test_a_quad_stepped_off_the_indicator_is_read_moved_along_the_row() -> None:
    dets, centre = _without_dora(lay_out(**HAND, dora="7s", dead_wall=True))
    off = centre + np.asarray([12.0, 0.0])  # the indicator lies 12 px (0.3 stacks) along
    assert find_wall_faces(IMAGE, dets, PointReader(off), config=WallFacesConfig()) == dets
    found = find_wall_faces(IMAGE, dets, PointReader(off))
    plan = analyse_layout(found)[0]
    assert [str(found[i].label) for i in plan.dora] == ["7s"]
