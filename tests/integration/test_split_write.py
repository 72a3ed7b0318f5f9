"""AEON_WRITE_STATEMENT=split (events/append_split.py) on one PostgreSQL: the statements
write what the single statement writes, answer byte for byte what they store for an
Idempotency-Key, and refuse a write whose stream moved without writing any of it.
tests/citus/test_one_phase.py checks the commit protocol on Citus."""

from __future__ import annotations

import asyncio
import re
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest

from events.append import log, rolls, seed, snapshots, state
from events.append_split import routed
from events.idempotency import find_response
from events.shards import shard_of
from projections.inline import read_model_rows
from service.commands import CommandEnvelope
from service.rulesets.generic.commands import Attack, Damage
from service.write.pipeline import CommandPipeline
from service.write.strategy import WriteStatement, strategy_for
from tests.support.pipeline import GM, add, new_encounter, run
from tests.support.strategies import LockingPath


@pytest.fixture
def pool(shard_pool: asyncpg.Pool) -> asyncpg.Pool:
    """Split writes are for Citus, which reads the store in shard order: a store read in it, so
    that the places they number are checked too."""
    return shard_pool


def _pipeline(
    pool: asyncpg.Pool, form: WriteStatement, *, single_trip: bool = True
) -> CommandPipeline:
    strategy = strategy_for(form) if single_trip else LockingPath(strategy_for(form))
    return CommandPipeline(pool, read_model_rows, snapshot_every=3, strategy=strategy)


async def _rows(pool: asyncpg.Pool, encounter_id: UUID) -> dict[str, Any]:
    """What a command sequence left, apart from what dice and ids make differ."""
    return {
        "events": [
            (r["stream_version"], r["type"])
            for r in await pool.fetch(
                "SELECT stream_version, type FROM events WHERE stream_id = $1"
                " ORDER BY stream_version",
                encounter_id,
            )
        ],
        "state_version": await pool.fetchval(
            "SELECT version FROM encounter_state WHERE encounter_id = $1", encounter_id
        ),
        "log": [
            (r["version"], r["type"])
            for r in await pool.fetch(
                "SELECT version, type FROM log_entries WHERE encounter_id = $1 ORDER BY version",
                encounter_id,
            )
        ],
        "rolls": await pool.fetchval(
            "SELECT count(*) FROM roll_ledger WHERE encounter_id = $1", encounter_id
        ),
        "snapshots": [
            r["version"]
            for r in await pool.fetch(
                "SELECT version FROM snapshots WHERE stream_id = $1 ORDER BY version",
                encounter_id,
            )
        ],
        "seeds": await pool.fetchval(
            "SELECT count(*) FROM dice_seeds WHERE stream_id = $1", encounter_id
        ),
    }


@pytest.mark.parametrize("single_trip", [True, False], ids=["single trip", "locking"])
async def test_split_writes_what_the_single_statement_writes(
    pool: asyncpg.Pool, single_trip: bool
) -> None:
    left: dict[str, dict[str, Any]] = {}
    for form in ("single", "split"):
        pipeline = _pipeline(pool, form, single_trip=single_trip)
        encounter_id = await new_encounter(pipeline, form)
        await add(pipeline, encounter_id, "fighter", hp=30)
        await add(pipeline, encounter_id, "ogre", hp=1000)
        for n in range(5):
            await run(pipeline, encounter_id, Damage(target="ogre", amount=n + 1))
        answer = await pipeline.execute(
            encounter_id,
            CommandEnvelope(command=Damage(target="ogre", amount=1)),
            actor=GM,
            idempotency_key="once",
            request_hash="h",
        )
        assert await find_response(pool, encounter_id, "once", "h") == answer
        assert msgspec.json.decode(answer)["events"][0]["global_position"] > 0
        left[form] = await _rows(pool, encounter_id)
        # Dice make an attack's events differ between the two: compared with itself.
        attack = Attack(attacker="fighter", target="ogre", notation="1d20+5", damage="1d8")
        rolled = await run(pipeline, encounter_id, attack)
        after = await _rows(pool, encounter_id)
        assert after["rolls"] > 0 and after["state_version"] == rolled["version"]
        assert after["events"][-1][0] == rolled["version"]
        assert [v for v, _ in after["log"]] == [v for v, _ in after["events"]]
    assert left["split"] == left["single"]
    assert left["split"]["snapshots"] and left["split"]["seeds"]


async def test_split_writes_racing_for_one_encounter_keep_its_places_gap_free(
    pool: asyncpg.Pool,
) -> None:
    """Two processes' pipelines (two caches) write one encounter at once: writes decided
    on a stale head are refused and go the locking path; every command lands once, and
    the encounter's shard places stay gap-free up to its count."""
    writers = [_pipeline(pool, "split") for _ in range(2)]
    encounter_id = await new_encounter(writers[0])
    await add(writers[0], encounter_id, "ogre", hp=10_000)
    await add(writers[1], encounter_id, "ogre2", hp=10_000)
    before = await pool.fetchval("SELECT version FROM streams WHERE stream_id = $1", encounter_id)

    async def hits(n: int) -> None:
        for _ in range(6):
            await run(writers[n % 2], encounter_id, Damage(target="ogre", amount=1))

    await asyncio.gather(*(hits(n) for n in range(6)))
    versions = await pool.fetch(
        "SELECT stream_version, shard_position FROM events WHERE stream_id = $1"
        " ORDER BY stream_version",
        encounter_id,
    )
    assert [r["stream_version"] for r in versions] == list(range(1, len(versions) + 1))
    assert len(versions) - before == 36, "every command once, each one event"
    places = [r["shard_position"] for r in versions]
    assert places == sorted(places) and len(set(places)) == len(places)
    # Dense from this encounter's first place to the count (below it, other tests of the
    # session may have deleted events of the shard to test verification).
    shard = shard_of(encounter_id)
    head = await pool.fetchval("SELECT head FROM shard_heads WHERE shard = $1", shard)
    counted = await pool.fetchval(
        "SELECT count(*) FROM events WHERE shard = $1 AND shard_position BETWEEN $2 AND $3",
        shard,
        places[0],
        head,
    )
    assert counted == head - places[0] + 1


def test_every_part_has_a_routed_form() -> None:
    statements = [routed(part).sql for part in (state, log, rolls, snapshots, seed)]
    assert len(statements) == 5
    for sql in statements:
        assert "moved" not in sql and re.search(r"m\.stream_id = \$\d+", sql)
        assert sql.lstrip().startswith("INSERT INTO")
