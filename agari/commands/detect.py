"""`agari detect IMAGE...`: stages 1-2 — find every tile (OpenCV) and name it (ONNX).

Per image, one JSON document with ``--json``: ``{"image", "width", "height",
"tiles": [{"tile", "confidence", "quad", "box", "sideways", "face_down",
"top"}], "elapsed_ms"}``; tiles in reading order. Candidates the classifier
calls ``none`` (not a tile) are dropped; unless ``--no-fill``, confidently read
tiles propose their missed neighbours first (`agari.vision.fill`). An image
that cannot be read gives an error line (an error object with ``--json``) and
the others still run; the exit code is non-zero if any failed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from agari.commands.calibrate import TilesetOption, with_tileset
from agari.output import EXIT_ERROR, emit_json, reported_errors


def register(app: typer.Typer) -> None:
    """Attach `agari detect` to the main app."""
    app.command(name="detect")(detect)


def detect(
    images: Annotated[list[Path], typer.Argument(help="Photos to look for tiles in.")],
    json_: Annotated[bool, typer.Option("--json", help="One JSON document per image.")] = False,
    annotate: Annotated[Path | None, typer.Option(
        help="Write the photo with quads and labels drawn: a PNG file for one image, "
             "a folder for several.")] = None,
    model: Annotated[Path | None, typer.Option(
        help="An agari classifier .onnx (default: the shipped model).")] = None,
    locate_only: Annotated[bool, typer.Option(
        "--locate-only", help="Skip the classifier: report where tiles are, unnamed.")] = False,
    top: Annotated[int, typer.Option(help="Alternatives to list per tile.")] = 3,
    tileset: TilesetOption = None,
    fill: Annotated[bool, typer.Option(
        help="Look beside confidently read tiles for tiles the locator missed.")] = True,
) -> None:
    """Find the tiles in each photo and name them."""
    with reported_errors(json_mode=json_):
        from agari.models.classifier import TileClassifier

        clf = None if locate_only else with_tileset(TileClassifier.load(model), tileset)
        failed = 0
        for path in images:
            failed += _one(path, clf, json_=json_, annotate=_annotate_path(annotate, path, images),
                           top=top, fill=fill)
        if failed:
            raise typer.Exit(EXIT_ERROR)


def _annotate_path(out: Path | None, image: Path, images: list[Path]) -> Path | None:
    if out is None:
        return None
    if len(images) > 1 or out.is_dir():
        out.mkdir(parents=True, exist_ok=True)
        return out / f"{image.stem}.detect.png"
    return out


def _one(path: Path, clf: Any, *, json_: bool, annotate: Path | None, top: int,
         fill: bool) -> int:
    """Detect in one image and report it; 1 if it failed (reported), else 0."""
    import sys
    import time

    from agari.engine.errors import AgariError
    from agari.models.classifier import read_image
    from agari.output import error_object
    from agari.vision.fill import read_tiles
    from agari.vision.locate import locate

    try:
        image = read_image(path)
        t0 = time.perf_counter()
        if clf is None:
            dets = locate(image)
        else:
            dets = [d for d in read_tiles(image, clf, top_k=top, fill=fill)
                    if d.label is not None]
        elapsed = (time.perf_counter() - t0) * 1e3
        if annotate is not None:
            _write_annotated(image, dets, annotate)
    except AgariError as err:
        if str(path) not in err.message:
            err = type(err)(f"{path}: {err.message}", code=err.code)
        if json_:
            emit_json({"image": str(path), **error_object(err)})
        sys.stderr.write(f"agari: error: {err.message}\n")
        return 1
    h, w = image.shape[:2]
    result = {"image": str(path), "width": w, "height": h,
              "tiles": [d.to_json() for d in dets], "elapsed_ms": round(elapsed, 1)}
    if json_:
        emit_json(result)
    else:
        _print(result)
    return 0


def _write_annotated(image: Any, dets: list, out: Path) -> None:
    import cv2

    from agari.engine.errors import ImageError
    from agari.vision.draw import annotate

    drawn = annotate(image, dets)
    ok, data = cv2.imencode(out.suffix or ".png", drawn)
    if not ok:
        raise ImageError(f"cannot encode an annotated image as {out.suffix!r}")
    try:
        out.write_bytes(data.tobytes())
    except OSError as exc:
        raise ImageError(f"cannot write {out}: {exc.strerror or exc}") from None


def _print(result: dict) -> None:
    from agari.output import console

    tiles = result["tiles"]
    names = [t["tile"] or "?" for t in tiles]
    console().print(f"{result['image']}: {len(tiles)} tiles ({result['elapsed_ms']:.0f} ms)")
    if names:
        console().print("  " + " ".join(names))
