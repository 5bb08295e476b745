"""OpenCV's L*a*b* tables built once, beside the caller: one build per process, waited for
by every conversion, and the same conversions as OpenCV's own."""

from __future__ import annotations

import threading
from concurrent.futures import Future

import cv2
import numpy as np
import pytest
from agari.vision import lab


def test_one_build_a_process_whoever_asks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab, "_building", None)
    first = lab.warm_lab()
    assert lab.warm_lab() is first
    assert lab.warm_lab(Future()) is first  # a build started elsewhere comes too late
    lab.lab_ready()
    assert first.done()


def test_a_build_started_by_the_caller_is_the_one_waited_for(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab, "_building", None)
    started: Future = Future()
    assert lab.warm_lab(started) is started
    waited = threading.Event()

    def wait() -> None:
        lab.lab_ready()
        waited.set()

    threading.Thread(target=wait, daemon=True).start()
    assert not waited.wait(0.05)  # still building
    started.set_result(None)
    assert waited.wait(5.0)


def test_ready_without_a_warm_start_builds_and_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab, "_building", None)
    lab.lab_ready()
    assert lab._building is not None and lab._building.done()


def test_conversions_are_opencvs_own() -> None:
    rng = np.random.default_rng(7)
    crops = rng.integers(0, 256, (3, 16, 12, 3), dtype=np.uint8)
    lab.lab_ready()
    flat = crops.reshape(-1, 12, 3)
    turned = cv2.cvtColor(flat, cv2.COLOR_BGR2LAB)
    turned[..., 0] = 255 - turned[..., 0]
    expected = cv2.cvtColor(turned, cv2.COLOR_LAB2BGR).reshape(crops.shape)
    assert np.array_equal(lab.inverted_lightness(crops), expected)
    assert np.array_equal(lab.inverted_lightness(crops[1]), expected[1])  # one image


def test_a_forked_child_forgets_a_build_its_parent_had_not_finished(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(lab, "_building", Future())  # the parent's, still building
    lab._forget_unfinished()
    assert lab._building is None
    done: Future = Future()
    done.set_result(None)
    monkeypatch.setattr(lab, "_building", done)
    lab._forget_unfinished()
    assert lab._building is done  # built before the fork: the child has the tables too
