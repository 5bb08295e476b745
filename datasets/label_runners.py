"""Where the labelling work runs: in this process, a pool of processes, or a Dask cluster.

Every runner is a generator of ``(InputImage, outcome)`` pairs in completion
order, where the outcome is `agari.datasets.label_worker.label_source`'s dict.
A runner keeps only a small window of images in flight, so memory stays flat
and a stop loses at most that window's unfinished work (never finished work:
the caller commits each pair as it comes). Close the generator to stop it
(`contextlib.closing`): workers are then terminated at once.

The process pool uses the ``spawn`` start method (no inherited ONNX sessions
or OpenCV state; the same on every OS). If a worker process dies (a crash in
native code, the OOM killer), the images that were in flight are run again one
at a time, so only the image that kills its worker is reported as failed; an
image that dies alone is given one more try before it is, since the worker may
have been killed from outside (the OOM killer takes the biggest process, not the
guilty one) at a moment when that image happened to be the only one in flight.
"""

from __future__ import annotations

import logging
import multiprocessing
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager

from agari.datasets.label_inputs import InputImage
from agari.datasets.label_worker import (
    WorkerConfig,
    init_pool_worker,
    label_source,
    read_source,
)
from agari.engine.errors import AgariError, ImageError, InvalidInput

Outcome = dict
Results = Iterator[tuple[InputImage, Outcome]]

WINDOW_PER_WORKER = 2
"""Images in flight per worker: one running, one queued so that no worker waits."""
DEAD_START_LIMIT = 3
"""Workers dying alone on this many images before any image succeeds means the
workers cannot run at all (a broken install), not that the images are bad."""


def _crashed(task: InputImage, why: str) -> Outcome:
    return {"error": {"code": "worker_crashed", "message": f"{task.name}: {why}"}}


def run_inline(tasks: Iterable[InputImage], config: WorkerConfig) -> Results:
    """Label in this process, one image after another (no isolation; for tests and debugging)."""
    for task in tasks:
        yield task, label_source(str(task.path), task.name, config)


# -- local process pool ----------------------------------------------------------
def _new_pool(workers: int, config: WorkerConfig) -> ProcessPoolExecutor:
    return ProcessPoolExecutor(max_workers=workers,
                               mp_context=multiprocessing.get_context("spawn"),
                               initializer=init_pool_worker, initargs=(config.threads,))


def _stop_pool(pool: ProcessPoolExecutor, *, graceful: bool) -> None:
    if graceful:
        pool.shutdown(wait=True)
        return
    # ProcessPoolExecutor has no public terminate before Python 3.14; running
    # images would otherwise finish first and hold up a Ctrl-C.
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in procs:
        proc.terminate()
    for proc in procs:
        proc.join(timeout=5)


def run_pool(tasks: Iterable[InputImage], config: WorkerConfig, *, workers: int,
             work: Callable[[str, str, WorkerConfig], Outcome] = label_source) -> Results:
    """Label with ``workers`` spawned processes, each with its own ONNX session.

    ``work`` is the unit of work (`label_source`); it must be importable by name
    in a fresh process.
    """
    todo = iter(tasks)
    suspects: deque[InputImage] = deque()  # in flight when a worker died: rerun alone
    window = WINDOW_PER_WORKER * workers
    pool = _new_pool(workers, config)
    inflight: dict[Future, InputImage] = {}
    graceful, succeeded, lone_deaths = False, False, 0
    died_alone: set[InputImage] = set()  # images whose worker died once while only they ran
    try:
        while True:
            while len(inflight) < (1 if suspects else window):
                task = suspects.popleft() if suspects else next(todo, None)
                if task is None:
                    break
                inflight[pool.submit(work, str(task.path), task.name, config)] = task
            if not inflight:
                graceful = True
                return
            finished, _ = wait(inflight, return_when=FIRST_COMPLETED)
            if not any(_is_broken(f) for f in finished):
                succeeded = True
                for fut in finished:
                    yield inflight.pop(fut), fut.result()
                continue
            # The pool is broken: every unfinished image in it must run again.
            lost = []
            for fut, task in sorted(inflight.items(), key=lambda ft: ft[1].name):
                if _is_broken(fut) or not fut.done():
                    lost.append(task)
                else:
                    yield task, fut.result()
            inflight.clear()
            _stop_pool(pool, graceful=False)
            pool = _new_pool(workers, config)
            if len(lost) == 1:
                lone_deaths += 1
                if not succeeded and lone_deaths >= DEAD_START_LIMIT:
                    raise AgariError("worker processes die before labelling any image "
                                     "(run with --workers 0 to see why)", code="worker_failed")
                if lost[0] in died_alone:
                    yield lost[0], _crashed(lost[0], "the worker process died while labelling it")
                else:
                    died_alone.add(lost[0])
                    suspects.append(lost[0])
            else:
                suspects.extend(lost)
    finally:
        _stop_pool(pool, graceful=graceful)


def _is_broken(fut: Future) -> bool:
    return fut.done() and isinstance(fut.exception(), BrokenProcessPool)


# -- Dask distributed ------------------------------------------------------------
CLUSTER_SCHEMES = ("tcp://", "tls://")


def check_cluster(cluster: str) -> None:
    """Check a ``--cluster`` value and that Dask is installed, before any work starts.

    Raises:
        InvalidInput: not ``local`` or a scheduler address, or Dask missing.
    """
    if cluster != "local" and not cluster.startswith(CLUSTER_SCHEMES):
        raise InvalidInput(f"--cluster must be 'local' or tcp://HOST:PORT, got {cluster!r}")
    try:
        import distributed  # noqa: F401 - only whether it is there
    except ImportError:
        raise InvalidInput("--cluster needs Dask: pip install 'agari[cluster]'",
                           code="missing_extra") from None


@contextmanager
def _sigint_ignored():
    """Ignore SIGINT while child processes start: they inherit it, the parent not."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def dask_client(cluster: str, *, workers: int):
    """A Dask client for ``local`` (a LocalCluster of ``workers`` processes) or ``tcp://…``.

    Raises:
        InvalidInput: Dask is not installed, the address is malformed or unreachable.
    """
    check_cluster(cluster)
    import distributed

    if cluster == "local":
        with _sigint_ignored():  # Ctrl-C is the job's to handle, not each Dask process's
            local = distributed.LocalCluster(n_workers=workers, threads_per_worker=1,
                                             processes=True, dashboard_address=None,
                                             silence_logs=logging.ERROR)
        client = distributed.Client(local)
    else:
        local = None
        try:
            client = distributed.Client(cluster, timeout="10s")
        except (OSError, TimeoutError) as err:
            raise InvalidInput(f"cannot reach the Dask scheduler at {cluster}: {err}",
                               code="cluster_unreachable") from None
    try:
        yield client
    finally:
        client.close()
        if local is not None:
            local.close()


def run_dask(tasks: Iterable[InputImage], config: WorkerConfig, *, cluster: str,
             workers: int) -> Results:
    """Label on a Dask cluster. Image bytes travel with each task, so the workers need
    agari and the model but not the images' folder."""
    from distributed import as_completed

    with dask_client(cluster, workers=workers) as client:
        window = WINDOW_PER_WORKER * max(1, sum(client.nthreads().values()))
        todo = iter(tasks)
        inflight: dict[str, tuple[object, InputImage]] = {}
        stream = as_completed()
        try:
            yield from _dask_fill(client, stream, todo, inflight, config, window)
            for fut in stream:
                task = inflight.pop(fut.key)[1]
                try:
                    outcome = fut.result()
                except Exception as exc:  # noqa: BLE001 - KilledWorker and friends
                    outcome = _crashed(task, f"the Dask worker failed: {type(exc).__name__}")
                yield task, outcome
                yield from _dask_fill(client, stream, todo, inflight, config, window)
        finally:
            if inflight:
                client.cancel([fut for fut, _ in inflight.values()])


def _dask_fill(client, stream, todo: Iterator[InputImage],
               inflight: dict[str, tuple[object, InputImage]], config: WorkerConfig,
               window: int) -> Results:
    """Submit images until ``window`` are in flight; unreadable files are answered at once."""
    while len(inflight) < window:
        task = next(todo, None)
        if task is None:
            return
        try:
            data = read_source(str(task.path), task.name)
        except ImageError as err:
            yield task, {"error": {"code": err.code, "message": err.message}}
            continue
        fut = client.submit(label_source, data, task.name, config, pure=False)
        inflight[fut.key] = (fut, task)
        stream.add(fut)
