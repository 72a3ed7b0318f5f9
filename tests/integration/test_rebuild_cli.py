"""`aeon-ledger projections rebuild` on a whole database gives back the same read models."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from api.cli.main import main
from projections.inline import read_model_rows
from service.rulesets.generic.commands import AddCombatant, Attack, Damage, NextTurn, RollInitiative
from service.write.pipeline import CommandPipeline
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


@pytest.mark.parametrize("processes", [1, 2])
async def test_a_stream_with_a_gap_is_reported_and_the_others_are_rebuilt(
    postgres_url: str, processes: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """A DBA deleted an event in the middle of one stream: that stream cannot be folded.
    The rebuild says which and why, leaves its rows alone, rebuilds every other stream,
    and exits non-zero; it used to abort them all."""
    url = await create_database(postgres_url)
    try:
        from api.app import open_pool
        from api.settings import Settings

        pool = await open_pool(Settings(database_url=url))
        pipeline = CommandPipeline(pool, read_model_rows, snapshot_every=3)
        ids = []
        for n in range(3):
            eid = await new_encounter(pipeline, f"gap-{n}")
            for ident in ("a", "b"):
                await run(
                    pipeline, eid, AddCombatant(id=ident, name=ident, hp=30, stats={"ac": 10})
                )
            await run(pipeline, eid, Damage(target="a", notation="1d4"))
            ids.append(eid)
        broken = ids[1]
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute("ALTER TABLE events DISABLE TRIGGER events_no_update_delete")
            await conn.execute(
                "DELETE FROM events WHERE stream_id = $1 AND stream_version = 3", broken
            )
            await conn.execute("ALTER TABLE events ENABLE TRIGGER events_no_update_delete")
            await conn.execute("DELETE FROM log_entries; DELETE FROM roll_ledger")
        await pool.close()

        capsys.readouterr()
        code = await asyncio.to_thread(
            main,
            ["projections", "rebuild", "--database-url", url, "--processes", str(processes)],
        )
        out, err = capsys.readouterr()
        assert code == 1
        assert "rebuilt read models of 2 encounters" in out
        assert f"encounter {broken}: its events have a gap: version 3 is missing" in err

        conn = await asyncpg.connect(url)
        try:
            logged = "SELECT count(*) FROM log_entries WHERE encounter_id = $1"
            stored = "SELECT count(*) FROM events WHERE stream_id = $1"
            for eid in ids:
                lines = await conn.fetchval(logged, eid)
                assert lines == (0 if eid == broken else await conn.fetchval(stored, eid)), eid
        finally:
            await conn.close()
    finally:
        await drop_database(postgres_url, url)
