"""Re-reading a hand tile as it lies, keeping both cuts' names where they differ
(`reread_in_hand_frame(..., both=True)`, `PipelineConfig.reread_both`)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from agari.engine.tiles import Tile
from agari.vision.reread import reread_in_hand_frame
from layout_factories import lay_out

from agari.pipeline import DEFAULT_PIPELINE

IMAGE = np.zeros((8, 8, 3), np.uint8)  # the stub classifier looks at the flag, not pixels


def _boxed_as_called(det):
    """A concealed tile the locator took for a called one: flagged sideways, read surely as
    the face it shows turned (9s as 9p at 0.93)."""
    return replace(det, sideways=True, label=Tile.parse("9p"), confidence=0.93,
                   alternatives=(("9p", 0.93), ("none", 0.01)))


def _upright_reads_9s(image, dets):
    """Reads an upright cut as 9s (0.79), less surely than the first cut read 9p."""
    return [replace(d, label=Tile.parse("9s"), confidence=0.79,
                    alternatives=(("9s", 0.79), ("none", 0.12))) for d in dets]


def test_both_cuts_names_are_kept_where_they_name_other_tiles():
    laid = lay_out("123m456p789s1z", "1z")
    dets = list(laid.dets)
    dets[8] = _boxed_as_called(dets[8])  # the 9s
    out = reread_in_hand_frame(IMAGE, dets, _upright_reads_9s, both=0.5)
    assert dict(out[8].alternatives) == {"9p": 0.93, "9s": 0.79}
    assert str(out[8].label) == "9p"     # the surer cut still leads: the hand decides
    assert out[8].quad == dets[8].quad and out[8].sideways  # the first cut's quad and flag


def test_without_both_the_surer_first_cut_alone_is_kept():
    laid = lay_out("123m456p789s1z", "1z")
    dets = list(laid.dets)
    dets[8] = _boxed_as_called(dets[8])
    out = reread_in_hand_frame(IMAGE, dets, _upright_reads_9s)
    assert out[8] is dets[8]


def test_an_unsure_cut_as_it_lies_adds_nothing():
    laid = lay_out("123m456p789s1z", "1z")
    dets = list(laid.dets)
    dets[8] = _boxed_as_called(dets[8])
    assert reread_in_hand_frame(IMAGE, dets, _upright_reads_9s, both=0.8)[8] is dets[8]


def test_off_by_default():
    assert DEFAULT_PIPELINE.reread_both is None


def _turned_reads_9p(image, dets):
    """Reads a crop cut sideways as 9p (0.94), any other as 9s (0.87)."""
    return [replace(d, label=Tile.parse("9p" if d.sideways else "9s"),
                    confidence=0.94 if d.sideways else 0.87,
                    alternatives=(("9p", 0.94),) if d.sideways else (("9s", 0.87),))
            for d in dets]


def test_an_unsure_upright_tile_is_read_turned_too_when_asked():
    laid = lay_out("123m456p789s1z", "1z")
    dets = list(laid.dets)
    dets[8] = replace(dets[8], label=Tile.parse("9s"), confidence=0.87,
                      alternatives=(("9s", 0.87), ("none", 0.05)))
    assert reread_in_hand_frame(IMAGE, dets, _turned_reads_9p) == dets  # shaped as the rest
    out = reread_in_hand_frame(IMAGE, dets, _turned_reads_9p, unsure=0.9)
    assert dict(out[8].alternatives) == {"9p": 0.94, "9s": 0.87}
    assert out[8].quad == dets[8].quad and not out[8].sideways
    # Sure tiles are not read turned.
    assert all(a is b for k, (a, b) in enumerate(zip(out, dets, strict=True)) if k != 8)


def test_unsure_off_by_default():
    assert DEFAULT_PIPELINE.reread_unsure is None
