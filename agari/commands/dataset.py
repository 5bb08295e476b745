"""`agari dataset synth|crops|convert`: synthetic scenes, classifier crops, format conversion.

Thin layer: options are parsed here and the work is done by `agari.datasets.jobs`.
Formats: yolo, yolo-obb, coco, labelstudio, csv (see docs/datasets.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agari.output import EXIT_ERROR, emit_json, reported_errors

FORMATS_HELP = "yolo, yolo-obb, coco, labelstudio or csv"


def register(app: typer.Typer) -> None:
    """Attach `agari dataset ...` to the main app."""
    group = typer.Typer(help="Synthetic tile scenes, crops and annotation formats.",
                        no_args_is_help=True)
    group.command(name="synth")(synth)
    group.command(name="crops")(crops)
    group.command(name="convert")(convert)
    app.add_typer(group, name="dataset")


def synth(
    out: Annotated[Path, typer.Option(help="Output folder (images/ + annotations).")],
    scenes: Annotated[int, typer.Option(help="Number of scenes to render.")] = 100,
    seed: Annotated[int, typer.Option(help="First scene's seed; scene i uses seed + i.")] = 0,
    format_: Annotated[str, typer.Option("--format", help=FORMATS_HELP)] = "coco",
    size: Annotated[str, typer.Option(help="Image size WxH.")] = "1280x960",
    kinds: Annotated[str | None, typer.Option(
        help="Scene kinds, comma-separated: shown, standing, table, tray (default: all).")] = None,
    tile_px: Annotated[str, typer.Option(help="Tile face width range in pixels, MIN-MAX.")]
    = "20-250",
    art: Annotated[list[Path] | None, typer.Option(
        help="Tile art folder; repeat to pool several (default: pymdownx-mahjong's art).")]
    = None,
    min_visible: Annotated[float, typer.Option(
        help="Leave out tiles less visible than this share (0-1).")] = 0.25,
    clean: Annotated[bool, typer.Option(
        help="No lighting, blur, noise or JPEG effects (the bare render).")] = False,
    workers: Annotated[int, typer.Option(help="Render processes.")] = 1,
    resume: Annotated[bool, typer.Option(help="Keep finished scenes in OUT; render the rest.")]
    = False,
    json_: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Render synthetic photos of hands with full ground truth."""
    with reported_errors(json_mode=json_):
        from agari.datasets.jobs import synthesize
        from agari.datasets.scene import SCENE_KINDS, SceneConfig

        width, height = _pair(size, "x", "--size")
        lo, hi = _pair(tile_px, "-", "--tile-px", cast=float)
        chosen = tuple(k.strip() for k in kinds.split(",")) if kinds else SCENE_KINDS
        config = SceneConfig(width=int(width), height=int(height), art_dirs=tuple(art or ()),
                             kinds=chosen,
                             tile_px=(lo, hi), effects=not clean)
        report = synthesize(out, scenes=scenes, seed=seed, fmt=format_, config=config,
                            min_visible=min_visible, workers=workers, resume=resume,
                            progress=None if json_ else _progress("scenes"))
        _finish(report, json_, "scenes")


def crops(
    dataset: Annotated[Path, typer.Argument(help="Annotated dataset folder or file.")],
    out: Annotated[Path, typer.Option(help="Output folder: OUT/<label>/*.png + crops.csv.")],
    format_: Annotated[str | None, typer.Option("--format", help=f"Source format: {FORMATS_HELP} "
                                                "(default: detected).")] = None,
    classes: Annotated[str | None, typer.Option(
        help="YOLO class order: a preset (riichi-tray) or a,b,c (default: data.yaml).")] = None,
    images: Annotated[Path | None, typer.Option(help="Image folder (default: beside).")] = None,
    size: Annotated[str, typer.Option(help="Crop size HxW.")] = "64x48",
    min_visible: Annotated[float, typer.Option(help="Skip tiles less visible than this.")] = 0.6,
    min_px: Annotated[float, typer.Option(help="Skip tiles narrower than this (px).")] = 12.0,
    backs: Annotated[bool, typer.Option(help="Also crop face-down tiles (class back).")] = True,
    resume: Annotated[bool, typer.Option(help="Skip images already in crops.csv.")] = False,
    json_: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Cut upright tile crops from any annotated dataset (for the classifier)."""
    with reported_errors(json_mode=json_):
        from agari.datasets.formats import open_dataset
        from agari.datasets.jobs import make_crops

        h, w = _pair(size, "x", "--size")
        source = open_dataset(dataset, fmt=format_, names=classes, image_root=images)
        report = make_crops(source, out, size=(int(h), int(w)), min_visible=min_visible,
                            min_px=min_px, include_backs=backs, resume=resume,
                            progress=None if json_ else _progress("images"))
        _finish(report, json_, "images")


def convert(
    dataset: Annotated[Path, typer.Argument(help="Annotated dataset folder or file.")],
    out: Annotated[Path, typer.Option(help="Output folder.")],
    to: Annotated[str, typer.Option("--to", help=f"Target format: {FORMATS_HELP}.")],
    format_: Annotated[str | None, typer.Option("--format", help="Source format "
                                                "(default: detected).")] = None,
    classes: Annotated[str | None, typer.Option(
        help="YOLO class order: a preset (riichi-tray) or a,b,c (default: data.yaml).")] = None,
    images: Annotated[Path | None, typer.Option(help="Image folder (default: beside).")] = None,
    link: Annotated[bool, typer.Option(help="Hard-link images instead of copying.")] = False,
    min_visible: Annotated[float, typer.Option(help="Leave out less visible tiles.")] = 0.0,
    json_: Annotated[bool, typer.Option("--json", help="Print a JSON summary.")] = False,
) -> None:
    """Convert an annotated dataset to another format (images copied to OUT/images)."""
    with reported_errors(json_mode=json_):
        from agari.datasets.formats import open_dataset
        from agari.datasets.jobs import convert as run_convert

        source = open_dataset(dataset, fmt=format_, names=classes, image_root=images)
        report = run_convert(source, out, to, link=link, min_visible=min_visible)
        _finish(report, json_, "images")


def _pair(text: str, sep: str, option: str, cast=int):
    from agari.engine.errors import InvalidInput

    try:
        a, b = (cast(v) for v in text.lower().split(sep))
    except ValueError:
        raise InvalidInput(f"{option} must look like 640{sep}480, got {text!r}") from None
    return a, b


def _progress(unit: str):
    import sys

    def show(done: int, total: int) -> None:
        if done % 100 == 0 or done == total:
            sys.stderr.write(f"  {done}{f'/{total}' if total else ''} {unit}\n")

    return show


def _finish(report, json_: bool, unit: str) -> None:
    import sys

    if json_:
        emit_json(report.to_json())
    else:
        from agari.output import console

        console().print(f"{report.out}: {report.images} {unit} written, {report.tiles} tiles"
                        + (f", {report.skipped} skipped" if report.skipped else "")
                        + (f", {len(report.failed)} failed" if report.failed else ""))
    for image, message in report.failed:
        sys.stderr.write(f"agari: error: {image}: {message}\n")
    if report.failed:
        raise typer.Exit(EXIT_ERROR)
