"""The ``>>>`` examples in the scoring engine's docstrings run and hold."""

import doctest
import importlib

import pytest

MODULES = ["tiles", "rules", "points", "hand", "context", "shapes", "dora", "fu", "scoring",
           "requests", "batch", "waits", "random_hands", "shanten", "suit_table"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(f"agari.engine.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
