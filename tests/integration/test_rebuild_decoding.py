"""The rebuild's decoding (``EventCodec.decode_stored``) gives exactly the events that
``from_recorded``, which the live path uses, gives for the same stored rows."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import asyncpg
import msgspec
import pytest

from events.envelope import RecordedEvent
from events.store import read_stream
from service.codec import EventCodec
from service.commands import Actor, CommandEnvelope
from service.core_events import NoteAdded
from service.registry import codec_for
from service.rulesets import generic
from service.rulesets.generic.commands import (
    AddCombatant,
    AddCondition,
    Attack,
    Damage,
    NextTurn,
    RollInitiative,
)
from service.write.pipeline import CommandPipeline
from tests.support.pipeline import new_encounter

GM = Actor(role="gm")


async def stored_rows(pool: asyncpg.Pool, eid: UUID) -> list[asyncpg.Record]:
    return await pool.fetch(
        "SELECT type, type_version, data FROM events WHERE stream_id = $1 ORDER BY stream_version",
        eid,
    )


async def test_every_stored_event_decodes_as_the_live_path_decodes_it(
    pipeline: CommandPipeline, pool: asyncpg.Pool
) -> None:
    eid = await new_encounter(pipeline, "decoding")
    commands: list[Any] = [
        AddCombatant(id="a", name="A", hp=30, stats={"ac": 10, "dex": 2}, side="pc"),
        AddCombatant(id="b", name="B", hp=30),
        RollInitiative(),
        Attack(attacker="a", target="b", notation="1d20+2", target_number=3, damage="1d6"),
        AddCondition(target="b", condition="prone", duration_rounds=1),
        Damage(target="a", amount=4),
        NextTurn(),
    ]
    for command in commands:
        await pipeline.execute(eid, CommandEnvelope(command=command, hidden=True), actor=GM)
    await pipeline.add_note(eid, NoteAdded(text="n", gm_only=True), actor=GM)
    await pipeline.undo(eid, steps=2, actor=GM)
    await pipeline.redo(eid, actor=GM)
    await pipeline.reveal_seed(eid, actor=GM)
    forked = await pipeline.fork(eid, at_version=6, name=None, client_seed=None, actor=GM)
    fork_id = UUID(msgspec.json.decode(forked.response)["encounter_id"])
    codec = codec_for("generic")
    for stream in (eid, fork_id):
        recorded = await read_stream(pool, stream)
        rows = await stored_rows(pool, stream)
        assert len(rows) == len(recorded) > 1
        for row, rec in zip(rows, recorded, strict=True):
            assert codec.decode_stored(*row) == codec.from_recorded(rec)


def _upcasting_codec() -> EventCodec:
    """generic with ``generic.damaged`` at version 2, whose upcaster names the source."""
    ruleset = dataclasses.replace(
        generic.RULESET,
        event_versions={"generic.damaged": 2},
        upcasters={("generic.damaged", 1): lambda data: {**data, "source": "lifted"}},
    )
    return EventCodec(ruleset)


def test_older_versions_go_through_the_upcasters() -> None:
    codec = _upcasting_codec()
    data = '{"target":"a","amount":3,"hp_after":7,"source":null}'
    old = codec.decode_stored("generic.damaged", 1, data)
    assert old.source == "lifted"
    assert codec.decode_stored("generic.damaged", 2, data).source is None
    for version in (1, 2):
        decoded = codec.decode_stored("generic.damaged", version, data)
        live = codec.from_recorded(_recorded("generic.damaged", version, data))
        assert decoded == live


def test_unknown_types_and_bad_data_fail_as_on_the_live_path() -> None:
    codec = codec_for("generic")
    for type_, data in (("generic.nonsense", "{}"), ("generic.damaged", '{"target":"a"}')):
        with pytest.raises(msgspec.ValidationError):
            codec.from_recorded(_recorded(type_, 1, data))
        with pytest.raises(msgspec.ValidationError):
            codec.decode_stored(type_, 1, data)


def _recorded(type_: str, version: int, data: str) -> RecordedEvent:
    return RecordedEvent(
        global_position=1,
        stream_id=UUID(int=1),
        stream_version=2,
        type=type_,
        type_version=version,
        data=msgspec.json.decode(data),
        metadata={},
        recorded_at=datetime.now(UTC),
        prev_hash="",
        hash="",
    )
