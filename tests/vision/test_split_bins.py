"""The splitter's bins: each bin's strongest line, as a sort and `np.unique` first found it."""

from __future__ import annotations

import numpy as np
import pytest
from agari.vision.split import _bin_peaks


def _bin_peaks_by_unique(prof: np.ndarray, start: float, b: float, bins: int) -> np.ndarray:
    idx = np.arange(len(prof))
    which = np.floor((idx - start) / b + 0.5).astype(int)
    inside = (which >= 0) & (which < bins)
    order = np.lexsort((-prof[inside], which[inside]))
    keys, first = np.unique(which[inside][order], return_index=True)
    peak = np.clip(np.round(start + np.arange(bins) * b).astype(int), 0, len(prof) - 1)
    peak[keys] = idx[inside][order][first]
    return peak


@pytest.mark.parametrize("ties", [False, True])
def test_bin_peaks_match_the_unique_ranking(ties):
    rng = np.random.default_rng(int(ties))
    for _ in range(300):
        n = int(rng.integers(1, 300))
        prof = rng.random(n).astype(np.float32)
        if ties:  # equal lines in a bin: the first of them
            prof = np.round(prof * 3).astype(np.float32)
        start, b = float(rng.uniform(-6, 6)), float(rng.uniform(1, 25))
        bins = int(rng.integers(1, 50))
        got = _bin_peaks(prof, start, b, bins)
        assert got.dtype == _bin_peaks_by_unique(prof, start, b, bins).dtype
        assert np.array_equal(got, _bin_peaks_by_unique(prof, start, b, bins))


def test_bins_beyond_the_profile_take_its_nearest_line():
    prof = np.float32([0.1, 0.9, 0.2, 0.3])
    # Bins centred at 0, 2, 4, 6 and 8: lines 0 | 1, 2 | 3, and none in the last two.
    assert _bin_peaks(prof, 0.0, 2.0, 5).tolist() == [0, 1, 3, 3, 3]
