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

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (the batch path's start-up)
if TYPE_CHECKING:
    from typing import Any

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
    source = _plain_batch(sys.argv[1:])
    if source is not None:
        import gc

        gc.disable()  # loading makes no garbage worth collecting; main_batch freezes it
        from agari.engine.batch import main_batch

        gc.enable()
        sys.exit(main_batch(source))
    build_app()()


def _plain_batch(argv: list[str]) -> str | None:
    """SOURCE when the command line is just ``score --batch SOURCE`` (``--json`` allowed)."""
    rest = [a for a in argv[1:] if a != "--json"]
    if argv[:1] == ["score"] and len(rest) == 2 and rest[0] == "--batch":
        return rest[1]
    if argv[:1] == ["score"] and len(rest) == 1 and rest[0].startswith("--batch="):
        return rest[0].removeprefix("--batch=")
    return None


if __name__ == "__main__":
    main()
