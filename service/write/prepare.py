"""Preparing a decision for the write statement: everything it stores, worked out before
it runs (events/append.py).

``prepare`` does it all, in two pure halves around the fold.  ``stage`` gives the events
as they will be stored (metadata, hashes, the versions after the head the decision was
made on) with placeholder global positions.  They are folded (``applied_steps``; for an
undo or a redo, a refold from the store under the lock, after deleting the snapshots it
makes wrong).  ``assemble`` turns the folded steps into the write: read model rows, the
snapshots due under the snapshot policy, the answer, the seed, the idempotency record
and the head's signature.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any, NamedTuple, Protocol
from uuid import UUID, uuid4

import msgspec

from events.db import Connection
from events.envelope import RecordedEvent
from events.store import (
    PreparedAppend,
    StreamHead,
    delete_snapshots_from,
    head_signature,
    prepare_append,
)
from events.write import (
    CommandWrite,
    Idempotency,
    NewSeed,
    NewSnapshot,
    ProjectedRows,
    answer_of,
    placeholders,
)
from service.applied import AppliedEvent, applied_steps
from service.codec import EventCodec
from service.commands import Actor
from service.core_events import Redone, Undone
from service.encounter import Encounter, schema_version
from service.history import earliest_touched
from service.loading import load_with_pending


class Decision(msgspec.Struct, frozen=True):
    """What a handler (service/write/handlers.py) decided a command appends."""

    events: tuple[Any, ...]
    roll_source: str | None = None
    new_seed: NewSeed | None = None
    """The secret seed to store with the events when a new dice epoch opens."""


class Projector(Protocol):
    """The inline read models' rows for events just folded (projections/inline.py); they
    are written by the same statement as the events, with the statement part they give
    (events/write.py's ``ProjectedRows``)."""

    def __call__(self, codec: EventCodec, applied: Sequence[AppliedEvent]) -> ProjectedRows: ...


Respond = Callable[[Encounter[Any]], msgspec.Struct]
"""The answer to a command, from the state after it; its ``events`` are filled in."""


class WritePolicy(NamedTuple):
    """How a pipeline writes, the same for all its commands."""

    projector: Projector
    snapshot_every: int
    """A snapshot is stored with every version that is a multiple of this."""
    chain_key: bytes | None
    """The key signing stream heads (events/signing.py); None: heads go unsigned."""
    clock: Callable[[], datetime]
    """When events are recorded."""


class Draft(NamedTuple):
    """A decided command, before its write is worked out."""

    codec: EventCodec
    encounter_id: UUID
    encounter: Encounter[Any] | None
    """The state the decision was made on (None for a new stream)."""
    head: StreamHead
    decision: Decision
    actor: Actor
    metadata: dict[str, Any] | None
    """What the command adds to its events' metadata (``command_metadata``)."""
    respond: Respond
    idempotency: Idempotency | None


def stage(
    draft: Draft, clock: Callable[[], datetime]
) -> tuple[PreparedAppend, list[RecordedEvent]]:
    """The append of the draft's events after its head, under a new command id, and
    the events as they will be stored (global position 0 until the write)."""
    command_id = str(uuid4())
    metadata: dict[str, Any] = {
        "actor": msgspec.to_builtins(draft.actor),
        "command_id": command_id,
        "causation_id": command_id,
        "correlation_id": draft.actor.correlation_id or command_id,
        "roll_source": draft.decision.roll_source,
    }
    if draft.metadata:
        metadata.update({k: v for k, v in draft.metadata.items() if v is not None})
    prepared = prepare_append(
        draft.encounter_id,
        draft.head,
        [draft.codec.to_new_event(e) for e in draft.decision.events],
        metadata=metadata,
        recorded_at=clock(),
    )
    return prepared, placeholders(prepared)


def assemble(
    draft: Draft,
    policy: WritePolicy,
    prepared: PreparedAppend,
    recorded: list[RecordedEvent],
    applied: Sequence[AppliedEvent],
) -> tuple[CommandWrite, Encounter[Any]]:
    """The write of a staged append whose events folded as ``applied``; and the state
    after it."""
    codec = draft.codec
    snapshots = [
        NewSnapshot(
            step.after.version,
            schema_version(codec.ruleset),
            codec.encode_state(step.after).decode(),
        )
        for step in applied
        if step.after.version % policy.snapshot_every == 0
    ]
    final = applied[-1].after
    write = CommandWrite(
        append=prepared,
        rows=policy.projector(codec, applied),
        answer=answer_of(draft.respond(final), recorded),
        snapshots=snapshots,
        seed=draft.decision.new_seed,
        idempotency=draft.idempotency,
        token_id=draft.actor.token_id,
        head_signature=head_signature(policy.chain_key, prepared),
    )
    return write, final


async def prepare(
    draft: Draft, policy: WritePolicy, conn: Connection | None = None
) -> tuple[CommandWrite, Encounter[Any]]:
    """Everything the write statement stores, worked out before it runs; and the state
    after it.  ``conn`` is needed (and held under the lock) only for an undo or redo,
    whose state is refolded from the store."""
    prepared, recorded = stage(draft, policy.clock)
    events = draft.decision.events
    if isinstance(events[0], Undone | Redone):
        assert conn is not None
        applied = await _rewrite_history(conn, draft.codec, draft.encounter, recorded, events)
    else:
        applied = applied_steps(draft.codec.ruleset, draft.encounter, recorded, events)
    return assemble(draft, policy, prepared, recorded, applied)


async def _rewrite_history(
    conn: Connection,
    codec: EventCodec,
    before: Encounter[Any] | None,
    recorded: Sequence[RecordedEvent],
    events: tuple[Any, ...],
) -> list[AppliedEvent]:
    """Prepare an undo or redo: drop the snapshots it makes wrong, then refold.

    Snapshots at or after the first version it touches describe a history that no
    longer holds; deleting them in this transaction is what lets every later load
    trust any snapshot it finds (service/loading.py).
    """
    (event,) = events
    await delete_snapshots_from(conn, recorded[0].stream_id, earliest_touched(event))
    after = await load_with_pending(conn, codec, recorded[0].stream_id, recorded)
    return [AppliedEvent(recorded[0], event, before, after)]


def command_metadata(command_type: str, idempotency_key: str | None) -> dict[str, Any]:
    """The metadata a command on an existing encounter adds to its events."""
    return {"command_type": command_type, "idempotency_key": idempotency_key}


def keyed(namespace: UUID, key: str | None, request_hash: str) -> Idempotency | None:
    return Idempotency(namespace, key, request_hash) if key else None
