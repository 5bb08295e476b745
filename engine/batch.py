"""Batch scoring: JSON request lines in, one JSON result line out per request, in order.

A line that cannot be scored becomes ``{"error": {"code", "message", "line"}}``
on its own line (``not_agari`` errors also carry ``waits``); the others are
unaffected. Rules files named by requests are read once per batch.

>>> out = list(score_lines(['{"hand": "123m456p789s11222z", "tsumo": true}', 'oops']))
>>> json.loads(out[0])["points"], json.loads(out[1])["error"]["code"]
(2700, 'invalid_input')
"""

from __future__ import annotations

import json
from typing import Any, Iterable, Iterator

from agari.engine.errors import AgariError, InvalidInput
from agari.engine.requests import parse_request
from agari.engine.rules import Rules
from agari.engine.scoring import score

_decode = json.JSONDecoder().decode
_encode = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def error_json(err: AgariError, line: int | None = None) -> dict[str, Any]:
    """The contract's error object, with the line number in a batch."""
    body: dict[str, Any] = {"code": err.code, "message": err.message}
    if line is not None:
        body["line"] = line
    for key, value in err.details.items():
        if isinstance(value, (str, int, float, bool, list)):
            body[key] = value
    return {"error": body}


def score_request(request: Any, rules_cache: dict[str, Rules] | None = None) -> dict[str, Any]:
    """Score one request mapping; raises `AgariError` subclasses."""
    hand, ctx, rules = parse_request(request, rules_cache=rules_cache)
    return score(hand, ctx, rules).to_json()


def score_line(text: str, number: int, rules_cache: dict[str, Rules]) -> tuple[str, bool]:
    """(JSON result or error line, whether it succeeded) for one batch line."""
    try:
        try:
            request = _decode(text)
        except ValueError as exc:
            raise InvalidInput(f"line {number} is not valid JSON: {exc}") from None
        return _encode(score_request(request, rules_cache)), True
    except AgariError as err:
        return _encode(error_json(err, number)), False
    except RecursionError:
        return _encode(error_json(InvalidInput(f"line {number} is nested too deeply"), number)), False


def score_lines(lines: Iterable[str]) -> Iterator[str]:
    """One JSON result (or error) per input line, in order; blank lines are errors too."""
    cache: dict[str, Rules] = {}
    for number, text in enumerate(lines, 1):
        yield score_line(text, number, cache)[0]
