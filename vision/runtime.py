"""onnxruntime sessions for agari's shipped nets (the tile classifier, the core net).

CPU only, at most `MAX_THREADS` intra-op threads, one inter-op thread, and idle
threads that sleep instead of spinning: on a small shared CPU spinning steals time
from the caller's own work (the locator, the UI) for no gain.
"""

from __future__ import annotations

from pathlib import Path

from agari.engine.cpus import usable_cpus
from agari.engine.errors import ModelError

MAX_THREADS = 4
"""Cap on onnxruntime's intra-op threads: more only contend on a small machine."""


def default_threads() -> int:
    """Threads for inference: the CPUs this process may use, at most `MAX_THREADS`."""
    return max(1, min(MAX_THREADS, usable_cpus()))


def open_session(path: Path, what: str, threads: int | None = None) -> object:
    """An onnxruntime CPU session for the model at ``path``.

    Args:
        path: the ``.onnx`` file.
        what: the model's name in error messages ("classifier model", ...).
        threads: intra-op threads (default `default_threads`).

    Raises:
        ModelError: the file is missing or onnxruntime cannot load it (one line).
    """
    import onnxruntime as ort

    if not path.is_file():
        raise ModelError(f"{what} not found: {path}")
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or default_threads()
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.log_severity_level = 3
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except Exception as exc:  # onnxruntime raises its own untyped errors
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ModelError(f"cannot load {what} {path}: {first}") from exc
