"""`layout_parse.segment_row` and `bridged_cuts` remember each row's cuts: a hit answers as
the first call did, another row misses, and callers get lists of their own."""

from __future__ import annotations

from agari.vision.layout_parse import _bridged_cuts, _segment_row, bridged_cuts, segment_row


def _spans(cuts):
    return [[(c.kind, c.start, c.stop) for c in cut] for cut in cuts]


def test_segmentations_remembered_and_the_callers_own():
    groups = ["PPPPPSPP"]
    first = segment_row(groups)
    hits = _segment_row.cache_info().hits
    again = segment_row(list(groups))
    assert _spans(first) == _spans(again) == [
        [("concealed", 0, 5), ("open", 5, 8)], [("concealed", 0, 4), ("open", 4, 8)]]
    assert _segment_row.cache_info().hits == hits + 1
    first[0].pop()
    first.pop()
    assert _spans(segment_row(groups)) == _spans(again)


def test_another_row_misses():
    _segment_row.cache_clear()  # rows other tests parsed would hit
    misses = _segment_row.cache_info().misses
    assert _spans(segment_row(["PPPPP", "P", "SPP"])) == [
        [("concealed", 0, 5), ("concealed", 5, 6), ("open", 6, 9)]]
    assert _spans(segment_row(["SPP", "PPPPP"])) == []
    assert _segment_row.cache_info().misses == misses + 2


def test_bridged_cuts_remembered():
    groups = ["PPPPPPP", "P", "S", "PP", "PS", "P"]
    first = bridged_cuts(groups)
    hits = _bridged_cuts.cache_info().hits
    again = bridged_cuts(groups)
    assert _spans(first) == _spans(again) and first
    assert _bridged_cuts.cache_info().hits == hits + 1
    first.clear()
    assert _spans(bridged_cuts(groups)) == _spans(again)
