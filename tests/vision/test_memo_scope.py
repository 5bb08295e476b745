"""`memo_scope`: a fresh memo for the block, the one before it back afterwards."""

from contextvars import ContextVar

import pytest
from agari.vision.memo_scope import memo_scope

MEMO: ContextVar[dict | None] = ContextVar("test_memo", default=None)


def test_a_block_has_its_own_memo_and_leaves_none_behind() -> None:
    assert MEMO.get() is None
    with memo_scope(MEMO):
        MEMO.get()["a"] = 1
        with memo_scope(MEMO):
            assert MEMO.get() == {}
        assert MEMO.get() == {"a": 1}
    assert MEMO.get() is None


def test_the_memo_is_dropped_when_the_block_raises() -> None:
    with pytest.raises(RuntimeError), memo_scope(MEMO):
        raise RuntimeError
    assert MEMO.get() is None
