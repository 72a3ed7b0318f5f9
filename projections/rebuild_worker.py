"""A worker process of ``projections.rebuild_processes.rebuild_all_in_processes``.

Started as ``python -m projections.rebuild_worker`` rather than by multiprocessing: a
spawned multiprocessing worker first imports its parent's main module again (for the
benchmark, bench.loading with the whole API and Litestar: about 1.5 s of CPU per worker,
a tenth of a 1,000,000-event rebuild on two cores), while this imports only what a
rebuild needs, and keeps one pool for all the ranges it is given.

The parent talks to it in JSON, one document per line.  stdin: the database URL, then
each range of stream ids to rebuild (``[first, last]``, inclusive); stdout: for each
range, ``[streams, events, damaged]`` once it is rebuilt, ``damaged`` listing the streams
left alone as ``[stream_id, reason]``.  The worker ends when stdin closes; a
failure ends it with its traceback on stderr and a non-zero exit code.
"""

from __future__ import annotations

import asyncio
import sys
from uuid import UUID

import asyncpg
import msgspec

from projections.rebuild import DamagedStream, rebuild_all


async def serve() -> None:
    """Rebuild each range read from stdin and answer it on stdout."""
    commands, answers = sys.stdin.buffer, sys.stdout.buffer
    database_url = msgspec.json.decode(commands.readline(), type=str)
    pool = await asyncpg.create_pool(database_url, min_size=2, max_size=2)
    try:
        # Blocking reads are fine here: between two ranges this process has nothing else
        # to do, and during one the parent has nothing to say.
        for line in commands:
            ids = msgspec.json.decode(line, type=tuple[UUID, UUID])
            damaged: list[DamagedStream] = []
            streams, events = await rebuild_all(pool, ids=ids, damaged=damaged)
            skipped = [(d.stream_id, d.reason) for d in damaged]
            answers.write(msgspec.json.encode((streams, events, skipped)) + b"\n")
            answers.flush()
    finally:
        await pool.close()


if __name__ == "__main__":
    asyncio.run(serve())
