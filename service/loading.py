"""Rebuilding an encounter from the store: latest snapshot plus the events after it."""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from events.errors import StreamNotFound
from events.store import StreamHead, latest_snapshot, read_stream, stream_head
from service.codec import EventCodec
from service.encounter import Encounter, evolve, schema_version
from service.registry import codec_for


class Loaded(msgspec.Struct, frozen=True):
    encounter: Encounter[Any]
    head: StreamHead


async def ruleset_of(db: Database, encounter_id: UUID) -> str:
    name = await db.fetchval(
        "SELECT data->>'ruleset' FROM events WHERE stream_id = $1 AND stream_version = 1",
        encounter_id,
    )
    if name is None:
        raise StreamNotFound(encounter_id)
    return str(name)


def fold(
    codec: EventCodec, encounter: Encounter[Any] | None, events: list[Any]
) -> Encounter[Any] | None:
    for recorded in events:
        encounter = evolve(codec.ruleset, encounter, codec.from_recorded(recorded))
    return encounter


async def _fold_up_to(
    db: Database, codec: EventCodec, encounter_id: UUID, version: int
) -> Encounter[Any]:
    snapshot = await latest_snapshot(
        db, encounter_id, schema_version(codec.ruleset), at_most_version=version
    )
    encounter = codec.decode_state(snapshot.state) if snapshot else None
    tail = await read_stream(
        db, encounter_id, after_version=snapshot.version if snapshot else 0, up_to_version=version
    )
    folded = fold(codec, encounter, tail)
    if folded is None:
        raise StreamNotFound(encounter_id)
    return folded


async def load(db: Database, encounter_id: UUID, *, ruleset: str | None = None) -> Loaded:
    """The encounter at its head, from the latest snapshot plus the events after it.

    The head is read first and events only up to it, so a command committing meanwhile
    cannot make the state and the head disagree.
    """
    codec = codec_for(ruleset or await ruleset_of(db, encounter_id))
    head = await stream_head(db, encounter_id)
    return Loaded(await _fold_up_to(db, codec, encounter_id, head.version), head)


async def load_at(db: Database, encounter_id: UUID, version: int) -> Encounter[Any]:
    """The encounter as it was right after event ``version`` (time travel)."""
    codec = codec_for(await ruleset_of(db, encounter_id))
    head = await stream_head(db, encounter_id)
    return await _fold_up_to(db, codec, encounter_id, min(version, head.version))
