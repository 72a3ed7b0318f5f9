"""Migration 0017 numbers the events written before it in their shards, in the order the
former global reading read them, and turns a service-wide webhook's checkpoint in that
order into the same place in every shard."""

from __future__ import annotations

from collections.abc import AsyncIterator
from uuid import UUID, uuid4

import asyncpg
import pytest

from events.migrate import apply_migrations
from events.shards import SHARDS, shard_of
from tests.support.databases import migrated_before


@pytest.fixture
async def at_0016(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A fresh database migrated up to, not including, 0017."""
    async with migrated_before(postgres_url, "0017") as conn:
        yield conn


async def _write(conn: asyncpg.Connection, streams: list[UUID], version: int) -> int:
    """One transaction appending version ``version`` to each stream; its transaction id."""
    async with conn.transaction():
        for stream_id in streams:
            if version == 1:
                await conn.execute(
                    "INSERT INTO streams (stream_id, version, last_hash) VALUES ($1, 0, '')",
                    stream_id,
                )
            await conn.execute(
                """INSERT INTO events (stream_id, stream_version, type, data, metadata,
                                       recorded_at, prev_hash, hash)
                   VALUES ($1, $2, 't', '{}', '{}', now(), '', '')""",
                stream_id,
                version,
            )
            await conn.execute(
                "UPDATE streams SET version = $2 WHERE stream_id = $1", stream_id, version
            )
        return int(await conn.fetchval("SELECT pg_current_xact_id()::text::bigint"))


async def test_events_and_checkpoints_written_before_are_numbered_per_shard(
    at_0016: asyncpg.Connection,
) -> None:
    conn = at_0016
    # Streams of two shards, four of them in one shard.
    same = []
    while len(same) < 4:
        candidate = uuid4()
        if shard_of(candidate) == 5:
            same.append(candidate)
    other = next(u for u in iter(uuid4, None) if shard_of(u) == 9)
    streams = [*same, other]
    first_tx = await _write(conn, streams, 1)
    await _write(conn, streams, 2)
    first_last = await conn.fetchval(
        "SELECT max(global_position) FROM events WHERE transaction_id::text::bigint = $1",
        first_tx,
    )
    webhook = uuid4()
    await conn.execute(
        """INSERT INTO webhooks (webhook_id, url, format, secret, checkpoint_tx,
                                 checkpoint_position)
           VALUES ($1, 'https://example.org/hook', 'json', 'whsec_0000000000000000', $2, $3)""",
        webhook,
        first_tx,
        first_last,
    )

    applied = await apply_migrations(conn)  # 0017, then any later migration
    assert applied[0] == "0017_positions_per_shard.sql"

    rows = await conn.fetch(
        """SELECT stream_id, shard, shard_position FROM events
           ORDER BY transaction_id, global_position"""
    )
    assert all(r["shard"] == shard_of(r["stream_id"]) for r in rows)
    in_five = [r["shard_position"] for r in rows if r["shard"] == 5]
    assert in_five == list(range(1, 9))  # the former reading's order, numbered from 1
    assert [r["shard_position"] for r in rows if r["shard"] == 9] == [1, 2]
    heads = dict(await conn.fetch("SELECT shard, head FROM shard_heads"))
    assert len(heads) == SHARDS
    assert (heads[5], heads[9]) == (8, 2)
    assert sum(heads.values()) == 10
    checkpoint = await conn.fetchval(
        "SELECT checkpoint_shards FROM webhooks WHERE webhook_id = $1", webhook
    )
    expected = [0] * SHARDS
    expected[5], expected[9] = 4, 1  # past the first transaction's events, no further
    assert checkpoint == expected
