"""`layout_geometry.find_rows` and `frame_of_row` remember their answers by the quads: a
hit answers as the computation does, a moved quad misses, and callers get lists of their own."""

from __future__ import annotations

import numpy as np
from agari.vision.detection import TileDetection
from agari.vision.layout_geometry import (
    DEFAULT_GEOMETRY,
    _frame,
    _remembered_frame,
    _remembered_rows,
    _rows,
    find_rows,
    frame_of_row,
    quads_of,
)


def _tile(x: float, y: float, w: float = 30.0, h: float = 40.0) -> TileDetection:
    return TileDetection(((x, y), (x + w, y), (x + w, y + h), (x, y + h)))


def _hand(n: int = 6, y: float = 100.0) -> list[TileDetection]:
    return [_tile(50.0 + 32.0 * k, y) for k in range(n)]


def test_rows_remembered_answer_as_computed_and_are_the_callers_own():
    dets = _hand() + [_tile(400.0, 400.0), _tile(432.0, 400.0)]
    want = [list(r) for r in _rows(quads_of(dets), DEFAULT_GEOMETRY)]
    first = find_rows(dets)
    hits = _remembered_rows.cache_info().hits
    again = find_rows(list(dets))
    assert first == again == want == [[0, 1, 2, 3, 4, 5], [6, 7]]
    assert _remembered_rows.cache_info().hits == hits + 1
    first[0].append(99)
    assert find_rows(dets) == want  # the memo's answer is not the caller's list


def test_a_moved_quad_misses():
    _remembered_rows.cache_clear()
    dets = _hand()
    assert find_rows(dets) == [[0, 1, 2, 3, 4, 5]]
    moved = dets[:5] + [_tile(50.0 + 32.0 * 5, 600.0)]  # the last tile far below the row
    misses = _remembered_rows.cache_info().misses
    assert find_rows(moved) == [[0, 1, 2, 3, 4], [5]]
    assert _remembered_rows.cache_info().misses == misses + 1


def test_frames_remembered_answer_as_computed():
    dets = _hand(8)
    row = [1, 2, 3, 4, 5]
    want = _frame(quads_of([dets[i] for i in row]))
    assert frame_of_row(dets, row) == want
    hits = _remembered_frame.cache_info().hits
    assert frame_of_row(dets, row) == want
    assert _remembered_frame.cache_info().hits == hits + 1
    _remembered_frame.cache_clear()
    misses = _remembered_frame.cache_info().misses
    larger = [_tile(50.0 + 40.0 * k, 100.0, w=36.0, h=48.0) for k in range(8)]
    assert frame_of_row(larger, row).tile_width == 36.0  # other quads: computed again
    assert _remembered_frame.cache_info().misses == misses + 1


def test_array_quads_are_read_without_the_memo():
    dets = [TileDetection(np.array(d.quad)) for d in _hand()]
    plain = _hand()
    assert find_rows(dets) == find_rows(plain)
    assert frame_of_row(dets, [0, 1, 2]) == frame_of_row(plain, [0, 1, 2])


def test_mid_extents_equal_the_stacked_halves():
    """`mid_extents` writes its columns in place: the same values and dtype as stacking
    the halved edge midpoints' minima and maxima."""
    from agari.vision.layout_geometry import mid_extents

    def stacked(quads, along, up):
        u = quads @ along if along.ndim == 1 else np.einsum("nkd,nd->nk", quads, along)
        v = quads @ up if up.ndim == 1 else np.einsum("nkd,nd->nk", quads, up)
        left, right = (u[:, 0] + u[:, 3]) / 2, (u[:, 1] + u[:, 2]) / 2
        bottom, top = (v[:, 2] + v[:, 3]) / 2, (v[:, 0] + v[:, 1]) / 2
        return np.stack([np.minimum(left, right), np.maximum(left, right),
                         np.minimum(bottom, top), np.maximum(bottom, top)], axis=1)

    rng = np.random.default_rng(3)
    for n in (0, 1, 6, 30):
        for dtype in (np.float64, np.float32):
            quads = (rng.random((n, 4, 2)) * 1000).astype(dtype)
            along = rng.random(2)
            along /= np.linalg.norm(along)
            up = np.array([along[1], -along[0]])
            per = rng.random((n, 2))
            for args in ((quads, along, up), (quads, per, per[:, ::-1])):
                want, got = stacked(*args), mid_extents(*args)
                assert got.dtype == want.dtype and np.array_equal(got, want)
    whole = rng.integers(0, 100, (5, 4, 2))
    axes = np.array([1, 0]), np.array([0, 1])
    assert np.array_equal(mid_extents(whole, *axes), stacked(whole, *axes))


def test_columns_and_local_aspects_as_on_numpy_scalars():
    """`columns_of` and `_local_aspect` read the extents as Python floats: the same columns
    and aspects as reading numpy's scalars (float64 and float32 extents)."""
    from agari.vision.layout_geometry import _local_aspect, _mids, columns_of

    def columns(row, ext, overlap=DEFAULT_GEOMETRY.stack_overlap):
        cols = []
        for i in sorted(row, key=lambda i: (ext[i, 0] + ext[i, 1]) / 2):
            if cols:
                last = cols[-1]
                lo, hi = min(ext[j, 0] for j in last), max(ext[j, 1] for j in last)
                if min(hi, ext[i, 1]) - max(lo, ext[i, 0]) >= overlap * min(
                        hi - lo, ext[i, 1] - ext[i, 0]):
                    last.append(i)
                    continue
            cols.append([i])
        return [sorted(c, key=lambda i: ext[i, 2]) for c in cols]

    def local(i, firsts, aspect, ext, n):
        mid = (ext[i, 0] + ext[i, 1]) / 2
        others = sorted((j for j in firsts if j != i),
                        key=lambda j: abs((ext[j, 0] + ext[j, 1]) / 2 - mid))[:n]
        return float(aspect[others].min()) if others else 0.0

    rng = np.random.default_rng(5)
    for trial in range(300):
        n = int(rng.integers(1, 30))
        start = np.sort(rng.random(n) * 600).round(int(rng.integers(0, 3)))  # ties too
        ext = np.stack([start, start + 20 + rng.random(n) * 40, rng.random(n) * 9,
                        50 + rng.random(n) * 9], axis=1)
        if trial % 3 == 0:
            ext = ext.astype(np.float32)
        row = sorted(rng.choice(n, int(rng.integers(0, n + 1)), replace=False).tolist())
        assert columns_of(row, ext) == columns(row, ext)
        aspect = (ext[:, 1] - ext[:, 0]) / (ext[:, 3] - ext[:, 2])
        firsts = rng.choice(n, int(rng.integers(1, n + 1)), replace=False).tolist()
        for i in range(n):
            assert _local_aspect(i, firsts, aspect, _mids(ext), 2) == \
                local(i, firsts, aspect, ext, 2)


def test_row_gaps_as_from_column_spans():
    """`row_gaps` on float64 extents spans columns in Python floats: the same gaps as
    `column_span`'s numpy scalars give."""
    from agari.vision.layout_geometry import column_span, row_gaps

    def gaps(cols, ext):
        spans = [column_span(c, ext) for c in cols]
        ends = np.maximum.accumulate([u1 for _, u1 in spans]) if spans else []
        return [float(spans[k + 1][0] - ends[k]) for k in range(len(spans) - 1)]

    rng = np.random.default_rng(11)
    for trial in range(300):
        n = int(rng.integers(1, 30))
        start = np.sort(rng.random(n) * 600).round(int(rng.integers(0, 3)))
        ext = np.stack([start, start + 20 + rng.random(n) * 40, rng.random(n),
                        rng.random(n)], axis=1)
        if trial % 3 == 0:
            ext = ext.astype(np.float32)
        order, cols = rng.permutation(n).tolist(), []
        while order:
            k = int(rng.integers(1, 4))
            cols.append(order[:k])
            order = order[k:]
        assert row_gaps(cols, ext) == gaps(cols, ext)
