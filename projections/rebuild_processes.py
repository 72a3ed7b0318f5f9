"""``rebuild_all`` shared out to worker processes, one range of stream ids at a time.

Folding is Python work and one process folds on one core; this starts workers
(``python -m projections.rebuild_worker``), hands each the next range of stream ids as it
finishes one, and adds up what they rebuilt.
"""

from __future__ import annotations

import asyncio
import os
import sys
from collections import deque
from itertools import pairwise
from pathlib import Path
from uuid import UUID

import msgspec

from events.scan import LAST_ID
from projections.stream_fold import DamagedStream

RANGES_PER_PROCESS = 4
"""Ranges of stream ids each worker process of ``rebuild_all_in_processes`` takes on."""

_CODE_ROOT = str(Path(__file__).resolve().parent.parent)
"""Where this code's packages are: worker processes import the same code."""


async def rebuild_all_in_processes(
    database_url: str,
    processes: int | None = None,
    damaged: list[DamagedStream] | None = None,
) -> tuple[int, int]:
    """``rebuild_all`` shared out to ``processes`` worker processes (default: one per
    CPU); returns (streams, events) rebuilt, and adds the streams left alone to
    ``damaged``.

    Folding is Python work, which one process does on one core at a time; with workers,
    each rebuilds ranges of stream ids on connections of its own, taking the next range
    as it finishes one (several ranges per worker, so that one slow range does not leave
    the others idle).  Every batch is still one transaction that locks its streams,
    whichever process runs it.  The workers are ``projections.rebuild_worker``.
    """
    workers = processes or os.cpu_count() or 1
    ranges = deque(_id_ranges(workers * RANGES_PER_PROCESS))
    try:
        async with asyncio.TaskGroup() as tasks:
            runs = [
                tasks.create_task(_run_worker(database_url, ranges, damaged))
                for _ in range(workers)
            ]
    except ExceptionGroup as failed:
        raise failed.exceptions[0] from None  # the first failure is the cause
    done = [run.result() for run in runs]
    return sum(streams for streams, _ in done), sum(events for _, events in done)


async def _run_worker(
    database_url: str,
    ranges: deque[tuple[UUID, UUID]],
    damaged: list[DamagedStream] | None,
) -> tuple[int, int]:
    """One worker process, fed ranges from ``ranges`` until none is left."""
    path = os.pathsep.join(filter(None, [_CODE_ROOT, os.environ.get("PYTHONPATH")]))
    worker = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "projections.rebuild_worker",
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": path},
    )
    assert worker.stdin is not None and worker.stdout is not None and worker.stderr is not None
    errors = asyncio.create_task(worker.stderr.read())
    streams = events = 0
    try:
        worker.stdin.write(msgspec.json.encode(database_url) + b"\n")
        while ranges:
            worker.stdin.write(msgspec.json.encode(ranges.popleft()) + b"\n")
            await worker.stdin.drain()
            answer = await worker.stdout.readline()
            if not answer:  # it ended without answering
                raise RuntimeError(f"a rebuild worker failed:\n{(await errors).decode()}")
            rebuilt = msgspec.json.decode(answer, type=tuple[int, int, list[tuple[UUID, str]]])
            streams, events = streams + rebuilt[0], events + rebuilt[1]
            if damaged is not None:
                damaged += [DamagedStream(sid, reason) for sid, reason in rebuilt[2]]
        worker.stdin.close()
        if await worker.wait() != 0:
            raise RuntimeError(f"a rebuild worker failed:\n{(await errors).decode()}")
    finally:
        if worker.returncode is None:  # failed or cancelled here: stop it
            worker.kill()
            await worker.wait()
        await errors
    return streams, events


def _id_ranges(count: int) -> list[tuple[UUID, UUID]]:
    """``count`` ranges of equal width covering every stream id (ids are random)."""
    width = (LAST_ID.int + 1) // count
    bounds = [n * width for n in range(count)] + [LAST_ID.int + 1]
    return [(UUID(int=lo), UUID(int=hi - 1)) for lo, hi in pairwise(bounds)]
