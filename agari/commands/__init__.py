"""One module per command group; each exposes ``register(app)``.

Modules import only typer (and our light `agari.output`) at the top; the
libraries they drive are imported inside the command functions.
"""

from __future__ import annotations

import importlib

import typer

COMMAND_MODULES = (
    "score",      # agari score
    "game",       # agari game ...
    "classify",   # agari classify
    "detect",     # agari detect
    "photo",      # agari photo
    "dataset",    # agari dataset ...
    "train",      # agari train ...
    "webcam",     # agari webcam
    "label",      # agari label
    "calibrate",  # agari calibrate
)


def register_all(app: typer.Typer) -> None:
    """Attach every command group that exists in this build."""
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"agari.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"agari.commands.{name}":
                raise
            continue
        module.register(app)
