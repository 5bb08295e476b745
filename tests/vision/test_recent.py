"""`agari.vision.recent`: exact repeats of a layout step answered from memory."""

from __future__ import annotations

import threading
from dataclasses import dataclass

import numpy as np
from agari.vision.recent import RECENT, remember_recent


@dataclass(frozen=True)
class Item:
    name: str


def _counting():
    calls = []

    @remember_recent
    def step(items, indices, array, config):
        calls.append(1)
        return [(items[i].name, float(array[i]), config) for i in indices]

    return step, calls


def test_a_repeat_is_answered_from_memory_in_a_new_list():
    step, calls = _counting()
    items = [Item("1m"), Item("2m"), Item("3m")]
    ext = np.array([1.0, 2.0, 3.0])
    first = step(items, [0, 2], ext, "cfg")
    first.append("changed by the caller")
    again = step(list(items), [0, 2], ext.copy(), "cfg")
    assert len(calls) == 1
    assert again == [("1m", 1.0, "cfg"), ("3m", 3.0, "cfg")]


def test_anything_different_is_worked_out_again():
    step, calls = _counting()
    items = [Item("1m"), Item("2m")]
    ext = np.array([1.0, 2.0])
    step(items, [0, 1], ext, "cfg")
    assert step([Item("1m"), Item("2m")], [0, 1], ext, "cfg")  # equal items, other objects
    assert step(items, [1], ext, "cfg") == [("2m", 2.0, "cfg")]
    assert step(items, [0, 1], np.array([1.0, 5.0]), "cfg")[1] == ("2m", 5.0, "cfg")
    assert step(items, [0, 1], ext.astype(np.float32), "cfg")
    assert step(items, [0, 1], ext, "other")[0] == ("1m", 1.0, "other")
    assert len(calls) == 6


def test_only_the_last_few_calls_are_kept_per_thread():
    step, calls = _counting()
    items = [Item("1m")]
    arrays = [np.array([float(k)]) for k in range(RECENT + 1)]
    for a in arrays:
        step(items, [0], a, None)
    step(items, [0], arrays[-1], None)  # kept
    assert len(calls) == RECENT + 1
    step(items, [0], arrays[0], None)  # the oldest was let go
    assert len(calls) == RECENT + 2
    done = []
    worker = threading.Thread(target=lambda: done.append(step(items, [0], arrays[-1], None)))
    worker.start()
    worker.join()
    assert done == [[("1m", float(RECENT), None)]] and len(calls) == RECENT + 3
