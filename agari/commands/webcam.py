"""`agari webcam`: score hands live from a camera, a video file or a stream.

Options only; the work is `agari.webcam` (loop, settings, scoring),
`agari.webcam_source` (cameras, files, streams, recording) and
`agari.vision.track` (tracking). The situation options are `agari score`'s own,
taken from its signature (as `agari photo` does); tsumo, riichi, the winds and
honba set the start values of what the window's keys change.
"""

from __future__ import annotations

import inspect
import sys
from typing import Annotated, Any

import typer

from agari.commands import score as score_command
from agari.commands.calibrate import TilesetOption
from agari.output import EXIT_ERROR, EXIT_INTERRUPTED, emit_json, reported_errors

SITUATION_OPTIONS = (
    "tsumo", "riichi", "double_riichi", "ippatsu", "rinshan", "chankan", "haitei", "houtei",
    "tenhou", "chiihou", "renhou", "seat", "round_", "dora", "ura", "honba", "sticks", "rules",
    "players", "nuki",
)
"""`agari score` options that `agari webcam` shares (parameter names of `score`)."""
KEYED = ("tsumo", "riichi", "seat", "round_", "honba")
"""Options whose values the window's keys change later."""


def register(app: typer.Typer) -> None:
    """Attach `agari webcam` to the main app."""
    app.command(name="webcam", help="Score hands live from a webcam, video file or stream.")(
        webcam)


def webcam(**options: Any) -> None:
    """Watch the table and score each hand laid down; keys set tsumo/ron, riichi, winds, honba."""
    own = {name: options.pop(name) for name in _OWN}
    headless = own["no_window"]
    json_mode = headless or own["json_"]
    with reported_errors(json_mode=json_mode):
        summary = _run(own, options, json_mode)
    if json_mode:
        emit_json(summary.event())
    else:
        sys.stderr.write(f"agari: {summary.reason}: {summary.frames} frames in "
                         f"{summary.wall_s:.1f} s ({summary.fps:.1f} fps), "
                         f"{summary.readings} reading(s)\n")
    if summary.error is not None:
        sys.stderr.write(f"agari: error: {summary.error.message}\n")
        raise typer.Exit(EXIT_ERROR)
    if summary.reason == "interrupted":
        raise typer.Exit(EXIT_INTERRUPTED)


def _run(own: dict[str, Any], options: dict[str, Any], json_mode: bool) -> Any:
    import agari.webcam as live
    from agari.webcam_source import (
        Recorder,
        SourceConfig,
        open_source,
        parse_source,
    )

    request = {name.rstrip("_"): value for name, value in options.items()}
    keyed = {k.rstrip("_"): request.pop(k.rstrip("_")) for k in KEYED}
    settings = live.TableSettings(tsumo=keyed["tsumo"], riichi=keyed["riichi"],
                                  seat=str(keyed["seat"]).upper(),
                                  round=str(keyed["round"]).upper(), honba=keyed["honba"])
    reader = live.HandReader(request)
    spec = parse_source(own["source"])
    config = SourceConfig(retries=own["retries"], stall_s=own["stall_timeout"])
    if own["max_frames"] is not None and own["max_frames"] < 1:
        from agari.engine.errors import InvalidInput

        raise InvalidInput(f"--max-frames must be ≥ 1, got {own['max_frames']}")
    tileset = {"tileset": own["tileset"]} if own["tileset"] else {}
    locate, classify = live.default_stages(own["model"], **tileset)
    view = None
    if not own["no_window"]:
        from agari.webcam_window import Window

        view = Window()
    source = open_source(spec, config=config, on_notice=_notice)
    recorder = Recorder(own["record"], source.fps) if own["record"] else None
    session = live.Session(
        source=source, tracker=live.make_tracker(locate, classify), reader=reader,
        settings=settings, on_event=emit_json if json_mode else _show, view=view,
        recorder=recorder, max_frames=own["max_frames"],
        realtime=view is not None and not spec.live)
    return live.run(session)


def _notice(message: str) -> None:
    sys.stderr.write(f"agari: {message}\n")
    sys.stderr.flush()


def _show(event: dict[str, Any]) -> None:
    """Window mode without --json: one human line per new reading, on stderr."""
    score = event.get("score")
    what = f"{score['points']} points ({score['han']} han {score['fu']} fu)" if score else \
        (event["error"]["message"] if event.get("error") else "no hand")
    sys.stderr.write(f"agari: {event['t']:.1f} s  {event.get('hand') or '-'}  {what}\n")


_OWN = ("source", "no_window", "record", "model", "retries", "stall_timeout", "max_frames",
        "json_", "tileset")


def _own_parameters() -> list[inspect.Parameter]:
    keyword = inspect.Parameter.KEYWORD_ONLY

    def opt(name: str, default: Any, kind: Any, *decls: str, **info: Any) -> inspect.Parameter:
        return inspect.Parameter(name, keyword, default=default,
                                 annotation=Annotated[kind, typer.Option(*decls, **info)])

    return [
        opt("source", "0", str, "--source", help="Camera index (0, 1…), video file or stream URL."),
        opt("no_window", False, bool, "--no-window",
            help="Headless: print one JSON line each time the stable reading or score changes."),
        opt("record", None, str | None, "--record",
            help="Write the video with the overlay to this file (.mp4, .avi…)."),
        opt("model", None, str | None, "--model",
            help="Classifier .onnx (default: the shipped one)."),
        opt("retries", 3, int, "--retries", help="Reconnection attempts for a live source."),
        opt("stall_timeout", 5.0, float, "--stall-timeout",
            help="Seconds without a frame before a live source counts as stalled."),
        opt("max_frames", None, int | None, "--max-frames", help="Stop after this many frames."),
        opt("json_", False, bool, "--json", help="With a window, also print the JSON lines."),
        inspect.Parameter("tileset", keyword, default=None, annotation=TilesetOption),
    ]


def _signature() -> inspect.Signature:
    """`webcam`'s parameters: its own, then `agari score`'s situation options."""
    shared = inspect.signature(score_command.score, eval_str=True).parameters
    params = _own_parameters()
    params += [shared[name].replace(kind=inspect.Parameter.KEYWORD_ONLY)
               for name in SITUATION_OPTIONS]
    return inspect.Signature(params, return_annotation=None)


webcam.__signature__ = _signature()  # typer reads the options from here
