"""What the service relies on from Citus, checked on a real cluster (AEON_TEST_CITUS_URL):
the tables distributed by the encounter and co-located, the transaction ids the events
carry being the coordinator's, and the global reading gap-free over commands written
through the pipeline with AEON_GROUP_COMMIT=per-encounter.

The rest of the suite runs here too with the same variable (tests/conftest.py); what
passes and fails on Citus, and why, is in docs/scale-out.md#citus.
"""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime
from uuid import UUID, uuid4

import asyncpg

from events.envelope import NewEvent
from events.store import Checkpoint, append, create_stream, read_all, stream_head
from projections.inline import read_model_rows
from service.pipeline import CommandPipeline
from service.rulesets.generic.commands import Damage
from tests.citus.cluster import DISTRIBUTION_COLUMN
from tests.integration.test_pipeline import add, new_encounter, run


async def test_every_per_encounter_table_is_distributed_by_the_encounter_and_co_located(
    pool: asyncpg.Pool,
) -> None:
    rows = await pool.fetch(
        """SELECT logicalrelid::regclass::text AS name, partmethod::text,
                  column_to_column_name(logicalrelid, partkey) AS column_name, colocationid
           FROM pg_dist_partition"""
    )
    by_table = {r["name"]: r for r in rows}
    assert set(by_table) == set(DISTRIBUTION_COLUMN), "only per-encounter tables are distributed"
    for table, column in DISTRIBUTION_COLUMN.items():
        assert by_table[table]["partmethod"] == "h"
        assert by_table[table]["column_name"] == column
    assert len({r["colocationid"] for r in rows}) == 1
    workers = await pool.fetchval(
        "SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'events'::regclass"
    )
    assert workers >= 2, "the events' shards should be spread over at least two nodes"


async def test_an_event_carries_the_coordinators_transaction_id_though_a_worker_stores_it(
    pool: asyncpg.Pool,
) -> None:
    """The premise of the global reading on Citus: the ``transaction_id`` default and the
    global position's identity are evaluated where the statement arrives, not on the
    shard's worker."""
    stream_id = uuid4()
    async with pool.acquire() as conn, conn.transaction():
        await create_stream(conn, stream_id)
        await append(
            conn,
            stream_id,
            await stream_head(conn, stream_id),
            [NewEvent(type="t.citus", data={})],
            metadata={},
            recorded_at=datetime.now(UTC),
        )
        ours = await conn.fetchval("SELECT pg_current_xact_id()::text::bigint")
        numbered = await conn.fetchval(
            "SELECT last_value FROM events_global_position_seq"  # the coordinator's
        )
    stored = await pool.fetchrow(
        "SELECT transaction_id::text::bigint AS tx, global_position FROM events"
        " WHERE stream_id = $1",
        stream_id,
    )
    assert stored is not None
    assert stored["tx"] == ours
    assert stored["global_position"] == numbered
    on = await pool.fetchval(
        """SELECT nodeport FROM citus_shards
           WHERE shardid = get_shard_id_for_distribution_column('events', $1::uuid)""",
        stream_id,
    )
    coordinator = await pool.fetchval(
        "SELECT nodeport FROM pg_dist_node WHERE groupid = 0 AND noderole = 'primary'"
    )
    assert on != coordinator


async def test_a_late_commit_is_read_after_a_later_position_across_workers(
    pool: asyncpg.Pool,
) -> None:
    """Two encounters on different workers: the one whose transaction took its position
    first commits last, and the reader still gets both, once."""
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    slow_id, fast_id = await _on_two_workers(pool)
    slow = await pool.acquire()
    try:
        slow_tx = slow.transaction()
        await slow_tx.start()
        await _append(slow, slow_id, "t.slow")
        async with pool.acquire() as conn, conn.transaction():
            await _append(conn, fast_id, "t.fast")
        seen, checkpoint = await read_all(pool, start)
        assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == []
        await slow_tx.commit()
    finally:
        await pool.release(slow)
    seen, checkpoint = await read_all(pool, checkpoint)
    assert sorted(e.type for e in seen if e.stream_id in (slow_id, fast_id)) == [
        "t.fast",
        "t.slow",
    ]
    again, _ = await read_all(pool, checkpoint)
    assert not [e for e in again if e.stream_id in (slow_id, fast_id)]


async def test_a_follower_of_all_streams_misses_nothing_of_per_encounter_commits(
    pool: asyncpg.Pool,
) -> None:
    """Commands of 12 encounters (spread over the workers) through two pipelines with
    AEON_GROUP_COMMIT=per-encounter, while a follower reads all streams 5 events at a
    time: every event once, and no transaction spanning two encounters."""
    writers = [
        CommandPipeline(pool, read_model_rows, group_commit="per-encounter") for _ in range(2)
    ]
    ids = [await new_encounter(writers[0], f"citus {n}") for n in range(12)]
    for encounter_id in ids:
        await add(writers[0], encounter_id, "ogre", hp=10_000)
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    done = asyncio.Event()
    seen: list[tuple[UUID, int]] = []

    async def follower() -> None:
        checkpoint = start
        while True:
            finished = done.is_set()
            events, checkpoint = await read_all(pool, checkpoint, limit=5)
            seen.extend((e.stream_id, e.stream_version) for e in events if e.stream_id in ids)
            if finished and not events:
                return
            await asyncio.sleep(0.002)

    async def player(n: int) -> None:
        rng = random.Random(n)
        for _ in range(8):
            encounter_id = ids[rng.randrange(len(ids))]
            await run(writers[n % 2], encounter_id, Damage(target="ogre", amount=1))

    follow = asyncio.create_task(follower())
    await asyncio.gather(*(player(n) for n in range(8)))
    done.set()
    await follow

    stored = await pool.fetch(
        "SELECT stream_id, stream_version FROM events WHERE stream_id = ANY($1::uuid[])"
        " AND stream_version > 3",
        ids,
    )
    assert len(seen) == len(set(seen)), "an event was read twice"
    assert {s for s in seen if s[1] > 3} == {(r["stream_id"], r["stream_version"]) for r in stored}
    assert len(stored) == 64
    spans = await pool.fetchval(
        """SELECT max(n) FROM (SELECT count(DISTINCT stream_id) AS n FROM events
                               WHERE stream_id = ANY($1::uuid[]) GROUP BY transaction_id) t""",
        ids,
    )
    assert spans == 1


async def _on_two_workers(pool: asyncpg.Pool) -> tuple[UUID, UUID]:
    """Two new streams whose shards are on different workers."""
    first = uuid4()
    first_node = await _node_of(pool, first)
    while True:
        second = uuid4()
        if await _node_of(pool, second) != first_node:
            break
    for stream_id in (first, second):
        async with pool.acquire() as conn, conn.transaction():
            await create_stream(conn, stream_id)
    return first, second


async def _node_of(pool: asyncpg.Pool, stream_id: UUID) -> int:
    port = await pool.fetchval(
        """SELECT nodeport FROM citus_shards
           WHERE shardid = get_shard_id_for_distribution_column('events', $1::uuid)""",
        stream_id,
    )
    return int(port)


async def _append(conn: asyncpg.Connection, stream_id: UUID, type_: str) -> None:
    await append(
        conn,
        stream_id,
        await stream_head(conn, stream_id),
        [NewEvent(type=type_, data={})],
        metadata={},
        recorded_at=datetime.now(UTC),
    )


async def test_the_reading_waits_while_a_two_phase_commit_is_in_flight(
    pool: asyncpg.Pool,
) -> None:
    """Between the coordinator's commit and COMMIT PREPARED on the workers, the coordinator
    shows a two-phase record whose backend still runs that distributed transaction but
    holds no transaction id.  That moment is staged here (a session in a distributed
    read-only transaction, and a record naming it): the reading reads nothing, though a
    committed event is there, until the moment has passed."""
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    stream_id, _ = await _on_two_workers(pool)
    async with pool.acquire() as conn, conn.transaction():
        await _append(conn, stream_id, "t.committed")
    holder = await pool.acquire()
    gid = ""
    try:
        held = holder.transaction()
        await held.start()
        await holder.fetchval("SELECT count(*) FROM streams")  # a distributed transaction
        me = await holder.fetchrow(
            "SELECT process_id, transaction_number FROM get_current_transaction_id()"
        )
        assert me is not None
        gid = f"citus_0_{me['process_id']}_{me['transaction_number']}_0"
        await pool.execute("INSERT INTO pg_dist_transaction (groupid, gid) VALUES (1, $1)", gid)
        assert await pool.fetchval("SELECT aeon_commits_in_flight()")
        seen, checkpoint = await read_all(pool, start)
        assert (seen, checkpoint) == ([], start)
        await held.rollback()
    finally:
        await pool.release(holder)
        await pool.execute("DELETE FROM pg_dist_transaction WHERE gid = $1", gid)
    seen, _ = await read_all(pool, start)
    assert [e.type for e in seen if e.stream_id == stream_id] == ["t.committed"]
