"""A memo that lives for one block: the per-photo caches (`crops.remembered_shrinks`,
`fill.remembered_plains`, `scale.remembered_probes`) each keep a dict in a context
variable, set on entering the block and dropped on leaving it, so work is shared only
within one photo's reading on one thread and nothing outlives it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar


@contextmanager
def memo_scope(var: ContextVar[dict | None]) -> Iterator[None]:
    """Within it, ``var`` holds a fresh empty dict; outside, what it held before."""
    token = var.set({})
    try:
        yield
    finally:
        var.reset(token)
