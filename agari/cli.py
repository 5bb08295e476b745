"""The `agari` console script: a typer app composed from one module per command group.

Command modules live in `agari.commands`; each only parses options and calls
the library. Heavy imports (OpenCV, onnxruntime, rich) happen inside commands
so that `agari score` starts at once.
"""

from __future__ import annotations

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


def main() -> None:
    """Entry point of the console script."""
    app()


if __name__ == "__main__":
    main()
