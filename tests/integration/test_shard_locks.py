"""Writers of one shard queue on its count row without deadlocking (events/shards.py).

Every write takes its shard's count row before its stream row: the grouped statements of
events/append.py through ``head_ctes``, the locking path through ``lock_stream``.
Two pipelines stand for two processes, each with its own cache and group commit, over
encounters of two shards: each one's cache goes stale whenever the other writes, so its
commands fall back to the locking path while the other's groups hold counts of the same
shards.  A cycle of waits would show as a deadlock PostgreSQL broke.
"""

from __future__ import annotations

import asyncio
import itertools
from uuid import UUID, uuid4

import asyncpg
import msgspec
import pytest

from events.shards import shard_of
from events.store import Checkpoint, read_all
from projections.inline import read_model_rows
from service.commands import CommandEnvelope
from service.rulesets.generic.commands import Damage
from service.write.pipeline import CREATE_NAMESPACE, CommandPipeline
from service.write.unit_of_work import new_stream_id
from tests.support.pipeline import GM, add


@pytest.fixture
def pool(shard_pool: asyncpg.Pool) -> asyncpg.Pool:
    """The count rows that could deadlock are the shard order's: a store read in it."""
    return shard_pool


def _keys_in(shard: int, count: int, prefix: str) -> list[str]:
    """Idempotency-Keys whose encounters land in ``shard``."""
    keys = (f"{prefix}-{n}" for n in itertools.count())
    return list(
        itertools.islice(
            (k for k in keys if shard_of(new_stream_id(CREATE_NAMESPACE, k)) == shard), count
        )
    )


async def _deadlocks(pool: asyncpg.Pool) -> int:
    await asyncio.sleep(1.2)  # backends report their counters about once a second
    async with pool.acquire() as conn:
        await conn.execute("SELECT pg_stat_clear_snapshot()")
        found = await conn.fetchval(
            "SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"
        )
    return int(found)


async def test_two_processes_writing_one_shard_never_deadlock(pool: asyncpg.Pool) -> None:
    first, second = (CommandPipeline(pool, read_model_rows, snapshot_every=4) for _ in range(2))
    prefix = uuid4().hex
    ids: list[UUID] = []
    for shard in (3, 17):
        for key in _keys_in(shard, 4, f"{prefix}-{shard}"):
            opened = await first.create_encounter(
                ruleset="generic",
                name=key,
                options={},
                client_seed=None,
                actor=GM,
                idempotency_key=key,
                request_hash=key,
            )
            ids.append(UUID(msgspec.json.decode(opened.response)["encounter_id"]))
    for encounter_id in ids:
        await add(first, encounter_id, "ogre", hp=10_000)
    _, start = await read_all(pool, Checkpoint(), limit=1_000_000)
    before = await _deadlocks(pool)

    async def hit(pipeline: CommandPipeline, encounter_id: UUID) -> None:
        await pipeline.execute(
            encounter_id, CommandEnvelope(command=Damage(target="ogre", amount=1)), actor=GM
        )

    rounds = 8
    for _ in range(rounds):
        await asyncio.gather(
            *(hit(p, e) for e in ids for p in (first, second)),
        )

    assert await _deadlocks(pool) == before
    seen, _ = await read_all(pool, start, limit=1_000_000)
    ours = [e for e in seen if e.stream_id in set(ids)]
    assert len(ours) == len(ids) * 2 * rounds
    for encounter_id in ids:
        versions = [e.stream_version for e in ours if e.stream_id == encounter_id]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
