"""Reading all streams by global position never skips an event that committed late."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from uuid import uuid4

import asyncpg

from events.envelope import NewEvent
from events.store import Checkpoint, append, create_stream, read_all


async def test_reader_sees_late_committing_event_after_a_later_position(pool: asyncpg.Pool) -> None:
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    slow_id, fast_id = uuid4(), uuid4()
    for sid in (slow_id, fast_id):
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, sid)
    slow_conn = await pool.acquire()
    try:
        slow_tx = slow_conn.transaction()
        await slow_tx.start()
        # The slow writer takes its global position first ...
        await append(
            slow_conn,
            slow_id,
            await _head(slow_conn, slow_id),
            [NewEvent(type="t.slow", data={})],
            metadata={},
            recorded_at=datetime.now(UTC),
        )
        # ... a fast writer takes a later one and commits.
        async with pool.acquire() as conn, conn.transaction():
            await append(
                conn,
                fast_id,
                await _head(conn, fast_id),
                [NewEvent(type="t.fast", data={})],
                metadata={},
                recorded_at=datetime.now(UTC),
            )
        seen, checkpoint = await read_all(pool, start)
        assert [
            e.type for e in seen if e.stream_id in (slow_id, fast_id)
        ] == []  # nothing past the open tx
        await slow_tx.commit()
    finally:
        await pool.release(slow_conn)
    seen, checkpoint = await read_all(pool, checkpoint)
    assert sorted(e.type for e in seen if e.stream_id in (slow_id, fast_id)) == ["t.fast", "t.slow"]


async def _head(conn: asyncpg.Connection, stream_id: object):  # type: ignore[no-untyped-def]
    from events.store import stream_head

    return await stream_head(conn, stream_id)  # type: ignore[arg-type]


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
                head = await _head(conn, sid)
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


async def test_without_citus_no_commit_is_ever_in_flight(pool: asyncpg.Pool) -> None:
    """Migration 0016's check for Citus's two-phase commits (events/reading.py) is false on
    PostgreSQL alone, where a commit is visible the moment its id leaves the horizon."""
    assert await pool.fetchval("SELECT aeon_commits_in_flight()") is False
