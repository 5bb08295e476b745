"""`agari game …`: keep a whole game's score at the table, saved in SQLite.

Players are named by name, starting-seat number (1-4) or this hand's seat wind
(E = dealer). Every command takes ``--db PATH`` (default: the user data
directory) and ``--game ID`` (default: the latest game). The library does the
work (`agari.engine.ledger`, `agari.engine.game`); this module parses options
and prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from agari.output import console, emit_json, reported_errors

game_app = typer.Typer(
    name="game", help="Score a whole game at the table: hands, draws, settlement.",
    no_args_is_help=True, add_completion=False, rich_markup_mode=None,
)

Db = Annotated[
    Path | None, typer.Option("--db", help="Ledger file (SQLite); default: user data dir.")]
GameId = Annotated[int | None, typer.Option("--game", help="Game id; default: the latest game.")]
Json = Annotated[bool, typer.Option("--json", help="Print one JSON document.")]
Players = Annotated[list[str] | None, typer.Option(help="Players, comma separated or repeated.")]
Riichi = Annotated[list[str] | None, typer.Option(
    "--riichi", help="Players whose riichi stick went on the table this hand.")]


def register(app: typer.Typer) -> None:
    """Attach `agari game` to the main app."""
    app.add_typer(game_app, name="game")


@game_app.command()
def new(
    players: Annotated[list[str], typer.Argument(help="3 or 4 names, East 1 dealer first.")],
    rules: Annotated[str, typer.Option(
        help="tenhou, mahjongsoul, wrc, ema, mleague, or a rules .toml file.")] = "tenhou",
    length: Annotated[str | None, typer.Option(help="east, south (hanchan) or full.")] = None,
    start: Annotated[int | None, typer.Option(help="Starting points.")] = None,
    return_points: Annotated[
        int | None, typer.Option("--return", help="Return points.")] = None,
    uma: Annotated[str | None, typer.Option(help="10-20, or 20,10,-10,-20.")] = None,
    oka: Annotated[int | None, typer.Option(help="Points to first place (default: auto).")] = None,
    busting: Annotated[str | None, typer.Option(help="off, negative or zero.")] = None,
    extension: Annotated[str | None, typer.Option(help="none or sudden-death.")] = None,
    all_last_stop: Annotated[str | None, typer.Option(help="none, win or win-tenpai.")] = None,
    multiple_ron: Annotated[str | None, typer.Option(help="head-bump, double or all.")] = None,
    chombo: Annotated[str | None, typer.Option(help="mangan, points or none.")] = None,
    ties: Annotated[str | None, typer.Option(help="seat or split.")] = None,
    rounding: Annotated[str | None, typer.Option(
        help="exact, half-up, gosha-rokunyu, down or up.")] = None,
    option: Annotated[list[str] | None, typer.Option(
        "--set", help="Any table option KEY=VALUE (see docs/game.md).")] = None,
    db: Db = None,
    json_: Json = False,
) -> None:
    """Start a game (it becomes the latest game)."""
    with reported_errors(json_mode=json_):
        from agari.engine.game import GameSetup, hand_rules_spec
        from agari.engine.game_rules import TableRules

        names = _split(players)
        given = {"length": length, "start_points": start, "return_points": return_points,
                 "uma": uma, "oka": oka, "busting": busting, "extension": extension,
                 "all_last_stop": all_last_stop, "multiple_ron": multiple_ron,
                 "chombo": chombo, "ties": ties, "rounding": rounding}
        given = {k: v for k, v in given.items() if v is not None}
        given.update(_key_values(option or []))
        preset, custom = hand_rules_spec(rules)
        table = TableRules.preset(preset, players=len(names)).with_options(given)
        setup = GameSetup(players=tuple(names), rules=preset, table=table, custom_rules=custom)
        with _ledger(db, create=True) as ledger:
            gid = ledger.create_game(setup)
            stored = ledger.load(gid)
        _report(stored, stored.log, json_mode=json_, headline=f"game {gid} started")


@game_app.command()
def win(
    winners: Annotated[list[str], typer.Argument(
        help="Winner, or several for a multiple ron: NAME or NAME=VALUE (3/30, 6, yakuman).")],
    from_: Annotated[str | None, typer.Option("--from", help="Who dealt in (ron).")] = None,
    tsumo: Annotated[bool, typer.Option("--tsumo", help="Self-drawn win.")] = False,
    han: Annotated[int | None, typer.Option(help="Han, dora included.")] = None,
    fu: Annotated[int | None, typer.Option(help="Fu (below mangan).")] = None,
    yakuman: Annotated[int | None, typer.Option(help="Yakuman count (2 = double).")] = None,
    hand: Annotated[list[str] | None, typer.Option(
        help="The hand, as for `agari score`; repeat in winner order.")] = None,
    riichi: Riichi = None,
    pao: Annotated[list[str] | None, typer.Option(
        help="Liable player (包), or WINNER=LIABLE.")] = None,
    win_tile: Annotated[str | None, typer.Option("--win", help="Winning tile.")] = None,
    dora: Annotated[str | None, typer.Option(help="Dora indicators, e.g. 1m,5z.")] = None,
    ura: Annotated[str | None, typer.Option(help="Ura dora indicators.")] = None,
    nuki: Annotated[int, typer.Option(help="North tiles set aside (3 players).")] = 0,
    double_riichi: Annotated[bool, typer.Option("--double-riichi")] = False,
    ippatsu: Annotated[bool, typer.Option("--ippatsu")] = False,
    rinshan: Annotated[bool, typer.Option("--rinshan")] = False,
    chankan: Annotated[bool, typer.Option("--chankan")] = False,
    haitei: Annotated[bool, typer.Option("--haitei")] = False,
    houtei: Annotated[bool, typer.Option("--houtei")] = False,
    tenhou: Annotated[bool, typer.Option("--tenhou")] = False,
    chiihou: Annotated[bool, typer.Option("--chiihou")] = False,
    renhou: Annotated[bool, typer.Option("--renhou")] = False,
    db: Db = None,
    game: GameId = None,
    json_: Json = False,
) -> None:
    """Record a win: one tsumo, or one or more rons on the same discard."""
    with reported_errors(json_mode=json_):
        from agari.engine.game_record import WinRequest, build_win

        request = WinRequest(
            winners=tuple(winners), from_player=from_, tsumo=tsumo, han=han, fu=fu,
            yakuman=yakuman, hands=tuple(hand or ()), riichi=tuple(_split(riichi)),
            pao=tuple(pao or ()),
            situation={"win": win_tile, "dora": _split([dora] if dora else []),
                       "ura": _split([ura] if ura else []), "nuki": nuki,
                       "double_riichi": double_riichi, "ippatsu": ippatsu, "rinshan": rinshan,
                       "chankan": chankan, "haitei": haitei, "houtei": houtei,
                       "tenhou": tenhou, "chiihou": chiihou, "renhou": renhou},
        )
        _record(db, game, json_, lambda stored: build_win(stored, request))


@game_app.command()
def draw(
    tenpai: Annotated[list[str] | None, typer.Option(help="Tenpai players.")] = None,
    nagashi: Annotated[list[str] | None, typer.Option(help="Nagashi mangan (流し満貫).")] = None,
    riichi: Riichi = None,
    db: Db = None,
    game: GameId = None,
    json_: Json = False,
) -> None:
    """Record an exhaustive draw (流局) with its tenpai players."""
    with reported_errors(json_mode=json_):
        from agari.engine.game_events import Draw

        def build(stored: Any) -> Draw:
            return Draw(tenpai=_seats(stored, tenpai), nagashi=_seats(stored, nagashi),
                        riichi=_seats(stored, riichi))

        _record(db, game, json_, build)


@game_app.command()
def abort(
    reason: Annotated[str, typer.Argument(
        help="kyuushu, suufon, suukan, suucha-riichi or sanchahou.")],
    riichi: Riichi = None,
    db: Db = None,
    game: GameId = None,
    json_: Json = False,
) -> None:
    """Record an abortive draw (途中流局)."""
    with reported_errors(json_mode=json_):
        from agari.engine.game_events import Abort

        _record(db, game, json_,
                lambda stored: Abort(reason=reason.lower(), riichi=_seats(stored, riichi)))


@game_app.command()
def chombo(
    player: Annotated[str, typer.Argument(help="The offender.")],
    db: Db = None,
    game: GameId = None,
    json_: Json = False,
) -> None:
    """Record a chombo (錯和): penalty per the rules, the hand is replayed."""
    with reported_errors(json_mode=json_):
        from agari.engine.game_events import Chombo

        _record(db, game, json_, lambda stored: Chombo(seat=_seats(stored, [player])[0]))


@game_app.command()
def undo(db: Db = None, game: GameId = None, json_: Json = False) -> None:
    """Remove the last entry of the game."""
    with reported_errors(json_mode=json_):
        with _ledger(db) as ledger:
            entry, _ = ledger.undo(game)
            stored = ledger.load(game)
        _report(stored, stored.log, json_mode=json_, headline=f"undid entry {entry.seq}",
                extra={"undone": entry.to_dict()})


@game_app.command()
def end(db: Db = None, game: GameId = None, json_: Json = False) -> None:
    """End the game now (if it has not ended) and print the settlement."""
    with reported_errors(json_mode=json_):
        from agari.engine.game import GameOver
        from agari.engine.game_events import EndGame

        with _ledger(db) as ledger:
            try:  # one transaction: a game that is already over is only shown
                before, _ = ledger.append(game, EndGame())
                game = before.id
            except GameOver:
                pass
            stored = ledger.load(game)
        _report(stored, stored.log, json_mode=json_, headline="game over", table=True)


@game_app.command()
def show(db: Db = None, game: GameId = None, json_: Json = False) -> None:
    """Show the game: every hand, running totals and the settlement when over."""
    with reported_errors(json_mode=json_):
        with _ledger(db) as ledger:
            stored = ledger.load(game)
        _report(stored, stored.log, json_mode=json_, table=True)


@game_app.command()
def export(
    db: Db = None,
    game: GameId = None,
    json_: Json = True,
    out: Annotated[Path | None, typer.Option(help="Write to this file instead.")] = None,
) -> None:
    """Export the full history of a game as JSON."""
    with reported_errors(json_mode=True):
        import json

        from agari.engine.game_export import export_game

        with _ledger(db) as ledger:
            doc = export_game(ledger.load(game))
        if out is None:
            emit_json(doc, indent=2)
        else:
            out.write_text(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


@game_app.command("list")
def list_games(db: Db = None, json_: Json = False) -> None:
    """List the games in the ledger file."""
    with reported_errors(json_mode=json_):
        from agari.engine.game_export import game_summary

        with _ledger(db) as ledger:
            rows = [game_summary(ledger.load(gid)) for gid in ledger.game_ids()]
        if json_:
            emit_json({"games": rows})
            return
        for row in rows:
            status = "over" if row["finished"] else row["next"]
            console().print(f"{row['id']:>4}  {row['created']}  {', '.join(row['players'])}"
                            f"  {row['entries']} entries  {status}")


# -- helpers ------------------------------------------------------------------


def _ledger(db: Path | None, *, create: bool = False) -> Any:
    from agari.engine.ledger import Ledger
    from agari.paths import default_game_db

    return Ledger(db or default_game_db(), create=create)


def _record(db: Path | None, game: int | None, json_mode: bool, build: Any) -> None:
    """Append the event ``build(stored)`` and report the hand it recorded."""
    with _ledger(db) as ledger:
        before, log = ledger.append(game, build)
    _report(before, log, json_mode=json_mode, record=log.records[-1])


def _split(values: list[str] | None) -> list[str]:
    return [v.strip() for text in values or [] for v in text.split(",") if v.strip()]


def _seats(stored: Any, refs: list[str] | None) -> tuple[int, ...]:
    from agari.engine.game import seat_of

    return tuple(seat_of(stored.setup, stored.log.state, r) for r in _split(refs))


def _key_values(items: list[str]) -> dict[str, str]:
    from agari.engine.errors import InvalidInput

    out = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise InvalidInput(f"--set needs KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


def _report(stored: Any, log: Any, *, json_mode: bool, headline: str = "", record: Any = None,
            table: bool = False, extra: dict | None = None) -> None:
    from agari.engine.game_export import view

    doc = view(stored, log, record=record)
    if extra:
        doc.update(extra)
    if json_mode:
        emit_json(doc)
        return
    from rich.markup import escape

    out = console()
    if headline:
        out.print(f"[bold]{escape(headline)}[/bold]")
    if record is not None:
        hand = doc["hand"]
        out.print(escape(f"{hand['label']}: {hand['summary']}"))
        for note in hand["notes"]:
            out.print(escape(f"  note: {note}"))
    if table:
        out.print(_hands_table(doc))
    else:
        out.print(escape("  " + "   ".join(f"{p['name']} {p['score']}" for p in doc["players"])))
    out.print(escape(_status_line(doc)))
    if doc["settlement"]:
        out.print(_settlement_table(doc))


def _status_line(doc: dict) -> str:
    state = doc["state"]
    if state["finished"]:
        return f"game over: {state['end_reason']}"
    sticks = f", {state['sticks']} riichi stick(s) on the table" if state["sticks"] else ""
    dealer = doc["players"][state["dealer"]]["name"]
    return f"next: {state['label']} (dealer {dealer}){sticks}"


def _signed(value: int) -> str:
    if value > 0:
        return f"[green]+{value}[/green]"
    return f"[red]{value}[/red]" if value < 0 else "0"


def _hands_table(doc: dict) -> Any:
    from rich.markup import escape
    from rich.table import Table

    names = [p["name"] for p in doc["players"]]
    table = Table(title=f"game {doc['game']['id']} ({doc['game']['rules']})", show_lines=True)
    for column in ("#", "hand", "result", *names, "sticks"):
        table.add_column(escape(column), justify="right" if column in names else "left",
                         no_wrap=column in names)
    table.add_row("", "start", "", *(str(doc["game"]["table"]["start_points"]),) * len(names), "")
    for i, hand in enumerate(doc["hands"], start=1):
        cells = [f"{_signed(d)}\n{total}" for total, d in zip(hand["scores"], hand["deltas"],
                                                              strict=True)]
        table.add_row(str(i), escape(hand["label"]), escape(hand["summary"]), *cells,
                      str(hand["sticks"] or ""))
    return table


def _settlement_table(doc: dict) -> Any:
    from rich.markup import escape
    from rich.table import Table

    table = Table(title="settlement")
    for column in ("rank", "player", "final", "base", "uma", "oka", "penalty", "result"):
        table.add_column(column, justify="left" if column == "player" else "right")
    rows = sorted(doc["settlement"]["rows"], key=lambda r: (r["rank"], r["seat"]))
    for row in rows:
        name = escape(doc["players"][row["seat"]]["name"])
        table.add_row(str(row["rank"]), name, str(row["score"]),
                      f"{row['base']:+.1f}", f"{row['uma']:+.1f}", f"{row['oka']:+.1f}",
                      f"{row['penalty']:+.1f}", f"[bold]{row['result']:+.1f}[/bold]")
    return table
