"""A rebuild writes, row for row and byte for byte, what the live path wrote.

The history mixes everything that makes rows differ: server and secret rolls, a reveal,
public and GM-only notes, undos (of one command, of several, back to a version) and
redos crossing snapshots, a new dice epoch, and a fork.  The read models are then
damaged (rows missing, stale rows, a wrong state) and rebuilt, with page, piece, batch
and checkpoint sizes small enough that streams are split at every level.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, NamedTuple
from uuid import UUID

import asyncpg
import msgspec
import pytest

from api.app import open_pool
from api.settings import Settings
from events import scan
from projections import stream_fold, stream_rebuild
from projections.inline import read_model_rows
from projections.rebuild import rebuild_all, rebuild_all_in_processes, rebuild_stream
from service.commands import Actor, CommandEnvelope
from service.core_events import NoteAdded
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    Attack,
    Damage,
    Heal,
    NextTurn,
    RollInitiative,
)
from service.write.pipeline import CommandPipeline
from tests.support.databases import create_database, drop_database
from tests.support.read_models import dump

GM = Actor(role="gm")


async def command(pipeline: CommandPipeline, eid: UUID, cmd: Any, *, hidden: bool = False) -> None:
    await pipeline.execute(eid, CommandEnvelope(command=cmd, hidden=hidden), actor=GM)


async def play_mixed_history(pipeline: CommandPipeline, pool: asyncpg.Pool) -> list[UUID]:
    """One long encounter with every kind of event, and a fork of it."""
    opened = await pipeline.create_encounter(
        ruleset="generic", name="Mixed", options={}, client_seed=None, actor=GM
    )
    eid = UUID(msgspec.json.decode(opened.response)["encounter_id"])
    for ident in ("a", "b", "c"):
        await command(
            pipeline, eid, AddCombatant(id=ident, name=ident.upper(), hp=10_000, stats={"ac": 8})
        )
    await command(pipeline, eid, RollInitiative())
    for n in range(12):
        await command(
            pipeline,
            eid,
            Attack(attacker="a", target="b", notation="1d20+3", target_number=5, damage="1d6"),
            hidden=n % 3 == 0,
        )
        await command(pipeline, eid, Damage(target="c", notation="2d6"), hidden=n % 4 == 1)
        await command(pipeline, eid, NextTurn())
    await pipeline.add_note(eid, NoteAdded(text="the floor is lava"), actor=GM)
    await pipeline.add_note(eid, NoteAdded(text="c is a spy", gm_only=True), actor=GM)
    secret = [
        r["roll_id"]
        for r in await pool.fetch(
            "SELECT roll_id FROM roll_ledger WHERE encounter_id = $1"
            " AND (record->>'hidden')::boolean ORDER BY version",
            eid,
        )
    ]
    await pipeline.reveal_rolls(eid, secret[:2], actor=GM)
    await command(pipeline, eid, AddCondition(target="b", condition="prone", duration_rounds=2))
    await pipeline.undo(eid, actor=GM)
    await pipeline.redo(eid, actor=GM)
    await pipeline.undo(eid, steps=4, reason="wrong target", actor=GM)
    await pipeline.redo(eid, actor=GM)
    await pipeline.undo(eid, steps=2, actor=GM)
    await command(pipeline, eid, Heal(target="c", amount=3))  # ends what could be redone
    head = await pool.fetchval("SELECT version FROM streams WHERE stream_id = $1", eid)
    outline_back = await pool.fetchval(
        "SELECT min(stream_version) - 1 FROM events WHERE stream_id = $1"
        " AND metadata->>'command_type' = 'generic.next_turn' AND stream_version > $2",
        eid,
        head // 3,
    )
    await pipeline.undo(eid, to_version=outline_back, actor=GM)
    await pipeline.reveal_seed(eid, actor=GM)
    for _ in range(3):
        await command(
            pipeline, eid, Attack(attacker="b", target="a", notation="1d20", damage="1d4")
        )
        await command(pipeline, eid, NextTurn())
    forked = await pipeline.fork(eid, at_version=head, name=None, client_seed=None, actor=GM)
    fork_id = UUID(msgspec.json.decode(forked.response)["encounter_id"])
    await command(pipeline, fork_id, Damage(target="a", amount=5))
    await pipeline.undo(fork_id, actor=GM)
    return [eid, fork_id]


class Played(NamedTuple):
    url: str
    pool: asyncpg.Pool
    streams: list[UUID]


@pytest.fixture(scope="module")
async def played(postgres_url: str) -> AsyncIterator[Played]:
    """A database of its own, so that rebuild_all sees only these streams."""
    url = await create_database(postgres_url)
    pool = await open_pool(Settings(database_url=url))
    try:
        pipeline = CommandPipeline(pool, read_model_rows, snapshot_every=3)
        yield Played(url, pool, await play_mixed_history(pipeline, pool))
    finally:
        await pool.close()
        await drop_database(postgres_url, url)


async def damage_read_models(pool: asyncpg.Pool, eid: UUID) -> None:
    """Lose rows, add a stale one, corrupt the state: a rebuild must put all of it right."""
    await pool.execute("DELETE FROM log_entries WHERE encounter_id = $1 AND version % 2 = 0", eid)
    await pool.execute(
        "DELETE FROM roll_ledger WHERE encounter_id = $1 AND roll_id IN ('r1', 'r4')", eid
    )
    await pool.execute(
        "INSERT INTO log_entries (encounter_id, version, type, text, recorded_at)"
        " VALUES ($1, 100000, 'stale', 'stale', now())",
        eid,
    )
    await pool.execute(
        "UPDATE encounter_state SET state = '{}', version = 0 WHERE encounter_id = $1", eid
    )


async def damage_and_rebuild_each(pool: asyncpg.Pool, streams: list[UUID]) -> None:
    """Damage each stream's read models and rebuild them with ``rebuild_stream``."""
    for eid in streams:
        await damage_read_models(pool, eid)
        async with pool.acquire() as conn:
            folded = await rebuild_stream(conn, eid)
        head = await pool.fetchval("SELECT version FROM streams WHERE stream_id = $1", eid)
        assert folded == head


async def test_the_history_has_what_the_rebuild_must_reproduce(played: Played) -> None:
    pool, eid = played.pool, played.streams[0]
    types = {r["type"] for r in await pool.fetch("SELECT type FROM events")}
    assert {"history.undone", "history.redone", "dice.rolls_revealed"} <= types
    assert {"dice.seed_revealed", "encounter.note_added", "encounter.forked"} <= types
    log = await pool.fetch("SELECT * FROM log_entries WHERE encounter_id = $1", eid)
    assert any(r["gm_only"] for r in log) and any(r["hidden_rolls"] for r in log)
    assert sum(1 for r in log if r["gm_text"] is not None) > 2
    assert len(log) > 60


async def test_rebuild_all_gives_the_live_rows_back(
    played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    _url, pool, streams = played
    live = await dump(pool)
    monkeypatch.setattr(stream_fold, "PIECE_EVENTS", 4)
    monkeypatch.setattr(stream_fold, "CHECKPOINT_EVERY", 5)
    for eid in streams:
        await damage_read_models(pool, eid)
    assert await dump(pool) != live
    counted = await rebuild_all(pool, page_events=9, batch_events=20)
    assert await dump(pool) == live
    events = await pool.fetchval("SELECT count(*) FROM events")
    assert counted == (len(streams), events)


async def test_rebuild_all_with_default_sizes_and_rebuild_stream_agree(played: Played) -> None:
    _url, pool, streams = played
    live = await dump(pool)
    for eid in streams:
        await damage_read_models(pool, eid)
    await rebuild_all(pool)
    assert await dump(pool) == live
    await damage_and_rebuild_each(pool, streams)
    assert await dump(pool) == live


async def test_rebuild_stream_in_small_pages_gives_the_live_rows_back(
    played: Played, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pages, pieces and kept states so small that the undos reach back past the events
    the fold still keeps, and refold from events read again."""
    _url, pool, streams = played
    live = await dump(pool)
    monkeypatch.setattr(stream_rebuild, "STREAM_PAGE_EVENTS", 7)
    monkeypatch.setattr(stream_fold, "PIECE_EVENTS", 4)
    monkeypatch.setattr(stream_fold, "CHECKPOINT_EVERY", 5)
    read_again: list[tuple[int, int]] = []

    async def read_versions(db: Any, stream_id: UUID, first: int, last: int) -> Any:
        read_again.append((first, last))
        return await scan.read_versions(db, stream_id, first, last)

    monkeypatch.setattr(stream_rebuild, "read_versions", read_versions)
    await damage_and_rebuild_each(pool, streams)
    assert await dump(pool) == live
    assert max(last - first for first, last in read_again) > 10, read_again


async def test_rebuild_in_worker_processes_gives_the_live_rows_back(played: Played) -> None:
    url, pool, streams = played
    live = await dump(pool)
    for eid in streams:
        await damage_read_models(pool, eid)
    events = await pool.fetchval("SELECT count(*) FROM events")
    assert await rebuild_all_in_processes(url, processes=2) == (len(streams), events)
    assert await dump(pool) == live
