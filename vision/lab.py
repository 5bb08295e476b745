"""OpenCV's L*a*b* tables built beside the caller, once a process.

OpenCV builds the tables of its 8-bit L*a*b* conversions at the first such call: about
95 ms of CPU (software floating point, for results to the bit), and not thread-safely (a
plain flag, set once they are built). `agari.models.polarity.face_polarity` measures the
lightness of every photo's crops in L*a*b*, so the first photo a process reads paid for the
tables on its calling thread: all of the one photo `agari photo` reads.

`warm_lab` starts them being built on a helper thread (``agari photo`` starts its own
before it imports the pipeline, loads the model and decodes the photo, while the second core
has little to do, and hands it over), and each of agari's L*a*b* conversions calls
`lab_ready` first, which waits for that one build (starting it if need be), so that no two
of agari's threads ever build them at once. The conversions' results are the same: only
where the tables are built differs.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import Future

import numpy as np

_building: Future | None = None
_lock = threading.Lock()


def _build() -> None:
    import cv2

    pixel = np.zeros((1, 1, 3), np.uint8)
    cv2.cvtColor(cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB), cv2.COLOR_LAB2BGR)


def warm_lab(started: Future | None = None) -> Future:
    """Start OpenCV's L*a*b* tables being built on a helper thread (once a process; later
    calls return the same future). ``started``: a build the caller started on a thread of
    its own before it could import this module (done when its future is), taken as the one
    build where none is yet; no L*a*b* conversion may have run meanwhile."""
    global _building
    with _lock:
        if _building is None:
            if started is not None:
                _building = started
            else:
                from agari.vision.threads import beside

                _building = beside(_build, name="agari-lab")
        return _building


def lab_ready() -> None:
    """Wait for the tables (built on a helper thread, started here if `warm_lab` was not
    called yet): every conversion of agari's goes through this one build."""
    building = _building
    (building if building is not None else warm_lab()).result()


def _forget_unfinished() -> None:
    """In a forked child: a build the parent had not finished has no thread here to finish
    it (the child's first conversion builds the tables anew, as OpenCV would)."""
    global _building, _lock
    _lock = threading.Lock()
    if _building is not None and not _building.done():
        _building = None


os.register_at_fork(after_in_child=_forget_unfinished)


def inverted_lightness(bgr: np.ndarray) -> np.ndarray:
    """A BGR ``uint8`` image ``(H, W, 3)`` or crops ``(N, H, W, 3)`` with L* turned over
    (255 - L), a* and b* kept: a dark-faced set's faces with light ink become light plates
    with dark ink (the classifier's `agari.models.polarity` and the locator's
    `LocateConfig.inverted` read them so)."""
    import cv2

    flat = bgr.reshape(-1, bgr.shape[-2], 3)  # OpenCV converts 2-D images: crops' rows stacked
    lab_ready()
    lab = cv2.cvtColor(flat, cv2.COLOR_BGR2LAB)
    lab[..., 0] = 255 - lab[..., 0]
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR).reshape(bgr.shape)


__all__ = ["inverted_lightness", "lab_ready", "warm_lab"]
