"""Mending a calibration photo's rows: synthetic detections and a reader that knows the truth."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from agari.engine.tiles import CLASS_NAMES, NONE
from agari.models.calibration_grid import (
    GridConfig,
    Reading,
    completed_rows,
    deduplicated,
    distinct,
    joined_rows,
)
from agari.models.calibration_layout import (
    LayoutMismatch,
    ReferenceLayout,
    bind_layout,
    bind_rows,
)
from agari.vision.detection import TileDetection

W, H, PITCH, ROW_PITCH = 40.0, 54.0, 44.0, 80.0
LAYOUT = ReferenceLayout()


def true_quads(turn: float = 0.0) -> list[np.ndarray]:
    """The layout's tiles laid out evenly (left-aligned rows), turned by ``turn`` degrees."""
    a = np.radians(turn)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    out = []
    for r, row in enumerate(LAYOUT.rows):
        for c, _ in enumerate(row):
            x, y = 100 + c * PITCH, 100 + r * ROW_PITCH
            q = np.array([[x, y], [x + W, y], [x + W, y + H], [x, y + H]], np.float64)
            out.append((q - 400) @ rot.T + 400)
    return out


def det(q: np.ndarray, confidence: float = 0.9) -> TileDetection:
    return TileDetection(quad=tuple(map(tuple, q.tolist())), label="back",
                         confidence=confidence)


class TruthReader:
    """The classifier as a perfect oracle: a quad centred on a present tile reads as its
    kind, anything else as bare table (``none``, the table's colour)."""

    def __init__(self, quads: list[np.ndarray], present: set[int]):
        self.centres = np.array([q.mean(axis=0) for q in quads])
        self.present = present
        self.calls = 0

    def __call__(self, quads: list[np.ndarray]) -> Reading:
        self.calls += 1
        logp = np.full((len(quads), len(CLASS_NAMES)), np.log(1e-4))
        colour = np.zeros((len(quads), 3))
        for i, q in enumerate(quads):
            d = np.linalg.norm(self.centres - q.mean(axis=0), axis=1)
            k = int(d.argmin())
            hit = d[k] < 0.3 * W and k in self.present
            name = LAYOUT.names[k] if hit else NONE
            logp[i, CLASS_NAMES.index(name)] = np.log(0.99)
            colour[i] = (80.0, 0.0, 0.0) if hit else (30.0, 5.0, 5.0)
        tile = 1.0 - np.exp(logp[:, CLASS_NAMES.index(NONE)])
        return Reading(tile, logp, tuple(CLASS_NAMES), colour)


def mended(quads, found: list[int], present: set[int] | None = None,
           extra: list[TileDetection] = ()):
    reader = TruthReader(quads, set(range(len(quads))) if present is None else present)
    dets = [det(quads[i]) for i in found] + list(extra)
    return bind_rows(completed_rows(dets, LAYOUT, reader), LAYOUT)


def assert_bound_to_truth(bound, quads):
    assert [b.name for b in bound] == list(LAYOUT.names)
    for b, q in zip(bound, quads, strict=True):
        centre = np.mean(b.detection.quad, axis=0)
        assert np.linalg.norm(centre - q.mean(axis=0)) < 0.2 * W, b.name


EVERY = list(range(len(LAYOUT.names)))


@pytest.mark.parametrize("missed", [
    (13,),          # 5p, mid-row: interpolated between 4p and 6p
    (8,),           # 9m, a row's right end
    (27,),          # 1z, a row's left end
    (37,),          # the back, the last row's end
    (12, 13),       # 4p 5p, two side by side
    tuple(range(18, 27)),  # the whole souzu row
    tuple(range(34, 38)),  # the whole last row
])
@pytest.mark.parametrize("turn", [0.0, 25.0, 180.0])
def test_tiles_the_locator_missed_are_completed(missed, turn):
    quads = true_quads(turn)
    with pytest.raises(LayoutMismatch):
        bind_layout([det(quads[i]) for i in EVERY if i not in missed], LAYOUT)
    bound = mended(quads, [i for i in EVERY if i not in missed])
    if turn == 180.0:  # photographed from across: binding turns it back
        assert [b.name for b in bound] == list(LAYOUT.names)
    assert_bound_to_truth(bound, quads)


@pytest.mark.parametrize("absent", [(13,), (8,), (27,), (37,), (31,), (12, 13)])
def test_a_tile_really_absent_is_never_made_up(absent):
    quads = true_quads(10.0)
    present = set(EVERY) - set(absent)
    with pytest.raises(LayoutMismatch, match="expected"):
        mended(quads, sorted(present), present=present)


def test_a_blank_kind_past_the_row_end_must_differ_from_the_table():
    """Bare table reads as a back as easily as a back does: the colour decides."""
    quads = true_quads()
    reader = TruthReader(quads, set(EVERY) - {37})
    plain = reader.__call__

    def table_reads_as_back(qs):
        r = plain(qs)
        logp = r.logp.copy()
        logp[:, CLASS_NAMES.index("back")] = np.log(0.6)
        return dataclasses.replace(r, tile=np.ones(len(qs)), logp=logp)

    dets = [det(quads[i]) for i in EVERY if i != 37]
    with pytest.raises(LayoutMismatch, match=r"row 5 .* has 3, expected 4"):
        bind_rows(completed_rows(dets, LAYOUT, table_reads_as_back), LAYOUT)


def test_the_end_is_told_by_the_kinds():
    """A row one short is completed at the end whose kinds then read right, not the other."""
    quads = true_quads()
    # 9m missed: a candidate left of 1m would make every tile of the row read one off.
    bound = mended(quads, [i for i in EVERY if i != 8])
    assert bound[8].name == "9m"
    assert np.linalg.norm(np.mean(bound[8].detection.quad, axis=0) - quads[8].mean(axis=0)) < 5


def test_a_row_broken_in_two_is_joined():
    quads = true_quads(15.0)
    # 5s boxed askew and a touch high: chaining breaks the souzu row in two there.
    askew = quads[22].mean(axis=0) + (quads[22] - quads[22].mean(axis=0)) @ np.array(
        [[np.cos(0.5), -np.sin(0.5)], [np.sin(0.5), np.cos(0.5)]]).T - [0, 8]
    dets = [det(askew if i == 22 else quads[i]) for i in EVERY]
    rows = joined_rows([[d for d in dets[18:22]], [d for d in dets[22:27]]])
    assert len(rows) == 1 and [d.quad for d in rows[0]] == [d.quad for d in dets[18:27]]


def test_rows_of_different_lines_stay_apart():
    quads = true_quads(15.0)
    dets = [det(q) for q in quads]
    rows = joined_rows([dets[0:9], dets[9:18]])
    assert [len(r) for r in rows] == [9, 9]


def test_a_box_across_two_tiles_and_a_second_box_are_dropped():
    quads = true_quads()
    across = (quads[3] + quads[4]) / 2          # straddles 4m and 5m
    again = quads[6] + [2.0, 1.0]               # 7m boxed twice, less surely
    row = [det(q) for q in quads[:9]] + [det(across, 0.95), det(again, 0.5)]
    kept = deduplicated(distinct(row))
    assert [d.quad for d in kept] == [det(q).quad for q in quads[:9]]
    bound = mended(quads, EVERY, extra=[det(across, 0.95), det(again, 0.5)])
    assert_bound_to_truth(bound, quads)


def test_no_more_than_max_missing_are_added_to_a_row():
    quads = true_quads()
    missed = (5, 6, 7, 8)
    dets = [det(quads[i]) for i in EVERY if i not in missed]
    reader = TruthReader(quads, set(EVERY))
    with pytest.raises(LayoutMismatch, match=r"row 1 .* has 5, expected 9"):
        bind_rows(completed_rows(dets, LAYOUT, reader, config=GridConfig(max_missing=3)),
                  LAYOUT)


def test_rows_across_the_quads_named_a_quarter_turn_off():
    """Seen low, upright tiles look wider than tall and a locator may name every quad a
    quarter turn off: the rows then run across most TL→TR edges."""
    squat = [q.mean(axis=0) + (q - q.mean(axis=0)) * [1.0, 0.55] for q in true_quads(5.0)]
    turned = [q[[3, 0, 1, 2]] for q in squat]   # TL→TR now runs up the tile
    reader = TruthReader(squat, set(EVERY))
    dets = [det(q) for i, q in enumerate(turned) if i != 13]
    with pytest.raises(LayoutMismatch):
        bind_rows(completed_rows(dets, LAYOUT, reader), LAYOUT)
    bound = bind_rows(completed_rows(dets, LAYOUT, reader, across=True), LAYOUT)
    assert_bound_to_truth(bound, squat)
