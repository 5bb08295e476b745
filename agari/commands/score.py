"""`agari score`: score one hand from notation, or a batch of JSON requests.

Options only; the work is `agari.engine` (`parse_request`, `score`,
`score_lines`). Human output is a rich breakdown in English, Japanese or
Chinese; ``--json`` and ``--batch`` print the contract's JSON.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from agari.output import emit_json, reported_errors

Flag = Annotated[bool, typer.Option]


def register(app: typer.Typer) -> None:
    """Attach `agari score` to the main app."""
    app.command(name="score", help="Score a winning hand (or a batch of JSON requests).")(score)


def score(
    hand: Annotated[
        list[str] | None,
        typer.Argument(
            help="HAND: concealed tiles incl. the winning tile, then melds, e.g. "
            "'123m406p789s11z 777z [5555m]'.",
            show_default=False,
        ),
    ] = None,
    win: Annotated[
        str | None, typer.Option(help="Winning tile (default: last concealed tile).")
    ] = None,
    tsumo: Annotated[
        bool, typer.Option("--tsumo", help="Won by self-draw (default: ron).")
    ] = False,
    riichi: Annotated[bool, typer.Option("--riichi", help="Riichi declared.")] = False,
    double_riichi: Annotated[bool, typer.Option("--double-riichi", help="Double riichi.")] = False,
    ippatsu: Annotated[bool, typer.Option("--ippatsu", help="Ippatsu.")] = False,
    rinshan: Annotated[
        bool, typer.Option("--rinshan", help="Won on a kan replacement tile.")
    ] = False,
    chankan: Annotated[bool, typer.Option("--chankan", help="Robbed a kan.")] = False,
    haitei: Annotated[bool, typer.Option("--haitei", help="Tsumo on the last wall tile.")] = False,
    houtei: Annotated[bool, typer.Option("--houtei", help="Ron on the last discard.")] = False,
    tenhou: Annotated[bool, typer.Option("--tenhou", help="Dealer's win on the deal.")] = False,
    chiihou: Annotated[
        bool, typer.Option("--chiihou", help="Non-dealer's first-draw win.")
    ] = False,
    renhou: Annotated[bool, typer.Option("--renhou", help="Ron before the first draw.")] = False,
    nagashi: Annotated[bool, typer.Option("--nagashi", help="Nagashi mangan.")] = False,
    seat: Annotated[str, typer.Option(help="Seat wind E|S|W|N (E is the dealer).")] = "S",
    round_: Annotated[str, typer.Option("--round", help="Round wind E|S|W|N.")] = "E",
    dora: Annotated[str | None, typer.Option(help="Dora indicators, e.g. 3p,7z.")] = None,
    ura: Annotated[str | None, typer.Option(help="Ura dora indicators (riichi only).")] = None,
    honba: Annotated[int, typer.Option(help="Honba counters on the table.")] = 0,
    sticks: Annotated[int, typer.Option(help="Riichi sticks on the table.")] = 0,
    rules: Annotated[
        str, typer.Option(help="tenhou|mahjongsoul|wrc|ema|mleague or a rules .toml file.")
    ] = "tenhou",
    players: Annotated[int, typer.Option(help="4, or 3 for sanma.")] = 4,
    nuki: Annotated[int, typer.Option(help="North tiles set aside (sanma).")] = 0,
    lang: Annotated[str, typer.Option(help="Human output language: en|ja|zh.")] = "en",
    json_: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
    batch: Annotated[
        str | None,
        typer.Option(help="JSONL file of requests ('-' for stdin): one result line per request."),
    ] = None,
    jobs: Annotated[
        int | None,
        typer.Option(help="Worker processes for --batch (default: one per CPU, at most 8)."),
    ] = None,
) -> None:
    """Score a winning hand, or every request of a batch."""
    with reported_errors(json_mode=json_ or batch is not None):
        if batch is not None:
            if hand:
                raise _bad("give either HAND or --batch, not both")
            raise typer.Exit(_run_batch(batch, jobs))
        if lang not in ("en", "ja", "zh"):
            raise _bad(f"--lang must be en, ja or zh, got {lang!r}")
        if not hand:
            raise _bad("missing HAND, e.g. agari score 123m406p789s1122z --tsumo")
        request: dict[str, Any] = {
            "hand": " ".join(hand),
            "win": win,
            "seat": seat,
            "round": round_,
            "dora": dora,
            "ura": ura,
            "honba": honba,
            "sticks": sticks,
            "rules": rules,
            "players": players,
            "nuki": nuki,
            "tsumo": tsumo,
            "riichi": riichi,
            "double_riichi": double_riichi,
            "ippatsu": ippatsu,
            "rinshan": rinshan,
            "chankan": chankan,
            "haitei": haitei,
            "houtei": houtei,
            "tenhou": tenhou,
            "chiihou": chiihou,
            "renhou": renhou,
            "nagashi": nagashi,
        }
        from agari.engine.requests import parse_request
        from agari.engine.scoring import score as score_hand

        result = score_hand(*parse_request(request))
        if json_:
            emit_json(result.to_json())
        else:
            from agari.breakdown import show_score

            show_score(result, lang)


def _bad(message: str):
    from agari.engine.errors import InvalidInput

    return InvalidInput(message)


def _run_batch(source: str, jobs: int | None) -> int:
    """Score every line of ``source``; the exit code is 1 when any line failed."""
    from agari.engine.batch import run_batch
    from agari.engine.errors import InvalidInput

    if jobs is not None and jobs < 1:
        raise InvalidInput(f"--jobs must be at least 1, got {jobs}")
    if source == "-":
        stream = sys.stdin
    else:
        try:
            stream = Path(source).open(encoding="utf-8")  # noqa: SIM115 - closed in finally below
        except OSError as exc:
            raise InvalidInput(
                f"cannot read batch file {source!r}: {exc.strerror or exc}"
            ) from None
    try:
        failed, total = run_batch(stream, sys.stdout, jobs=jobs)
    except UnicodeDecodeError as exc:
        raise InvalidInput(f"batch input is not UTF-8 text: {exc.reason}") from None
    finally:
        sys.stdout.flush()
        if stream is not sys.stdin:
            stream.close()
    if failed:
        sys.stderr.write(f"agari: {failed} of {total} request(s) could not be scored\n")
    return 1 if failed else 0
