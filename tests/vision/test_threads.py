"""The locator's threads: results in order, errors passed on, output independent of them."""

from __future__ import annotations

import threading
from dataclasses import replace

import cv2
import numpy as np
import pytest
from agari.vision.proposals import ProposalConfig, propose
from agari.vision.threads import ordered_map, worker_count
from locate_factories import add_row, blank


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_ordered_map_gives_results_in_the_items_order(workers):
    names = set()

    def square(x: int) -> int:
        names.add(threading.current_thread().name)
        return x * x

    assert ordered_map(square, list(range(50)), workers) == [x * x for x in range(50)]
    assert ordered_map(square, [], workers) == []
    assert len(names) <= workers


def test_ordered_map_raises_what_an_item_raised_once_every_thread_stopped():
    def fails_on_seven(x: int) -> int:
        if x == 7:
            raise ValueError("seven")
        return x

    with pytest.raises(ValueError, match="seven"):
        ordered_map(fails_on_seven, list(range(40)), 2)
    assert not [t for t in threading.enumerate() if t.name.startswith("agari-locate")]


def test_worker_count_follows_opencvs_thread_count():
    threads = cv2.getNumThreads()
    try:
        cv2.setNumThreads(1)  # as a bulk worker does
        assert worker_count(4) == 1
        cv2.setNumThreads(2)
        assert 1 <= worker_count(4) <= 2
        assert worker_count(1) == 1
    finally:
        cv2.setNumThreads(threads)


def test_proposals_are_the_same_however_many_threads_make_them():
    rng = np.random.default_rng(11)
    scene = blank(rng, size=(360, 640), grain=0.3)
    add_row(scene, rng, 40, 50, n=9, width=40)
    add_row(scene, rng, 60, 200, n=6, width=30, gap=4)
    work = scene.image
    threads = cv2.getNumThreads()
    try:
        cv2.setNumThreads(2)
        one = propose(work, replace(ProposalConfig(), workers=1))
        two = propose(work, replace(ProposalConfig(), workers=2))
    finally:
        cv2.setNumThreads(threads)
    assert len(one) >= 15
    assert len(one) == len(two)
    for a, b in zip(one, two, strict=True):
        assert np.array_equal(a.quad, b.quad) and a.score == b.score
        assert a.face_down == b.face_down
