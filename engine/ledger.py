"""The table ledger (点数記録) in one SQLite file: games and their entries, crash-safe.

Only the setup of each game and the events that ended each hand are stored;
scores are always recomputed by replaying them (`agari.engine.game.play`), so
the file cannot hold a total that disagrees with its history.

Every write is one transaction opened with ``BEGIN IMMEDIATE`` on a WAL
database with ``synchronous=FULL``: a process killed mid-command leaves either
the whole entry or none of it, and two commands writing the same file at once
wait for each other (busy timeout) instead of losing an entry. A new entry is
validated by replaying the game *inside* the transaction, so it is checked
against the history it is appended to.

>>> import tempfile, os
>>> from agari.engine.game import GameSetup
>>> from agari.engine.game_events import Draw
>>> path = os.path.join(tempfile.mkdtemp(), "games.sqlite3")
>>> with Ledger(path) as ledger:
...     gid = ledger.create_game(GameSetup(players=("A", "B", "C", "D")))
...     ledger.append(gid, Draw(tenpai=(0,)))[1].state.label
'East 1, 1 honba'
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from agari.engine.errors import AgariError, InvalidInput
from agari.engine.game import GameLog, GameSetup, play
from agari.engine.game_events import Event, event_from_dict

SCHEMA_VERSION = 1
BUSY_TIMEOUT_S = 30.0
"""How long a command waits for another writer before giving up."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    setup TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    created TEXT NOT NULL,
    event TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class LedgerError(AgariError):
    """The game file cannot be used: unreadable, not a ledger, busy, or no such game."""

    code = "ledger"


@dataclass(frozen=True)
class Entry:
    """One stored event."""

    seq: int
    created: str
    event: Event

    def to_dict(self) -> dict:
        return {"seq": self.seq, "created": self.created, **self.event.to_dict()}


@dataclass(frozen=True)
class StoredGame:
    """A game as stored: its id, setup, entries, and the replayed log."""

    id: int
    created: str
    setup: GameSetup
    entries: tuple[Entry, ...]
    log: GameLog


class Ledger:
    """A connection to one ledger file; use as a context manager.

    Args:
        path: the SQLite file.
        timeout: seconds to wait for another writer.
        create: make the file (and its folder) when missing; otherwise a missing
            file is a `LedgerError`.
    """

    def __init__(
        self, path: str | Path, *, timeout: float = BUSY_TIMEOUT_S, create: bool = True
    ) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise LedgerError(f"no game file at {self.path}: start a game with `agari game new`")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise LedgerError(f"cannot open game file {str(self.path)!r}: {exc}") from None
        try:
            self._db.execute(f"PRAGMA busy_timeout = {int(timeout * 1000)}")
            self._db.execute("PRAGMA foreign_keys = ON")
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")
            if self._db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                self._create_schema()
        except sqlite3.DatabaseError as exc:
            self._db.close()
            raise LedgerError(f"{str(self.path)!r} is not a usable game file: {exc}") from None
        except AgariError:
            self._db.close()
            raise

    def _create_schema(self) -> None:
        with self._write():
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    self._db.execute(statement)
            version = self._db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise LedgerError(f"{self.path} was written by a newer agari (schema {version})")
            self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")

    # -- context management ------------------------------------------------
    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One write transaction: BEGIN IMMEDIATE … COMMIT, rolled back on any error."""
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            raise LedgerError(f"the game file is busy ({exc}); try again") from None
        try:
            yield self._db
            self._db.execute("COMMIT")
        except BaseException as exc:
            self._db.execute("ROLLBACK")
            if isinstance(exc, sqlite3.Error):
                raise LedgerError(f"cannot write {str(self.path)!r}: {exc}") from None
            raise

    # -- reading -------------------------------------------------------------
    def game_ids(self) -> list[int]:
        """Ids of every game, oldest first."""
        return [row[0] for row in self._db.execute("SELECT id FROM games ORDER BY id")]

    def latest_game_id(self) -> int:
        """The most recently created game (what commands act on by default)."""
        row = self._db.execute("SELECT max(id) FROM games").fetchone()
        if row[0] is None:
            raise LedgerError(f"no game in {self.path}: start one with `agari game new`")
        return int(row[0])

    def load(self, game_id: int | None = None) -> StoredGame:
        """A game with its entries replayed (the latest game by default)."""
        self._db.execute("BEGIN")  # one consistent snapshot of both tables
        try:
            return self._load(self.latest_game_id() if game_id is None else game_id)
        finally:
            self._db.execute("COMMIT")

    def _load(self, game_id: int, extra: Event | None = None) -> StoredGame:
        row = self._db.execute(
            "SELECT created, setup FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise LedgerError(f"no game {game_id} in {self.path}")
        setup = GameSetup.from_dict(json.loads(row[1]))
        entries = tuple(
            Entry(seq=seq, created=created, event=event_from_dict(json.loads(text)))
            for seq, created, text in self._db.execute(
                "SELECT seq, created, event FROM entries WHERE game_id = ? ORDER BY seq",
                (game_id,))
        )
        events = [e.event for e in entries] + ([extra] if extra is not None else [])
        return StoredGame(id=game_id, created=row[0], setup=setup, entries=entries,
                          log=play(setup, events))

    # -- writing -------------------------------------------------------------
    def create_game(self, setup: GameSetup) -> int:
        """Store a new game; returns its id."""
        with self._write() as db:
            cur = db.execute("INSERT INTO games (created, setup) VALUES (?, ?)",
                             (_now(), json.dumps(setup.to_dict(), ensure_ascii=False)))
            return int(cur.lastrowid)

    def append(
        self, game_id: int | None, event: Event | Callable[[StoredGame], Event]
    ) -> tuple[StoredGame, GameLog]:
        """Record an event as the next entry of a game.

        Args:
            game_id: the game (``None``: the latest).
            event: the event, or a function building it from the stored game as it
                is inside the write transaction (to read seat winds, honba…).

        Returns:
            The game before the entry and the replayed log after it.

        Raises:
            InvalidInput: the event cannot happen after the stored history.
        """
        with self._write() as db:
            gid = self.latest_game_id() if game_id is None else game_id
            before = self._load(gid)
            if callable(event):
                event = event(before)
            stored = self._load(gid, extra=event)
            seq = len(stored.entries) + 1
            db.execute("INSERT INTO entries (game_id, seq, created, event) VALUES (?, ?, ?, ?)",
                       (gid, seq, _now(), json.dumps(event.to_dict(), ensure_ascii=False)))
            return before, stored.log

    def undo(self, game_id: int | None = None) -> tuple[Entry, GameLog]:
        """Delete the last entry of a game; returns it and the log without it."""
        with self._write() as db:
            gid = self.latest_game_id() if game_id is None else game_id
            stored = self._load(gid)
            if not stored.entries:
                raise InvalidInput("nothing to undo: the game has no entries")
            last = stored.entries[-1]
            db.execute("DELETE FROM entries WHERE game_id = ? AND seq = ?", (gid, last.seq))
            setup = stored.setup
            return last, play(setup, [e.event for e in stored.entries[:-1]])


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
