"""Migration 0024 reads one PostgreSQL's store by transaction from then on, renumbering
nothing: a stored checkpoint in shard order still reads the rest of the shards, then every
event written since; the events' places and the counts stay as they were."""

from __future__ import annotations

from collections.abc import AsyncIterator
from uuid import uuid4

import asyncpg
import pytest

from events.migrate import apply_migrations
from events.reading import Checkpoint
from events.shards import shard_of
from tests.support.databases import migrated_before
from tests.support.servers import with_database
from tests.support.streams import append_committed, read_settled


@pytest.fixture
async def at_0023(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    async with migrated_before(postgres_url, "0024") as conn:
        yield conn


async def _append(conn: asyncpg.Connection, stream_id: object, version: int) -> None:
    """Version ``version`` of a stream as a write before 0024 stored it: numbered in its
    shard by the count."""
    async with conn.transaction():
        if version == 1:
            await conn.execute(
                "INSERT INTO streams (stream_id, version, last_hash) VALUES ($1, 0, '')",
                stream_id,
            )
        shard = shard_of(stream_id)  # type: ignore[arg-type]
        head = await conn.fetchval(
            "UPDATE shard_heads SET head = head + 1 WHERE shard = $1 RETURNING head", shard
        )
        await conn.execute(
            """INSERT INTO events (stream_id, stream_version, type, data, metadata,
                                   recorded_at, prev_hash, hash, shard, shard_position)
               VALUES ($1, $2, 't', '{}', '{}', now(), '', '', $3, $4)""",
            stream_id,
            version,
            shard,
            head,
        )
        await conn.execute(
            "UPDATE streams SET version = $2 WHERE stream_id = $1", stream_id, version
        )


async def test_a_store_read_by_shard_is_read_on_by_transaction(
    at_0023: asyncpg.Connection, postgres_url: str
) -> None:
    conn = at_0023
    streams = [uuid4() for _ in range(4)]
    for version in (1, 2):
        for sid in streams:
            await _append(conn, sid, version)
    heads_before = dict(await conn.fetch("SELECT shard, head FROM shard_heads"))
    # A reader that read one shard's first two places before the migration.
    shard = shard_of(streams[0])
    at = Checkpoint().past({shard: 2})
    read_before = await conn.fetch(
        "SELECT stream_id, stream_version FROM events WHERE shard = $1 AND shard_position <= 2",
        shard,
    )
    assert len(read_before) == 2
    await conn.execute(
        "INSERT INTO carry_over_checkpoint (name, shards) VALUES ('test', $1)", at.stored()
    )

    await apply_migrations(conn)

    assert await conn.fetchval("SELECT by_shard FROM event_order") is False
    assert dict(await conn.fetch("SELECT shard, head FROM shard_heads")) == heads_before
    assert await conn.fetchval("SELECT count(*) FROM events WHERE shard_position IS NULL") == 0
    name = await conn.fetchval("SELECT current_database()")
    pool = await asyncpg.create_pool(with_database(postgres_url, name), min_size=1, max_size=3)
    assert pool is not None
    try:
        for sid in streams:
            await append_committed(pool, sid, "t.after")
        stored = Checkpoint.from_stored(
            await conn.fetchval("SELECT shards FROM carry_over_checkpoint WHERE name = 'test'")
        )
        rest, end = await read_settled(pool, stored, 4 * 3 - 2, limit=2)
    finally:
        await pool.close()
    read = [(r["stream_id"], r["stream_version"]) for r in read_before]
    read += [(e.stream_id, e.stream_version) for e in rest]
    assert len(read) == len(set(read))
    assert sorted(read) == sorted((sid, v) for sid in streams for v in (1, 2, 3))
    assert end.transaction is not None
    assert await conn.fetchval("SELECT count(*) FROM events WHERE shard_position IS NULL") == 4
