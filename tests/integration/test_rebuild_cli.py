"""`aeon-ledger projections rebuild` on a whole database gives back the same read models."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from api.cli import main
from projections.inline import read_model_rows
from service.pipeline import CommandPipeline
from service.rulesets.generic.commands import AddCombatant, Attack, Damage, NextTurn, RollInitiative
from tests.support.databases import create_database, drop_database
from tests.support.pipeline import new_encounter, run

TABLES = {
    "encounter_state": "encounter_id",
    "log_entries": "encounter_id, version",
    "roll_ledger": "encounter_id, roll_id",
}


async def _dump(conn: asyncpg.Connection) -> dict[str, list[dict[str, object]]]:
    return {
        table: [dict(r) for r in await conn.fetch(f"SELECT * FROM {table} ORDER BY {order}")]
        for table, order in TABLES.items()
    }


@pytest.mark.parametrize("processes", [1, 2])
async def test_cli_rebuild_reproduces_every_read_model(postgres_url: str, processes: int) -> None:
    url = await create_database(postgres_url)
    try:
        from api.app import open_pool
        from api.settings import Settings

        pool = await open_pool(Settings(database_url=url))
        pipeline = CommandPipeline(pool, read_model_rows, snapshot_every=3)
        for n in range(3):
            eid = await new_encounter(pipeline, f"cli-{n}")
            for ident in ("a", "b"):
                await run(
                    pipeline, eid, AddCombatant(id=ident, name=ident, hp=30, stats={"ac": 10})
                )
            await run(pipeline, eid, RollInitiative())
            for _ in range(n + 1):
                await run(
                    pipeline, eid, Attack(attacker="a", target="b", notation="1d20+2", damage="1d6")
                )
                await run(pipeline, eid, Damage(target="a", notation="1d4"))
                await run(pipeline, eid, NextTurn())
        async with pool.acquire() as conn:
            before = await _dump(conn)
            await conn.execute("DELETE FROM log_entries; DELETE FROM roll_ledger")
        await pool.close()

        code = await asyncio.to_thread(
            main,
            ["projections", "rebuild", "--database-url", url, "--processes", str(processes)],
        )
        assert code == 0

        conn = await asyncpg.connect(url)
        try:
            after = await _dump(conn)
        finally:
            await conn.close()
        for table in TABLES:
            assert len(after[table]) == len(before[table]) > 0
        after["encounter_state"] = [{**r, "updated_at": None} for r in after["encounter_state"]]
        before["encounter_state"] = [{**r, "updated_at": None} for r in before["encounter_state"]]
        assert after == before
    finally:
        await drop_database(postgres_url, url)
