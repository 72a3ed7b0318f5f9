"""Metrics of several worker processes, added up: prometheus_client's multiprocess mode.

Each worker writes its values to files of its own in ``PROMETHEUS_MULTIPROC_DIR``;
``/metrics`` reads them all, whichever worker answers.  The variable must be set before
prometheus_client is first imported in a worker, so ``aeon-ledger serve --workers N``
sets it before it starts uvicorn (``prepare_directory``).  When the operator has not set
it, serve makes a fresh directory per start and removes it on exit: files left by an
earlier run would add its counts to this one.

Each value a worker records asks the process's pid first (prometheus_client notices a fork
that way), and ``os.getpid`` is a system call: ``use_cached_pid`` gives it the pid kept
in memory and renewed after a fork instead, the same answer at a fraction of the cost.

A worker that dies (and is replaced by uvicorn's supervisor) leaves its files.  Its
counters must stay, or every counter summed over the workers would fall; its live gauges
(subscribers, connections in use) must go, or they would count streams and connections
that no longer exist.  ``forget_dead_workers`` does that before each collection.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

ENV = "PROMETHEUS_MULTIPROC_DIR"
_LIVE_GAUGE = re.compile(r"gauge_live\w+?_(\d+)\.db")
_pid = os.getpid()


def _renew_pid() -> None:
    global _pid
    _pid = os.getpid()


os.register_at_fork(after_in_child=_renew_pid)


def _cached_pid() -> int:
    return _pid


def directory() -> str | None:
    return os.environ.get(ENV) or None


def use_cached_pid() -> None:
    """In multiprocess mode, values created from now on identify their process by the
    cached pid (call before the first metric is defined)."""
    if directory() is None:
        return
    from prometheus_client import values

    values.ValueClass = values.MultiProcessValue(process_identifier=_cached_pid)  # type: ignore[no-untyped-call]


@contextlib.contextmanager
def prepare_directory(workers: int) -> Iterator[str | None]:
    """With several workers and no directory set by the operator: a fresh one, set in the
    environment the workers inherit, removed when the block ends.  Yields the directory
    in use (None with one worker, whose metrics live in its own memory)."""
    given = directory()
    if given is not None or workers <= 1:
        yield given
        return
    made = tempfile.mkdtemp(prefix="aeon-ledger-metrics-")
    os.environ[ENV] = made
    try:
        yield made
    finally:
        os.environ.pop(ENV, None)
        shutil.rmtree(made, ignore_errors=True)


def forget_dead_workers(path: str) -> list[int]:
    """Remove the live gauges of processes that no longer run; returns their pids."""
    from prometheus_client import multiprocess

    dead = []
    for entry in Path(path).glob("gauge_live*.db"):
        match = _LIVE_GAUGE.fullmatch(entry.name)
        if match is None:
            continue
        pid = int(match.group(1))
        if not _alive(pid):
            multiprocess.mark_process_dead(pid, path)  # type: ignore[no-untyped-call]
            dead.append(pid)
    return dead


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
