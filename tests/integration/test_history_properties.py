"""Properties of undo and redo over random command sequences, on the real database.

Random scripts of generic commands mixed with undos (of the last command, of n steps,
back to a version) and redos run through the pipeline with snapshots every 3 events,
so undo constantly crosses snapshots.  Then:

- undo then redo restores exactly the state before the undo;
- the state at every version N (time travel) is what the table saw right after N, and
  equals the fold of the events up to N that are in effect as of N;
- the inline read models equal a rebuild from scratch.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, TypeVar
from uuid import UUID

import asyncpg
import msgspec
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from api.app import open_pool
from api.settings import Settings
from events.store import read_stream
from projections.inline import read_model_rows
from projections.rebuild import rebuild_stream
from service.codec import EventCodec
from service.commands import Actor, CommandEnvelope
from service.core_events import Redone, Undone
from service.dice.model import DiceError
from service.encounter import Encounter, evolve
from service.history import CannotUndo, NothingToRedo
from service.loading import load, load_at
from service.registry import codec_for
from service.ruleset import RuleViolation
from service.write.pipeline import CommandPipeline
from tests.support.generic_commands import CAST, COMMANDS
from tests.support.loop_thread import LoopThread

GM = Actor(role="gm")
T = TypeVar("T")

ACTIONS = st.lists(
    st.one_of(
        COMMANDS.map(lambda command: ("command", command)),
        st.just(("undo", {})),
        st.integers(1, 3).map(lambda n: ("undo", {"steps": n})),
        st.integers(0, 40).map(lambda v: ("undo", {"to_version": v})),
        st.just(("redo", {})),
        st.integers(1, 2).map(lambda n: ("undo_redo", {"steps": n})),
    ),
    max_size=25,
)


@pytest.fixture(scope="module")
def runner() -> Iterator[LoopThread]:
    runner = LoopThread()
    yield runner
    runner.stop()


@pytest.fixture(scope="module")
def pool(runner: LoopThread, database_url: str) -> Iterator[asyncpg.Pool]:
    pool = runner.run(open_pool(Settings(database_url=database_url, pool_max=4)))
    yield pool
    runner.run(pool.close())


def _json(encounter: Encounter[Any] | None) -> Any:
    return msgspec.json.decode(msgspec.json.encode(encounter))


async def _state(pool: asyncpg.Pool, eid: UUID) -> Any:
    return _json((await load(pool, eid)).encounter)


async def _play(pool: asyncpg.Pool, actions: list[tuple[str, Any]]) -> list[str]:
    pipeline = CommandPipeline(pool, read_model_rows, snapshot_every=3)
    opened = await pipeline.create_encounter(
        ruleset="generic", name="Props", options={}, client_seed=None, actor=GM
    )
    created = msgspec.json.decode(opened.response)
    eid = UUID(created["encounter_id"])
    seen: dict[int, Any] = {created["version"]: await _state(pool, eid)}
    """The state the table saw after each acknowledged version."""
    applied: list[str] = []

    async def attempt(kind: str, argument: Any) -> dict[str, Any] | None:
        try:
            if kind == "command":
                raw = await pipeline.execute(eid, CommandEnvelope(command=argument), actor=GM)
            elif kind == "undo":
                raw = await pipeline.undo(eid, actor=GM, **argument)
            else:
                raw = await pipeline.redo(eid, actor=GM)
        except (RuleViolation, DiceError, CannotUndo, NothingToRedo):
            return None
        result: dict[str, Any] = msgspec.json.decode(raw)
        seen[result["version"]] = await _state(pool, eid)
        applied.append(kind)
        return result

    for command in CAST:
        await attempt("command", command)
    for kind, argument in actions:
        if kind != "undo_redo":
            await attempt(kind, argument)
            continue
        before = await _state(pool, eid)
        if await attempt("undo", argument) is not None:
            assert await attempt("redo", None) is not None
            assert (await _state(pool, eid))["game"] == before["game"]

    codec = codec_for("generic")
    recorded = await read_stream(pool, eid)
    for version, state in seen.items():
        past = _json(await load_at(pool, eid, version))
        assert past == state, f"time travel to {version}"
        assert _json(_fold_in_effect(codec, recorded[:version])) == state

    await _assert_rebuild_matches(pool, eid)
    return applied


def _fold_in_effect(codec: EventCodec, recorded: list[Any]) -> Encounter[Any] | None:
    """The oracle: fold the events that the undos and redos among them leave in effect."""
    events = [codec.from_recorded(r) for r in recorded]
    out: set[int] = set()
    for change in events:
        if isinstance(change, Undone | Redone):
            versions = {v for s in change.commands for v in range(s.first, s.last + 1)}
            out = out | versions if isinstance(change, Undone) else out - versions
    state = None
    for rec, decoded in zip(recorded, events, strict=True):
        state = evolve(codec.ruleset, state, decoded, reverted=rec.stream_version in out)
    return state


async def _assert_rebuild_matches(pool: asyncpg.Pool, eid: UUID) -> None:
    async with pool.acquire() as conn:
        before = await _read_models(conn, eid)
        await rebuild_stream(conn, eid)
        after = await _read_models(conn, eid)
        for live, rebuilt in zip(before, after, strict=True):
            if isinstance(live, list):
                changed = [(a, b) for a, b in zip(live, rebuilt, strict=True) if a != b]
                assert not changed, f"rebuild differs from the live read model: {changed}"
        assert after == before


async def _read_models(conn: asyncpg.Connection, eid: UUID) -> tuple[Any, ...]:
    state = await conn.fetchval("SELECT state FROM encounter_state WHERE encounter_id = $1", eid)
    log = await conn.fetch(
        "SELECT version, round, type, text FROM log_entries WHERE encounter_id = $1"
        " ORDER BY version",
        eid,
    )
    rolls = await conn.fetch(
        "SELECT roll_id, version, round, record FROM roll_ledger WHERE encounter_id = $1"
        " ORDER BY roll_id",
        eid,
    )
    return msgspec.json.decode(state), [tuple(r) for r in log], [tuple(r) for r in rolls]


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(actions=ACTIONS)
def test_undo_redo_time_travel_and_rebuild_agree(
    runner: LoopThread, pool: asyncpg.Pool, actions: list[tuple[str, Any]]
) -> None:
    applied = runner.run(_play(pool, actions))
    for kind in ("undo", "redo"):
        event(f"{kind}s applied: {min(applied.count(kind), 3)}+")
