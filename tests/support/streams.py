"""Streams for tests of the event store's reading: one in a chosen shard, and one event
appended to it straight through the store (events/append.py), without a ruleset."""

from __future__ import annotations

from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg

from events.envelope import NewEvent
from events.shards import shard_of
from events.store import append, stream_head


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
