"""`agari photo` starts OpenCV's L*a*b* tables on a thread of their own before it imports the
pipeline (`agari.vision.lab`)."""

from __future__ import annotations

from agari.commands.photo import _warm_lab


def test_the_photo_command_builds_the_lab_tables_beside() -> None:
    done = _warm_lab()
    assert done.result(timeout=30) is None
