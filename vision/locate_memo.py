"""One photo located again at other working-size caps (`agari.pipeline`'s retries): where a
cap does not bind, the working image is the one an earlier call made, and so are its tiles
(`agari.vision.locate.working_size`); they are taken from that call instead of found again."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
from agari.vision.detection import TileDetection
from agari.vision.locate import LocateConfig, working_size

Locator = Callable[[np.ndarray], list[TileDetection]]


class LocateMemo:
    """The tiles each locator found in each photo array, by working size and every other
    setting: the locators given to `remembered` must differ in their `LocateConfig` alone
    (the same judge, reader and core net), and the arrays must not change while it lives."""

    def __init__(self) -> None:
        # (id(image), working size, config less its cap) -> (image, tiles): holding the
        # image keeps its id from being reused by another array while the memo lives.
        self._seen: dict[tuple, tuple[np.ndarray, list[TileDetection]]] = {}

    def remembered(self, locate: Locator, config: LocateConfig) -> Locator:
        """``locate`` (which locates under ``config``), giving the tiles an earlier call found
        where the photo's working image is the same."""

        def located(image: np.ndarray) -> list[TileDetection]:
            if min(image.shape[:2]) < config.min_side:
                return locate(image)  # refused as it would be
            key = (id(image), working_size(image, config), replace(config, max_pixels=0.0))
            kept = self._seen.get(key)
            if kept is None or kept[0] is not image:
                kept = self._seen[key] = (image, locate(image))
            found = kept[1]
            # Each caller its own list (a stand-in locator's answer as it gave it).
            return list(found) if isinstance(found, list) else found

        return located


__all__ = ["LocateMemo"]
