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
from service.codec import EventCodec
from service.commands import Actor
from service.core_events import Redone, Undone
from service.encounter import AppliedEvent, Encounter, applied_steps, schema_version
from service.history import earliest_touched
from service.loading import load_with_pending


class Decision(msgspec.Struct, frozen=True):
    """What a handler (service/handlers.py) decided a command appends."""

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


def stage(
    codec: EventCodec,
    encounter_id: UUID,
    head: StreamHead,
    decision: Decision,
    actor: Actor,
    extra_metadata: dict[str, Any] | None,
    clock: Callable[[], datetime],
) -> tuple[PreparedAppend, list[RecordedEvent]]:
    """The append of ``decision``'s events after ``head``, under a new command id, and
    the events as they will be stored (global position 0 until the write)."""
    command_id = str(uuid4())
    metadata: dict[str, Any] = {
        "actor": msgspec.to_builtins(actor),
        "command_id": command_id,
        "causation_id": command_id,
        "correlation_id": actor.correlation_id or command_id,
        "roll_source": decision.roll_source,
    }
    if extra_metadata:
        metadata.update({k: v for k, v in extra_metadata.items() if v is not None})
    prepared = prepare_append(
        encounter_id,
        head,
        [codec.to_new_event(e) for e in decision.events],
        metadata=metadata,
        recorded_at=clock(),
    )
    return prepared, placeholders(prepared)


def assemble(
    codec: EventCodec,
    policy: WritePolicy,
    prepared: PreparedAppend,
    recorded: list[RecordedEvent],
    applied: Sequence[AppliedEvent],
    decision: Decision,
    actor: Actor,
    respond: Respond,
    idempotency: Idempotency | None,
) -> tuple[CommandWrite, Encounter[Any]]:
    """The write of a staged append whose events folded as ``applied``; and the state
    after it."""
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
        answer=answer_of(respond(final), recorded),
        snapshots=snapshots,
        seed=decision.new_seed,
        idempotency=idempotency,
        token_id=actor.token_id,
        head_signature=head_signature(policy.chain_key, prepared),
    )
    return write, final


async def prepare(
    conn: Connection | None,
    codec: EventCodec,
    policy: WritePolicy,
    encounter_id: UUID,
    encounter: Encounter[Any] | None,
    head: StreamHead,
    decision: Decision,
    actor: Actor,
    extra_metadata: dict[str, Any] | None,
    respond: Respond,
    idempotency: Idempotency | None,
) -> tuple[CommandWrite, Encounter[Any]]:
    """Everything the write statement stores, worked out before it runs; and the state
    after it.  ``conn`` is needed (and held under the lock) only for an undo or redo,
    whose state is refolded from the store."""
    prepared, recorded = stage(
        codec, encounter_id, head, decision, actor, extra_metadata, policy.clock
    )
    if isinstance(decision.events[0], Undone | Redone):
        assert conn is not None
        applied = await _rewrite_history(conn, codec, encounter, recorded, decision)
    else:
        applied = applied_steps(codec.ruleset, encounter, recorded, decision.events)
    return assemble(
        codec, policy, prepared, recorded, applied, decision, actor, respond, idempotency
    )


async def _rewrite_history(
    conn: Connection,
    codec: EventCodec,
    before: Encounter[Any] | None,
    recorded: Sequence[RecordedEvent],
    decision: Decision,
) -> list[AppliedEvent]:
    """Prepare an undo or redo: drop the snapshots it makes wrong, then refold.

    Snapshots at or after the first version it touches describe a history that no
    longer holds; deleting them in this transaction is what lets every later load
    trust any snapshot it finds (service/loading.py).
    """
    (event,) = decision.events
    await delete_snapshots_from(conn, recorded[0].stream_id, earliest_touched(event))
    after = await load_with_pending(conn, codec, recorded[0].stream_id, recorded)
    return [AppliedEvent(recorded[0], event, before, after)]


def command_metadata(command_type: str, idempotency_key: str | None) -> dict[str, Any]:
    """The metadata a command on an existing encounter adds to its events."""
    return {"command_type": command_type, "idempotency_key": idempotency_key}


def keyed(namespace: UUID, key: str | None, request_hash: str) -> Idempotency | None:
    return Idempotency(namespace, key, request_hash) if key else None
