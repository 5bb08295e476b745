"""A dora the locator left out is read from the core net's lone quad where indicators lie
(`agari.vision.indicator_faces`), and only where the layout reads no dora."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.vision.cores import CoreQuad
from agari.vision.indicator_faces import IndicatorFacesConfig, find_indicator_faces
from agari.vision.layout import analyse_layout
from layout_factories import HAND, H, PointReader, W, lay_out

IMAGE = np.zeros((1080, 1920, 3), np.uint8)
SEARCH = IndicatorFacesConfig(search=True)


def _without_dora(**kw):
    """The dets of a hand with a loose dora behind it, less the dora, and the dora's quad."""
    laid = lay_out(**HAND, dora="7s", **kw)
    (k,) = [i for i, r in enumerate(laid.roles) if r == "dora"]
    quad = np.asarray(laid.dets[k].quad, np.float32)
    return [d for i, d in enumerate(laid.dets) if i != k], quad


def _net(quad, face_down: bool = False) -> list[CoreQuad]:
    return [CoreQuad(np.asarray(quad, np.float32), 0.8, face_down)]


def test_a_lone_net_quad_behind_the_hand_becomes_the_dora() -> None:
    dets, quad = _without_dora()
    assert analyse_layout(dets)[0].dora == ()
    found = find_indicator_faces(IMAGE, dets, _net(quad), PointReader(quad.mean(axis=0)))
    plan = analyse_layout(found)[0]
    assert [str(found[i].label) for i in plan.dora] == ["7s"]


def test_nothing_is_read_where_the_layout_reads_a_dora() -> None:
    laid = lay_out(**HAND, dora="7s")
    reader = PointReader((0, 0))
    far = np.float32([[900, 100], [940, 100], [940, 154], [900, 154]])
    assert find_indicator_faces(IMAGE, laid.dets, _net(far), reader) is laid.dets
    assert reader.asked == 0


def test_a_net_quad_in_front_of_the_hand_is_not_read() -> None:
    dets, quad = _without_dora()
    front = quad + np.float32([0, 4 * H])  # below the hand in the picture: the player's side
    reader = PointReader(front.mean(axis=0))
    assert find_indicator_faces(IMAGE, dets, _net(front), reader) is dets
    assert reader.asked == 0


def test_a_net_quad_over_a_located_tile_is_not_read() -> None:
    laid = lay_out(**HAND)
    reader = PointReader((0, 0))
    over = np.asarray(laid.dets[3].quad, np.float32)
    assert find_indicator_faces(IMAGE, laid.dets, _net(over), reader) is laid.dets
    assert reader.asked == 0


def test_an_unsure_reading_is_not_kept() -> None:
    dets, quad = _without_dora()
    reader = PointReader(quad.mean(axis=0), p=0.6)
    assert find_indicator_faces(IMAGE, dets, _net(quad), reader,
                                config=replace(SEARCH, rescue_floor=None)) is dets
    assert reader.asked > 0


def test_the_search_finds_a_face_beside_the_net_quad() -> None:
    dets, quad = _without_dora()
    low = quad + np.float32([0, 0.5 * H])  # the net framed the face's lower part and more
    reader = PointReader(quad.mean(axis=0))
    assert find_indicator_faces(IMAGE, dets, _net(low), reader,
                                config=IndicatorFacesConfig(rescue_floor=None)) is dets
    # The grid's faces as tall as the laid ones (these stand, W x H; flat faces are shorter).
    search = replace(SEARCH, rescue_floor=None, width=1.0, heights=(H / W,))
    found = find_indicator_faces(IMAGE, dets, _net(low), reader, config=search)
    plan = analyse_layout(found)[0]
    assert [str(found[i].label) for i in plan.dora] == ["7s"]


def test_a_face_down_net_quad_is_read_only_if_asked() -> None:
    dets, quad = _without_dora()
    reader = PointReader(quad.mean(axis=0))
    assert find_indicator_faces(IMAGE, dets, _net(quad, face_down=True), reader,
                                config=IndicatorFacesConfig(face_down=False)) is dets
    found = find_indicator_faces(IMAGE, dets, _net(quad, face_down=True), reader)
    assert len(found) == len(dets) + 1
