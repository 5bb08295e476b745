"""Work started beside the caller's own: OpenCV and onnxruntime release the GIL, so a
second thread runs their calls while the caller's thread does other work."""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def beside(fn: Callable[..., Any], *args: Any, name: str = "agari-beside") -> Future:
    """``fn(*args)`` started on a thread of its own; ``.result()`` waits for it (and raises
    what it raised). A pool per call: a pool kept across calls would keep dead threads in
    a forked worker and never run its work."""
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix=name)
    try:
        return pool.submit(fn, *args)
    finally:
        pool.shutdown(wait=False)  # the submitted call still runs to its end


def in_turn(tasks: Sequence[Callable[[], T]], order: Sequence[int], *, name: str,
            helper: bool = True) -> Callable[[], list[T]]:
    """Starts a helper thread (unless ``helper`` is False) on ``tasks``, taken in ``order``
    (the costliest first, so that neither thread waits long for the other); the function
    returned has the calling thread take those left too, waits for the helper, and gives
    each task's result in the tasks' own order."""
    out: list[Any] = [None] * len(tasks)
    todo = iter(order)
    lock = threading.Lock()

    def work() -> None:
        while True:
            with lock:
                i = next(todo, None)
            if i is None:
                return
            out[i] = tasks[i]()

    started = beside(work, name=name) if helper else None

    def finish() -> list[T]:
        work()
        if started is not None:
            started.result()
        return out

    return finish


__all__ = ["beside", "in_turn"]
