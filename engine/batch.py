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
import os
from collections.abc import Iterable, Iterator
from itertools import chain, islice

from agari.engine.cpus import usable_cpus
from agari.engine.errors import AgariError, InvalidInput
from agari.engine.requests import parse_request
from agari.engine.rules import Rules
from agari.engine.scoring import score

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any, TextIO

_DECODER = json.JSONDecoder()
_decode = _DECODER.decode
_scan = _DECODER.scan_once
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
        hand, ctx, rules = parse_request(_request(text, number), rules_cache=rules_cache)
        return score(hand, ctx, rules).to_json_text(), True
    except AgariError as err:
        return _encode(error_json(err, number)), False
    except RecursionError:
        return _encode(
            error_json(InvalidInput(f"line {number} is nested too deeply"), number)
        ), False


def _request(text: str, number: int) -> Any:
    """The JSON value of one line: the decoder's scanner directly, the full decoder (and its
    exact error message) for anything but a value followed by blanks."""
    try:
        value, end = _scan(text, 0)
        if end == len(text) or text[end:].isspace():
            return value
    except (StopIteration, ValueError):
        pass
    try:
        return _decode(text)
    except ValueError as exc:
        raise InvalidInput(f"line {number} is not valid JSON: {exc}") from None


def score_lines(lines: Iterable[str]) -> Iterator[str]:
    """One JSON result (or error) per input line, in order; blank lines are errors too."""
    cache: dict[str, Rules] = {}
    for number, text in enumerate(lines, 1):
        yield score_line(text, number, cache)[0]


CHUNK_LINES = 512
"""Lines handed to a worker at a time: large enough that the hand-over costs little."""
SERIAL_LINES = 20_000
"""Without ``jobs``, lines scored in this process before worker processes take the rest: a
batch this size takes well under a second, less than forking and feeding workers costs."""
MAX_JOBS = 8
WRITE_LINES = 256
"""Result lines written at a time (one write per line costs more than scoring it)."""


def default_jobs() -> int:
    """Worker processes for a big batch: the CPUs this process may use (at most `MAX_JOBS`)."""
    return max(1, min(usable_cpus(), MAX_JOBS))


def run_batch(lines: Iterable[str], out: TextIO, *, jobs: int | None = None) -> tuple[int, int]:
    """Score every line, writing one result line per input line to ``out``, in order.

    The first lines (`SERIAL_LINES`, or `CHUNK_LINES` when ``jobs`` is given) are
    scored here; with ``jobs`` > 1 (default: `default_jobs`) the rest goes to
    forked worker processes in chunks of `CHUNK_LINES`. Finished lines are
    written as soon as every line before them is, and on an interruption every
    finished line is written before the error goes on.

    Returns:
        (lines that failed, lines read).
    """
    here = SERIAL_LINES if jobs is None else CHUNK_LINES
    jobs = default_jobs() if jobs is None else jobs
    it = iter(lines)
    cache: dict[str, Rules] = {}
    failed, total = _write(_serial(islice(it, here), 1, cache), out)
    first = list(islice(it, 1))
    if not first:
        return failed, total
    if jobs > 1 and _can_fork():
        import multiprocessing

        chunks = _chunks(chain(first, it), total + 1)
        with multiprocessing.get_context("fork").Pool(jobs, initializer=_quiet_worker) as pool:
            more = _write(chain.from_iterable(pool.imap(_score_chunk, chunks)), out)
    else:
        more = _write(_serial(chain(first, it), total + 1, cache), out)
    return failed + more[0], total + more[1]


def _can_fork() -> bool:
    import multiprocessing  # only for batches big enough to share out

    return "fork" in multiprocessing.get_all_start_methods()


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool (no traceback per worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _serial(
    lines: Iterable[str], start: int, cache: dict[str, Rules]
) -> Iterator[tuple[str, bool]]:
    for number, text in enumerate(lines, start):
        yield score_line(text, number, cache)


def _chunks(lines: Iterable[str], start: int) -> Iterator[tuple[int, list[str]]]:
    it = iter(lines)
    while True:
        block = list(islice(it, CHUNK_LINES))
        if not block:
            return
        yield start, block
        start += len(block)


_WORKER_RULES: dict[str, Rules] = {}


def _score_chunk(job: tuple[int, list[str]]) -> list[tuple[str, bool]]:
    start, texts = job
    return [score_line(text, start + i, _WORKER_RULES) for i, text in enumerate(texts)]


def _write(results: Iterable[tuple[str, bool]], out: TextIO) -> tuple[int, int]:
    failed = total = 0
    block: list[str] = []
    try:
        for line, ok in results:
            block.append(line)
            total += 1
            failed += not ok
            if len(block) == WRITE_LINES:
                out.write("\n".join(block) + "\n")
                block.clear()
    finally:  # an interruption still writes every finished line
        if block:
            out.write("\n".join(block) + "\n")
    return failed, total


def main_batch(source: str) -> int:
    """``agari score --batch SOURCE`` without the CLI framework: the exit code.

    Reports a whole-run failure (unreadable file, interrupted) as the CLI does:
    one JSON error object on stdout, one ``agari: error:`` line on stderr.
    """
    import gc
    import sys

    gc.freeze()  # what is loaded stays: collections need only look at each line's objects
    try:
        stream = sys.stdin if source == "-" else open(source, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        return _fail(InvalidInput(f"cannot read batch file {source!r}: {exc.strerror or exc}"))
    try:
        failed, total = run_batch(stream, sys.stdout)
    except UnicodeDecodeError as exc:
        return _fail(InvalidInput(f"batch input is not UTF-8 text: {exc.reason}"))
    except KeyboardInterrupt:
        sys.stdout.flush()
        sys.stderr.write("agari: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        if stream is not sys.stdin:
            stream.close()
    sys.stdout.flush()
    if failed:
        sys.stderr.write(f"agari: {failed} of {total} request(s) could not be scored\n")
    return 1 if failed else 0


EXIT_INTERRUPTED = 130


def _fail(err: AgariError) -> int:
    import sys

    sys.stdout.write(_encode(error_json(err)) + "\n")
    sys.stderr.write(f"agari: error: {err.message}\n")
    return 1
