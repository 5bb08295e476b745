"""`analyse_layout` remembers its last few calls: the very same detections laid out again
give the same plans without laying them out afresh, in a list of the caller's own."""

from __future__ import annotations

from dataclasses import replace

from agari.vision import layout
from agari.vision.layout import analyse_layout
from layout_factories import lay_out


def _counted(monkeypatch) -> list[int]:
    calls: list[int] = []
    made = layout._layout
    monkeypatch.setattr(layout, "_layout", lambda *a: calls.append(1) or made(*a))
    return calls


def test_the_same_tiles_again_are_not_laid_out_afresh(monkeypatch):
    calls = _counted(monkeypatch)
    dets = lay_out("123m456p789s11z", "1z", dora="5m").dets
    first = analyse_layout(dets)
    again = analyse_layout(list(dets))
    assert again == first and again is not first and len(calls) == 1
    again.append(None)
    assert analyse_layout(dets) == first  # the memo's list is not the caller's
    assert len(calls) == 1


def test_other_arguments_or_tiles_are_laid_out_afresh(monkeypatch):
    calls = _counted(monkeypatch)
    dets = lay_out("123m456p789s11z", "1z", dora="5m").dets
    first = analyse_layout(dets)
    analyse_layout(dets, flip=True)
    analyse_layout(dets, unread=True)
    copies = [replace(d) for d in dets]  # equal tiles, other objects
    assert analyse_layout(copies) == first
    assert len(calls) == 4
