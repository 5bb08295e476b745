"""bench/calibrate_eval.py's breakdown of the errors calibration leaves (no rendering)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from agari.engine.tiles import CLASS_NAMES
from agari.models.calibration_features import CropLooks

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
import calibrate_eval as bench  # noqa: E402


class FixedProfile:
    """Stands in for a profile: ``adjust`` returns the readings it was given."""

    def __init__(self, read: list[str]) -> None:
        self.probs = np.eye(len(CLASS_NAMES), dtype=np.float32)[[CLASS_NAMES.index(c)
                                                                  for c in read]]

    def adjust(self, probs, embeddings, looks):
        return self.probs


def one_set(truth: list[str], alone: list[str], calibrated: list[str] | None,
            seed: int = 3) -> bench.SetResult:
    n = len(truth)
    onehot = np.eye(len(CLASS_NAMES), dtype=np.float32)
    return bench.SetResult(
        "hollow" if calibrated is not None else "plain", seed, "ok",
        FixedProfile(calibrated) if calibrated is not None else None,
        np.array([CLASS_NAMES.index(c) for c in truth]),
        onehot[[CLASS_NAMES.index(c) for c in alone]], np.zeros((n, 4), np.float32),
        CropLooks(np.zeros((n, 0), np.float32), np.zeros((n, 3), np.float32)),
        np.zeros((n, 3), np.float32))


def test_confusions_split_what_calibration_leaves_by_cause():
    truth = ["1m", "2m", "3m", "back", "5z", "none"]
    twin = one_set(truth, ["1m", "2m", "9m", "back", "5z", "none"], None)
    #                     induced  set's look  twin wrong too  mended  table: not a tile
    left = one_set(truth, ["1m", "4m", "9m", "none", "5z", "back"],
                   ["7m", "4m", "9m", "back", "none", "back"])
    out = bench.confusions([left], {3: twin})
    # 1m>7m induced; 2m>4m the set's look (the twin reads it); 3m>9m misread in the twin
    # too; 5z>none induced and read as no tile; the back mended; table crops not counted.
    assert out["kinds"] == {"induced": 2, "kept_twin_right": 1, "kept_twin_wrong": 1,
                            "to_none": 1}
    pairs = {(p["truth"], p["read"]): (p["n"], p["induced"]) for p in out["pairs"]}
    assert pairs == {("1m", "7m"): (1, 1), ("2m", "4m"): (1, 0), ("3m", "9m"): (1, 0),
                     ("5z", "none"): (1, 1)}
    # without a twin of the same scenes, no error can be told to be the set's look
    assert bench.confusions([left])["kinds"]["kept_twin_right"] == 0
