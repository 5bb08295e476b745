"""`agari photo IMAGE`: read a photographed hand and score it (all four stages).

Options only; the work is `agari.pipeline`. The situation options (``--tsumo``,
``--riichi``, ``--seat``, ``--dora``… ``--lang``) are `agari score`'s own, taken
from its signature so that both commands always accept the same ones, and the
score breakdown is printed by `agari score`'s renderer. ``--win``, ``--dora``
and ``--ura`` override what the photo shows; ``--flip`` overrides which side
the hand was photographed from.
"""

from __future__ import annotations

import copy
import inspect
import sys
import threading
import typing
from concurrent.futures import Future
from dataclasses import replace
from typing import Annotated, Any

import typer

from agari.commands import score as score_command
from agari.commands.calibrate import TilesetOption, with_tileset
from agari.output import EXIT_ERROR, emit_json, reported_errors

SITUATION_OPTIONS = (
    "win", "tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei",
    "houtei", "tenhou", "chiihou", "renhou", "nagashi", "seat", "round_", "dora", "ura",
    "honba", "sticks", "rules", "players", "nuki", "lang",
)
"""`agari score` options that `agari photo` shares (parameter names of `score`)."""
OVERRIDE_HELP = {
    "win": "Winning tile (default: the tile set apart in the photo; each candidate if none).",
    "dora": "Dora indicators, e.g. 3p,7z (default: those in the photo; '' for none).",
    "ura": "Ura indicators (default: those in the photo; '' for none).",
}
"""Help of the options that override what the photo shows."""


def register(app: typer.Typer) -> None:
    """Attach `agari photo` to the main app."""
    app.command(name="photo", help="Read a photographed hand and score it.")(photo)


def photo(**options: Any) -> None:
    """Read the hand in IMAGE (concealed tiles, winning tile, melds, dora) and score it."""
    json_ = options.pop("json_")
    with reported_errors(json_mode=json_):
        lab = _warm_lab()
        from agari.pipeline import (
            DEFAULT_PIPELINE,
            annotate_result,
            load_image,
            read_photo,
            situation_of,
        )
        from agari.vision.lab import warm_lab

        warm_lab(lab)

        image_path, annotate = options.pop("image"), options.pop("annotate")
        flip, lang, once = options.pop("flip"), options.pop("lang"), options.pop("once")
        classifier = with_tileset(None, options.pop("tileset"))
        if lang not in ("en", "ja", "zh"):
            from agari.engine.errors import InvalidInput

            raise InvalidInput(f"--lang must be en, ja or zh, got {lang!r}")
        request = {name.rstrip("_"): value for name, value in options.items()}
        situation = situation_of({k: v for k, v in request.items() if v is not None})
        image = load_image(image_path)
        config = replace(DEFAULT_PIPELINE, retry=None) if once else DEFAULT_PIPELINE
        result = read_photo(image, situation, name=image_path, flip=flip, classifier=classifier,
                            config=config)
        if annotate is not None:
            from agari.pipeline import write_image

            write_image(annotate, annotate_result(image, result))
        if json_:
            emit_json(result.to_json())
        else:
            _show(result, lang)
    if result.error is not None:
        sys.stderr.write(f"agari: error: {result.error.message}\n")
        raise typer.Exit(EXIT_ERROR)


def _warm_lab() -> Future:
    """OpenCV's L*a*b* tables (about 95 ms of CPU, `agari.vision.lab`) started on a thread of
    their own before the pipeline is imported: built while the importing, the model's loading
    and the photo's decoding leave the second core idle, not on the photo's critical path."""
    import cv2  # here, not on the thread: two threads importing at once is asking for trouble
    import numpy as np

    done: Future = Future()

    def build() -> None:
        try:
            pixel = np.zeros((1, 1, 3), np.uint8)
            cv2.cvtColor(cv2.cvtColor(pixel, cv2.COLOR_BGR2LAB), cv2.COLOR_LAB2BGR)
        finally:  # a failure here is the conversion's own to report, where it is used
            done.set_result(None)

    threading.Thread(target=build, name="agari-lab", daemon=True).start()
    return done


def _show(result: Any, lang: str) -> None:
    """Human output: what was read where, doubts, then the score breakdown."""
    from agari.output import console

    out = console()
    took = ", ".join(f"{stage} {ms:.0f}" for stage, ms in result.timings)
    out.print(f"[bold]{result.image}[/]: {len(result.detections)} tiles "
              f"({result.elapsed_ms:.0f} ms: {took})")
    layout = result.layout
    if layout is None:
        return
    _show_layout(out, layout, lang)
    _show_reading(out, result)
    for note in result.notes:
        out.print(f"[dim]note: {note}[/]")
    if result.score is not None:
        out.print(f"[bold]hand[/] {result.hand}")
        from agari.breakdown import show_score

        show_score(result.score, lang)
    if result.win_options:
        _options_table(out, "winning tile", result.win_options)
    if result.waits:
        _options_table(out, "wait", result.waits)


LAYOUT_TEXT = {
    "concealed": ("concealed", "手牌", "手牌"),
    "win": ("win", "和了牌", "和牌"),
    "meld": ("meld", "副露", "副露"),
    "dora": ("dora", "ドラ表示牌", "宝牌指示牌"),
    "ura": ("ura", "裏ドラ表示牌", "里宝牌指示牌"),
    "unknown": ("not singled out", "不明", "未知"),
    "left": ("called from the left", "上家から", "吃/碰上家"),
    "across": ("called from across", "対面から", "碰对家"),
    "right": ("called from the right", "下家から", "碰下家"),
}
"""Words of the layout lines, per language (en, ja, zh)."""


def _show_layout(out: Any, layout: Any, lang: str) -> None:
    from agari.engine.labels import label

    def t(key: str) -> str:
        return label(LAYOUT_TEXT, key, lang)

    def tiles(ts: Any) -> str:
        return " ".join(str(x) for x in ts) or "-"

    out.print(f"  {t('concealed'):<10} {tiles(layout.concealed)}")
    out.print(f"  {t('win'):<10} {layout.win if layout.win is not None else t('unknown')}")
    for m in layout.melds:
        source = f" ({t(m.source)})" if m.source else ""
        out.print(f"  {t('meld'):<10} {m.kind} {tiles(m.tiles)}{source}")
    out.print(f"  {t('dora'):<10} {tiles(layout.dora)}")
    if layout.ura:
        out.print(f"  {t('ura'):<10} {tiles(layout.ura)}")


def _show_reading(out: Any, result: Any) -> None:
    reading = result.reading
    out.print(f"  reading    {reading.level}, confidence {reading.confidence:.0%}")
    for d in reading.doubts:
        rivals = ", ".join(f"{name} ({p:.0%})" for name, p in d.options[1:])
        out.print(f"[yellow]  ? tile {d.detection} ({d.role}) read {d.read}; could be {rivals}[/]")
    for i, first, read in reading.corrections:
        out.print(f"  tile {i} read as {read} (the classifier's first choice was {first})")
    for alt, got in zip(reading.alternatives, result.alternative_scores, strict=True):
        value = f"{got.points} points" if hasattr(got, "points") else \
            (got.code if got is not None else "not scored")
        out.print(f"[dim]  alternative {alt.layout.hand_text} "
                  f"({reading.relative(alt):.0%} as likely): {value}[/]")


def _options_table(out: Any, what: str, options: Any) -> None:
    from rich.table import Table

    table = Table(show_header=True, header_style="bold")
    for head in (what, "han", "fu", "points", "yaku"):
        table.add_column(head)
    for o in options:
        r = o.result
        if r is None:
            table.add_row(str(o.tile), "", "", "", o.error.message if o.error else "")
            continue
        yaku = ", ".join(y.name for y in r.yaku)
        table.add_row(str(o.tile), str(r.han), str(r.fu), str(r.points), yaku)
    out.print(table)


def _own_parameters() -> list[inspect.Parameter]:
    keyword = inspect.Parameter.KEYWORD_ONLY
    return [
        inspect.Parameter("image", keyword, annotation=Annotated[str, typer.Argument(
            help="Photo of the hand (JPEG, PNG…).", show_default=False)]),
        inspect.Parameter("annotate", keyword, default=None, annotation=Annotated[
            str | None, typer.Option(help="Write the photo with each tile's name and role "
                                          "drawn to this file (e.g. out.png).")]),
        inspect.Parameter("flip", keyword, default=None, annotation=Annotated[
            bool | None, typer.Option("--flip/--no-flip", help="The hand was photographed from "
                                      "the other side (default: guess from where melds lie).",
                                      show_default=False)]),
        inspect.Parameter("once", keyword, default=False, annotation=Annotated[
            bool, typer.Option("--once", help="Read the photo once: where it makes no hand, "
                               "or a doubtful one, do not read it again at other scales and "
                               "in crops round the hand (faster on such photos, fewer of "
                               "them read right).")]),
        inspect.Parameter("json_", keyword, default=False, annotation=Annotated[
            bool, typer.Option("--json", help="Print the result as JSON.")]),
        inspect.Parameter("tileset", keyword, default=None, annotation=TilesetOption),
    ]


def _signature() -> inspect.Signature:
    """`photo`'s parameters: its own, then `agari score`'s situation options."""
    shared = inspect.signature(score_command.score, eval_str=True).parameters
    params = _own_parameters()
    for name in SITUATION_OPTIONS:
        param = shared[name].replace(kind=inspect.Parameter.KEYWORD_ONLY)
        if name in OVERRIDE_HELP:
            kind, info = typing.get_args(param.annotation)[:2]
            info = copy.copy(info)
            info.help = OVERRIDE_HELP[name]
            param = param.replace(annotation=Annotated[kind, info])
        params.append(param)
    return inspect.Signature(params, return_annotation=None)


photo.__signature__ = _signature()  # typer reads the options from here
