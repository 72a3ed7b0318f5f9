"""Reading all streams never skips an event that committed late, in either order the
store can be read in (events/migrations/0024_event_order.sql): by shard, each shard's
places in the order its count row let its writers commit; by transaction, up to the oldest
transaction still running.  A reader of a store that changed order reads it whole, each
event once; and the service and PostgreSQL agree on every stream's shard."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from typing import Any
from uuid import UUID, uuid4

import asyncpg
import pytest

from api.app import open_pool
from api.settings import Settings
from events.envelope import NewEvent
from events.reading import moved_streams
from events.shards import SHARDS, anchors, shard_of, uuid_hash
from events.store import Checkpoint, append, read_all, stream_head
from tests.support.citus import citus_url
from tests.support.databases import create_database, drop_database, shard_ordered_pool
from tests.support.streams import (
    append_committed,
    held_open,
    new_streams,
    read_settled,
    stream_in_shard,
)


@pytest.fixture(params=["by transaction", "by shard"])
def ordered(request: pytest.FixtureRequest, pool: asyncpg.Pool) -> asyncpg.Pool:
    """The session's store (read by transaction on one PostgreSQL), then one read by shard."""
    if request.param == "by shard":
        return request.getfixturevalue("shard_pool")  # type: ignore[no-any-return]
    if citus_url() is not None:
        pytest.skip("on Citus the store is read by shard only")
    return pool


async def test_a_writer_of_the_same_shard_commits_after_an_open_one(
    shard_pool: asyncpg.Pool,
) -> None:
    """Two encounters of one shard: the later writer queues on the shard's count row, so
    its place, and its commit, come after the open writer's; a reader never sees the
    later place without the earlier one."""
    _, start = await read_all(shard_pool, Checkpoint(), limit=1_000_000)
    slow_id = uuid4()
    fast_id = stream_in_shard(shard_of(slow_id))
    await new_streams(shard_pool, slow_id, fast_id)
    async with held_open(shard_pool, slow_id, "t.slow"):
        fast_write = asyncio.create_task(append_committed(shard_pool, fast_id, "t.fast"))
        await asyncio.sleep(0.3)
        assert not fast_write.done(), "the second writer of the shard did not wait"
        seen, checkpoint = await read_all(shard_pool, start)
        assert [e for e in seen if e.stream_id in (slow_id, fast_id)] == []
    await fast_write
    seen, checkpoint = await read_all(shard_pool, checkpoint)
    assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.slow", "t.fast"]
    rows = await shard_pool.fetch(
        "SELECT stream_id, shard, shard_position FROM events WHERE stream_id = ANY($1)",
        [slow_id, fast_id],
    )
    places = {r["stream_id"]: r["shard_position"] for r in rows}
    assert places[fast_id] == places[slow_id] + 1
    assert {r["shard"] for r in rows} == {shard_of(slow_id)}


async def test_writers_of_other_shards_do_not_wait(shard_pool: asyncpg.Pool) -> None:
    """Encounters of different shards: an open writer holds back nobody else, and the
    reader passes its shard until it commits."""
    _, start = await read_all(shard_pool, Checkpoint(), limit=1_000_000)
    slow_id = uuid4()
    fast_id = stream_in_shard((shard_of(slow_id) + 1) % SHARDS)
    await new_streams(shard_pool, slow_id, fast_id)
    async with held_open(shard_pool, slow_id, "t.slow"):
        await asyncio.wait_for(append_committed(shard_pool, fast_id, "t.fast"), timeout=5)
        seen, checkpoint = await read_all(shard_pool, start)
        assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.fast"]
    seen, checkpoint = await read_all(shard_pool, checkpoint)
    assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.slow"]


async def test_follower_sees_every_committed_event_once_and_no_rolled_back_one(
    ordered: asyncpg.Pool,
) -> None:
    """8 writers with overlapping, deliberately slow transactions; some roll back."""
    _, start = await read_all(ordered, Checkpoint(), limit=1_000_000)
    committed: set[tuple[str, int]] = set()
    done = asyncio.Event()

    async def writer(w: int) -> None:
        sid = uuid4()
        await new_streams(ordered, sid)
        rng = random.Random(w)
        for i in range(12):
            async with ordered.acquire() as conn:
                tx = conn.transaction()
                await tx.start()
                head = await stream_head(conn, sid)
                await append(
                    conn,
                    sid,
                    head,
                    [NewEvent(type="t.w", data={"w": w, "i": i})],
                    metadata={},
                    recorded_at=datetime.now(UTC),
                )
                await asyncio.sleep(rng.uniform(0, 0.03))
                if rng.random() < 0.25:
                    await tx.rollback()
                else:
                    await tx.commit()
                    committed.add((str(w), i))

    seen: list[tuple[str, int]] = []

    async def follower() -> None:
        checkpoint = start
        while True:
            finished = done.is_set()
            events, checkpoint = await read_all(ordered, checkpoint, limit=7)
            seen.extend((str(e.data["w"]), e.data["i"]) for e in events if e.type == "t.w")
            # (By transaction, the last commits show once every older transaction on the
            # server, another test's too, has ended.)
            if finished and not events and len(set(seen)) >= len(committed):
                return
            await asyncio.sleep(0.005)

    follow = asyncio.create_task(follower())
    await asyncio.gather(*(writer(w) for w in range(8)))
    done.set()
    await asyncio.wait_for(follow, timeout=30)
    assert len(seen) == len(set(seen)), "an event was delivered twice"
    assert set(seen) == committed


async def test_the_service_and_postgresql_agree_on_every_shard(pool: asyncpg.Pool) -> None:
    """events/shards.py computes a stream's shard and its count row's anchor in Python
    (every write names them); migration 0017 fixed the anchors and ``aeon_shard`` in SQL.
    They must agree, and agree with PostgreSQL's own ``uuid_hash``, which Citus uses."""
    sample = [uuid4() for _ in range(500)] + [UUID(int=0), UUID(int=2**128 - 1)]
    rows = await pool.fetch(
        "SELECT u, uuid_hash(u) AS hash, aeon_shard(u) AS shard FROM unnest($1::uuid[]) AS u",
        sample,
    )
    assert [(r["hash"], r["shard"]) for r in rows] == [(uuid_hash(u), shard_of(u)) for u in sample]
    stored = await pool.fetch("SELECT shard, anchor FROM shard_heads ORDER BY shard")
    assert [(r["shard"], r["anchor"]) for r in stored] == list(enumerate(anchors()))
    assert {shard_of(u) for u in sample} == set(range(SHARDS))


async def test_every_event_is_numbered_in_its_shard_below_the_count(
    shard_pool: asyncpg.Pool,
) -> None:
    misplaced = await shard_pool.fetchval(
        "SELECT count(*) FROM events WHERE shard <> aeon_shard(stream_id) OR shard_position < 1"
    )
    assert misplaced == 0
    # (Two reads, not a join on the shard: on Citus that join would need repartitioning.)
    tops = dict(
        await shard_pool.fetch("SELECT shard, max(shard_position) FROM events GROUP BY shard")
    )
    heads = dict(await shard_pool.fetch("SELECT shard, head FROM shard_heads"))
    assert all(top <= heads[shard] for shard, top in tops.items())
    duplicated = await shard_pool.fetchval(
        """SELECT count(*) FROM (SELECT shard, shard_position FROM events
                                 GROUP BY 1, 2 HAVING count(*) > 1) AS d"""
    )
    assert duplicated == 0


async def test_moved_streams_fold_what_read_all_reads(ordered: asyncpg.Pool) -> None:
    """``moved_streams`` (the carry-over process manager's read), batch after batch,
    takes the events ``read_all`` takes, to the same checkpoint: every encounter at the
    last version read, campaigns' events counted as read and naming no encounter."""
    _, start = await read_all(ordered, Checkpoint(), limit=1_000_000)
    streams = [uuid4(), uuid4(), stream_in_shard(3), stream_in_shard(3)]
    campaign = stream_in_shard(3)
    await new_streams(ordered, *streams, campaign)
    for n in range(3):
        for sid in streams:
            await append_committed(ordered, sid, f"t.{n}")
        await append_committed(ordered, campaign, f"campaign.t{n}")
    events, at_events = await read_settled(ordered, start, 15)
    expected = {e.stream_id: e.stream_version for e in events if e.stream_id != campaign}
    seen: dict[UUID, int] = {}
    read, batches, at = 0, 0, start
    while True:
        moved = await moved_streams(ordered, at, limit=5)
        if not moved.read:
            break
        assert campaign not in moved.encounters
        assert all(seen.get(sid, 0) < v for sid, v in moved.encounters.items())
        seen.update(moved.encounters)
        read, batches, at = read + moved.read, batches + 1, moved.past
    assert seen == expected
    assert read == len(events) == 15
    assert batches > 1, "the limit did not split the reading"
    assert at == at_events


async def test_by_transaction_no_writer_waits_and_the_reading_waits_for_the_oldest(
    pool: asyncpg.Pool,
) -> None:
    """Two encounters of one shard: by transaction nobody counts, so the later writer
    commits at once; the reading stops below the open transaction, then reads both in
    the order of their transactions.  Neither event has a place in its shard."""
    if citus_url() is not None:
        pytest.skip("on Citus the store is read by shard only")
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    slow_id = uuid4()
    fast_id = stream_in_shard(shard_of(slow_id))
    await new_streams(pool, slow_id, fast_id)
    async with held_open(pool, slow_id, "t.slow"):
        await asyncio.wait_for(append_committed(pool, fast_id, "t.fast"), timeout=5)
        seen, checkpoint = await read_all(pool, start)
        assert [e for e in seen if e.stream_id in (slow_id, fast_id)] == []
    seen, _ = await read_settled(pool, checkpoint, 2)
    assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.slow", "t.fast"]
    places = await pool.fetch(
        "SELECT shard_position FROM events WHERE stream_id = ANY($1)", [slow_id, fast_id]
    )
    assert [r["shard_position"] for r in places] == [None, None]


async def _streams_with_events(db: asyncpg.Pool, count: int, events: int) -> list[UUID]:
    streams = [uuid4() for _ in range(count)]
    await new_streams(db, *streams)
    await _append_to_each(db, streams, events)
    return streams


async def _append_to_each(db: asyncpg.Pool, streams: list[UUID], events: int) -> None:
    for n in range(events):
        for sid in streams:
            await append_committed(db, sid, f"t.{n}")


def _once_each_in_order(events: list[Any], streams: list[UUID], per_stream: int) -> None:
    """Every stream's events read once each, in version order, and nothing else."""
    ours = [(e.stream_id, e.stream_version) for e in events if e.stream_id in streams]
    assert len(ours) == len(set(ours)) == len(streams) * per_stream
    for sid in streams:
        versions = [v for s, v in ours if s == sid]
        assert versions == list(range(1, per_stream + 1))


async def test_a_reader_by_shard_finishes_the_shards_then_goes_on_by_transaction(
    postgres_url: str,
) -> None:
    """A store moved from shard to transaction order (as migration 0024 moves one
    PostgreSQL's): a reader partway through the shards reads what is left of them, then
    every event written by transaction, each once."""
    async with shard_ordered_pool(postgres_url) as db:
        streams = await _streams_with_events(db, 6, 3)
        first, at = await read_all(db, Checkpoint(), limit=7)
        assert len(first) == 7 and at.transaction is None
        await db.execute("SELECT aeon_order_events_by_transaction()")
        await _append_to_each(db, streams, 2)
        rest, end = await read_settled(db, at, 6 * 5 - 7, limit=4)
        _once_each_in_order(first + rest, streams, 5)
        assert end.transaction is not None
        moved = await moved_streams(db, at, limit=1000)
        unread = {sid for sid in streams if sum(e.stream_id == sid for e in first) < 3}
        assert moved.encounters == dict.fromkeys(unread, 3), "the shards' rest comes first"
        assert moved.read == 6 * 3 - 7 and moved.past.transaction is None
        after_shards = await moved_streams(db, moved.past, limit=1000)
        assert after_shards.encounters == dict.fromkeys(streams, 5)
        assert after_shards.past == end


async def test_moving_to_shard_order_numbers_the_events_and_the_stored_checkpoints(
    postgres_url: str,
) -> None:
    """Moving a store read by transaction to shard order (for Citus) numbers its events
    after each shard's count in the order they were read in, and a stored checkpoint in
    transaction order becomes the places it is past: reading on from it reads the rest."""
    url = await create_database(postgres_url)
    db = await open_pool(Settings(database_url=url, pool_max=10))
    try:
        if await db.fetchval("SELECT by_shard FROM event_order"):
            pytest.skip("a database of this server starts in shard order (Citus)")
        streams = await _streams_with_events(db, 5, 4)
        first, at = await read_settled(db, Checkpoint(), 9, limit=9)
        assert at.transaction is not None
        await db.execute(
            "INSERT INTO carry_over_checkpoint (name, shards) VALUES ('test', $1)", at.stored()
        )
        await db.execute("SELECT aeon_order_events_by_shard()")
        stored = Checkpoint.from_stored(
            await db.fetchval("SELECT shards FROM carry_over_checkpoint WHERE name = 'test'")
        )
        assert stored.transaction is None
        rest, _ = await read_all(db, stored, limit=1000)
        _once_each_in_order(first + rest, streams, 4)
        assert await db.fetchval("SELECT count(*) FROM events WHERE shard_position IS NULL") == 0
        places = await db.fetch(
            "SELECT shard, count(*) AS n, max(shard_position) AS top FROM events GROUP BY shard"
        )
        heads = dict(await db.fetch("SELECT shard, head FROM shard_heads"))
        assert all(r["n"] == r["top"] == heads[r["shard"]] for r in places)
    finally:
        await db.close()
        await drop_database(postgres_url, url)
