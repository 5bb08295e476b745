"""Work started beside the caller's own: OpenCV and onnxruntime release the GIL, so a
second thread runs their calls while the caller's thread does other work."""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")

_idle: list[queue.SimpleQueue] = []
"""The inboxes of the helper threads waiting for work (`beside`)."""
_idle_lock = threading.Lock()


def beside(fn: Callable[..., Any], *args: Any, name: str = "agari-beside") -> Future:
    """``fn(*args)`` started on a thread of its own; ``.result()`` waits for it (and raises
    what it raised).

    The thread is one left idle by an earlier call where there is one, else a new one, so
    the work never waits behind other work. Starting a thread cost about 0.1 ms of CPU and
    held the caller until the thread ran (a locator call starts five); an idle one takes
    the work in a few microseconds."""
    future: Future = Future()
    with _idle_lock:
        inbox = _idle.pop() if _idle else None
    if inbox is None:
        inbox = queue.SimpleQueue()
        threading.Thread(target=_serve, args=(inbox,), name=name, daemon=True).start()
    inbox.put((future, fn, args, name))
    return future


def _serve(inbox: queue.SimpleQueue) -> None:
    """A helper thread: runs the calls put in its inbox one at a time, and between them
    waits idle, holding none of their arguments or results."""
    me = threading.current_thread()
    while True:
        future, fn, args, name = inbox.get()
        me.name = name
        if future.set_running_or_notify_cancel():
            try:
                future.set_result(fn(*args))
            except BaseException as exc:  # the caller's to handle, as in a thread pool
                future.set_exception(exc)
        future = fn = args = None
        with _idle_lock:
            _idle.append(inbox)


def _forget_helpers() -> None:
    """In a forked child: the parent's helper threads are not there to take work."""
    global _idle_lock
    _idle.clear()
    _idle_lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_helpers)


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
