"""Group commit on a real database: commands decided together are written in one
transaction, yet each keeps its own outcome."""

from __future__ import annotations

import asyncio
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest

from events.shards import shard_of
from events.store import read_stream
from projections.inline import read_model_rows
from service.commands import CommandEnvelope
from service.rulesets.generic.commands import Attack, Damage
from service.write.pipeline import CommandPipeline
from service.write.strategy import OneStatement, SplitStatements
from tests.support.pipeline import GM, run, tables


async def transactions_of(pool: asyncpg.Pool, ids: list[UUID], after_version: int) -> set[int]:
    rows = await pool.fetch(
        "SELECT DISTINCT transaction_id::text::bigint AS tx FROM events"
        " WHERE stream_id = ANY($1::uuid[]) AND stream_version > $2",
        ids,
        after_version,
    )
    return {r["tx"] for r in rows}


def mixed_commands(count: int) -> list[Attack | Damage]:
    """Half roll dice (the statement's roll part), half do not: still one statement."""
    return [
        Attack(attacker="fighter", target="ogre", notation="1d20+5", damage="1d8")
        if n % 2
        else Damage(target="ogre", amount=n + 1)
        for n in range(count)
    ]


async def test_concurrent_commands_share_one_transaction_and_keep_their_own_events(
    pool: asyncpg.Pool,
) -> None:
    # Groups of several encounters are the single statement's (split writes one per group).
    pipeline = CommandPipeline(pool, read_model_rows, strategy=OneStatement())
    ids = await tables(pipeline, 12)
    commands = mixed_commands(12)
    answers = await asyncio.gather(
        *(run(pipeline, e, c) for e, c in zip(ids, commands, strict=True))
    )

    assert len(await transactions_of(pool, ids, after_version=4)) <= 2
    # Written in shard, then stream order (what keeps two groups from deadlocking):
    # positions rise with the shard and the stream id.
    firsts = [answer["events"][0]["global_position"] for answer in answers]
    in_lock_order = [p for _, _, p in sorted(zip(map(shard_of, ids), ids, firsts, strict=True))]
    assert in_lock_order == sorted(firsts)
    for n, (encounter_id, answer) in enumerate(zip(ids, answers, strict=True)):
        stored = await read_stream(pool, encounter_id, after_version=4)
        assert [e.stream_version for e in stored] == [e["stream_version"] for e in answer["events"]]
        assert [e.global_position for e in stored] == [
            e["global_position"] for e in answer["events"]
        ]
        assert stored[0].type == ("generic.attack_rolled" if n % 2 else "generic.damaged")
        rolls = await pool.fetchval(
            "SELECT count(*) FROM roll_ledger WHERE encounter_id = $1 AND version > 4",
            encounter_id,
        )
        assert (rolls > 0) == bool(n % 2)


async def test_a_write_that_fails_the_group_fails_alone(pool: asyncpg.Pool) -> None:
    """One command's Idempotency-Key is committed by another connection while the group
    waits on it: the group rolls back, every other command is written on its own, and the
    clashing one is answered with the stored response."""
    pipeline = CommandPipeline(pool, read_model_rows)
    ids = await tables(pipeline, 5)
    clashing = ids[2]
    stored_answer = b'{"answered":"elsewhere"}'
    async with pool.acquire() as other:
        meanwhile = other.transaction()
        await meanwhile.start()
        await other.execute(
            "INSERT INTO idempotency_keys (stream_id, key, request_hash, response)"
            " VALUES ($1, 'k-1', '', $2)",
            clashing,
            stored_answer,
        )

        async def hit(encounter_id: UUID) -> bytes:
            # Every command has a key, so all five share one statement and one group.
            key = "k-1" if encounter_id == clashing else f"own-{encounter_id}"
            return await pipeline.execute(
                encounter_id,
                CommandEnvelope(command=Damage(target="ogre", amount=7)),
                actor=GM,
                idempotency_key=key,
            )

        group = asyncio.gather(*(hit(e) for e in ids))
        await asyncio.sleep(0.3)  # the group now waits on the uncommitted key
        assert not group.done()
        await meanwhile.commit()
        answers = await group

    for encounter_id, answer in zip(ids, answers, strict=True):
        events = await read_stream(pool, encounter_id, after_version=4)
        if encounter_id == clashing:
            assert answer == stored_answer
            assert events == []
        else:
            assert [e.type for e in events] == ["generic.damaged"]
            assert msgspec.json.decode(answer)["version"] == 5


async def test_a_request_cancelled_while_it_waits_for_a_group_is_not_written(
    pool: asyncpg.Pool,
) -> None:
    pipeline = CommandPipeline(pool, read_model_rows)
    ids = await tables(pipeline, 4)
    tasks: list[asyncio.Task[Any]] = []
    async with pool.acquire() as other, other.transaction():
        # Every group now blocks on the stream rows' lock: the first command's group holds
        # the process's one slot, and the later commands wait in line for the next.
        await other.execute("LOCK TABLE streams IN EXCLUSIVE MODE")
        for encounter_id in ids[:3]:
            tasks.append(
                asyncio.create_task(run(pipeline, encounter_id, Damage(target="ogre", amount=1)))
            )
            await asyncio.sleep(0.2)
        waiting = tasks[2]
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
    await asyncio.gather(*tasks[:2])

    for n, encounter_id in enumerate(ids[:3]):
        written = await read_stream(pool, encounter_id, after_version=4)
        assert len(written) == (0 if n == 2 else 1)
    # The pipeline goes on writing, the cancelled command's encounter included.
    await run(pipeline, ids[2], Damage(target="ogre", amount=2))
    assert len(await read_stream(pool, ids[2], after_version=4)) == 1


async def test_two_processes_writing_the_same_streams_in_opposite_orders_both_finish(
    pool: asyncpg.Pool,
) -> None:
    """Each group writes its streams in stream order, so two groups that lock the same
    rows never wait on each other in a cycle."""
    a = CommandPipeline(pool, read_model_rows)
    b = CommandPipeline(pool, read_model_rows)
    ids = await tables(a, 10)
    for encounter_id in ids:
        await run(b, encounter_id, Damage(target="ogre", amount=1))  # b caches them too
    for _ in range(5):
        await asyncio.wait_for(
            asyncio.gather(
                *(run(a, e, Damage(target="ogre", amount=1)) for e in ids),
                *(run(b, e, Damage(target="ogre", amount=1)) for e in reversed(ids)),
            ),
            timeout=10,
        )
    for encounter_id in ids:
        events = await read_stream(pool, encounter_id)
        assert [e.stream_version for e in events] == list(range(1, 4 + 1 + 5 * 2 + 1))


async def test_the_split_strategy_never_puts_two_encounters_in_one_transaction(
    pool: asyncpg.Pool,
) -> None:
    """AEON_WRITE_STATEMENT=split (for Citus): the same concurrent commands as in the
    first test, each encounter's write in a transaction of its own, every answer right."""
    pipeline = CommandPipeline(pool, read_model_rows, strategy=SplitStatements())
    ids = await tables(pipeline, 12)
    commands = mixed_commands(12)
    answers = await asyncio.gather(
        *(run(pipeline, e, c) for e, c in zip(ids, commands, strict=True))
    )

    rows = await pool.fetch(
        "SELECT transaction_id::text::bigint AS tx, count(DISTINCT stream_id) AS streams"
        " FROM events WHERE stream_id = ANY($1::uuid[]) GROUP BY transaction_id",
        ids,
    )
    assert rows and all(r["streams"] == 1 for r in rows)
    assert len(await transactions_of(pool, ids, after_version=4)) == 12
    for n, (encounter_id, answer) in enumerate(zip(ids, answers, strict=True)):
        stored = await read_stream(pool, encounter_id, after_version=4)
        assert [e.global_position for e in stored] == [
            e["global_position"] for e in answer["events"]
        ]
        assert stored[0].type == ("generic.attack_rolled" if n % 2 else "generic.damaged")
