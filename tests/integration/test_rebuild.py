"""`projections rebuild` re-derives exactly the read models the live path wrote."""

from __future__ import annotations

import asyncpg

from projections.rebuild import rebuild_stream
from service.pipeline import CommandPipeline
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    Attack,
    NextTurn,
    RollInitiative,
)
from tests.integration.test_pipeline import new_encounter, run


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
