"""Where agari keeps a user's files (platformdirs): the game ledger, tile-set profiles.

Override the root with ``AGARI_HOME`` (tests and portable installs do).
"""

from __future__ import annotations

import os
from pathlib import Path


def user_data_dir() -> Path:
    """The per-user data directory, created on first use."""
    root = os.environ.get("AGARI_HOME")
    if root:
        path = Path(root)
    else:
        from platformdirs import user_data_path

        path = user_data_path("agari", appauthor=False)
    path.mkdir(parents=True, exist_ok=True)
    return path


def default_game_db() -> Path:
    """The default SQLite file of `agari game`."""
    return user_data_dir() / "games.sqlite3"


def tileset_dir() -> Path:
    """Folder of tile-set calibration profiles (`agari calibrate`)."""
    path = user_data_dir() / "tilesets"
    path.mkdir(parents=True, exist_ok=True)
    return path
