"""A live feed whose replica fails in the middle of a read carries on from the primary:
its streams get every event once and stay open (api/live/feed.py ``Feed._step``)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from uuid import UUID

import asyncpg

from api.live.feed import Feed
from api.live.subscriber import Audience, Message, Subscriber
from events.db import Database
from events.envelope import RecordedEvent
from projections.inline import read_model_rows
from service.write.pipeline import CommandPipeline
from tests.support.pipeline import add, tables


async def _encode(
    encounter_id: UUID, audience: Audience, events: list[RecordedEvent], db: Database
) -> list[Message]:
    return [Message(e.stream_version, f"id: {e.stream_version}\n\n".encode()) for e in events]


async def test_a_replica_failing_mid_read_leaves_the_read_to_the_primary(
    pool: asyncpg.Pool, database_url: str
) -> None:
    pipeline = CommandPipeline(pool, read_model_rows)
    [encounter_id] = await tables(pipeline, 1)
    head = await pool.fetchval("SELECT version FROM streams WHERE stream_id = $1", encounter_id)
    gone = await asyncpg.connect(database_url)
    await gone.close()  # a "replica" whose connection is lost: every query fails
    asked: list[int | None] = []

    @contextlib.asynccontextmanager
    async def reader(stream_id: UUID, version: int | None) -> AsyncIterator[Database]:
        asked.append(version)
        yield pool if version is None else gone  # type: ignore[misc]

    feed = Feed(
        pool,
        encounter_id,
        head,
        encode=_encode,
        page=2,
        poll_seconds=30,
        keepalive_seconds=30,
        reader=reader,
    )
    subscriber = Subscriber("player", None, limit=100)
    feed.subscribers.add(subscriber)
    ended: list[Feed] = []

    @contextlib.asynccontextmanager
    async def watch(stream_id: UUID) -> AsyncIterator[None]:
        yield

    task = asyncio.create_task(feed.run(watch, ended.append))
    await asyncio.sleep(0.2)  # the first read, the primary's: nothing new
    for name in ("goblin", "orc", "troll"):  # three events: two pages
        await add(pipeline, encounter_id, name, hp=7)
    new_head = head + 3
    feed.woken(new_head)
    for _ in range(100):
        if feed.version == new_head:
            break
        await asyncio.sleep(0.05)
    versions = [m.version for m in subscriber.take()]
    assert versions == [head + 1, head + 2, head + 3], "every event once, in order"
    assert new_head in asked, "the announced read went to the replica first"
    assert asked[-1] is None, "then to the primary"
    assert not subscriber.ended and not task.done(), "the stream stays open"
    feed.subscribers.clear()
    feed.wake.set()
    await asyncio.wait_for(task, 5)
    assert ended == [feed]
