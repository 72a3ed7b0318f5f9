"""`projections rebuild` re-derives exactly the read models the live path wrote."""

from __future__ import annotations

from datetime import datetime

import asyncpg

from projections.rebuild import rebuild_all, rebuild_stream
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    Attack,
    NextTurn,
    RollInitiative,
)
from service.write.pipeline import CommandPipeline
from tests.support.pipeline import new_encounter, run


async def _read_models(pool: asyncpg.Pool, encounter_id: object) -> tuple[object, ...]:
    state = await pool.fetchrow(
        "SELECT ruleset, name, version, schema_version, state, created_at FROM encounter_state"
        " WHERE encounter_id = $1",
        encounter_id,
    )
    log = await pool.fetch(
        "SELECT * FROM log_entries WHERE encounter_id = $1 ORDER BY version", encounter_id
    )
    rolls = await pool.fetch(
        "SELECT * FROM roll_ledger WHERE encounter_id = $1 ORDER BY roll_id", encounter_id
    )
    return dict(state), [dict(r) for r in log], [dict(r) for r in rolls]


async def test_rebuild_gives_the_same_read_models(
    pipeline: CommandPipeline, pool: asyncpg.Pool
) -> None:
    encounter_id = await new_encounter(pipeline, "Rebuild")
    for ident, hp in (("alice", 12), ("bob", 9), ("goblin", 7)):
        await run(
            pipeline,
            encounter_id,
            AddCombatant(id=ident, name=ident.title(), hp=hp, stats={"ac": 11}),
        )
    await run(pipeline, encounter_id, RollInitiative())
    await run(
        pipeline,
        encounter_id,
        Attack(attacker="alice", target="goblin", notation="1d20+4", damage="1d6"),
    )
    await run(
        pipeline, encounter_id, AddCondition(target="bob", condition="blessed", duration_rounds=1)
    )
    for _ in range(4):
        await run(pipeline, encounter_id, NextTurn())
    before = await _read_models(pool, encounter_id)
    async with pool.acquire() as conn:
        folded = await rebuild_stream(conn, encounter_id)
    assert folded == before[0]["version"]  # type: ignore[index]
    assert await _read_models(pool, encounter_id) == before


async def test_a_rebuild_gives_its_connections_back_with_datetimes(
    pipeline: CommandPipeline, database_url: str
) -> None:
    """The rebuild reads and writes event times as PostgreSQL's integer on its two
    connections; both go back to the pool decoding timestamptz as datetimes again."""
    encounter_id = await new_encounter(pipeline, "Raw times")
    await run(pipeline, encounter_id, AddCombatant(id="a", name="A", hp=5, stats={}))
    pool = await asyncpg.create_pool(database_url, min_size=2, max_size=2)
    try:
        streams, events = await rebuild_all(pool, ids=(encounter_id, encounter_id))
        assert (streams, events) == (1, 3)  # created, seed committed, combatant added
        async with pool.acquire() as first, pool.acquire() as second:
            for conn in (first, second):
                assert isinstance(await conn.fetchval("SELECT now()"), datetime)
    finally:
        await pool.close()
