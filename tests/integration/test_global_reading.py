"""Reading all streams by their places in each shard never skips an event that committed
late, and the service and PostgreSQL agree on every stream's shard."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg

from events.envelope import NewEvent
from events.reading import moved_streams
from events.shards import SHARDS, anchors, shard_of, uuid_hash
from events.store import Checkpoint, append, create_stream, read_all, stream_head
from tests.support.streams import append_committed, append_one, stream_in_shard


async def test_a_writer_of_the_same_shard_commits_after_an_open_one(pool: asyncpg.Pool) -> None:
    """Two encounters of one shard: the later writer queues on the shard's count row, so
    its place, and its commit, come after the open writer's; a reader never sees the
    later place without the earlier one."""
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    slow_id = uuid4()
    fast_id = stream_in_shard(shard_of(slow_id))
    for sid in (slow_id, fast_id):
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, sid)
    slow_conn = await pool.acquire()
    try:
        slow_tx = slow_conn.transaction()
        await slow_tx.start()
        await append_one(slow_conn, slow_id, "t.slow")

        fast_write = asyncio.create_task(append_committed(pool, fast_id, "t.fast"))
        await asyncio.sleep(0.3)
        assert not fast_write.done(), "the second writer of the shard did not wait"
        seen, checkpoint = await read_all(pool, start)
        assert [e for e in seen if e.stream_id in (slow_id, fast_id)] == []
        await slow_tx.commit()
        await fast_write
    finally:
        await pool.release(slow_conn)
    seen, checkpoint = await read_all(pool, checkpoint)
    assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.slow", "t.fast"]
    rows = await pool.fetch(
        "SELECT stream_id, shard, shard_position FROM events WHERE stream_id = ANY($1)",
        [slow_id, fast_id],
    )
    places = {r["stream_id"]: r["shard_position"] for r in rows}
    assert places[fast_id] == places[slow_id] + 1
    assert {r["shard"] for r in rows} == {shard_of(slow_id)}


async def test_writers_of_other_shards_do_not_wait(pool: asyncpg.Pool) -> None:
    """Encounters of different shards: an open writer holds back nobody else, and the
    reader passes its shard until it commits."""
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    slow_id = uuid4()
    fast_id = stream_in_shard((shard_of(slow_id) + 1) % SHARDS)
    for sid in (slow_id, fast_id):
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, sid)
    slow_conn = await pool.acquire()
    try:
        slow_tx = slow_conn.transaction()
        await slow_tx.start()
        await append_one(slow_conn, slow_id, "t.slow")
        await asyncio.wait_for(append_committed(pool, fast_id, "t.fast"), timeout=5)
        seen, checkpoint = await read_all(pool, start)
        assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.fast"]
        await slow_tx.commit()
    finally:
        await pool.release(slow_conn)
    seen, checkpoint = await read_all(pool, checkpoint)
    assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.slow"]


async def test_follower_sees_every_committed_event_once_and_no_rolled_back_one(
    pool: asyncpg.Pool,
) -> None:
    """8 writers with overlapping, deliberately slow transactions; some roll back."""
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    committed: set[tuple[str, int]] = set()
    done = asyncio.Event()

    async def writer(w: int) -> None:
        sid = uuid4()
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, sid)
        rng = random.Random(w)
        for i in range(12):
            async with pool.acquire() as conn:
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
            events, checkpoint = await read_all(pool, checkpoint, limit=7)
            seen.extend((str(e.data["w"]), e.data["i"]) for e in events if e.type == "t.w")
            if finished and not events:
                return
            await asyncio.sleep(0.005)

    follow = asyncio.create_task(follower())
    await asyncio.gather(*(writer(w) for w in range(8)))
    done.set()
    await follow
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


async def test_every_event_is_numbered_in_its_shard_below_the_count(pool: asyncpg.Pool) -> None:
    misplaced = await pool.fetchval(
        "SELECT count(*) FROM events WHERE shard <> aeon_shard(stream_id) OR shard_position < 1"
    )
    assert misplaced == 0
    # (Two reads, not a join on the shard: on Citus that join would need repartitioning.)
    tops = dict(await pool.fetch("SELECT shard, max(shard_position) FROM events GROUP BY shard"))
    heads = dict(await pool.fetch("SELECT shard, head FROM shard_heads"))
    assert all(top <= heads[shard] for shard, top in tops.items())
    duplicated = await pool.fetchval(
        """SELECT count(*) FROM (SELECT shard, shard_position FROM events
                                 GROUP BY 1, 2 HAVING count(*) > 1) AS d"""
    )
    assert duplicated == 0


async def test_moved_streams_fold_what_read_all_reads(pool: asyncpg.Pool) -> None:
    """``moved_streams`` (the carry-over process manager's read), batch after batch,
    takes the events ``read_all`` takes, to the same checkpoint: every encounter at the
    last version read, campaigns' events counted as read and naming no encounter."""
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    streams = [uuid4(), uuid4(), stream_in_shard(3), stream_in_shard(3)]
    campaign = stream_in_shard(3)
    for sid in [*streams, campaign]:
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, sid)
    for n in range(3):
        for sid in streams:
            await append_committed(pool, sid, f"t.{n}")
        await append_committed(pool, campaign, f"campaign.t{n}")
    events, at_events = await read_all(pool, start, limit=1_000_000)
    expected = {e.stream_id: e.stream_version for e in events if e.stream_id != campaign}
    seen: dict[UUID, int] = {}
    read, batches, at = 0, 0, start
    while True:
        moved = await moved_streams(pool, at, limit=5)
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
