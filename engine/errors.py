"""One exception tree for all of agari: every user-facing failure is an `AgariError`.

Each error carries a stable ``code`` (used in the CLI's JSON error objects) and a
one-line message. Vision, models and datasets subclass these; nothing returns
error strings inside results.
"""

from __future__ import annotations


class AgariError(Exception):
    """Base of every error agari reports to a user (one line, stable code)."""

    code = "error"

    def __init__(self, message: str, *, code: str | None = None, **details: object) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code
        self.details = details

    @property
    def message(self) -> str:
        return str(self)


class InvalidInput(AgariError):
    """Malformed input: bad notation, bad option, bad JSON line."""

    code = "invalid_input"


class InvalidTile(InvalidInput):
    """A tile that cannot exist: ``8z``, a red 4, an unknown name."""

    code = "invalid_tile"


class InvalidHand(InvalidInput):
    """A hand that cannot exist: a fifth copy, a meld that is not a set, wrong size."""

    code = "invalid_hand"


class NotAgari(AgariError):
    """The tiles do not form a winning hand (和了形でない)."""

    code = "not_agari"


class NoYaku(AgariError):
    """A complete hand with no yaku (役なし): dora alone never win."""

    code = "no_yaku"


class ImageError(AgariError):
    """An image that cannot be read or used: missing, empty, truncated, not an image."""

    code = "bad_image"


class NoTiles(AgariError):
    """An image in which no tile was found."""

    code = "no_tiles"


class ModelError(AgariError):
    """The classifier model is missing, unreadable or lacks its metadata."""

    code = "model_error"
