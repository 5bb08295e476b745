"""`locate`: find every tile in a photo with classical OpenCV (stage 1 of the pipeline).

Steps, all at a working scale of at most `LocateConfig.max_pixels`:

1. Score maps (`agari.vision.regions`): faces are bright and nearly colourless,
   backs are colourful.
2. Regions at many threshold levels; tile-shaped ones give the local tile size.
3. Every region is split into tiles (`agari.vision.split`) by that size and
   the seams between touching tiles; single tiles pass through whole.
4. Overlapping proposals from different levels are reduced to the best one.
5. Tiles are grouped into rows, given an up direction and the sideways flag,
   and sorted in reading order (`agari.vision.rows`); quads are mapped back to
   the original image's pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from agari.engine.errors import ImageError
from agari.vision.crops import as_bgr
from agari.vision.detection import TileDetection
from agari.vision.proposals import Proposal, ProposalConfig, propose
from agari.vision.rows import RowConfig, arrange
from agari.vision.scale import ScaleConfig, choose_scale, pixel_scale, shrink


@dataclass(frozen=True, slots=True)
class LocateConfig:
    """Everything `locate` can be tuned by; the defaults are the shipped behaviour."""

    max_pixels: float = 1.0e6
    """Working-image size cap: larger photos are downscaled to this many pixels."""
    probe: bool = True
    """Probe the tile size first and work at the scale that suits it (see `agari.vision.scale`)."""
    scale: ScaleConfig = field(default_factory=ScaleConfig)
    min_side: int = 32
    """Images smaller than this on either side are refused."""
    proposals: ProposalConfig = field(default_factory=ProposalConfig)
    rows: RowConfig = field(default_factory=RowConfig)


DEFAULT_CONFIG = LocateConfig()


working_scale = pixel_scale


def locate(image: np.ndarray, *, config: LocateConfig = DEFAULT_CONFIG) -> list[TileDetection]:
    """Find the tiles in a photo.

    Args:
        image: BGR ``uint8 (H, W, 3)`` (grey and BGRA are accepted), any size.
        config: tuning; see `LocateConfig`.

    Returns:
        One `TileDetection` per tile found (unlabelled: ``label`` None), quads in
        the original image's pixels, in reading order: rows from the top of the
        image down, tiles along each row left to right in the row's own frame.
        An empty list when nothing tile-like is in the picture.

    Raises:
        ImageError: not a usable image (wrong type, empty, tiny, blank).
    """
    bgr = as_bgr(image)
    h, w = bgr.shape[:2]
    if min(h, w) < config.min_side:
        raise ImageError(f"image is too small to hold tiles: {w}x{h} pixels")
    scale = choose_scale(bgr, config.max_pixels, config.scale) if config.probe \
        else pixel_scale(h, w, config.max_pixels)
    work = shrink(bgr, scale)
    scale = work.shape[1] / w  # the exact factor after rounding the size
    proposals = propose(work, config.proposals)
    return arrange(proposals, scale=scale, cfg=config.rows)


__all__ = ["DEFAULT_CONFIG", "LocateConfig", "Proposal", "locate", "working_scale"]
