"""A rebuild while the service takes commands: no command's rows are lost or mixed.

Each batch of a rebuild locks its streams' rows before it replaces their read models;
what was appended after the batch read its events is folded in under that lock, and a
command arriving meanwhile waits, then writes on top of the rebuilt rows.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest

from api.app import open_pool
from api.settings import Settings
from events.scan import read_tails
from projections import rebuild, stream_fold
from projections.inline import read_model_rows
from projections.rebuild import rebuild_all
from service.commands import Actor, CommandEnvelope
from service.rulesets.generic.commands import AddCombatant, Attack, NextTurn, RollInitiative
from service.write.pipeline import CommandPipeline
from tests.support.databases import create_database, drop_database
from tests.support.read_models import dump
from tests.support.strategies import LockingPath

GM = Actor(role="gm")
ATTACK = Attack(attacker="a", target="b", notation="1d20", target_number=2, damage="1d4")


@pytest.fixture
async def pool(postgres_url: str) -> AsyncIterator[asyncpg.Pool]:
    """A database of its own, so that rebuild_all sees only this test's streams."""
    url = await create_database(postgres_url)
    pool = await open_pool(Settings(database_url=url))
    try:
        yield pool
    finally:
        await pool.close()
        await drop_database(postgres_url, url)


async def encounter(pipeline: CommandPipeline, name: str) -> UUID:
    opened = await pipeline.create_encounter(
        ruleset="generic", name=name, options={}, client_seed=None, actor=GM
    )
    eid = UUID(msgspec.json.decode(opened.response)["encounter_id"])
    for ident in ("a", "b"):
        await execute(pipeline, eid, AddCombatant(id=ident, name=ident, hp=10_000))
    await execute(pipeline, eid, RollInitiative())
    return eid


async def execute(pipeline: CommandPipeline, eid: UUID, command: Any) -> None:
    await pipeline.execute(eid, CommandEnvelope(command=command), actor=GM)


async def head(pool: asyncpg.Pool, eid: UUID) -> int:
    version: int = await pool.fetchval("SELECT version FROM streams WHERE stream_id = $1", eid)
    return version


async def assert_read_models_whole(pool: asyncpg.Pool, streams: list[UUID]) -> None:
    """Every event of every stream has its log line, every state is at its head, and a
    rebuild from scratch changes nothing."""
    for eid in streams:
        versions = [
            r[0]
            for r in await pool.fetch(
                "SELECT version FROM log_entries WHERE encounter_id = $1 ORDER BY version", eid
            )
        ]
        top = await head(pool, eid)
        assert versions == list(range(1, top + 1))
        state = await pool.fetchval(
            "SELECT version FROM encounter_state WHERE encounter_id = $1", eid
        )
        assert state == top
    before = await dump(pool)
    await rebuild_all(pool)
    assert await dump(pool) == before


async def test_events_appended_after_the_read_are_folded_in_under_the_lock(
    pool: asyncpg.Pool,
) -> None:
    pipeline = CommandPipeline(pool, read_model_rows)
    eid = await encounter(pipeline, "late")
    fold = rebuild._StreamFold(eid)
    fold.feed(await read_tails(pool, {eid: 0}))  # what the scan read
    read = fold.version
    for _ in range(3):
        await execute(pipeline, eid, ATTACK)  # committed before the batch locks
    live = await dump(pool)
    async with pool.acquire() as conn, conn.transaction():
        await rebuild._write(conn, [fold])
    assert fold.version > read
    assert await dump(pool) == live


@pytest.mark.parametrize("single_trip", [True, False], ids=["one-trip path", "locking path"])
async def test_a_command_during_a_batch_waits_and_lands_on_the_rebuilt_rows(
    pool: asyncpg.Pool, single_trip: bool
) -> None:
    strategy = None if single_trip else LockingPath()
    pipeline = CommandPipeline(pool, read_model_rows, strategy=strategy)
    eid = await encounter(pipeline, "waits")
    await execute(pipeline, eid, ATTACK)  # cached: the next command takes the one-trip path
    before = await head(pool, eid)
    async with pool.acquire() as conn:
        transaction = conn.transaction()
        await transaction.start()
        await rebuild._write(conn, [rebuild._StreamFold(eid)])
        command = asyncio.create_task(execute(pipeline, eid, ATTACK))
        await asyncio.sleep(0.5)
        assert not command.done(), "the command went past the batch's lock"
        # Readers meanwhile see the rows as committed before the batch, never a mix.
        seen = await pool.fetchval("SELECT count(*) FROM log_entries WHERE encounter_id = $1", eid)
        assert seen == before
        await transaction.commit()
    await command
    assert await head(pool, eid) > before
    await assert_read_models_whole(pool, [eid])


async def test_commands_while_rebuild_all_runs_are_all_in_the_read_models(
    pool: asyncpg.Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stream_fold, "PIECE_EVENTS", 3)
    pipeline = CommandPipeline(pool, read_model_rows)
    streams = [await encounter(pipeline, f"busy {n}") for n in range(8)]
    for eid in streams:
        for _ in range(5):
            await execute(pipeline, eid, ATTACK)
    done = asyncio.Event()

    async def play() -> int:
        commands = 0
        while not done.is_set() or commands < len(streams):
            eid = streams[commands % len(streams)]
            await execute(pipeline, eid, ATTACK if commands % 3 else NextTurn())
            commands += 1
        return commands

    player = asyncio.create_task(play())
    for _ in range(3):
        await rebuild_all(pool, page_events=5, batch_events=12)
    done.set()
    assert await player >= len(streams)
    await assert_read_models_whole(pool, streams)
