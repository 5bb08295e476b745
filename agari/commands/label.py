"""`agari label INPUT... --out DIR`: pre-label folders of tile photos as annotation files.

Stages 1-2 (locate, classify) over files, folders and glob patterns, on
``--workers`` processes or a Dask cluster, each image committed to a journal in
DIR as it finishes. A progress bar (rate, ETA, done / failed) goes to stderr,
with one line per file that cannot be labelled; the summary follows (JSON on
stdout with ``--json``). Exit 0 when the job ran, even if some files were bad;
130 after Ctrl-C or SIGTERM (finished images saved, ``--resume`` carries on).
The work itself is `agari.datasets.label.run_label`.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import typer

from agari.commands.calibrate import TilesetOption, tileset_file
from agari.output import EXIT_INTERRUPTED, console, emit_json, reported_errors

FORMATS_HELP = "yolo, yolo-obb, coco, labelstudio or csv; repeat for several (default coco)."


def register(app: typer.Typer) -> None:
    """Attach `agari label` to the main app."""
    app.command(name="label")(label)


def label(
    inputs: Annotated[list[str] | None, typer.Argument(
        help="Image files, folders (searched recursively) or glob patterns. "
             "With --resume they may be left out.")] = None,
    out: Annotated[Path, typer.Option("--out", "-o", help="Job folder: annotation files, "
                                      "images/ and the journal.")] = ...,
    formats: Annotated[list[str] | None, typer.Option("--format", "-f",
                                                      help=FORMATS_HELP)] = None,
    min_confidence: Annotated[float, typer.Option(
        help="Leave out tiles the classifier is less sure of (0-1).")] = 0.0,
    workers: Annotated[int | None, typer.Option(
        help="Worker processes, each with its own ONNX session (default: one per CPU; "
             "0 = in this process).")] = None,
    cluster: Annotated[str | None, typer.Option(
        help="Run on Dask: 'local' or tcp://HOST:PORT (needs agari[cluster]).")] = None,
    resume: Annotated[bool, typer.Option(
        help="Continue the job in --out; finished images are not redone.")] = False,
    review: Annotated[Path | None, typer.Option(
        help="Write an HTML contact sheet of the least certain tiles here.")] = None,
    review_count: Annotated[int, typer.Option(help="Tiles on the review sheet.")] = 200,
    model: Annotated[Path | None, typer.Option(
        help="An agari classifier .onnx (default: the shipped model).")] = None,
    top: Annotated[int, typer.Option(help="Alternatives kept per tile.")] = 3,
    images: Annotated[str, typer.Option(
        help="Put the images in OUT/images as 'link' (hard, else symbolic), 'copy' or "
             "'none'.")] = "link",
    json_: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    tileset: TilesetOption = None,
    fill: Annotated[bool, typer.Option(
        help="Look beside confidently read tiles for tiles the locator missed.")] = True,
) -> None:
    """Label tile photos in bulk (YOLO, YOLO-OBB, COCO, Label Studio, CSV)."""
    with reported_errors(json_mode=json_):
        from agari.datasets.label import LabelOptions, run_label, usable_cpus

        options = LabelOptions(
            inputs=tuple(inputs or ()), out=out, formats=tuple(formats or ("coco",)),
            min_confidence=min_confidence,
            workers=usable_cpus() if workers is None else workers, cluster=cluster,
            resume=resume, model=model, top_k=top, review=review,
            review_count=review_count, images=images, tileset=tileset_file(tileset),
            fill=fill)
        with _sigterm_as_interrupt(), _progress(show_bar=not json_) as on_event:
            summary = run_label(options, on_event=on_event)
        if json_:
            emit_json(summary.to_json())
        else:
            _print_summary(summary)
        if summary.interrupted:
            sys.stderr.write("agari: interrupted; finished images are saved, run again with "
                             "--resume to finish\n")
            raise typer.Exit(EXIT_INTERRUPTED)


@contextmanager
def _sigterm_as_interrupt():
    """Treat SIGTERM like Ctrl-C, so `kill` also stops cleanly and saves the outputs."""
    import signal

    def stop(signum, frame):  # noqa: ARG001 - signal handler signature
        raise KeyboardInterrupt

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread: leave signals alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextmanager
def _progress(*, show_bar: bool):
    """A rich progress bar on stderr fed by `run_label`'s events; yields the listener."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    from agari.datasets.label import ImageFinished, JobStarted

    class RateColumn(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("-- img/s" if speed is None else f"{speed:.1f} img/s", style="cyan")

    err = console(stderr=True)
    bar = Progress(TextColumn("labelling"), BarColumn(), MofNCompleteColumn(), RateColumn(),
                   TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                   TextColumn("{task.fields[counts]}"), console=err, disable=not show_bar)
    state = {"task": None, "failed": 0, "done": 0}

    def on_event(event) -> None:
        if isinstance(event, JobStarted):
            bar.start()  # only now: an early error must not leave an empty bar behind
            state["task"] = bar.add_task("label", total=event.todo, counts="")
            if event.resumed:
                err.print(f"resuming: {event.resumed} of {event.total} images already done")
            return
        if isinstance(event, ImageFinished):
            if event.error is not None:
                state["failed"] += 1
                bar.console.print(f"agari: skipped {event.error}", markup=False,
                                  highlight=False)
            else:
                state["done"] += 1
            bar.update(state["task"], advance=1,
                       counts=f"done {state['done']}  failed {state['failed']}")

    try:
        yield on_event
    finally:
        if state["task"] is not None:
            bar.stop()


def _print_summary(summary) -> None:
    out = console()
    verb = "Interrupted after labelling" if summary.interrupted else "Labelled"
    out.print(f"{verb} {summary.done} images in {summary.elapsed_s:.1f} s "
              f"({summary.images_per_s:.1f} images/s).")
    out.print(f"done {summary.done}, skipped {summary.skipped} "
              f"({summary.resumed} done before, {len(summary.not_images)} not image files), "
              f"failed {len(summary.failed)}.")
    out.print(f"{summary.labelled} images, {summary.tiles} tiles written to {summary.out}: "
              + ", ".join(p.name for p in summary.outputs))
    if summary.review is not None:
        out.print(f"Review sheet: {summary.review} ({summary.review_tiles} tiles)", markup=False)
