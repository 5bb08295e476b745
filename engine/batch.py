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

from agari.engine.errors import AgariError, InvalidInput
from agari.engine.requests import parse_request
from agari.engine.rules import Rules
from agari.engine.scoring import score

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any, TextIO

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
        hand, ctx, rules = parse_request(request, rules_cache=rules_cache)
        return score(hand, ctx, rules).to_json_text(), True
    except AgariError as err:
        return _encode(error_json(err, number)), False
    except RecursionError:
        return _encode(
            error_json(InvalidInput(f"line {number} is nested too deeply"), number)
        ), False


def score_lines(lines: Iterable[str]) -> Iterator[str]:
    """One JSON result (or error) per input line, in order; blank lines are errors too."""
    cache: dict[str, Rules] = {}
    for number, text in enumerate(lines, 1):
        yield score_line(text, number, cache)[0]


CHUNK_LINES = 512
"""Lines handed to a worker at a time: large enough that the hand-over costs little."""
MAX_JOBS = 8


def default_jobs() -> int:
    """Worker processes for a big batch: the CPUs this process may use (at most `MAX_JOBS`)."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_JOBS))


def run_batch(lines: Iterable[str], out: TextIO, *, jobs: int | None = None) -> tuple[int, int]:
    """Score every line, writing one result line per input line to ``out``, in order.

    With ``jobs`` > 1 (default: `default_jobs`) and more than one chunk of
    input, chunks of `CHUNK_LINES` are scored by forked worker processes;
    finished lines are written as soon as every line before them is.

    Returns:
        (lines that failed, lines read).
    """
    jobs = default_jobs() if jobs is None else jobs
    it = iter(lines)
    first = list(islice(it, CHUNK_LINES))
    extra = list(islice(it, 1))
    if jobs <= 1 or not extra:
        return _write(_serial(chain(first, extra, it)), out)
    import multiprocessing  # only for batches big enough to share out

    if "fork" not in multiprocessing.get_all_start_methods():
        return _write(_serial(chain(first, extra, it)), out)
    chunks = _chunks(chain(first, extra, it))
    with multiprocessing.get_context("fork").Pool(jobs, initializer=_quiet_worker) as pool:
        return _write(chain.from_iterable(pool.imap(_score_chunk, chunks)), out)


def _quiet_worker() -> None:
    """Workers leave Ctrl-C to the parent, which stops the pool (no traceback per worker)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _serial(lines: Iterable[str]) -> Iterator[tuple[str, bool]]:
    cache: dict[str, Rules] = {}
    for number, text in enumerate(lines, 1):
        yield score_line(text, number, cache)


def _chunks(lines: Iterable[str]) -> Iterator[tuple[int, list[str]]]:
    it = iter(lines)
    start = 1
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
    write = out.write
    for line, ok in results:
        write(line)
        write("\n")
        total += 1
        failed += not ok
    return failed, total


def main_batch(source: str) -> int:
    """``agari score --batch SOURCE`` without the CLI framework: the exit code.

    Reports a whole-run failure (unreadable file, interrupted) as the CLI does:
    one JSON error object on stdout, one ``agari: error:`` line on stderr.
    """
    import sys

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
