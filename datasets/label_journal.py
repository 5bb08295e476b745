"""The labelling job's journal: one SQLite file in which every finished image is committed.

``OUT/.agari-label.sqlite`` holds one row per image, written in its own
transaction the moment the image is finished, so a run stopped by Ctrl-C, a
crash or ``kill -9`` keeps every image it finished; ``--resume`` reads the rows
back and labels only the rest. The annotation files are a pure function of the
journal (see `agari.datasets.label_export`), which is why a stopped and resumed
run writes the same bytes as an uninterrupted one.

WAL mode with ``synchronous=NORMAL``: a commit survives the death of the
process (the data is in the OS before ``commit`` returns); a power cut may lose
the last few images, never the file. A lock file beside it stops a second
`agari label` from working on the same folder at the same time.

Rows: ``images(name, source, status, record, error_code, error)`` with status
``done`` (``record`` = the image's JSON record from
`agari.datasets.label_worker`) or ``failed``. ``meta`` keeps the job's
settings: the inputs, and the model (by SHA-256) the records came from.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from agari.engine.errors import InvalidInput

JOURNAL_NAME = ".agari-label.sqlite"
LOCK_NAME = ".agari-label.lock"
SCHEMA_VERSION = "1"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS images (
    name TEXT PRIMARY KEY,
    source TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('done', 'failed')),
    record TEXT,
    error_code TEXT,
    error TEXT
);
"""


@dataclass(frozen=True, slots=True)
class JournalEntry:
    """One finished image as the journal holds it.

    Attributes:
        name: the image's name (see `agari.datasets.label_inputs`).
        source: the file it was read from.
        record: the JSON record (``width``, ``height``, ``tiles``) for a done image, else None.
        error: ``(code, message)`` for a failed image, else None.
    """

    name: str
    source: str
    record: dict | None = None
    error: tuple[str, str] | None = None

    @property
    def done(self) -> bool:
        return self.record is not None


class JobLock:
    """An exclusive lock on a job folder (``fcntl.flock``; released when the process dies).

    Raises:
        InvalidInput: another process holds the folder.
    """

    def __init__(self, folder: Path) -> None:
        import fcntl

        folder.mkdir(parents=True, exist_ok=True)
        self._fh = (folder / LOCK_NAME).open("a")
        try:
            fcntl.flock(self._fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            self._fh.close()
            raise InvalidInput(f"{folder} is being labelled by another agari process",
                               code="busy") from None

    def release(self) -> None:
        self._fh.close()


class Journal:
    """The SQLite journal of one job folder. Use `Journal.open`."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection

    @classmethod
    def open(cls, folder: Path, *, resume: bool) -> Journal:
        """Open (or create) the journal in ``folder``.

        Args:
            folder: the job's output folder.
            resume: continue an earlier run; without it an existing journal is refused,
                so that a second run never mixes into the first by mistake.

        Raises:
            InvalidInput: a journal exists and ``resume`` is False, or it is unreadable.
        """
        path = Path(folder) / JOURNAL_NAME
        if path.exists() and not resume:
            raise InvalidInput(f"{folder} holds an earlier labelling run: pass --resume to "
                               "continue it, or choose another --out", code="journal_exists")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(path)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_SCHEMA)
        except (sqlite3.DatabaseError, OSError) as err:
            raise InvalidInput(f"cannot open the journal {path}: {err}",
                               code="bad_journal") from None
        journal = cls(path, db)
        if journal.meta().get("schema", SCHEMA_VERSION) != SCHEMA_VERSION:
            raise InvalidInput(f"{path} was written by another agari version", code="bad_journal")
        return journal

    def close(self) -> None:
        self._db.close()

    # -- settings ------------------------------------------------------------
    def meta(self) -> dict[str, str]:
        return dict(self._db.execute("SELECT key, value FROM meta"))

    def settle_meta(self, settings: dict[str, str]) -> None:
        """Record the job's settings, or check them against those recorded.

        Raises:
            InvalidInput: a setting differs from the earlier run's (its records
                would not match the new ones).
        """
        known = self.meta()
        for key, value in settings.items():
            if key in known and known[key] != value:
                raise InvalidInput(
                    f"this run's {key} differs from the earlier run's in {self.path.parent} "
                    f"({_short(value)} vs {_short(known[key])}); use another --out",
                    code="journal_mismatch")
        with self._db:
            self._db.executemany("INSERT OR IGNORE INTO meta VALUES (?, ?)",
                                 [("schema", SCHEMA_VERSION), *settings.items()])

    # -- images --------------------------------------------------------------
    def commit(self, name: str, source: str, outcome: dict) -> JournalEntry:
        """Commit one image's outcome (``{"record": ...}`` or ``{"error": ...}``) now."""
        if "record" in outcome:
            row = (name, source, "done", json.dumps(outcome["record"], separators=(",", ":")),
                   None, None)
        else:
            err = outcome["error"]
            row = (name, source, "failed", None, str(err["code"]), str(err["message"]))
        with self._db:
            self._db.execute("INSERT OR REPLACE INTO images VALUES (?, ?, ?, ?, ?, ?)", row)
        return _entry(row)

    def done_names(self) -> frozenset[str]:
        rows = self._db.execute("SELECT name FROM images WHERE status = 'done'")
        return frozenset(r[0] for r in rows)

    def entries(self, *, done_only: bool = True) -> Iterator[JournalEntry]:
        """Finished images sorted by name (the order of every output file)."""
        where = "WHERE status = 'done'" if done_only else ""
        rows = self._db.execute(f"SELECT * FROM images {where}").fetchall()
        for row in sorted(rows, key=lambda r: r[0]):  # Python's order, not the collation's
            yield _entry(row)

    def count(self, status: str) -> int:
        return self._db.execute("SELECT COUNT(*) FROM images WHERE status = ?",
                                (status,)).fetchone()[0]


def _entry(row: tuple) -> JournalEntry:
    name, source, status, record, code, message = row
    if status == "done":
        return JournalEntry(name=name, source=source, record=json.loads(record))
    return JournalEntry(name=name, source=source, error=(code, message))


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"
