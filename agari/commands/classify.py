"""`agari classify CROP...`: stage 2 alone, on images that each hold one tile.

Each crop is taken whole (a landscape crop is a sideways tile, turned
portrait), run through the shipped classifier (or ``--model``) and reported per
the contract: ``{"image", "tile", "confidence", "top"}`` per crop. A crop that
cannot be read gives an error line (an error object with ``--json``) and the
others still run; the exit code is non-zero if any failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agari.output import EXIT_ERROR, emit_json, reported_errors

BATCH = 64
"""Crops read and classified together."""


def register(app: typer.Typer) -> None:
    """Attach `agari classify` to the main app."""
    app.command(name="classify")(classify)


def classify(
    crops: Annotated[list[Path], typer.Argument(help="Image files, each one tile.")],
    json_: Annotated[bool, typer.Option("--json", help="One JSON document per crop.")] = False,
    top: Annotated[int, typer.Option(help="Alternatives to list per crop.")] = 3,
    model: Annotated[Path | None, typer.Option(
        help="An agari classifier .onnx (default: the shipped model).")] = None,
) -> None:
    """Name the tile in each crop (34 kinds, red fives, back, none)."""
    with reported_errors(json_mode=json_):
        from agari.models.classifier import TileClassifier, classify_files

        clf = TileClassifier.load(model)
        failed = 0
        for start in range(0, len(crops), BATCH):
            for result in classify_files(clf, crops[start:start + BATCH], top_k=top):
                failed += _report(result, json_)
        if failed:
            raise typer.Exit(EXIT_ERROR)


def _report(result: dict, json_: bool) -> int:
    import sys

    if json_:
        emit_json(result)
    if "error" in result:
        sys.stderr.write(f"agari: error: {result['error']['message']}\n")
        return 1
    if not json_:
        from agari.output import console

        alts = "  ".join(f"{name} {p:.2f}" for name, p in result["top"][1:])
        tile = result["tile"] if result["tile"] is not None else "none"
        console().print(f"{result['image']}: {tile} ({result['confidence']:.2f})"
                        + (f"   [dim]{alts}[/dim]" if alts else ""))
    return 0
