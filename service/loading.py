"""Rebuilding an encounter from the store: latest snapshot plus the events after it.

Undo makes "the events after it" need care: an event is folded only if it is in effect
as of the last event read.  A history event can only take back or restore events after
every snapshot still stored (the undo deletes the snapshots it invalidates, in its own
transaction), so the history events of the tail alone say which tail events count.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

import msgspec

from events.db import Database
from events.envelope import RecordedEvent
from events.errors import StreamNotFound
from events.store import (
    StreamHead,
    latest_snapshot,
    read_commands,
    read_stream,
    stream_head,
    stream_ruleset,
)
from service.codec import EventCodec
from service.core_events import CommandSpan, EncounterForked, HistoryEvent, Redone, Undone
from service.encounter import Encounter, evolve, schema_version
from service.history import Entry, Outline, earliest_touched, kind_of, reverted_versions
from service.registry import codec_for
from service.ruleset import Ruleset
from telemetry import metrics


class Loaded(msgspec.Struct, frozen=True):
    encounter: Encounter[Any]
    head: StreamHead


async def ruleset_of(db: Database, encounter_id: UUID) -> str:
    name = await stream_ruleset(db, encounter_id)
    if name is None:
        raise StreamNotFound(encounter_id)
    return name


class EventNotFolded(Exception):
    """A stored event the fold could not apply to the state before it: a state that lacks
    what the event relies on (a player's view without a secret), or a damaged stream."""

    def __init__(self, version: int, event_type: str) -> None:
        super().__init__(f"the event at version {version} ({event_type}) does not fold")
        self.version, self.event_type = version, event_type


class HistoryBeforeBase(Exception):
    """A history event in the tail changes events at or before the state it would be
    folded into: that state must be rebuilt from an earlier point instead."""


def fold(
    codec: EventCodec, encounter: Encounter[Any] | None, events: list[RecordedEvent]
) -> Encounter[Any] | None:
    """``encounter`` with ``events`` folded in, skipping those out of effect as of the last.

    Raises HistoryBeforeBase when an undo or redo among ``events`` reaches back to or
    before ``encounter``'s version (a cached state that is now behind an undo).
    """
    decoded = [codec.from_recorded(recorded) for recorded in events]
    history = [e for e in decoded if isinstance(e, Undone | Redone)]
    if history:
        base = encounter.version if encounter is not None else 0
        if min(earliest_touched(e) for e in history) <= base:
            raise HistoryBeforeBase(base)
    versions = [recorded.stream_version for recorded in events]
    return fold_decoded(codec.ruleset, encounter, versions, decoded)


def fold_decoded(
    ruleset: Ruleset[Any, Any, Any, Any],
    encounter: Encounter[Any] | None,
    versions: Iterable[int],
    events: Sequence[Any],
    also_skipped: frozenset[int] = frozenset(),
) -> Encounter[Any] | None:
    """``encounter`` with typed ``events`` (stored at ``versions``) folded in, skipping
    those the undos and redos among them take out of effect (and ``also_skipped``).
    Whether they reach back past ``encounter`` is the caller's to know (``fold`` checks
    it).  Raises EventNotFolded, naming the event, for one that does not apply."""
    reverted = reverted_versions(e for e in events if isinstance(e, Undone | Redone))
    reverted |= also_skipped
    for version, event in zip(versions, events, strict=True):
        encounter = evolve_at(ruleset, encounter, event, version, reverted=version in reverted)
    return encounter


def evolve_at(
    ruleset: Ruleset[Any, Any, Any, Any],
    encounter: Encounter[Any] | None,
    event: Any,
    version: int,
    *,
    reverted: bool,
) -> Encounter[Any]:
    """``evolve`` of the event stored at ``version``; EventNotFolded, naming it, when it
    does not apply.  Every fold of a reader's view goes through here: sealing keeps public
    events independent of an open secret, so an event that does not fold is a bug or a
    damaged stream, answered as an error and never passed off as undone."""
    try:
        return evolve(ruleset, encounter, event, reverted=reverted)
    except (KeyError, IndexError, ValueError, TypeError, AttributeError) as failed:
        # What a ruleset's evolve raises when the state lacks what the event names.
        raise EventNotFolded(version, type(event).__name__) from failed


async def _fold_up_to(
    db: Database,
    codec: EventCodec,
    encounter_id: UUID,
    version: int | None,
    pending: Sequence[RecordedEvent] = (),
) -> Encounter[Any]:
    snapshot = await latest_snapshot(
        db, encounter_id, schema_version(codec.ruleset), at_most_version=version
    )
    metrics.snapshot_load(snapshot is not None)
    encounter = codec.decode_state(snapshot.state) if snapshot else None
    tail = await read_stream(
        db, encounter_id, after_version=snapshot.version if snapshot else 0, up_to_version=version
    )
    folded = fold(codec, encounter, [*tail, *pending])
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


async def load_with_pending(
    db: Database, codec: EventCodec, encounter_id: UUID, pending: Sequence[RecordedEvent]
) -> Encounter[Any]:
    """The encounter after events about to be written (an undo or a redo, whose effect is
    a refold); call it under the stream's lock, after deleting the snapshots they touch."""
    return await _fold_up_to(db, codec, encounter_id, None, pending)


class VersionNotReached(LookupError):
    def __init__(self, encounter_id: UUID, version: int, head: int) -> None:
        super().__init__(
            f"encounter {encounter_id} has no version {version} yet: its latest is {head}"
        )
        self.version = version
        self.head = head


async def load_at(db: Database, encounter_id: UUID, version: int) -> Encounter[Any]:
    """The encounter as the table saw it right after event ``version`` (time travel):
    undos appended later do not change the past, so an event undone at version 20 is
    still in the state at version 15."""
    codec = codec_for(await ruleset_of(db, encounter_id))
    head = await stream_head(db, encounter_id)
    if version > head.version:
        raise VersionNotReached(encounter_id, version, head.version)
    return await _fold_up_to(db, codec, encounter_id, version)


async def load_public(
    db: Database, encounter_id: UUID, version: int, secret: frozenset[int]
) -> Encounter[Any]:
    """The encounter at ``version`` as players know it: the commands of ``secret``
    versions (their hidden rolls not yet revealed) folded as if taken back.

    Events carry the numbers ``decide`` worked out, and sealing keeps every public command
    independent of an open secret, so the public commands after a secret one fold on
    without it; one that does not is a bug, raised as ``EventNotFolded``.  A fork whose
    first event is secret starts from its public game.
    """
    codec = codec_for(await ruleset_of(db, encounter_id))
    first = min(secret)
    snapshot = await latest_snapshot(
        db, encounter_id, schema_version(codec.ruleset), at_most_version=first - 1
    )
    metrics.snapshot_load(snapshot is not None)
    base = codec.decode_state(snapshot.state) if snapshot else None
    tail = await read_stream(
        db, encounter_id, after_version=snapshot.version if snapshot else 0, up_to_version=version
    )
    decoded = [codec.from_recorded(recorded) for recorded in tail]
    if base is None and isinstance(decoded[0], EncounterForked) and 1 in secret:
        fork = decoded[0]
        decoded[0] = msgspec.structs.replace(fork, game=fork.public_game or {}, secret_rolls=())
        secret = secret - {1}
    versions = [recorded.stream_version for recorded in tail]
    folded = fold_decoded(codec.ruleset, base, versions, decoded, secret)
    if folded is None:
        raise StreamNotFound(encounter_id)
    return folded


async def read_outline(db: Database, encounter_id: UUID) -> Outline:
    """The stream as one entry per command, for planning an undo or a redo."""
    rows = await read_commands(db, encounter_id)
    entries = []
    for row in rows:
        kind = kind_of(row["type"])
        history = None
        if kind in ("undo", "redo"):
            data = msgspec.json.decode(row["data"])
            history = msgspec.convert({**data, "type": row["type"]}, HistoryEvent)
        span = CommandSpan(
            first=row["first"], last=row["last"], command_type=row["command_type"] or row["type"]
        )
        entries.append(Entry(span=span, kind=kind, history=history))
    return Outline(entries)
