"""The ledger file under stress, for real: processes, SIGKILL mid-write, concurrent writers.

Each writer is its own Python process with its own SQLite connection, as two
`agari game` commands run by two people at once would be.
"""

import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest
from agari.engine.game import GameSetup
from agari.engine.game_events import Abort
from agari.engine.ledger import Ledger, LedgerError

PLAYERS = ("A", "B", "C", "D")


def python(code, *args, **kwargs):
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)


def new_game(path):
    with Ledger(path) as ledger:
        return ledger.create_game(GameSetup(players=PLAYERS))


def check_file(path):
    """The file is a sound SQLite database whose game replays; returns the entry count."""
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    seqs = [row[0] for row in db.execute("SELECT seq FROM entries WHERE game_id = 1 ORDER BY seq")]
    db.close()
    assert seqs == list(range(1, len(seqs) + 1))
    with Ledger(path) as ledger:
        stored = ledger.load(1)
    assert stored.log.state.honba == len(seqs)  # every entry is an abortive draw: honba +1 each
    return len(seqs)


WRITER = """
    import sys
    from agari.engine.game_events import Abort
    from agari.engine.ledger import Ledger
    path, count = sys.argv[1], int(sys.argv[2])
    for _ in range(count):
        with Ledger(path) as ledger:        # a fresh connection per command
            ledger.append(1, Abort(reason="suufon"))
"""


def test_concurrent_writers_never_lose_an_entry(tmp_path):
    path = tmp_path / "games.sqlite3"
    new_game(path)
    writers = [python(WRITER, path, 25) for _ in range(4)]
    for proc in writers:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert check_file(path) == 100


def test_concurrent_cli_commands_never_lose_an_entry(tmp_path):
    path = tmp_path / "games.sqlite3"
    new_game(path)
    procs = [subprocess.Popen([sys.executable, "-m", "agari.cli", "game", "abort", "kyuushu",
                               "--db", str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
             for _ in range(6)]
    for proc in procs:
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
    assert check_file(path) == 6


STUCK_WRITER = """
    import sys, time
    from agari.engine.game_events import Abort
    from agari.engine.ledger import Ledger

    class PauseAfterInsert:
        # Wraps the connection: stops inside the transaction, after the row is written.
        def __init__(self, db):
            self.db = db
        def execute(self, sql, *args):
            cur = self.db.execute(sql, *args)
            if sql.startswith("INSERT INTO entries"):
                print("inserted", flush=True)
                time.sleep(60)
            return cur
        def __getattr__(self, name):
            return getattr(self.db, name)

    ledger = Ledger(sys.argv[1])
    ledger._db = PauseAfterInsert(ledger._db)
    ledger.append(1, Abort(reason="suukan"))
"""


def test_kill_inside_the_transaction_leaves_no_trace(tmp_path):
    path = tmp_path / "games.sqlite3"
    new_game(path)
    with Ledger(path) as ledger:
        ledger.append(1, Abort(reason="kyuushu"))
    proc = python(STUCK_WRITER, path)
    assert proc.stdout.readline().strip() == "inserted"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=10)
    assert proc.returncode == -signal.SIGKILL
    assert check_file(path) == 1           # the half-written entry is gone
    with Ledger(path, timeout=5) as ledger:  # and the lock died with the process
        ledger.append(1, Abort(reason="kyuushu"))
    assert check_file(path) == 2


LOOPING_WRITER = """
    import sys
    from agari.engine.game_events import Abort
    from agari.engine.ledger import Ledger
    with Ledger(sys.argv[1]) as ledger:
        ledger.append(1, Abort(reason="suufon"))
    print("writing", flush=True)
    while True:
        with Ledger(sys.argv[1]) as ledger:
            ledger.append(1, Abort(reason="suufon"))
"""


def test_random_kills_never_corrupt_the_file(tmp_path):
    path = tmp_path / "games.sqlite3"
    new_game(path)
    rng = random.Random(3)
    count = 0
    for _ in range(6):
        proc = python(LOOPING_WRITER, path)
        # Killed in the write loop, however long start-up takes on a loaded machine.
        assert proc.stdout.readline().strip() == "writing"
        time.sleep(rng.uniform(0.0, 0.5))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
        now = check_file(path)
        assert now >= count
        count = now
    assert count > 0


def test_a_busy_file_waits_then_writes(tmp_path):
    path = tmp_path / "games.sqlite3"
    new_game(path)
    holder = python("""
        import sqlite3, sys, time
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("BEGIN IMMEDIATE")
        print("locked", flush=True)
        time.sleep(1.0)
        db.execute("COMMIT")
    """, path)
    assert holder.stdout.readline().strip() == "locked"
    with pytest.raises(LedgerError, match="busy"), Ledger(path, timeout=0.05) as ledger:
        ledger.append(1, Abort(reason="kyuushu"))
    with Ledger(path, timeout=30) as ledger:
        ledger.append(1, Abort(reason="kyuushu"))
    holder.wait(timeout=10)
    assert check_file(path) == 1
