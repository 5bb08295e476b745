"""A few threads for the locator's own steps (tracing score maps, splitting regions).

Most of the locator's time goes to many small OpenCV and numpy calls, which release the
GIL while they work, so two threads get through a photo's regions faster than one where
a core is free: the core net's thread (`agari.vision.cores`) is done long before the
classical steps, and its core would idle. Work is handed out one item at a time (a few
regions take most of the time) and the results come back in the items' order, so the
locator's output does not depend on how many threads did the work.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import cv2
from agari.engine.cpus import usable_cpus

T = TypeVar("T")
R = TypeVar("R")


def worker_count(limit: int) -> int:
    """Threads to use: at most ``limit``, the CPUs this process may use, and OpenCV's own
    thread count (a bulk worker that set ``cv2.setNumThreads(1)`` works on one)."""
    return max(1, min(limit, usable_cpus(), cv2.getNumThreads()))


def ordered_map(fn: Callable[[T], R], items: Sequence[T], workers: int) -> list[R]:
    """``[fn(x) for x in items]``, computed by up to ``workers`` threads (this one included).

    ``fn`` must not depend on the order in which items are done. The first exception
    raised by ``fn`` is raised here once every thread has stopped.
    """
    if workers <= 1 or len(items) < 2:
        return [fn(x) for x in items]
    out: list = [None] * len(items)
    todo = iter(range(len(items)))
    lock = threading.Lock()
    failed = threading.Event()

    def run() -> None:
        while not failed.is_set():
            with lock:
                i = next(todo, None)
            if i is None:
                return
            try:
                out[i] = fn(items[i])
            except BaseException:
                failed.set()
                raise

    helpers = min(workers, len(items)) - 1
    # A pool per call: one kept across calls would hold dead threads in a forked worker.
    with ThreadPoolExecutor(max_workers=helpers, thread_name_prefix="agari-locate") as pool:
        started = [pool.submit(run) for _ in range(helpers)]
        try:
            run()
        finally:
            for f in started:
                f.exception()  # wait for each helper before raising anything
        for f in started:
            f.result()
    return out


__all__ = ["ordered_map", "worker_count"]
