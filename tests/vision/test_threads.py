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
