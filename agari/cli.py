"""The `agari` console script: a typer app composed from one module per command group.

Command modules live in `agari.commands`; each only parses options and calls
the library. Heavy imports (OpenCV, onnxruntime, rich) happen inside commands
so that `agari score` starts at once. The typer app itself is built on first
use (``agari.cli.app``): ``agari score --batch FILE`` — a plain batch run
with nothing else on the command line — is served without importing typer,
whose start-up costs more than scoring a thousand hands.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import typer


def build_app() -> typer.Typer:
    """The typer app with every command group that exists in this build."""
    import typer

    from agari.commands import register_all

    app = typer.Typer(
        name="agari",
        help="Score riichi mahjong hands from photos, a webcam or text.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,
    )
    register_all(app)
    return app


def __getattr__(name: str) -> Any:
    """``agari.cli.app`` is built when first asked for (PEP 562)."""
    if name == "app":
        app = globals()["app"] = build_app()
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main() -> None:
    """Entry point of the console script."""
    argv = sys.argv[1:]
    if len(argv) == 3 and argv[0] == "score" and argv[1] == "--batch":
        from agari.engine.batch import main_batch

        sys.exit(main_batch(argv[2]))
    build_app()()


if __name__ == "__main__":
    main()
