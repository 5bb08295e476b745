"""photo_eval with `PipelineConfig.hand_reframe` on (A/B of `agari.vision.hand_reframe`).

Usage: python bench/photo_eval_hand_reframe.py [photo_eval's arguments]; HAND_REFRAME_BELOW
sets `HandReframeConfig.below`.
"""

import os
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import photo_eval  # noqa: E402
from agari.vision.hand_reframe import DEFAULT_HAND_REFRAME  # noqa: E402

from agari.pipeline import PipelineConfig  # noqa: E402

below = float(os.environ.get("HAND_REFRAME_BELOW", DEFAULT_HAND_REFRAME.below))
photo_eval.PipelineConfig = partial(PipelineConfig,
                                    hand_reframe=replace(DEFAULT_HAND_REFRAME, below=below))

if __name__ == "__main__":
    sys.exit(photo_eval.main())
