"""Work started beside the caller: its result, and its error, come back through ``result``."""

from __future__ import annotations

import threading

import pytest
from agari.engine.errors import ImageError
from agari.vision.threads import beside


def test_beside_runs_on_another_thread_and_returns_its_result() -> None:
    ran_on = beside(lambda: threading.current_thread().name, name="agari-test").result()
    assert ran_on.startswith("agari-test")
    assert beside(divmod, 17, 5).result() == (3, 2)


def test_beside_raises_the_error_of_its_work_in_the_caller() -> None:
    def broken() -> None:
        raise ImageError("unreadable")

    with pytest.raises(ImageError, match="unreadable"):
        beside(broken).result()


def test_beside_takes_an_idle_helper_again() -> None:
    first = beside(threading.get_ident).result()
    assert beside(threading.get_ident).result() == first  # the first one's thread, idle again


def test_beside_works_in_a_forked_child() -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    assert beside(divmod, 7, 2).result() == (3, 1)  # a helper left idle in the parent
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork")) as pool:
        assert pool.submit(_in_child).result(timeout=30) == (4, 1)


def _in_child() -> tuple[int, int]:
    return beside(divmod, 9, 2).result(timeout=10)
