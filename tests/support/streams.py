"""Streams for tests of the event store's reading: one in a chosen shard, one event
appended to it straight through the store (events/append.py), without a ruleset, in a
transaction of its own or one held open, and a reading of every stream that waits for
what was committed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg

from events.envelope import NewEvent, RecordedEvent
from events.shards import shard_of
from events.store import Checkpoint, append, create_stream, read_all, stream_head


def stream_in_shard(shard: int) -> UUID:
    """A new stream id in ``shard``."""
    while True:
        candidate = uuid4()
        if shard_of(candidate) == shard:
            return candidate


async def append_one(conn: asyncpg.Connection, stream_id: UUID, type_: str) -> None:
    """One event of ``type_`` after the stream's head, in the caller's transaction."""
    await append(
        conn,
        stream_id,
        await stream_head(conn, stream_id),
        [NewEvent(type=type_, data={})],
        metadata={},
        recorded_at=datetime.now(UTC),
    )


async def append_committed(pool: asyncpg.Pool, stream_id: UUID, type_: str) -> None:
    """``append_one`` in a transaction of its own."""
    async with pool.acquire() as conn, conn.transaction():
        await append_one(conn, stream_id, type_)


async def new_streams(pool: asyncpg.Pool, *stream_ids: UUID) -> None:
    for stream_id in stream_ids:
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, stream_id)


@asynccontextmanager
async def held_open(pool: asyncpg.Pool, stream_id: UUID, type_: str) -> AsyncIterator[None]:
    """``append_one`` in a transaction held open while the body runs, committed after it
    (rolled back if the body raises)."""
    async with pool.acquire() as conn, conn.transaction():
        await append_one(conn, stream_id, type_)
        yield


async def read_settled(
    db: asyncpg.Pool, after: Checkpoint, count: int, *, limit: int = 1000, within: float = 10
) -> tuple[list[RecordedEvent], Checkpoint]:
    """``read_all`` from ``after``, ``limit`` at a time, until ``count`` events are read (or
    ``within`` seconds pass).  In transaction order the reading waits for the oldest
    transaction still running anywhere on the server, such as another test's."""
    events: list[RecordedEvent] = []
    deadline = asyncio.get_running_loop().time() + within
    while len(events) < count and asyncio.get_running_loop().time() < deadline:
        batch, after = await read_all(db, after, limit=limit)
        events += batch
        if not batch:
            await asyncio.sleep(0.01)
    return events, after
