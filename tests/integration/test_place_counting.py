"""How a database counts its shards' places (migration 0023, events/shards.py): by a
sequence per shard under the shard's advisory lock on one PostgreSQL, by the shard's row
of ``shard_heads`` once marked for Citus; never both ways at once."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from uuid import uuid4

import asyncpg
import pytest

from events.envelope import NewEvent
from events.migrate import apply_migrations
from events.shards import counting_of, shard_of
from events.store import Checkpoint, append, create_stream, read_all, stream_head
from events.webhooks import global_now
from tests.support.databases import create_database, drop_database, migrated_before
from tests.support.streams import append_committed, append_one, stream_in_shard


async def _place(db: asyncpg.Pool | asyncpg.Connection, stream_id: object) -> int:
    place: int = await db.fetchval(
        "SELECT max(shard_position) FROM events WHERE stream_id = $1", stream_id
    )
    return place


async def test_the_committed_heads_wait_for_a_writer_holding_its_shard(
    pool: asyncpg.Pool,
) -> None:
    """A writer has drawn its place but not committed: a checkpoint of 'now' taken then
    must not pass that place, or a reader starting there would skip the event."""
    slow_id = uuid4()
    async with pool.acquire() as conn, conn.transaction():
        await create_stream(conn, slow_id)
    slow_conn = await pool.acquire()
    try:
        slow_tx = slow_conn.transaction()
        await slow_tx.start()
        await append_one(slow_conn, slow_id, "t.slow")
        now = asyncio.create_task(global_now(pool))
        await asyncio.sleep(0.3)
        assert not now.done(), "the committed heads did not wait for the open writer"
        await slow_tx.commit()
        checkpoint = await now
    finally:
        await pool.release(slow_conn)
    assert checkpoint.shards[shard_of(slow_id)] >= await _place(pool, slow_id)


async def test_a_write_that_fails_after_drawing_leaves_a_hole_that_readers_pass(
    pool: asyncpg.Pool,
) -> None:
    shard = 5
    failed_id, later_id = stream_in_shard(shard), stream_in_shard(shard)
    for sid in (failed_id, later_id):
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, sid)
    start = await global_now(pool)
    async with pool.acquire() as conn:
        tx = conn.transaction()
        await tx.start()
        await append_one(conn, failed_id, "t.rolled_back")
        drawn = await _place(conn, failed_id)
        await tx.rollback()
    await append_committed(pool, later_id, "t.after")
    assert await _place(pool, later_id) == drawn + 1  # a sequence does not roll back
    hole = await pool.fetchval(
        "SELECT count(*) FROM events WHERE shard = $1 AND shard_position = $2", shard, drawn
    )
    assert hole == 0
    seen, _ = await read_all(pool, start)
    assert [e.type for e in seen if e.stream_id in (failed_id, later_id)] == ["t.after"]


async def test_a_database_migrated_before_counts_on_from_its_rows(postgres_url: str) -> None:
    async with migrated_before(postgres_url, "0023") as conn:
        await conn.execute("UPDATE shard_heads SET head = 41 WHERE shard = 3")
        await apply_migrations(conn)
        assert await counting_of(conn) == "sequences"
        assert await conn.fetchval("SELECT head FROM aeon_shard_heads() WHERE shard = 3") == 41
        stream_id = stream_in_shard(3)
        async with conn.transaction():
            await create_stream(conn, stream_id)
            await append_one(conn, stream_id, "t.first_after_the_migration")
        assert await _place(conn, stream_id) == 42
        assert await conn.fetchval("SELECT head FROM aeon_shard_heads() WHERE shard = 3") == 42


@pytest.fixture
async def rows_database(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    url = await create_database(postgres_url)
    conn = await asyncpg.connect(url)
    await apply_migrations(conn)
    yield conn
    await conn.close()
    await drop_database(postgres_url, url)


async def test_a_database_marked_for_rows_counts_only_in_rows(
    rows_database: asyncpg.Connection,
) -> None:
    conn = rows_database
    stream_id = stream_in_shard(9)
    async with conn.transaction():
        await create_stream(conn, stream_id)
        await append_one(conn, stream_id, "t.counted_by_the_sequence")
    await conn.execute("SELECT aeon_count_places_in_rows()")
    assert await counting_of(conn) == "rows"
    assert await conn.fetchval("SELECT head FROM shard_heads WHERE shard = 9") == 1

    with pytest.raises(asyncpg.RaiseError, match="counts its places in shard_heads rows"):
        async with conn.transaction():
            await append_one(conn, stream_id, "t.sequence_refused")
    async with conn.transaction():
        await append(
            conn,
            stream_id,
            await stream_head(conn, stream_id),
            [NewEvent(type="t.counted_by_the_row", data={})],
            metadata={},
            recorded_at=datetime.now(UTC),
            counting="rows",
        )
    assert await _place(conn, stream_id) == 2
    assert await conn.fetchval("SELECT head FROM aeon_shard_heads() WHERE shard = 9") == 2
    seen, _ = await read_all(conn, Checkpoint())
    assert [e.type for e in seen] == ["t.counted_by_the_sequence", "t.counted_by_the_row"]
