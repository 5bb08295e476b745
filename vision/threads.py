"""Work started beside the caller's own: OpenCV and onnxruntime release the GIL, so a
second thread runs their calls while the caller's thread does other work."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any


def beside(fn: Callable[..., Any], *args: Any, name: str = "agari-beside") -> Future:
    """``fn(*args)`` started on a thread of its own; ``.result()`` waits for it (and raises
    what it raised). A pool per call: a pool kept across calls would keep dead threads in
    a forked worker and never run its work."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    try:
        return pool.submit(fn, *args)
    finally:
        pool.shutdown(wait=False)  # the submitted call still runs to its end


__all__ = ["beside"]
