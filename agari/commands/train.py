"""`agari train …`: train agari's models (needs the ``agari[train]`` extra: torch).

``agari train classifier`` builds synthetic crops from the CC0 tile art, adds
real crops from annotated photos (``--photos``) and single-tile photos
(``--tiles``) when given, trains the tile classifier and exports the ONNX model.
The library does the work (`agari.models.recipe`); this module parses options.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from agari.output import emit_json, reported_errors

SCENE_SETTINGS = {"width": 960, "height": 720, "tile_px": (24.0, 120.0)}
"""Rendered scenes for classifier crops: smaller than photos, tiles 24-120 px wide."""

train_app = typer.Typer(
    name="train", help="Train agari's models (needs agari[train]).",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None,
)


def register(app: typer.Typer) -> None:
    """Attach `agari train` to the main app."""
    app.add_typer(train_app, name="train")


@train_app.command()
def classifier(
    out: Annotated[Path, typer.Option(help="Where to write the ONNX model.")] = Path(
        "tile_classifier.onnx"),
    photos: Annotated[list[Path] | None, typer.Option(
        help="Annotated photo dataset (YOLO folder, COCO/Label Studio JSON, CSV); repeatable. "
             "Split by photo root: about 1 root in 5 is held out for evaluation.")] = None,
    photo_names: Annotated[str | None, typer.Option(
        help="YOLO class order for --photos: a preset (riichi-tray) or a,b,c.")] = None,
    tiles: Annotated[list[Path] | None, typer.Option(
        help="CSV of single-tile photos (columns image,tile); repeatable.")] = None,
    scenes: Annotated[int, typer.Option(
        help="Scenes rendered by agari.datasets to add crops from (0: none).")] = 400,
    hard_negatives: Annotated[bool, typer.Option(
        help="Add the locator's own non-tile proposals as 'none' crops: on the training "
             "scenes and on the training photos outside locate_eval's check half.")] = False,
    seed: Annotated[int, typer.Option(help="Seed for data, initialisation and order.")] = 0,
    epochs: Annotated[int, typer.Option(help="Training epochs.")] = 6,
    per_class: Annotated[int, typer.Option(help="Synthetic crops per class.")] = 2000,
    workers: Annotated[int, typer.Option(help="Processes making synthetic crops.")] = 2,
    threads: Annotated[int, typer.Option(
        help="torch threads (1 is faster when other jobs load the CPU).")] = 2,
    init: Annotated[Path | None, typer.Option(
        help="Fine-tune this exported classifier (e.g. models/tile_classifier.onnx) instead "
             "of training from scratch; its BatchNorms stay frozen.")] = None,
    lr: Annotated[float | None, typer.Option(
        help="Peak learning rate (default 3e-3, or 3e-4 with --init).")] = None,
    cache: Annotated[Path | None, typer.Option(
        help="Folder to cache crop arrays in (reused when the recipe is unchanged).")] = None,
    report: Annotated[Path | None, typer.Option(help="Write the JSON report here too.")] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print the report as JSON.")] = False,
) -> None:
    """Train the tile classifier and export it to ONNX (≈ 40 min on 2 cores by default)."""
    with reported_errors(json_mode=json_):
        import json
        import sys

        from agari.engine.errors import AgariError, InvalidInput, ModelError

        try:  # fail before any work, with the fix in the message
            import onnx  # noqa: F401
            import torch  # noqa: F401
        except ImportError as exc:
            raise AgariError(f"training needs the agari[train] extra ({exc.name} is missing): "
                             "pip install 'agari[train]'", code="missing_extra") from None
        if init is not None and not init.is_file():
            raise ModelError(f"no model to start from at {init}")
        if lr is not None and not lr > 0:
            raise InvalidInput(f"--lr must be positive, got {lr}")
        from agari.datasets.formats import open_dataset
        from agari.models.dataset import RealPhoto
        from agari.models.realdata import read_single_tile_csv
        from agari.models.recipe import RealSources, Recipe, run

        real_photos = []
        for root in photos or []:
            ds = open_dataset(root, names=photo_names)
            real_photos += [RealPhoto(ds.image_path(a), a.tiles) for a in ds.annotations()]
        singles = []
        for csv_path in tiles or []:
            singles += read_single_tile_csv(csv_path)[0]

        def log(line: str) -> None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

        recipe = Recipe(seed=seed, epochs=epochs, per_class=per_class, workers=workers,
                        threads=threads, scenes=scenes, hard_negatives=hard_negatives,
                        init=None if init is None else str(init), lr=lr)
        renderer = None
        if scenes:
            from functools import partial

            from agari.datasets.scene import SceneConfig, render_scene

            renderer = partial(render_scene, config=SceneConfig(**SCENE_SETTINGS))
        propose = None
        if hard_negatives:
            from agari.vision.locate import locate as propose
        sources = RealSources(photos=real_photos, single_tiles=singles, scenes=renderer,
                              propose=propose)
        result = run(recipe, sources, out, cache=cache, log=log)
        if report is not None:
            report.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
        if json_:
            emit_json(result)
        else:
            log(f"wrote {out}")


@train_app.command()
def cores(
    out: Annotated[Path, typer.Option(help="Where to write the ONNX net.")] = Path(
        "tile_cores.onnx"),
    data: Annotated[Path, typer.Option(
        help="Folder for the rendered scenes (reused when it already holds them).")] = Path(
        "cores-data"),
    scenes: Annotated[int, typer.Option(help="Scenes to render.")] = 2200,
    steps: Annotated[int, typer.Option(help="Training steps.")] = 3200,
    batch: Annotated[int, typer.Option(help="Crops per step.")] = 16,
    lr: Annotated[float, typer.Option(help="Peak learning rate (one-cycle schedule).")] = 3e-3,
    init: Annotated[Path | None, typer.Option(
        help="Start from these weights instead of random ones: a .pt file a run saved, or a "
        "net this command exported (.onnx; fine-tuned with its BatchNorms frozen).")] = None,
    seed: Annotated[int, typer.Option(help="Seed for initialisation, crops and order.")] = 0,
    first_seed: Annotated[int, typer.Option(
        help="Seed of the first scene rendered (another range gives other scenes).")] = 300_000,
    workers: Annotated[int, typer.Option(help="Processes rendering scenes.")] = 2,
    loaders: Annotated[int, typer.Option(
        help="Processes making crops beside training (0: made between steps).")] = 0,
    device: Annotated[str, typer.Option(help="torch device to train on: cpu, cuda...")] = "cpu",
    threads: Annotated[int, typer.Option(help="torch threads.")] = 2,
) -> None:
    """Train the tile-core net the locator uses for hand photos (≈ 35 min on 2 cores)."""
    with reported_errors(json_mode=False):
        import sys
        from concurrent.futures import ProcessPoolExecutor

        from agari.engine.errors import AgariError, InvalidInput, ModelError

        try:
            import onnx  # noqa: F401
            import torch
        except ImportError as exc:
            raise AgariError(f"training needs the agari[train] extra ({exc.name} is missing): "
                             "pip install 'agari[train]'", code="missing_extra") from None
        from agari.models import cores_train as ct

        def log(line: str) -> None:
            sys.stderr.write(line + "\n")
            sys.stderr.flush()

        try:
            torch.empty(0, device=device)
        except (RuntimeError, ValueError) as exc:
            raise InvalidInput(f"torch cannot use device {device!r}: "
                               f"{str(exc).splitlines()[0]}") from None
        if init is not None and not init.is_file():
            raise ModelError(f"no weights file at {init}")
        recipe = ct.Recipe(seed=seed, scenes=scenes, first_seed=first_seed, steps=steps,
                           batch=batch, lr=lr,
                           threads=threads, loaders=loaders, device=device)
        if not ct.load_data(data):
            log(f"rendering {scenes} scenes into {data}")
            with ProcessPoolExecutor(workers) as pool:
                for job in [pool.submit(ct.render_data, recipe, data, k, workers)
                            for k in range(workers)]:
                    job.result()
        net = ct.train(recipe, ct.load_data(data), data / "cores.pt", log=log, init=init)
        ct.export(net, out)
        log(f"wrote {out}")
