"""JSON views of a stored game: what `agari game show/export --json` print.

`view` is the current picture (players, state, hands, settlement); `export_game`
adds the raw stored entries with their timestamps, enough to rebuild the game.
"""

from __future__ import annotations

from typing import Any

from agari.engine.game import SEAT_WINDS

EXPORT_VERSION = 1


def view(stored: Any, log: Any, *, record: Any = None) -> dict[str, Any]:
    """The game as a JSON-ready dict; ``record`` (a `HandRecord`) becomes ``"hand"``."""
    setup, state = stored.setup, log.state
    scores = log.final_scores if state.finished else state.scores
    players = [
        {"seat": seat, "name": name, "score": scores[seat],
         "seat_wind": SEAT_WINDS[state.seat_wind(seat)]}
        for seat, name in enumerate(setup.players)
    ]
    settlement = log.settlement()
    doc: dict[str, Any] = {
        "game": {"id": stored.id, "created": stored.created, **setup.to_dict()},
        "players": players,
        "state": {**state.to_dict(), "final_scores": list(log.final_scores)},
        "hands": [r.to_dict(setup.players) for r in log.records],
        "settlement": settlement.to_dict() if settlement else None,
    }
    if record is not None:
        doc["hand"] = record.to_dict(setup.players)
    return doc


def export_game(stored: Any) -> dict[str, Any]:
    """The full history: the view plus every stored entry as written."""
    doc = view(stored, stored.log)
    doc["version"] = EXPORT_VERSION
    doc["entries"] = [entry.to_dict() for entry in stored.entries]
    return doc


def game_summary(stored: Any) -> dict[str, Any]:
    """One line's worth of a game, for `agari game list`."""
    state = stored.log.state
    return {"id": stored.id, "created": stored.created, "players": list(stored.setup.players),
            "entries": len(stored.entries), "finished": state.finished, "next": state.label}
