"""CLI output helpers: one-line errors, JSON documents, a lazily made rich console.

Every command reports failures the same way: a one-line message on stderr, a
non-zero exit, and with ``--json`` an ``{"error": {"code", "message"}}`` object
on stdout. Only the CLI layer uses this module.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from typing import TYPE_CHECKING, Any, NoReturn

import typer

from agari.engine.errors import AgariError

if TYPE_CHECKING:
    from rich.console import Console

EXIT_ERROR = 1
EXIT_INTERRUPTED = 130
EXIT_INTERNAL = 70


@cache
def console(stderr: bool = False) -> Console:
    """A rich console (imported on first use to keep start-up light)."""
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def emit_json(obj: Any, *, indent: int | None = None) -> None:
    """Write one JSON document on its own line to stdout."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=indent) + "\n")
    sys.stdout.flush()


def error_object(err: AgariError) -> dict:
    """The contract's error object for ``err``."""
    body: dict[str, Any] = {"code": err.code, "message": err.message}
    body.update({k: v for k, v in err.details.items() if _jsonable(v)})
    return {"error": body}


def _jsonable(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def fail(err: AgariError, *, json_mode: bool = False) -> NoReturn:
    """Report ``err`` per the contract and exit non-zero."""
    if json_mode:
        emit_json(error_object(err))
    sys.stderr.write(f"agari: error: {err.message}\n")
    raise typer.Exit(EXIT_ERROR)


@contextmanager
def reported_errors(*, json_mode: bool = False) -> Iterator[None]:
    """Turn library errors into the contract's one-line report; never a traceback.

    Unexpected exceptions are reported in one line too (set ``AGARI_DEBUG=1`` to
    see the traceback), because a user should never face a stack dump.
    """
    try:
        yield
    except AgariError as err:
        fail(err, json_mode=json_mode)
    except KeyboardInterrupt:
        sys.stderr.write("agari: interrupted\n")
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except (typer.Exit, typer.Abort, SystemExit):
        raise
    except Exception as exc:  # noqa: BLE001 - last line of defence, see docstring
        if os.environ.get("AGARI_DEBUG"):
            raise
        err = AgariError(f"internal error: {type(exc).__name__}: {exc}", code="internal")
        if json_mode:
            emit_json(error_object(err))
        sys.stderr.write(f"agari: {err.message} (AGARI_DEBUG=1 shows the traceback)\n")
        raise typer.Exit(EXIT_INTERNAL) from None
