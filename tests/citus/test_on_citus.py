"""What the service relies on from Citus, checked on a real cluster (AEON_TEST_CITUS_URL):
the tables distributed by the encounter and co-located, each shard's count row in its
shard's group, and the reading by places per shard gap-free: across workers, behind a
prepared transaction, and over commands written through the pipeline with
AEON_WRITE_STATEMENT=split.

The rest of the suite runs here too with the same variable (tests/conftest.py); what
passes and fails on Citus, and why, is in docs/scale-out.md#citus.
"""

from __future__ import annotations

import asyncio
import random
from uuid import UUID, uuid4

import asyncpg

from events.shards import SHARDS, anchor_of, shard_of
from events.store import Checkpoint, create_stream, read_all
from projections.inline import read_model_rows
from service.rulesets.generic.commands import Damage
from service.write.pipeline import CommandPipeline
from service.write.strategy import SplitStatements
from tests.support.citus import DISTRIBUTION_COLUMN, REFERENCE_TABLES, on_node
from tests.support.pipeline import add, new_encounter, run
from tests.support.streams import append_committed, held_open


async def test_every_per_encounter_table_is_distributed_by_the_encounter_and_co_located(
    pool: asyncpg.Pool,
) -> None:
    rows = await pool.fetch(
        """SELECT logicalrelid::regclass::text AS name, partmethod::text,
                  column_to_column_name(logicalrelid, partkey) AS column_name, colocationid
           FROM pg_dist_partition"""
    )
    by_table = {r["name"]: r for r in rows}
    assert set(by_table) == set(DISTRIBUTION_COLUMN) | set(REFERENCE_TABLES), (
        "only per-encounter tables are distributed, and the order is on every node"
    )
    for table, column in DISTRIBUTION_COLUMN.items():
        assert by_table[table]["partmethod"] == "h"
        assert by_table[table]["column_name"] == column
    assert {by_table[t]["partmethod"] for t in REFERENCE_TABLES} == {"n"}
    assert len({by_table[t]["colocationid"] for t in DISTRIBUTION_COLUMN}) == 1
    assert await pool.fetchval("SELECT by_shard FROM event_order"), "Citus reads by shard"
    workers = await pool.fetchval(
        "SELECT count(DISTINCT nodeport) FROM citus_shards WHERE table_name = 'events'::regclass"
    )
    assert workers >= 2, "the events' shards should be spread over at least two nodes"


async def test_each_count_row_lives_in_the_shard_it_counts(pool: asyncpg.Pool) -> None:
    """Citus's hash ranges are the ones events/shards.py computes: the anchor of shard i
    is in Citus's i-th shard of ``shard_heads``, co-located with the i-th of ``events``,
    and so is every encounter the service puts in shard i."""
    rows = await pool.fetch(
        """SELECT h.shard, s.shardminvalue::bigint AS low, s.shardmaxvalue::bigint AS high
           FROM shard_heads AS h
           JOIN pg_dist_shard AS s
             ON s.shardid = get_shard_id_for_distribution_column('shard_heads', h.anchor)
           ORDER BY h.shard"""
    )
    width = 2**32 // SHARDS
    assert [(r["low"], r["high"]) for r in rows] == [
        (-(2**31) + i * width, -(2**31) + (i + 1) * width - 1) for i in range(SHARDS)
    ]
    sample = [uuid4() for _ in range(200)]
    placed = await pool.fetch(
        """SELECT u, s.shardminvalue::bigint AS low FROM unnest($1::uuid[]) AS u
           JOIN pg_dist_shard AS s
             ON s.shardid = get_shard_id_for_distribution_column('events', u)""",
        sample,
    )
    assert [(r["low"] + 2**31) // width for r in placed] == [shard_of(u) for u in sample]


async def test_writers_on_two_workers_do_not_wait_for_each_other(pool: asyncpg.Pool) -> None:
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    slow_id, fast_id = await _on_two_workers(pool)
    async with held_open(pool, slow_id, "t.slow"):
        await asyncio.wait_for(append_committed(pool, fast_id, "t.fast"), timeout=10)
        seen, checkpoint = await read_all(pool, start)
        assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.fast"]
    seen, checkpoint = await read_all(pool, checkpoint)
    assert [e.type for e in seen if e.stream_id in (slow_id, fast_id)] == ["t.slow"]
    again, _ = await read_all(pool, checkpoint)
    assert not [e for e in again if e.stream_id in (slow_id, fast_id)]


async def test_a_prepared_transaction_holds_its_shard_until_it_commits(
    pool: asyncpg.Pool, database_url: str
) -> None:
    """A two-phase commit whose COMMIT PREPARED has not arrived yet (it failed, and Citus's
    recovery will commit it later) still holds its shard's count row on the worker: no
    later place of that shard can commit before it, so a reader cannot pass it.  Staged
    on the worker as Citus leaves it: a transaction that moved the count, prepared."""
    stream_id = uuid4()
    async with pool.acquire() as conn, conn.transaction():
        await create_stream(conn, stream_id)
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    shard, anchor = anchor_of(stream_id)
    where = await pool.fetchrow(
        """SELECT shardid, nodename, nodeport FROM citus_shards
           WHERE shardid = get_shard_id_for_distribution_column('shard_heads', $1::uuid)""",
        anchor,
    )
    assert where is not None
    worker = await asyncpg.connect(on_node(database_url, where["nodename"], where["nodeport"]))
    gid = f"aeon_test_{uuid4().hex}"
    try:
        await worker.execute("BEGIN")
        prepared_head = await worker.fetchval(
            f"UPDATE shard_heads_{where['shardid']} SET head = head + 1 WHERE anchor = $1"
            " RETURNING head",
            anchor,
        )
        await worker.execute(f"PREPARE TRANSACTION '{gid}'")
        later = asyncio.create_task(append_committed(pool, stream_id, "t.later"))
        await asyncio.sleep(0.5)
        assert not later.done(), "a later writer of the shard passed a prepared transaction"
        seen, _ = await read_all(pool, start)
        assert [e for e in seen if e.stream_id == stream_id] == []
        await worker.execute(f"COMMIT PREPARED '{gid}'")
        gid = ""
        await asyncio.wait_for(later, timeout=10)
    finally:
        if gid:
            await worker.execute(f"ROLLBACK PREPARED '{gid}'")
        await worker.close()
    seen, _ = await read_all(pool, start)
    ours = [e for e in seen if e.stream_id == stream_id]
    assert [e.type for e in ours] == ["t.later"]
    place = await pool.fetchval(
        "SELECT shard_position FROM events WHERE stream_id = $1 AND shard = $2", stream_id, shard
    )
    assert place == prepared_head + 1


async def test_a_follower_of_all_streams_misses_nothing_of_per_encounter_commits(
    pool: asyncpg.Pool,
) -> None:
    """Commands of 12 encounters (spread over the workers) through two pipelines with
    AEON_WRITE_STATEMENT=split, while a follower reads all streams 5 events at a
    time: every event once, and no transaction spanning two encounters."""
    writers = [CommandPipeline(pool, read_model_rows, strategy=SplitStatements()) for _ in range(2)]
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
